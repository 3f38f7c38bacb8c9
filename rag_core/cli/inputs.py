"""What a command reads: the corpus and golden set it asks for, the engines it will search on, and the files it
reads itself (verify's spans and answer).

    wb = load_workbench(args)        # --docs/--golden, --corpus stdlib --modules, or the bundled corpus
    check_engines(wb, ["postgres"])  # connect now: an unreachable server is one line, before any work
    read_bytes("spans.json", "the spans file")   # a regular file or - (stdin), at most the upload limit

A file the command reads itself is bounded like an upload (OPENBOOK_MAX_FILE_MB, `Limits.from_env()`): at most
that many bytes and one more are read, so /dev/zero or /dev/full cannot fill the memory; and it must be a regular
file (a device, a folder or a FIFO is refused before reading, so nothing waits forever) or `-` for stdin.

Left out on purpose: checking how options combine (`options.check_options`) and reading documents
(`rag_core.data.ingest` does, with the same limits).
"""
from __future__ import annotations

import os
import stat
import sys

from rag_core.cli.compute import compute_embedder
from rag_core.retrieval import encoder_path
from rag_core.cli.options import trusted_choice
from rag_core.cli.output import CLOSED, note, progress_line
from rag_core.data.corpus import Corpus, bundled_corpus, stdlib_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.retrieval.engines.registry import OVERLAP_K
from rag_core.data.ingest import MB, Limits, read_golden_path, read_path
from rag_core.text.messages import shorten


def load_workbench(args, note=note) -> Workbench:
    """The corpus and golden set the (checked) arguments ask for, trusting --trusted; each reading problem goes to
    `note`, and so does a corpus that trusts nothing (with how to choose)."""
    wb = _workbench(args, note)
    if wb.trust_note():
        example = next(iter(wb.corpus.statuses))
        note(f"{wb.trust_note()} Choose with --trusted, e.g. --trusted {example}.")
    return wb


def _workbench(args, note) -> Workbench:
    if args.docs:
        got = read_path(args.docs, Limits.from_env())
        for p in got.problems:
            note(p)
        if not got.documents:
            raise ValueError(f"No document could be read from {shorten(args.docs, 200)!r}.")   # the notes above say why
        corpus = Corpus(tuple(got.documents), name=args.docs)
        golden = []
        if args.golden:
            golden, golden_problems = read_golden_path(args.golden)
            for p in golden_problems:
                note(p)
        return Workbench(corpus, golden, trusted_choice(args), **retrieval_options(args))
    if args.corpus == "stdlib":
        corpus = stdlib_corpus(args.modules or None, with_notes=not args.no_notes)
    else:
        corpus = bundled_corpus(with_notes=not args.no_notes)
    return Workbench(corpus, load_golden(), trusted_choice(args), **retrieval_options(args))


def retrieval_options(args) -> dict:
    """--retriever (or --encoder) and --reranker as Workbench options; the trained encoder's progress on a terminal's stderr."""
    options = {"retriever": getattr(args, "retriever", "hashing"), "reranker": getattr(args, "reranker", "lexical"),
               "on_progress": progress_line if sys.stderr.isatty() else None}
    if hasattr(args, "engine"):
        options.update(engine=args.engine, database_url=args.database_url)
    path = encoder_path.chosen(bundled=not getattr(args, "docs", None))     # the workbench's own forward pass
    options["embedder"] = compute_embedder(args, note, path)   # None: the process's own (--compute process)
    return options


def check_engines(wb: Workbench, engines, note=note) -> None:
    """Connect every PostgreSQL engine named now: an unreachable server is one line, before any work. An
    approximate engine's overlap with exact search on the golden questions goes to `note`."""
    for name in sorted(set(engines) - {"memory"}):
        wb.using(engine=name).search_engine.check()
        if name == "postgres-hnsw" and wb.golden_check.valid:
            allowed = set(wb.trusted) or None          # nothing trusted: measured over every status instead
            overlap = wb.using(engine=name).overlap_with_exact(ARTICLE_CHUNKER, OVERLAP_K, allowed)
            note(f"{name} is approximate: overlap with exact search in the first {OVERLAP_K} chunks, on the "
                 f"{len(wb.questions)} golden questions (fixed 160/32, "
                 f"{'trusted statuses' if allowed else 'every status'}): {overlap:.3f}.")


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def read_bytes(path: str, what: str) -> bytes:
    """The bytes of a regular file, or of stdin for "-", at most the upload limit for one file; ValueError
    saying what is wrong otherwise ("cannot read the spans file '/dev/zero': it is a device, not a file ...")."""
    limit = Limits.from_env().max_file_bytes
    shown = "from standard input" if path == "-" else repr(path)
    if path == "-":
        if 0 in CLOSED or sys.stdin is None:
            raise ValueError(f"cannot read {what} {shown}: it is closed. Pipe it in, or give a file.")
        try:
            source = getattr(sys.stdin, "buffer", sys.stdin)
            data = source.read(limit + 1)
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read {what} {shown}: {getattr(e, 'strerror', None) or e}.") from None
        data = data.encode("utf-8") if isinstance(data, str) else data
    else:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)    # a FIFO opens at once instead of waiting for a writer
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read {what} {shown}: {getattr(e, 'strerror', None) or e}.") from None
        try:
            mode = os.fstat(fd).st_mode
            kind = next((name for test, name in _KINDS if test(mode)), None if stat.S_ISREG(mode) else "no file")
            if kind:
                raise ValueError(f"cannot read {what} {shown}: it is {kind}, not a regular file. Give a file, "
                                 "or - to read standard input.")
            chunks, size = [], 0
            while size <= limit:
                chunk = os.read(fd, min(limit + 1 - size, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            data = b"".join(chunks)
        except OSError as e:
            raise ValueError(f"cannot read {what} {shown}: {e.strerror or e}.") from None
        finally:
            os.close(fd)
    if len(data) > limit:
        size = f"{limit / MB:g} MB" if limit >= MB else f"{limit:,} bytes"
        raise ValueError(f"cannot read {what} {shown}: it is over the {size} limit for one file "
                         "(OPENBOOK_MAX_FILE_MB sets it).")
    return data
