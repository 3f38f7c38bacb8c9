"""Properties of the anchor judgement (generation.answer_key.check_key, evaluation.judgement.judge_answer), over
generated anchors: an answer that states a number different from every number of the anchor never states it, and
is never green, even when it is grounded in a trusted span of the right document.

The numbers are generated with their value known here (not read back by the code under test): "3", "0.6",
"1,000", "-2", "three", "twenty-one", "zero point nine", "50%" ...; two numbers are different when their values are.
"""
from decimal import Decimal

from hypothesis import assume, given, strategies as st

from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.answer_key import check_key

# words of an anchor around its numbers: none is a number, a version word or a unit ("python 3.10", "5 s")
CONTEXT = ("the", "default", "cutoff", "is", "optional", "arg", "returns", "list", "of", "matches", "(", ")",
           "get_close_matches", "os.path", "sha256", "JSONDecoder", "limit", "at", "most", "not", "never", "'-'",
           "'+'", ">", "size", "Level", "with", ":", "by")
WORDS = {"zero": 0, "three": 3, "seven": 7, "twelve": 12, "twenty": 20, "twenty-one": 21, "ninety nine": 99,
         "two hundred": 200, "a thousand": 1000, "zero point nine": Decimal("0.9"), "a half": Decimal("0.5"),
         "two and a half": Decimal("2.5"), "three quarters": Decimal("0.75")}


def _digits(n: int) -> st.SearchStrategy:
    return st.sampled_from([str(n), f"{n:,}"] if n >= 1000 else [str(n)])


# (as written, value): integers, thousands, decimals, negatives, words and percentages
NUMBER = st.one_of(
    st.integers(0, 10 ** 7).flatmap(lambda n: _digits(n).map(lambda s: (s, Decimal(n)))),
    st.decimals(0, 1000, places=2, allow_nan=False).map(lambda d: (format(d, "f"), d)),
    st.integers(1, 999).map(lambda n: (f"-{n}", Decimal(-n))),
    st.sampled_from(sorted(WORDS.items())).map(lambda kv: (kv[0], Decimal(kv[1]))),
    st.integers(0, 100).map(lambda n: (f"{n}%", Decimal(n))),
)


@st.composite
def anchor_and_answer(draw):
    """(anchor, answer): the anchor's words with numbers between them; the answer the same words with each number
    replaced by one whose value is none of the anchor's, and maybe more words around it."""
    n = draw(st.integers(1, 3))
    numbers = [draw(NUMBER) for _ in range(n)]
    others = [draw(NUMBER) for _ in range(n)]
    assume(not {v for _, v in others} & {v for _, v in numbers})
    between = [draw(st.lists(st.sampled_from(CONTEXT), min_size=1, max_size=4)) for _ in range(n + 1)]

    def text(nums):                  # a context word between any two numbers: "twenty three" would be 23
        return " ".join(" ".join(w + [lit]) for w, (lit, _) in zip(between, nums)) + " " + " ".join(between[-1])
    extra = draw(st.lists(st.sampled_from(CONTEXT), max_size=3))
    return text(numbers), " ".join(extra + [text(others)])


@given(anchor_and_answer())
def test_an_answer_with_other_numbers_never_states_the_anchor(pair):
    anchor, answer = pair
    check = check_key(answer + " [S1].", anchor)
    assert not check.states and check.missing, (anchor, answer)
    assert check_key(anchor + " [S1].", anchor).states          # the anchor itself does


@given(anchor_and_answer())
def test_an_answer_with_other_numbers_is_never_green(wb, pair):
    anchor, answer = pair
    ix = wb.index()
    chunk = next(c for c in range(len(ix)) if ix.doc_id(c) == "difflib" and ix.status(c) == "current")
    # grounded on purpose: its span says what it says, in a trusted chunk of the document that holds the answer
    j = judge_answer(answer + " [S1].", [answer], [chunk], ix, "difflib", anchor, wb.trusted, with_article=False)
    assert j.outcome != "answered" and j.tone != "green", (anchor, answer, j.sentence)
    right = judge_answer(anchor + " [S1].", [anchor], [chunk], ix, "difflib", anchor, wb.trusted, with_article=False)
    assert right.outcome == "answered", (anchor, right.sentence)      # the anchor itself is green
