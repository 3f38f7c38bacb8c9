"""`python -m rag_core verify`: one answer checked against its spans, as text or JSON.

    python -m rag_core verify --spans spans.json --answer "The cutoff is 0.6 [S1]." --format json
    python -m rag_core verify --spans spans.json --answer-file - --anchor "cutoff (default 0.6)" --key 0.6 < a.txt

Exit 0 whatever the verdict, 2 for bad input. With --anchor (and --key, the words of the anchor that answer; the
anchor itself without it) the output adds whether the answer is right (`generation.answer_key.check_key`):
"right": true (answered: states the key, contradicts nothing), false (wrong answer: contradicts it), null (not
confirmed: neither, or the checker did not accept the answer), with the words that decided it; the text output a
last line. --reply yes|no, a yes/no question's golden reply, is read as the judge reads it (answer_key.read_reply). Without --anchor the output is as before. Left out on purpose: the checking itself
(`rag_core.generation.verifier`, `rag_core.generation.answer_key`) and where the spans come from (the Ask page and
`judgement.judge_answer` add that).
"""
from __future__ import annotations

import argparse
import json

from rag_core.cli.inputs import read_bytes
from rag_core.cli.options import parsed, OneLineParser
from rag_core.cli.output import emit, error
from rag_core.data.golden import accept_problem
from rag_core.generation.answer_key import check_key, read_accepted, read_reply
from rag_core.generation.two_checkers import disagreement
from rag_core.generation.verifier import MODES, verify

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
                   help="the golden answer's anchor: adds whether the answer is right against it ('right': true, "
                        "false or null) and the words that decided it")
    v.add_argument("--key", metavar="TEXT",
                   help="the answer key: the words of the anchor that answer the question (default: the anchor)")
    v.add_argument("--question", metavar="TEXT",
                   help="the question answered (strict): names it asks about may be restated without a span "
                        "holding them, and a bare Yes or No is read through it")
    v.add_argument("--reply", metavar="yes|no",
                   help="with --anchor, for a yes/no question: its golden reply (an answer opening with the other "
                        "one is wrong; with it, and nothing against the key, right)")
    v.add_argument("--accept", metavar="TEXT", action="append",
                   help="with --anchor: another wording of the key a marker accepts (repeat for more); read when "
                        "the answer neither states nor contradicts the key")
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


def verdict_text(v, why_modes_differ: str | None, key=None) -> str:
    """The verdict for a terminal: verdict and reason, each sentence with its explanation, why the other
    checker's verdict differs (when it does), and whether the answer is right (when an anchor is given)."""
    lines = [f"{v.verdict} ({v.mode} checker): {v.reason}"]
    for i, s in enumerate(v.sentences, 1):
        lines += [f"  {i}. {'passes' if s.ok else 'fails'}: {s.sentence}", f"     {s.explanation}"]
    if why_modes_differ:
        lines.append(f"modes disagree: {why_modes_differ}")
    if key is not None:
        lines.append(right_line(v, key))
    return "\n".join(lines) + "\n"


def right_line(v, key) -> str:
    """The last line: "answered: it states the key '0.6' (0.6)"; "wrong answer: it says 0.9 where ..."."""
    if v.verdict != "anchored":
        return f"right: not confirmed: the checker says {v.verdict}, so the answer is not judged against the key"
    if key.right is True and key.decided_by in (("Yes",), ("No",)):
        return (f"right: answered: it answers {key.decided_by[0]}, the golden reply, and contradicts none of the key "
                f"'{key.key}'")
    if key.right is True and key.accepted_for:
        return (f"right: answered: it states '{key.key}', a wording accepted for the key '{key.accepted_for}', and "
                "contradicts none of it")
    if key.right is True:
        found = ", ".join(key.decided_by)
        return f"right: answered: it states the key '{key.key}' ({found}) and contradicts none of it"
    if key.right is False:
        return f"right: wrong answer: {key.contradiction}"
    if key.doubt:
        return f"right: not confirmed: {key.doubt}"
    return (f"right: not confirmed: it neither states the key '{key.key}' nor contradicts it; missing from the "
            f"answer: {', '.join(key.missing)}")


def key_json(v, key) -> dict:
    """The keys --anchor adds to the JSON: right (null unless the checker accepts the answer) and why."""
    doc = key.as_dict()
    if v.verdict != "anchored":
        doc.update(right=None, decided_by=[], contradiction=None, doubt=None)
    return doc


def main(argv: list[str]) -> int:
    args, code = parsed(parser(), argv)
    if args is None:
        return code
    try:
        if args.anchor is not None and not args.anchor.strip():
            raise ValueError("--anchor is empty: give the text the answer must state, or leave the option out.")
        if args.key is not None and args.anchor is None:
            raise ValueError("--key needs --anchor: give the anchor the key is taken from.")
        if args.key is not None and " ".join(args.key.split()) not in " ".join(args.anchor.split()):
            raise ValueError(f"--key {args.key[:60]!r} is not in the anchor: the key must be words of the anchor "
                             "that answer the question (or leave --key out to use the whole anchor).")
        if args.key is not None and not args.key.strip():
            raise ValueError("--key is empty: give the words of the anchor that answer, or leave the option out.")
        if args.reply is not None and (args.anchor is None or args.reply.strip().lower() not in ("yes", "no")):
            raise ValueError("--reply is yes or no, the golden reply to a yes/no question, and needs --anchor.")
        if args.accept is not None and (args.anchor is None or accept_problem(args.accept)):
            raise ValueError(f"--accept needs --anchor and a phrase each time: "
                             f"{accept_problem(args.accept) or 'give --anchor too.'}")
        if args.spans == "-" and args.answer_file == "-":
            raise ValueError("standard input can hold the spans or the answer, not both: give one of them as a file.")
        spans = read_spans(args.spans)
        answer = read_answer(args)
        v = verify(answer, spans, args.mode, args.question)
        cited = " ".join(spans[n - 1] for n in v.cited_spans if 1 <= n <= len(spans))   # as judge reads them
        key = read_reply(answer, args.reply, read_accepted(
            answer, args.accept, check_key(answer, args.key or args.anchor, args.anchor, args.question, cited),
            args.question, cited)) if args.anchor is not None else None
        if args.format == "json":
            doc = {**v.as_dict(), **(key_json(v, key) if key is not None else {})}
            text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
        else:
            text = verdict_text(v, disagreement(answer, spans), key)
    except Exception as e:              # every failure is one readable line, never a traceback
        return error(e)
    return emit(text, json=args.format == "json")
