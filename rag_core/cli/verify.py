"""`python -m rag_core verify`: one answer checked against its spans, as text or JSON.

    python -m rag_core verify --spans spans.json --answer "The cutoff is 0.6 [S1]." --format json

Exit 0 whatever the verdict, 2 for bad input. Left out on purpose: the checking itself
(`rag_core.generation.verifier`).
"""
from __future__ import annotations

import argparse
import json
import sys

from rag_core.cli.options import OneLineParser
from rag_core.cli.output import emit

HELP = "check one answer against its spans (python -m rag_core verify --help)"


def parser() -> argparse.ArgumentParser:
    from rag_core.generation.verifier import MODES
    v = OneLineParser(prog="python -m rag_core verify",
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


def main(argv: list[str]) -> int:
    from rag_core.generation.verifier import disagreement, verify
    try:
        args = parser().parse_args(argv)
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
