"""`python -m rag_core judge`: how often the rule (and a model, when one is given) is wrong against people's labels.

    python -m rag_core judge --cases rag_core/data/labelled_answers.jsonl
    python -m rag_core judge --cases cases.jsonl --format json --generator ollama --llm-url http://127.0.0.1:11434 \
        --model qwen2.5:7b

A case is one JSON object a line: {"spans": [...], "answer": "...", "anchor": "...", "key": "..." (optional),
"question": "..." (optional), "label": "right" | "wrong"} (evaluation.cases). A bad line is one `note:` line on
stderr and is skipped; the rest is judged; with nothing left to judge, one `error:` line and exit 2. The rule
decides each case as the Ask page and `verify --anchor` do (judgement.judge_answer), its spans found in the corpus
(--docs for your own documents; the bundled corpus with its notes by default). The JSON holds "cases", "rule"
(the five cells), "precision_when_green", "disagreements" (line, label, the rule's outcome), and with a model
"model" alike, "kappa" (model and rule, with its 95 % interval), "model_no_verdict" and "length_bias".

Left out on purpose: the judging itself (evaluation.judges), and writing labels (the dashboard keeps them).
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from rag_core.cli.command import run
from rag_core.cli.inputs import read_bytes
from rag_core.cli.options import OneLineParser, add_data_options, add_model_options, model_config
from rag_core.cli.output import emit, note, progress_line
from rag_core.evaluation.cases import SpanSources, read_cases
from rag_core.evaluation.confusion import CELLS, kappa_sentence
from rag_core.evaluation.judges import JudgeReport, holds, holds_sentence, judge_cases, model_judge

HELP = "how often the rule (and a model) is wrong against people's labels (python -m rag_core judge --help)"


def parser() -> argparse.ArgumentParser:
    j = OneLineParser(prog="python -m rag_core judge",
                      description="Judge labelled answers with the rule (and a model, when given) and count how "
                                  "often each disagrees with the people who labelled them.")
    j.add_argument("--cases", required=True, metavar="CASES.jsonl",
                   help='labelled cases, one JSON object a line (- reads stdin): {"spans": [...], "answer": ..., '
                        '"anchor": ..., "key": ... (optional), "question": ... (optional), "label": "right"|"wrong"}')
    j.add_argument("--format", choices=("text", "json"), default="text")
    add_data_options(j)
    add_model_options(j, "a real model judges every case too (RIGHT or WRONG), beside the rule")
    j.set_defaults(retriever="hashing", reranker="lexical")     # check_options asks; judging ranks nothing
    return j


def main(argv: list[str]) -> int:
    return run(parser(), argv, compute=judged, show=show)


def sources_of(args) -> tuple[SpanSources, tuple]:
    """Where the spans are looked up (the corpus the options name) and its trusted statuses."""
    from rag_core.cli.inputs import load_workbench
    from rag_core.data.golden import load_golden
    args.compute, args.ray_address, args.on_cluster_loss = "process", None, None    # judging encodes nothing
    wb = load_workbench(args)
    golden = list(wb.golden_check.valid) + ([] if args.docs else load_golden("user"))
    return SpanSources(wb.corpus.documents, golden), wb.trusted


def judged(args) -> JudgeReport:
    data = read_bytes(args.cases, "the cases file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"cannot read the cases file: it is not UTF-8 text ({e.reason} at byte {e.start}).") from None
    cases, problems = read_cases(text)
    for line, problem in problems:
        note(f"line {line}: {problem}")
    if not cases:
        raise ValueError("no case to judge: every line was blank or bad (the notes above say why). A case is "
                         '{"spans": [...], "answer": ..., "anchor": ..., "label": "right" or "wrong"}.')
    sources, trusted = sources_of(args)
    model = model_judge(model_config(args)) if args.generator != "scripted" else None
    report = judge_cases(cases, sources, model, trusted,
                         on_case=(lambda done, total: progress_line(done, total, f"Judged {done} of {total} cases"))
                         if model is not None and sys.stderr.isatty() else None)
    for r in report.rows:
        if r.model_error:
            note(f"line {r.case.line}: the model gave no verdict: {r.model_error}")
    return report


def _share(x: float) -> str:
    return "none green" if math.isnan(x) else f"{x:.2f}"


def report_text(report: JudgeReport) -> str:
    """The confusions for a terminal: one line a cell, then precision, kappa and the disagreements."""
    lines = [f"{len(report.rows)} labelled cases"]
    for name, c in (("rule", report.rule), ("model", report.model)):
        if c is None:
            continue
        lines.append(f"{name}: " + ", ".join(f"{cell} {getattr(c, cell)}" for cell in CELLS))
        low, high = c.precision_interval
        lines.append(f"{name}: precision when green {_share(c.precision_when_green)}"
                     + ("" if math.isnan(low) else f" (95 % interval {low:.2f} to {high:.2f})"))
    if report.model is not None:
        lines.append(kappa_sentence(report.kappa))
        lines.append(report.length.sentence())
    lines.append(holds_sentence(holds(report.rows)))
    wrong = [r for r in report.rows if r.rule_disagrees]
    lines.append(f"the rule disagrees with the label on {len(wrong)} cases" + (":" if wrong else "."))
    lines += [f"  line {r.case.line}: {r.case.label}, the rule says {r.rule_outcome}" for r in wrong]
    return "\n".join(lines) + "\n"


def show(args, report: JudgeReport) -> int:
    if args.format == "json":
        return emit(json.dumps(report.as_dict(), ensure_ascii=False, indent=2) + "\n", json=True)
    return emit(report_text(report))
