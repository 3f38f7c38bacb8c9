"""Command line: `python -m rag_core report ...` prints the article's tables for a corpus;
`python -m rag_core verify ...` checks one answer against its spans; `python -m rag_core compare ...` puts
two to four setups side by side on the golden set; `python -m rag_core judge ...` counts how often the rule (and
a model) is wrong against people's labels; `python -m rag_core golden suggest ...` prints golden rows your
documents' structure suggests.

    python -m rag_core report                                   # bundled corpus, every table, Markdown
    python -m rag_core report --format json --tables ceiling,filter
    python -m rag_core report --corpus stdlib --modules math,bisect,heapq
    python -m rag_core report --docs notes/ --golden questions.csv
    python -m rag_core report --generator ollama --llm-url http://127.0.0.1:11434 --model llama3.2
    python -m rag_core report --retriever minilm --reranker dense     # hashing|bm25|minilm|hybrid, lexical|dense
    python -m rag_core verify --spans spans.json --answer "The cutoff is 0.6 [S1]." --format json
    python -m rag_core verify --spans spans.json --answer-file answer.txt --anchor "cutoff (default 0.6)"
    python -m rag_core compare --setup "filter:" --setup "no filter: statuses=all" --k 1,3,5 --format json
    OPENBOOK_DATABASE_URL=postgresql://... python -m rag_core report --engine postgres    # memory|postgres|postgres-hnsw
    python -m rag_core compare --setup "exact: engine=postgres" --setup "hnsw: engine=postgres-hnsw"
    python -m rag_core judge --cases rag_core/data/labelled_answers.jsonl --format json   # the rule against people
    python -m rag_core golden suggest --docs notes/ > golden.csv             # --format json adds why and source

Errors are one plain line on stderr and exit code 2, never a traceback; problems met while reading the
input come first, one `note:` line each. A reader that goes away (`| head -1`) ends the run quietly (141); a
closed stdout is an error, a closed stderr silences notes only (rag_core.cli.output). Ctrl-C and SIGTERM end it
with one line (`error: interrupted.`, 130; `error: terminated.`, 143), a local Ray it started stopped first.
Left out on purpose: writing files (redirect stdout; only `compare --save` keeps runs, in the data folder)
and charts (the dashboard draws them). This module only dispatches: each command is a module of rag_core.cli.
"""
from __future__ import annotations

import argparse
import signal
import sys
import threading

from rag_core.cli import compare, golden, judge, report, verify
from rag_core.cli.options import OneLineParser
from rag_core.cli.output import GIVEN, error, guard_streams, on_terminate

COMMANDS = {"report": report, "verify": verify, "compare": compare, "judge": judge, "golden": golden}   # name -> module with HELP and main(argv)


def build_parser() -> argparse.ArgumentParser:
    """The commands, for `--help` and for a call that names none."""
    ap = OneLineParser(prog="python -m rag_core", description="Open Book: the article's RAG tables, live.")
    sub = ap.add_subparsers(dest="command", required=True)
    for name, command in COMMANDS.items():
        sub.add_parser(name, add_help=False, help=command.HELP)    # each command parses its own options
    return ap


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    GIVEN[:] = argv
    guard_streams()
    if argv[:1] and argv[0] in COMMANDS:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, on_terminate)
        try:
            return COMMANDS[argv[0]].main(argv[1:])
        except KeyboardInterrupt:          # Ctrl-C: one line, no traceback, the usual 130
            error("interrupted.")
            return 130
        except SystemExit as e:
            if e.code == 128 + signal.SIGTERM:
                error("terminated.")
            raise
    if not argv:
        return error(f"give a command: {', '.join(COMMANDS)} (python -m rag_core --help says more).")
    try:
        build_parser().parse_args(argv)
    except SystemExit as e:
        return e.code
    return 2


if __name__ == "__main__":
    sys.exit(main())
