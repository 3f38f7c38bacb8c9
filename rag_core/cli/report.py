"""`python -m rag_core report`: the article's tables for a corpus, as Markdown or JSON.

    python -m rag_core report --format json --tables ceiling,filter
    python -m rag_core report --docs notes/ --golden questions.csv

Left out on purpose: the tables themselves (`rag_core.evaluation.report` computes and formats them).
"""
from __future__ import annotations

import argparse

from rag_core.cli.command import run
from rag_core.cli.compute import add_compute_options, rank_sweep
from rag_core.cli.inputs import check_engines, load_workbench
from rag_core.cli.options import (OneLineParser, add_data_options, add_engine_options, add_model_options,
                                  add_retrieval_options, add_trust_option, check_database_url, model_config)
from rag_core.cli.output import emit, note
from rag_core.evaluation import report as tables_report
from rag_core.evaluation import tables
from rag_core.evaluation.workbench import Workbench
from rag_core.evaluation.pipeline import model_answerer

HELP = "compute and print the tables"


def parser() -> argparse.ArgumentParser:
    r = OneLineParser(prog="python -m rag_core report", description="The article's tables for a corpus.")
    r.add_argument("--format", choices=("markdown", "json"), default="markdown")
    r.add_argument("--tables", help=f"comma-separated subset of: {', '.join(tables_report.TABLE_NAMES)} "
                                    f"(and {', '.join(tables_report.MODEL_TABLES)} with --generator ollama or openai)")
    add_data_options(r)
    add_model_options(r, "a real model adds the table pipeline_model (its outcomes with and without the filter)")
    add_retrieval_options(r)
    add_trust_option(r)
    add_engine_options(r)
    add_compute_options(r)
    return r


def model_tables(wb: Workbench, args) -> dict:
    """The pipeline table for a real model, with and without the filter."""
    if args.generator == "scripted":
        return {}
    return {"pipeline_model": tables.pipeline(wb, generate=model_answerer(model_config(args)), mode="strict")}


def main(argv: list[str]) -> int:
    return run(parser(), argv, compute=tables_of, show=print_tables)


def tables_of(args) -> tuple:
    """(the workbench, its tables by name) the options ask for; ValueError in one sentence when they cannot."""
    check_database_url(args, [args.engine])
    names = tables_report.parse_tables(args.tables)
    if args.generator == "scripted" and set(names) & set(tables_report.MODEL_TABLES):
        raise ValueError("pipeline_model is the pipeline table with a real model: add --generator ollama (or "
                         "openai) with --llm-url and --model, or ask for pipeline (the scripted generator's).")
    names = [n for n in names if n not in tables_report.MODEL_TABLES]   # model_tables adds it with a real model
    wb = load_workbench(args)
    check_engines(wb, [args.engine])
    if args.generator != "scripted" and not wb.golden_check.valid:
        raise ValueError(tables_report.no_questions(wb, [f"--generator {args.generator}"]))
    if args.tables is None:         # every table asked for implicitly: leave out those that cannot be computed
        names, left_out = tables_report.computable(wb, names)
        if left_out:
            note(tables_report.no_questions(wb, left_out) + " Left out of the report.")
    if args.compute == "ray":       # the sweep's units on the cluster; the tables below read their rankings
        from rag_core.evaluation.sweep import table_units
        model = ["pipeline"] if args.generator != "scripted" else []   # pipeline_model ranks as pipeline does
        rank_sweep(wb, table_units(wb, names + model), args, note)
    return wb, tables_report.compute(wb, names, model_tables(wb, args))


def print_tables(args, computed: tuple) -> int:
    wb, frames = computed
    if args.format == "json":
        return emit(tables_report.to_json(wb, frames), json=True)
    return emit(tables_report.to_markdown(wb, frames))
