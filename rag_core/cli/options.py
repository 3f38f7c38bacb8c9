"""The command line's options, each declared once, and the checks of how they combine.

    add_data_options(p)     --corpus --modules --docs --golden --no-notes
    add_model_options(p)    --generator --llm-url --model --timeout --grammar
    add_retrieval_options(p)  --retriever (old name --encoder) --reranker
    add_engine_options(p)   --engine --database-url
    add_trust_option(p)     --trusted
    check_options(args)     ValueError saying how to fix a call whose options do not fit together

Left out on purpose: reading anything (`inputs` does) and printing (`output` does).
"""
from __future__ import annotations

import argparse
import math

from rag_core.cli.output import one_line
from rag_core.retrieval.engines.registry import ENGINES
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS, check_choice

MAX_TIMEOUT_S = 3600.0   # an hour for one answer: longer is a typo (and an infinite wait overflows the socket's clock)


class OneLineParser(argparse.ArgumentParser):
    """A bad option is one `error:` line and exit 2, not the usage block."""

    def error(self, message):
        self.exit(2, f"error: {one_line(message)}\n")     # argparse quotes the value it refuses, secrets and all


def add_data_options(p: argparse.ArgumentParser) -> None:
    """Where the corpus and the golden set come from: the same options on every command that measures."""
    p.add_argument("--corpus", choices=("bundled", "stdlib"),
                   help="bundled (the default): the CPython 3.14 snapshot; stdlib: built from this interpreter")
    p.add_argument("--modules", help="with --corpus stdlib: comma-separated module names (default: the article's 18)")
    p.add_argument("--docs", help="your documents: a folder, a file or a zip (.txt .md .pdf .jsonl)")
    p.add_argument("--golden", help="your golden set: a CSV with columns question,doc,anchor")
    p.add_argument("--no-notes", action="store_true", help="leave out the article's 10 contradicting notes")


def add_trust_option(p: argparse.ArgumentParser) -> None:
    """Which statuses are trusted: what the status filter keeps and a green answer may come from."""
    p.add_argument("--trusted", metavar="STATUSES",
                   help="the statuses trusted, comma-separated (e.g. current,reviewed), or none: what the status "
                        "filter keeps and a green answer may come from. Default: current when some document has it, "
                        "else nothing until you choose")


def trusted_choice(args) -> tuple | None:
    """--trusted as Workbench's `trusted`: None (the default rule), () for 'none', else the names given.

    'current, reviewed' -> ('current', 'reviewed');  'none' -> ();  ',' -> ValueError
    """
    text = getattr(args, "trusted", None)
    if text is None:
        return None
    if text.strip().lower() == "none":
        return ()
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    if not names:
        raise ValueError("--trusted names no status: give e.g. --trusted current,reviewed, or none to trust nothing.")
    return names


def add_model_options(p: argparse.ArgumentParser, generator_help: str) -> None:
    """The real model: the same five options on every command that can ask one."""
    p.add_argument("--generator", choices=("scripted", "ollama", "openai"), default="scripted", help=generator_help)
    p.add_argument("--llm-url", help="server base URL, e.g. http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8080")
    p.add_argument("--model", help="model name on that server")
    p.add_argument("--timeout", type=float, default=120.0,
                   help=f"seconds to wait for one answer (more than 0, at most {MAX_TIMEOUT_S:g})")
    p.add_argument("--grammar", choices=("off", "cite"), default="off",
                   help="cite: with --generator openai on a llama.cpp server, every sentence of an answer must cite a "
                        "span (llama.cpp's grammar field; a model judge never sends it)")


def add_retrieval_options(p: argparse.ArgumentParser, what: str = "every table") -> None:
    """The retriever and the reranker `what` ranks with."""
    p.add_argument("--retriever", "--encoder", dest="retriever", default="hashing", metavar="RETRIEVER",
                   help=f"the retriever {what} ranks with: {', '.join(RETRIEVERS)} (default hashing, the article's); "
                        "--encoder is its old name")
    p.add_argument("--reranker", default="lexical",
                   help=f"the reranker {what} reranks with: {', '.join(RERANKERS)} (default lexical, the article's)")


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """--engine and --database-url, the same on every command that searches."""
    p.add_argument("--engine", choices=ENGINES, default="memory",
                   help="where the search runs: memory (the in-process index, the default), postgres "
                        "(PostgreSQL + pgvector, exact: the same results) or postgres-hnsw (approximate)")
    p.add_argument("--database-url", metavar="URL",
                   help="for the postgres engines: postgresql://user:password@host:5432/database (default: "
                        "$OPENBOOK_DATABASE_URL, which keeps the password out of the process list)")


_NON_EMPTY = {"docs": "a folder, a file or a zip", "golden": "a CSV file", "llm_url": "the server's URL",
              "model": "a model name"}   # option -> what it names: given empty, it is a mistake, never "the default"


def check_options(args) -> None:
    """Options that make no sense alone or together: ValueError saying how to fix the call."""
    for option, wanted in _NON_EMPTY.items():
        if getattr(args, option, None) is not None and not getattr(args, option).strip():
            raise ValueError(f"--{option.replace('_', '-')} is empty: give {wanted}, or leave the option out.")
    if args.golden and not args.docs:
        raise ValueError("--golden goes with --docs: the bundled corpus has its own golden set.")
    if args.docs and args.corpus:
        raise ValueError(f"--docs replaces the corpus: leave out --corpus {args.corpus}.")
    if args.docs and args.no_notes:
        raise ValueError("--no-notes goes with the bundled or stdlib corpus: your --docs have no article notes.")
    if args.modules is not None and args.corpus != "stdlib":
        raise ValueError("--modules goes with --corpus stdlib.")
    if args.modules is not None and not args.modules.replace(",", " ").split():
        raise ValueError("--modules names no module: give e.g. --modules math,bisect, or leave it out for the article's 18.")
    if args.generator == "scripted" and (args.llm_url or args.model):
        raise ValueError("--llm-url and --model go with --generator ollama or openai.")
    if args.grammar != "off" and args.generator != "openai":
        raise ValueError("--grammar cite goes with --generator openai (a llama.cpp server reads it): choose that "
                         "generator, or leave the grammar off.")
    if args.generator != "scripted" and not (args.llm_url and args.model):
        raise ValueError(f"--generator {args.generator} needs --llm-url and --model.")
    check_choice(args.retriever, args.reranker)
    if not (math.isfinite(args.timeout) and 0 < args.timeout <= MAX_TIMEOUT_S):
        raise ValueError(f"--timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_S:g}, "
                         f"got {args.timeout:g}: 120 suits a local model.")


def check_database_url(args, engines) -> None:
    """--database-url without any postgres engine among `engines` (the setups' engines on compare)."""
    if args.database_url and set(engines) <= {"memory"}:
        raise ValueError("--database-url goes with --engine postgres or postgres-hnsw (on compare, also with "
                         "engine=postgres in a --setup).")


def model_config(args):
    """The LLMConfig of the (checked) model options."""
    from rag_core.generation.llm import LLMConfig   # httpx: only with a real model
    return LLMConfig(args.generator, args.llm_url, args.model, timeout_s=args.timeout, grammar=args.grammar)


def parsed(parser: argparse.ArgumentParser, argv) -> tuple:
    """(args, None), or (None, the exit code) for --help (0) or a bad option, already printed on one line (2)."""
    try:
        return parser.parse_args(argv), None
    except SystemExit as e:
        return None, e.code
