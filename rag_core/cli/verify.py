"""`python -m rag_core verify`: one answer checked against its spans, as text or JSON.

    python -m rag_core verify --spans spans.json --answer "The cutoff is 0.6 [S1]." --format json
    python -m rag_core verify --spans spans.json --answer-file - --anchor "cutoff (default 0.6)" < answer.txt

Exit 0 whatever the verdict, 2 for bad input. With --anchor the output adds whether the answer states the golden
anchor (`generation.anchor.states_anchor`); without it the output is as before. Left out on purpose: the
checking itself (`rag_core.generation.verifier`, `rag_core.generation.anchor`).
"""
from __future__ import annotations

import argparse
import json

from rag_core.cli.inputs import read_bytes
from rag_core.cli.options import parsed, OneLineParser
from rag_core.cli.output import emit, error
from rag_core.generation.anchor import states_anchor
from rag_core.generation.verifier import MODES, disagreement, verify

HELP = "check one answer against its spans (python -m rag_core verify --help)"


def parser() -> argparse.ArgumentParser:
    v = OneLineParser(prog="python -m rag_core verify",
                      description="Check one answer: every sentence must cite a span [Sn] that holds its numbers "
                                  "and technical names. Exit 0 whatever the verdict, 2 for bad input.")
    v.add_argument("--spans", required=True,
                   help='a JSON file (- reads stdin): a list of span texts, S1 first, e.g. ["a", "b"]')
    v.add_argument("--answer", help="the answer text")
    v.add_argument("--answer-file", help="a UTF-8 file holding the answer (- reads stdin)")
    v.add_argument("--mode", choices=MODES, default="strict",
                   help="strict (the default): numbers by value, names whole; article: the article's string checker")
    v.add_argument("--anchor", metavar="TEXT",
                   help="the golden answer's anchor: adds whether the answer states it (its numbers, names and two "
                        "thirds of its other words) and what of it the answer lacks")
    v.add_argument("--format", choices=("text", "json"), default="text")
    return v


def read_spans(path: str) -> list[str]:
    """The span texts of a JSON file (or stdin, "-"), S1 first: ValueError saying what is wrong otherwise."""
    data = read_bytes(path, "the spans file")
    shown = "on standard input" if path == "-" else repr(path)
    try:
        spans = json.loads(data.decode("utf-8-sig"))
    except RecursionError:
        raise ValueError(f"the spans file {shown} is nested too deeply to be read: it must be a flat JSON list "
                         'of span texts, e.g. ["first span", "second span"].') from None
    except ValueError as e:     # not JSON, or not UTF-8
        raise ValueError(f"the spans file {shown} is not JSON: {e}.") from None
    if not isinstance(spans, list) or not all(isinstance(s, str) for s in spans):
        raise ValueError(f"the spans file {shown} must be a JSON list of span texts, S1 first, "
                         f'e.g. ["first span", "second span"].')
    return spans


def read_answer(args) -> str:
    if args.answer is not None and args.answer_file is not None:
        raise ValueError("give the answer once: --answer TEXT or --answer-file FILE, not both.")
    if args.answer is not None:
        return args.answer
    if args.answer_file is None:
        raise ValueError("no answer: give --answer TEXT or --answer-file FILE.")
    data = read_bytes(args.answer_file, "the answer file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        shown = "on standard input" if args.answer_file == "-" else repr(args.answer_file)
        raise ValueError(f"cannot read the answer file {shown}: it is not UTF-8 text ({e.reason} at byte "
                         f"{e.start}).") from None


def verdict_text(v, why_modes_differ: str | None, anchor=None) -> str:
    """The verdict for a terminal: verdict and reason, each sentence with its explanation, why the other
    checker's verdict differs (when it does), and whether the answer states the anchor (when one is given)."""
    lines = [f"{v.verdict} ({v.mode} checker): {v.reason}"]
    for i, s in enumerate(v.sentences, 1):
        lines += [f"  {i}. {'passes' if s.ok else 'fails'}: {s.sentence}", f"     {s.explanation}"]
    if why_modes_differ:
        lines.append(f"modes disagree: {why_modes_differ}")
    if anchor is not None:
        lines.append("anchor: stated" if anchor.states else
                     f"anchor: not stated; missing from the answer: {', '.join(anchor.missing)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    args, code = parsed(parser(), argv)
    if args is None:
        return code
    try:
        if args.anchor is not None and not args.anchor.strip():
            raise ValueError("--anchor is empty: give the text the answer must state, or leave the option out.")
        if args.spans == "-" and args.answer_file == "-":
            raise ValueError("standard input can hold the spans or the answer, not both: give one of them as a file.")
        spans = read_spans(args.spans)
        answer = read_answer(args)
        v = verify(answer, spans, args.mode)
        anchor = states_anchor(answer, args.anchor) if args.anchor is not None else None
        if args.format == "json":
            doc = {**v.as_dict(), **(anchor.as_dict() if anchor is not None else {})}
            text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
        else:
            text = verdict_text(v, disagreement(answer, spans), anchor)
    except Exception as e:              # every failure is one readable line, never a traceback
        return error(e)
    return emit(text, json=args.format == "json")
