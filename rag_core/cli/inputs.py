"""The corpus and golden set a command asks for, and the engines it will search on.

    wb = load_workbench(args)        # --docs/--golden, --corpus stdlib --modules, or the bundled corpus
    check_engines(wb, ["postgres"])  # connect now: an unreachable server is one line, before any work

Left out on purpose: checking how options combine (`options.check_options`) and reading documents
(`rag_core.data.ingest` does, with its limits).
"""
from __future__ import annotations

import sys

from rag_core.cli.output import note, progress_line
from rag_core.data.corpus import Corpus, bundled_corpus, stdlib_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.retrieval.engines.registry import RECALL_K


def load_workbench(args, note=note) -> Workbench:
    """The corpus and golden set the (checked) arguments ask for; each reading problem goes to `note`."""
    if args.docs:
        from rag_core.data.ingest import Limits, read_golden_path, read_path
        got = read_path(args.docs, Limits.from_env())
        for p in got.problems:
            note(p)
        if not got.documents:
            raise ValueError(f"No document could be read from {args.docs!r}.")   # the notes above say why
        corpus = Corpus(tuple(got.documents), name=args.docs)
        golden = []
        if args.golden:
            golden, golden_problems = read_golden_path(args.golden)
            for p in golden_problems:
                note(p)
        return Workbench(corpus, golden, **retrieval_options(args))
    if args.corpus == "stdlib":
        corpus = stdlib_corpus(args.modules or None, with_notes=not args.no_notes)
    else:
        corpus = bundled_corpus(with_notes=not args.no_notes)
    return Workbench(corpus, load_golden(), **retrieval_options(args))


def retrieval_options(args) -> dict:
    """--encoder and --reranker as Workbench options; the trained encoder's progress on a terminal's stderr."""
    options = {"retriever": getattr(args, "encoder", "hashing"), "reranker": getattr(args, "reranker", "lexical"),
               "on_progress": progress_line if sys.stderr.isatty() else None}
    if hasattr(args, "engine"):
        options.update(engine=args.engine, database_url=args.database_url)
    return options


def check_engines(wb: Workbench, engines, note=note) -> None:
    """Connect every PostgreSQL engine named now: an unreachable server is one line, before any work. An
    approximate engine's recall against exact search on the golden questions goes to `note`."""
    for name in sorted(set(engines) - {"memory"}):
        wb.using(engine=name).search_engine.check()
        if name == "postgres-hnsw" and wb.check.valid:
            recall = wb.using(engine=name).engine_recall(ARTICLE_CHUNKER, RECALL_K, set(wb.trusted))
            note(f"{name} is approximate: recall@{RECALL_K} against exact search on the {len(wb.questions)} golden "
                 f"questions (fixed 160/32, trusted statuses): {recall:.3f}.")
