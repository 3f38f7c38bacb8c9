"""Command line: `python -m rag_core report ...` prints the article's tables for a corpus;
`python -m rag_core verify ...` checks one answer against its spans; `python -m rag_core compare ...` puts
two to four setups side by side on the golden set.

    python -m rag_core report                                   # bundled corpus, every table, Markdown
    python -m rag_core report --format json --tables ceiling,filter
    python -m rag_core report --corpus stdlib --modules math,bisect,heapq
    python -m rag_core report --docs notes/ --golden questions.csv
    python -m rag_core report --generator ollama --llm-url http://127.0.0.1:11434 --model llama3.2
    python -m rag_core report --encoder minilm --reranker dense            # hashing|bm25|minilm|hybrid, lexical|dense
    python -m rag_core verify --spans spans.json --answer "The cutoff is 0.6 [S1]." --format json
    python -m rag_core compare --setup "filter:" --setup "no filter: statuses=all" --k 1,3,5 --format json
    OPENBOOK_DATABASE_URL=postgresql://... python -m rag_core report --engine postgres    # memory|postgres|postgres-hnsw
    python -m rag_core compare --setup "exact: engine=postgres" --setup "hnsw: engine=postgres-hnsw"
    python -m rag_core report --encoder minilm --compute ray [--ray-address HOST:PORT]   # encoding on Ray

Errors are one plain line on stderr and exit code 2, never a traceback; problems met while reading the
input come first, one `note:` line each. A reader that goes away (`| head -1`) ends the run quietly (141).
Left out on purpose: writing files (redirect stdout; only `compare --save` keeps runs, in the data folder)
and charts (the dashboard draws them).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

from rag_core.compute import add_compute_options, close_compute, compute_embedder
from rag_core.evaluation import report
from rag_core.evaluation import tables
from rag_core.data.corpus import Corpus, bundled_corpus, stdlib_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS, check_choice
from rag_core.retrieval.engines.registry import ENGINES, RECALL_K


def add_data_options(p: argparse.ArgumentParser) -> None:
    """Where the corpus and the golden set come from: the same options on every command that measures."""
    p.add_argument("--corpus", choices=("bundled", "stdlib"),
                   help="bundled (the default): the CPython 3.14 snapshot; stdlib: built from this interpreter")
    p.add_argument("--modules", help="with --corpus stdlib: comma-separated module names (default: the article's 18)")
    p.add_argument("--docs", help="your documents: a folder, a file or a zip (.txt .md .pdf .jsonl)")
    p.add_argument("--golden", help="your golden set: a CSV with columns question,doc,anchor")
    p.add_argument("--no-notes", action="store_true", help="leave out the article's 10 contradicting notes")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m rag_core", description="Open Book: the article's RAG tables, live.")
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="compute and print the tables")
    r.add_argument("--format", choices=("markdown", "json"), default="markdown")
    r.add_argument("--tables", help=f"comma-separated subset of: {', '.join(report.TABLE_NAMES)}")
    add_data_options(r)
    r.add_argument("--generator", choices=("scripted", "ollama", "openai"), default="scripted",
                   help="a real model adds the table pipeline_model (its outcomes with and without the filter)")
    r.add_argument("--llm-url", help="server base URL, e.g. http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8080")
    r.add_argument("--model", help="model name on that server")
    r.add_argument("--timeout", type=float, default=120.0,
                   help=f"seconds to wait for one answer (more than 0, at most {MAX_TIMEOUT_S:g})")
    r.add_argument("--encoder", default="hashing", metavar="RETRIEVER",
                   help=f"the retriever every table ranks with: {', '.join(RETRIEVERS)} (default hashing, the article's)")
    r.add_argument("--reranker", default="lexical",
                   help=f"the reranker of the rerank and pipeline tables: {', '.join(RERANKERS)} (default lexical, "
                        "the article's)")
    add_engine_options(r)
    add_compute_options(r)
    sub.add_parser("verify", add_help=False,       # parsed by verify_parser(): see verify_main
                   help="check one answer against its spans (python -m rag_core verify --help)")
    sub.add_parser("compare", add_help=False,      # parsed by compare_parser(): see compare_main
                   help="setups side by side on the golden set (python -m rag_core compare --help)")
    return ap


MAX_TIMEOUT_S = 3600.0   # an hour for one answer: longer is a typo (and an infinite wait overflows the socket's clock)


def check_options(args) -> None:
    """Options that make no sense alone or together: ValueError saying how to fix the call."""
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
    if args.generator != "scripted" and not (args.llm_url and args.model):
        raise ValueError(f"--generator {args.generator} needs --llm-url and --model.")
    check_choice(getattr(args, "encoder", "hashing"), getattr(args, "reranker", "lexical"))
    if getattr(args, "database_url", None) and getattr(args, "engine", "memory") == "memory" and not hasattr(args, "setup"):
        raise ValueError("--database-url goes with --engine postgres or postgres-hnsw.")
    if not (math.isfinite(args.timeout) and 0 < args.timeout <= MAX_TIMEOUT_S):
        raise ValueError(f"--timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_S:g}, "
                         f"got {args.timeout:g}: 120 suits a local model.")


def note(problem: str) -> None:
    """A problem met while reading input, printed at once: before any error that follows from it."""
    print(f"note: {problem}", file=sys.stderr)


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
    options["embedder"] = compute_embedder(args, note)       # None: the process's own (--compute process)
    return options


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """--engine and --database-url, the same on every command that searches."""
    p.add_argument("--engine", choices=ENGINES, default="memory",
                   help="where the search runs: memory (the in-process index, the default), postgres "
                        "(PostgreSQL + pgvector, exact: the same results) or postgres-hnsw (approximate)")
    p.add_argument("--database-url", metavar="URL",
                   help="for the postgres engines: postgresql://user:password@host:5432/database (default: "
                        "$OPENBOOK_DATABASE_URL, which keeps the password out of the process list)")


def check_engines(wb: Workbench, engines, note=note) -> None:
    """Connect every PostgreSQL engine named now: an unreachable server is one line, before any work. An
    approximate engine's recall against exact search on the golden questions goes to `note`."""
    for name in sorted(set(engines) - {"memory"}):
        wb.using(engine=name).search_engine.check()
        if name == "postgres-hnsw" and wb.check.valid:
            recall = wb.using(engine=name).engine_recall(ARTICLE_CHUNKER, RECALL_K, set(wb.trusted))
            note(f"{name} is approximate: recall@{RECALL_K} against exact search on the {len(wb.questions)} golden "
                 f"questions (fixed 160/32, trusted statuses): {recall:.3f}.")


def progress_line(done: int, total: int, what: str) -> None:
    """One line on stderr, rewritten in place: "Encoding chunks with all-MiniLM-L6-v2: 1,204 left"."""
    print(f"\r{what}   ", end="\n" if done >= total else "", file=sys.stderr, flush=True)


def model_tables(wb: Workbench, args) -> dict:
    """The pipeline table for a real model, with and without the filter."""
    if args.generator == "scripted":
        return {}
    from rag_core.generation.llm import LLMConfig
    from rag_core.evaluation.pipeline import model_answerer
    if not (args.llm_url and args.model):
        raise ValueError(f"--generator {args.generator} needs --llm-url and --model.")
    cfg = LLMConfig(args.generator, args.llm_url, args.model, timeout_s=args.timeout)
    return {"pipeline_model": tables.pipeline(wb, generate=model_answerer(cfg), mode="strict")}   # a user judges it


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["verify"]:          # its own parser, so that every bad input is one line
        return verify_main(argv[1:])
    if argv[:1] == ["compare"]:
        return compare_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        check_options(args)
        names = report.parse_tables(args.tables)
        wb = load_workbench(args)
        check_engines(wb, [args.engine])
        if args.generator != "scripted" and not wb.check.valid:
            raise ValueError(report.no_questions(wb, [f"--generator {args.generator}"]))
        if args.tables is None:         # every table asked for implicitly: leave out those that cannot be computed
            names, left_out = report.computable(wb, names)
            if left_out:
                note(report.no_questions(wb, left_out) + " Left out of the report.")
        frames = report.compute(wb, names, model_tables(wb, args))
    except Exception as e:          # every failure is one readable line, never a traceback
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        close_compute()             # a local Ray started by --compute ray stops here
    return emit(report.to_json(wb, frames) if args.format == "json" else report.to_markdown(wb, frames))


def emit(text: str) -> int:
    """Write the report to stdout: 0; a reader gone (`| head -1`) ends quietly with 141, as `cat` does
    (128 + SIGPIPE); any other failure (`> /dev/full`) is one line on stderr and 2."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
        return 141
    except OSError as e:
        _drop_stdout()
        print(f"error: cannot write the report: {e.strerror or e}.", file=sys.stderr)
        return 2
    return 0


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that Python's last flush at exit cannot fail again (the Python docs' advice)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):   # stdout is no real file (captured in tests): nothing will flush it
        pass


# ---- verify: one answer against its spans ---------------------------------------------------------

class _OneLineParser(argparse.ArgumentParser):
    """A bad option is one `error:` line and exit 2, not the usage block."""

    def error(self, message):
        self.exit(2, f"error: {message}\n")


def verify_parser() -> argparse.ArgumentParser:
    from rag_core.generation.verifier import MODES
    v = _OneLineParser(prog="python -m rag_core verify",
                       description="Check one answer: every sentence must cite a span [Sn] that holds its numbers "
                                   "and technical names. Exit 0 whatever the verdict, 2 for bad input.")
    v.add_argument("--spans", required=True, help='a JSON file: a list of span texts, S1 first, e.g. ["a", "b"]')
    v.add_argument("--answer", help="the answer text")
    v.add_argument("--answer-file", help="a UTF-8 file holding the answer (- reads stdin)")
    v.add_argument("--mode", choices=MODES, default="strict",
                   help="strict (the default): numbers by value, names whole; article: the article's string checker")
    v.add_argument("--format", choices=("text", "json"), default="text")
    return v


def _one_line(e: Exception) -> str:
    return " ".join(str(getattr(e, "strerror", None) or e).split())


def read_spans(path: str) -> list[str]:
    """The span texts of a JSON file, S1 first: ValueError saying what is wrong otherwise."""
    try:
        with open(path, encoding="utf-8") as f:
            spans = json.load(f)
    except OSError as e:
        raise ValueError(f"cannot read the spans file {path!r}: {_one_line(e)}.") from None
    except ValueError as e:     # not JSON, or not UTF-8
        raise ValueError(f"the spans file {path!r} is not JSON: {_one_line(e)}.") from None
    if not isinstance(spans, list) or not all(isinstance(s, str) for s in spans):
        raise ValueError(f"the spans file {path!r} must be a JSON list of span texts, S1 first, "
                         f'e.g. ["first span", "second span"].')
    return spans


def read_answer(args) -> str:
    if args.answer is not None and args.answer_file is not None:
        raise ValueError("give the answer once: --answer TEXT or --answer-file FILE, not both.")
    if args.answer is not None:
        return args.answer
    if args.answer_file is None:
        raise ValueError("no answer: give --answer TEXT or --answer-file FILE.")
    try:
        if args.answer_file == "-":
            return sys.stdin.read()
        with open(args.answer_file, encoding="utf-8") as f:
            return f.read()
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read the answer file {args.answer_file!r}: {_one_line(e)}.") from None


def verdict_text(v, why_modes_differ: str | None) -> str:
    """The verdict for a terminal: verdict and reason, each sentence with its explanation, and why the
    other checker's verdict differs, when it does."""
    lines = [f"{v.verdict} ({v.mode} checker): {v.reason}"]
    for i, s in enumerate(v.sentences, 1):
        lines += [f"  {i}. {'passes' if s.ok else 'fails'}: {s.sentence}", f"     {s.explanation}"]
    if why_modes_differ:
        lines.append(f"modes disagree: {why_modes_differ}")
    return "\n".join(lines) + "\n"


def verify_main(argv: list[str]) -> int:
    from rag_core.generation.verifier import disagreement, verify
    try:
        args = verify_parser().parse_args(argv)
    except SystemExit as e:             # --help (0) or a bad option, already printed on one line (2)
        return e.code
    try:
        spans = read_spans(args.spans)
        answer = read_answer(args)
        v = verify(answer, spans, args.mode)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.format == "json":
        return emit(json.dumps(v.as_dict(), ensure_ascii=False, indent=2) + "\n")
    return emit(verdict_text(v, disagreement(answer, spans)))


# ---- compare: setups side by side on the golden set -----------------------------------------------

def compare_parser() -> argparse.ArgumentParser:
    from rag_core.evaluation.setup import CORE_KEYS, retrieval_options
    options = retrieval_options()
    keys = ", ".join(CORE_KEYS + (options if options != "any" else ("any retrieval option",)))
    c = _OneLineParser(prog="python -m rag_core compare",
                       description="Two to four setups side by side on the golden set: the ceiling at each k with its "
                                   "95 % interval, the answers, where each question is lost, and an exact McNemar "
                                   "test for every pair. A setup is 'NAME: key=value ...' over the article's "
                                   "pipeline (fixed 160/32, 20 candidates reranked, 3 kept, trusted statuses); "
                                   f"keys: {keys}.")
    c.add_argument("--setup", action="append", default=[], metavar='"NAME: key=value ..."',
                   help='one setup, e.g. --setup "no filter: statuses=all" (give two to four)')
    c.add_argument("--k", default="1,3,5", help="the ks of the ceiling and the tests, comma-separated (default 1,3,5)")
    c.add_argument("--format", choices=("markdown", "json"), default="markdown")
    add_data_options(c)
    c.add_argument("--generator", choices=("scripted", "ollama", "openai"), default="scripted",
                   help="a real model answers for every setup (a setup with generator=scripted keeps the scripted one)")
    c.add_argument("--llm-url", help="server base URL")
    c.add_argument("--model", help="model name on that server")
    c.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one answer")
    c.add_argument("--save", action="store_true",
                   help="keep the runs in the data folder's run history (OPENBOOK_DATA_DIR)")
    add_engine_options(c)
    add_compute_options(c)
    return c


def parse_ks(spec: str) -> tuple[int, ...]:
    """'1,3,5' -> (1, 3, 5); ValueError saying how to write them."""
    try:
        ks = tuple(sorted({int(x) for x in spec.split(",") if x.strip()}))
    except ValueError:
        ks = ()
    if not ks or ks[0] < 1:
        raise ValueError(f"--k takes whole numbers above 0 separated by commas, e.g. --k 1,3,5; got {spec!r}.")
    return ks


def compare_main(argv: list[str]) -> int:
    from dataclasses import replace
    from rag_core.evaluation.compare import compare
    from rag_core.evaluation.setup import default_setup, parse_setup
    from rag_core.generation.generator import scripted_answer
    try:
        args = compare_parser().parse_args(argv)
    except SystemExit as e:
        return e.code
    try:
        check_options(args)
        ks = parse_ks(args.k)
        if not 2 <= len(args.setup) <= 4:
            raise ValueError(f"compare takes two to four setups, got {len(args.setup)}: "
                             'e.g. --setup "filter: statuses=current" --setup "no filter: statuses=all".')
        wb = load_workbench(args)
        if not wb.check.valid:
            raise ValueError(report.no_questions(wb, ["compare"]))
        base = default_setup(wb)
        if args.generator != "scripted":
            base = replace(base, generator="model")
        setups = [parse_setup(text, base) for text in args.setup]
        engines = [s.options.get("engine", "memory") for s in setups]
        if args.database_url and set(engines) == {"memory"}:
            raise ValueError("--database-url goes with a postgres engine: --engine postgres, or engine=postgres "
                             "in a --setup.")
        check_engines(wb, engines)
        generate_for = lambda s: scripted_answer                   # noqa: E731
        if args.generator != "scripted":
            from rag_core.evaluation.pipeline import model_answerer
            from rag_core.generation.llm import LLMConfig
            answer = model_answerer(LLMConfig(args.generator, args.llm_url, args.model, timeout_s=args.timeout))
            generate_for = lambda s: answer if s.generator == "model" else scripted_answer   # noqa: E731
        else:
            wants = [s.name for s in setups if s.generator == "model"]
            if wants:
                raise ValueError(f"Setup {wants[0]!r} asks for generator=model: give --generator ollama or openai "
                                 "with --llm-url and --model.")
        result = compare(wb, setups, ks, generate_for)
        if args.save:
            save_runs(wb, args, result)
    except Exception as e:          # every failure is one readable line, never a traceback
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    finally:
        close_compute()
    return emit(result.to_json() + "\n" if args.format == "json" else result.to_markdown())


def save_runs(wb: Workbench, args, result) -> None:
    """Keep each setup's run in the store; a `note:` says where (or that the store is off)."""
    from rag_core.store import Store, golden_key
    store = Store.default()
    if not store.enabled:
        note("nothing saved: OPENBOOK_DATA_DIR is off.")
        return
    if args.docs:
        key = store.save_dataset(wb.corpus.name, wb.corpus.documents, wb.check.rows)
    else:
        key = args.corpus or "bundled"
    ids = store.save_comparison(result, key, wb.corpus.name, golden_key(wb.check.valid), args.model or "scripted")
    note(f"saved runs {', '.join(f'#{i}' for i in ids)} in {store.where}.")


if __name__ == "__main__":
    sys.exit(main())
