"""Command line: `python -m rag_core report ...` prints the article's tables for a corpus.

    python -m rag_core report                                   # bundled corpus, every table, Markdown
    python -m rag_core report --format json --tables ceiling,filter
    python -m rag_core report --corpus stdlib --modules math,bisect,heapq
    python -m rag_core report --docs notes/ --golden questions.csv
    python -m rag_core report --generator ollama --llm-url http://127.0.0.1:11434 --model llama3.2

Errors are one plain line on stderr and exit code 2, never a traceback.
Left out on purpose: writing files (redirect stdout) and charts (the dashboard draws them).
"""
from __future__ import annotations

import argparse
import sys

from . import report, tables
from .corpus import Corpus, bundled_corpus, stdlib_corpus
from .golden import load_golden
from .workbench import Workbench


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m rag_core", description="Open Book: the article's RAG tables, live.")
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="compute and print the tables")
    r.add_argument("--format", choices=("markdown", "json"), default="markdown")
    r.add_argument("--tables", help=f"comma-separated subset of: {', '.join(report.TABLE_NAMES)}")
    r.add_argument("--corpus", choices=("bundled", "stdlib"), default="bundled",
                   help="bundled: the CPython 3.14 snapshot; stdlib: built from this interpreter")
    r.add_argument("--modules", help="with --corpus stdlib: comma-separated module names (default: the article's 18)")
    r.add_argument("--docs", help="your documents: a folder, a file or a zip (.txt .md .pdf .jsonl)")
    r.add_argument("--golden", help="your golden set: a CSV with columns question,doc,anchor")
    r.add_argument("--no-notes", action="store_true", help="leave out the article's 10 contradicting notes")
    r.add_argument("--generator", choices=("scripted", "ollama", "openai"), default="scripted",
                   help="a real model adds the table pipeline_model (its outcomes with and without the filter)")
    r.add_argument("--llm-url", help="server base URL, e.g. http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8080")
    r.add_argument("--model", help="model name on that server")
    r.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one answer")
    return ap


def load_workbench(args) -> tuple[Workbench, list[str]]:
    """The corpus and golden set the arguments ask for, and the problems met while reading them."""
    problems: list[str] = []
    if args.docs:
        from .ingest import read_golden_path, read_path
        got = read_path(args.docs)
        problems += list(got.problems)
        if not got.documents:
            raise ValueError(f"No document could be read from {args.docs!r}: see the problems above.")
        corpus = Corpus(tuple(got.documents), name=args.docs)
        golden = []
        if args.golden:
            golden, golden_problems = read_golden_path(args.golden)
            problems += golden_problems
        return Workbench(corpus, golden), problems
    if args.golden:
        raise ValueError("--golden goes with --docs: the bundled corpus has its own golden set.")
    if args.corpus == "stdlib":
        modules = [m for m in (args.modules or "").split(",") if m.strip()] or None
        corpus = stdlib_corpus(modules, with_notes=not args.no_notes) if modules else stdlib_corpus(with_notes=not args.no_notes)
    else:
        if args.modules:
            raise ValueError("--modules goes with --corpus stdlib.")
        corpus = bundled_corpus(with_notes=not args.no_notes)
    return Workbench(corpus, load_golden()), problems


def model_tables(wb: Workbench, args) -> dict:
    """The pipeline table for a real model, with and without the filter."""
    if args.generator == "scripted":
        return {}
    from .llm import LLMConfig
    from .pipeline import model_answerer
    if not (args.llm_url and args.model):
        raise ValueError(f"--generator {args.generator} needs --llm-url and --model.")
    cfg = LLMConfig(args.generator, args.llm_url, args.model, timeout_s=args.timeout)
    return {"pipeline_model": tables.pipeline(wb, generate=model_answerer(cfg))}


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        names = report.parse_tables(args.tables)
        wb, problems = load_workbench(args)
        for p in problems:
            print(f"note: {p}", file=sys.stderr)
        frames = report.compute(wb, names, model_tables(wb, args))
    except Exception as e:          # every failure is one readable line, never a traceback
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report.to_json(wb, frames) if args.format == "json" else report.to_markdown(wb, frames), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
