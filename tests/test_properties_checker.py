"""Properties of the claim reader (generation.claims) and the checker (generation.verifier), over generated texts:

    any text          the reader returns its claims and the checker a verdict, never an exception
    linear time       four times the text costs at most about four times the work (never sixteen)
    copied sentence   a sentence copied from its span, citing it, always passes (or has nothing to check)

The examples are fixed (conftest's profile: derandomized, a fixed number); a failure prints the shrunk input.
"""
import time
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from rag_core.generation import claims, quantities
from rag_core.generation.verifier import MODES, VERDICTS, verify
from strategies import sentence, texts


@given(texts())
def test_any_text_gives_its_claims(text):
    said = quantities.numbers(text)
    assert all(isinstance(lit, str) and (isinstance(v, Decimal) or isinstance(v, tuple)) for lit, v in said)
    assert all(isinstance(n, str) and claims.is_name(n) for n in claims.names(text))
    assert all(isinstance(v, Decimal) for _, v, _ in quantities.with_units(text))
    have = claims.Claims(text)
    for lit, value in said:                           # a text states what it says
        assert have.has_claim(lit, value), (lit, value)
        have.near_number(lit, value)
    for name in claims.names(text):
        assert have.has_name(name), name
        have.near_name(name)
    claims.code_words(text)


@given(texts(), st.lists(texts(), max_size=3), st.sampled_from(MODES))
def test_any_answer_gets_a_verdict(answer, spans, mode):
    v = verify(answer, spans, mode)
    assert v.verdict in VERDICTS and v.reason and isinstance(v.reason, str)
    assert all(isinstance(s.explanation, str) and s.explanation for s in v.sentences)
    v.as_dict()


@given(st.lists(sentence(max_size=3), max_size=2), sentence(), st.lists(sentence(max_size=3), max_size=2),
       st.sampled_from([". ", "! ", "? ", ".\n", ".  "]))
def test_a_sentence_copied_from_its_span_passes(before, copied, after, end):
    span = end.join(before + [copied] + after) + "."
    for answer in (f"{copied} [S1].", f"{copied}. [S1]", f"{copied} [S1]"):
        v = verify(answer, [span])
        assert v.verdict == "anchored" or v.reason.startswith("Nothing to check"), (answer, v.reason)


def _cpu(f) -> float:
    """The least CPU time of three calls of f (this process only: other work on the machine adds little)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        f()
        best = min(best, time.process_time() - start)
    return best


def _grows_linearly(work, piece: str) -> None:
    """work(text) on `piece` repeated to ~3,000 characters, then four times as many: at most 10 times the CPU time
    (linear work gives about 4, quadratic 16). Runs interleaved, so that a burst of load hits both sizes."""
    n = max(1, 3000 // max(1, len(piece)))
    small, large = piece * n, piece * (4 * n)
    times = {small: [], large: []}
    for _ in range(2):
        for text in (small, large):
            times[text].append(_cpu(lambda: work(text)))
    ratio = min(times[large]) / max(min(times[small]), 1e-4)
    assert ratio < 10, f"4x the text took {ratio:.1f}x the time: {piece[:80]!r}"


def _check(answer: str, span: str) -> None:
    claims.of.cache_clear()                                        # each span read anew
    verify(answer, [span])


@settings(max_examples=12)
@given(texts(max_size=20).filter(lambda t: t.strip()))
def test_the_reader_and_the_checker_take_linear_time(piece):
    _grows_linearly(claims.Claims, piece)
    _grows_linearly(lambda text: _check(text, piece), piece)       # a longer answer
    _grows_linearly(lambda text: _check(piece + " [S1]", text), piece)    # a longer span


def test_a_pronoun_is_read_within_its_sentence():
    """Found by the copied-sentence property: 'the. One' read 'One' as the pronoun of 'the one', so the span had no
    number 1 while the same sentence copied into an answer had it, and was refused."""
    assert verify("one the [S1].", ["the. one the."]).verdict == "anchored"
    assert verify("It was the one. [S1]", ["It was the one. Can it be?"]).verdict == "anchored"
    assert quantities.numbers("the. One is") == [("One", Decimal(1))]
    assert quantities.numbers("the one is") == [] and quantities.numbers("one of them") == []
