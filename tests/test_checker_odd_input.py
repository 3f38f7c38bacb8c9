"""No answer crashes the checker or keeps it for long: huge numbers and citations get a verdict and are shown
short, the command line answers for them too, and generated odd answers (random unicode, many brackets, 1 MB
answers built to be slow for a backtracking reader) get a verdict in both modes in bounded time, and so does the
answer-key rule.
"""
import json
import random
import time

import pytest

from rag_core.__main__ import main
from rag_core.generation.answer_key import check_key
from rag_core.generation.two_checkers import disagreement
from rag_core.generation.verifier import MAX_ANSWER_CHARS, MODES, VERDICTS, Verdict, verify

from checker_cases import CUTOFF, SPANS


HUGE = "1" * 4301


@pytest.mark.parametrize("answer", [f"The cutoff is 0.{HUGE} [S1].", f"Version {HUGE}.{HUGE}.{HUGE} [S1].",
                                    f"It is {HUGE}.{HUGE} [S1].", f"It is 0.6 [S{HUGE}].", f"It is 0.6 [S1][S{'0' * 5000}7].",
                                    f"NOT IN THE CONTEXT [S{HUGE}]."])
def test_huge_numbers_give_a_verdict(answer):
    for mode in MODES:
        v = verify(answer, CUTOFF, mode)
        assert v.verdict == ("abstained" if mode == "article" and answer.startswith("NOT") else "refused")
        assert json.dumps(v.as_dict())
    disagreement(answer, CUTOFF)


def test_a_huge_citation_is_out_of_range_and_shown_short():
    v = verify(f"It is 0.6 [S{HUGE}].", CUTOFF)
    assert v.reason == ("Sentence 1: Cites S(a number of more than 18 digits), which does not exist: only S1 was "
                        "handed over.")


def test_the_cli_gives_a_verdict_for_a_huge_number(capsys, tmp_path):
    spans = tmp_path / "spans.json"
    spans.write_text(json.dumps(CUTOFF))
    assert main(["verify", "--spans", str(spans), "--answer", f"It is 1.{HUGE}.2 [S1].", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "refused"


def odd_answers(rng: random.Random):
    """Generated odd answers: random unicode, digits and separators, brackets and citations, number words,
    the abstention phrase, huge numbers; and a few 1 MB answers built to be slow for a backtracking reader."""
    pieces = ["0", "1", "9", ".", ",", "_", "-", "+", "[", "]", "[S", "S", "[S1]", "[S0]", "[S99]", " ", "\n", "*", "`",
              "NOT IN THE CONTEXT", "not in the context", "one", "twenty", "hundred", "point", "tenths", "a", "and",
              "Python", "version", "v", "2024-01-15", "e", "x", "é", "\u2212", "０", "．", "\u0000", "\ud800", "\U0001F600",
              "difflib.get_close_matches", "JSONDecoder", "!", "?", ":", "\\"]
    for _ in range(300):
        n = rng.randint(0, 60)
        yield "".join(rng.choice(pieces) if rng.random() < 0.8 else chr(rng.randint(1, 0x10FFFF)) for _ in range(n))
    for _ in range(20):
        yield "".join(rng.choice("0123456789.,_") for _ in range(rng.randint(4000, 20000))) + " [S1]."
    mb = 1_000_000
    yield "1" * mb + ".1.1 [S1]."                         # a long run of digits, then dots
    yield "1,," * (mb // 3) + "a [S1]."                   # separators that restart a number on each digit
    yield "_,1" * (mb // 3) + "a [S1]."
    yield "[" * mb
    yield "[S1]" * (mb // 4)
    yield "a." * (mb // 2) + "b [S1]."                    # one dotted name of 500,000 parts
    yield "one two three " * (mb // 14) + "[S1]."
    yield "I" * mb + " [S1]."                             # one long word: each start of a call "f(" was read anew
    yield "x" * mb + "( [S1]."
    yield "10:30 pm 5-10 ms `IV` " * (mb // 22) + "[S1]."
    yield "".join(chr(rng.randint(32, 0x2FFFF)) for _ in range(mb // 4))


def test_missing_names_against_a_megabyte_of_names_take_seconds_not_minutes():
    """Each missing name searched what the span has instead among all its names: 200 sentences against a 1 MB
    span took 35 s, a 1 MB answer over 14 minutes. Now 20 sentences get that hint, over 2,000 names each."""
    span = " ".join(f"FooBar{i}" for i in range(100_000))[:1_000_000]
    start = time.perf_counter()
    v = verify(("Call `foobar1` or foo_bar2 now [S1]. " * 30_000)[:MAX_ANSWER_CHARS], [span])   # the longest read
    took = time.perf_counter() - start
    assert v.verdict == "refused" and "the span says FooBar1, not foobar1" in v.reason
    assert not v.sentences[-1].closest                          # no hint that far down: its cost is bounded
    assert took < 60, f"{took:.1f} s"                            # about 2 s on this machine, busy


def test_generated_odd_answers_always_get_a_verdict():
    rng = random.Random(17)
    span_sets = [CUTOFF, SPANS, [], ["", "x" * 10_000 + " 0.6 " * 1000], ["Python 3.10 on 2024-01-15, twenty-one."]]
    slowest = 0.0
    for answer in odd_answers(rng):
        spans = rng.choice(span_sets)
        if len(answer) > MAX_ANSWER_CHARS:                  # a megabyte of odd text: a message, at once
            with pytest.raises(ValueError, match=f"at most {MAX_ANSWER_CHARS:,} are checked"):
                verify(answer, spans)
            continue
        for mode in MODES:
            start = time.perf_counter()
            v = verify(answer, spans, mode)
            slowest = max(slowest, time.perf_counter() - start)
            assert isinstance(v, Verdict) and v.verdict in VERDICTS and isinstance(v.reason, str)
            json.dumps(v.as_dict())
        if len(answer) < 100_000:
            disagreement(answer, spans)
    assert slowest < 60, f"the slowest answer took {slowest:.1f} s"      # linear: about 5 s for 1 MB on a busy machine


@pytest.mark.parametrize("answer", ["onlyfor" * 30_000, "x(" * 100_000, "I" * 200_000 + " becomes '-'",
                                    "a.b" * 70_000 + "() followed by f()", "'+'" * 70_000 + " [S1]."])
def test_the_answer_key_rule_reads_one_long_word_in_linear_time(answer):
    """A pattern that could start anywhere inside a word ("f(" of a call, "x instead of y", "f() then g()") read a
    200 KB word from each of its letters: 70 KB took 155 s. Now each word is read from its start: under 0.5 s."""
    start = time.perf_counter()
    got = check_key(answer, "'-' instead of '+'", "uses '-' instead of '+' and Fraction(8, 6) runs faster")
    took = time.perf_counter() - start
    assert got.right in (True, False, None)
    assert took < 60, f"{took:.1f} s"
