"""`python -m rag_core compare`: two to four setups side by side on the golden set, as Markdown or JSON.

    python -m rag_core compare --setup "filter:" --setup "no filter: statuses=all" --k 1,3,5 --format json

With --save the result is printed first, then kept: a store that cannot keep it (damaged, foreign, newer,
read-only, a database that refuses the password) costs nothing already computed; one `error:` line says why
the save failed, and the exit code is 2, so that a script notices the runs were not kept.

Left out on purpose: the comparison itself (`rag_core.evaluation.compare`) and the store of runs (`--save` hands
the result to `rag_core.store`).
"""
from __future__ import annotations

import argparse
from dataclasses import replace

from rag_core.cli.command import run
from rag_core.cli.compute import add_compute_options, rank_sweep
from rag_core.cli.inputs import check_engines, load_workbench
from rag_core.cli.options import (OneLineParser, add_data_options, add_engine_options, add_model_options,
                                  add_retrieval_options, add_trust_option, check_database_url, model_config)
from rag_core.cli.output import emit, error, note
from rag_core.evaluation import report as tables_report
from rag_core.evaluation.workbench import Workbench
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.pipeline import model_answerer
from rag_core.evaluation.setup import CORE_KEYS, default_setup, parse_setup, retrieval_options
from rag_core.generation.generator import scripted_answer
from rag_core.store import Store, golden_key

HELP = "setups side by side on the golden set (python -m rag_core compare --help)"


def parser() -> argparse.ArgumentParser:
    options = retrieval_options()
    keys = ", ".join(CORE_KEYS + options)
    c = OneLineParser(prog="python -m rag_core compare",
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
    add_model_options(c, "a real model answers for every setup (a setup with generator=scripted keeps the "
                         "scripted one)")
    add_retrieval_options(c, "every setup")
    c.add_argument("--save", action="store_true",
                   help="keep the runs in the data folder's run history (OPENBOOK_DATA_DIR)")
    add_trust_option(c)
    add_engine_options(c)
    add_compute_options(c)
    return c


MAX_K = 10_000          # a k beyond any candidate list counts the candidates only: larger is a typo


def parse_ks(spec: str) -> tuple[int, ...]:
    """'1,3,5' -> (1, 3, 5); ValueError saying how to write them."""
    try:
        ks = tuple(sorted({int(x) for x in spec.split(",") if x.strip()}))
    except ValueError:
        ks = ()
    if not ks or ks[0] < 1 or ks[-1] > MAX_K:
        raise ValueError(f"--k takes whole numbers from 1 to {MAX_K:,} separated by commas, e.g. --k 1,3,5; "
                         f"got {spec!r}.")
    return ks


def main(argv: list[str]) -> int:
    return run(parser(), argv, compute=comparison_of, show=print_comparison)


def comparison_of(args) -> tuple:
    """(the workbench, the Comparison) the options ask for; ValueError in one sentence when they cannot."""
    ks = parse_ks(args.k)
    if not 2 <= len(args.setup) <= 4:
        raise ValueError(f"compare takes two to four setups, got {len(args.setup)}: "
                         'e.g. --setup "filter: statuses=current" --setup "no filter: statuses=all".')
    wb = load_workbench(args)
    if not wb.golden_check.valid:
        raise ValueError(tables_report.no_questions(wb, ["compare"]))
    base = default_setup(wb)
    if args.generator != "scripted":
        base = replace(base, generator="model")
    setups = [parse_setup(text, base) for text in args.setup]
    engines = [s.options.get("engine", "memory") for s in setups]
    check_database_url(args, engines)
    check_engines(wb, engines)
    generate_for = lambda s: scripted_answer                   # noqa: E731
    if args.generator != "scripted":
        answer = model_answerer(model_config(args))
        generate_for = lambda s: answer if s.generator == "model" else scripted_answer   # noqa: E731
    else:
        wants = [s.name for s in setups if s.generator == "model"]
        if wants:
            raise ValueError(f"Setup {wants[0]!r} asks for generator=model: give --generator ollama or openai "
                             "with --llm-url and --model.")
    if args.compute == "ray":       # one unit per setup on the cluster; the comparison reads their rankings
        from rag_core.evaluation.sweep import setup_units
        rank_sweep(wb, setup_units(wb, setups), args, note)
    return wb, compare_setups(wb, setups, ks, generate_for)


def print_comparison(args, computed: tuple) -> int:
    """The comparison on stdout, then, with --save, its runs kept (a failed save is an error line after it)."""
    wb, result = computed
    code = emit(result.to_json() + "\n", json=True) if args.format == "json" else emit(result.to_markdown())
    if args.save:
        try:
            save_runs(wb, args, result)
        except Exception as e:      # the result is out already: say the runs were not kept, and why
            return error(f"the comparison above was printed but not saved: {e}") if code == 0 else code
    return code


def save_runs(wb: Workbench, args, result) -> None:
    """Keep each setup's run in the store; a `note:` says where (or that the store is off)."""
    store = Store.default()
    if not store.enabled:
        note("nothing saved: OPENBOOK_DATA_DIR is off.")
        return
    if args.docs:
        key = store.save_dataset(wb.corpus.name, wb.corpus.documents, wb.golden_check.rows)
    else:
        key = args.corpus or "bundled"
    ids = store.save_comparison(result, key, wb.corpus.name, golden_key(wb.golden_check.valid),
                                args.model or "scripted")
    note(f"saved runs {', '.join(f'#{i}' for i in ids)} in {store.where}.")
