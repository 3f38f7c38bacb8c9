"""An answer in words of its own: the checker cannot ground its sentences (no number, no name, not most of their
words in the span), but each such sentence states the golden answer's key. It is answered (green) unless a word
through which it may add a claim of its own ("but", "every", "also": generation.claim_words) stands in it; then it
is not confirmed and the page names that word. Documents made up here."""
import pytest

from one_document import judged_in
from rag_core.generation.claim_words import ABSOLUTE, ADDITION, CONTRAST, claim_word

SHELF = ("## shelf\n\nA returned book is placed to the right of the rightmost copy of the same title, so copies keep "
         "the order they came back in.")
ANCHOR = "placed to the right of the rightmost copy"
KEY = "right of the rightmost"
QUESTION = "Where does a returned book go when its title is already on the shelf?"


judged = judged_in(SHELF, "shelf", ANCHOR, key=KEY, question=QUESTION)


@pytest.mark.parametrize("answer", ["It goes after its twins, right of the rightmost one [S1].",
                                    "After its twins: right of the rightmost one [S1].",
                                    "Next to its twins, on the right of the rightmost [s1]."])
def test_the_key_in_words_of_its_own_is_answered_and_says_so(answer):
    got = judged(answer)
    assert got.verdict.verdict == "refused"              # the checker alone cannot ground it
    assert got.outcome == "answered" and got.tone == "green"
    assert "words of its own" in got.sentence and KEY in got.sentence


@pytest.mark.parametrize("word", CONTRAST + ABSOLUTE + ADDITION)
def test_a_word_that_may_add_a_claim_keeps_it_grey_and_is_named(word):
    got = judged(f"It goes after its twins, right of the rightmost one, {word} staff shelve it by hand [S1].")
    assert got.outcome == "not confirmed" and got.tone == "gray"
    assert f"its '{word}' may add a claim" in got.sentence


def test_a_sentence_without_the_key_beside_one_with_it_stays_grey():
    got = judged("It goes after its twins, right of the rightmost one [S1]. Staff dust the shelves weekly [S1].")
    assert got.outcome == "not confirmed" and "nothing in it can be checked" in got.sentence


def test_the_opposite_in_words_of_its_own_is_never_green():
    got = judged("It goes before its twins, left of the leftmost one [S1].")
    assert got.tone != "green"


@pytest.mark.parametrize("text, word", [("It lands after them [S1].", ""), ("A button, a yeti, evenly [S1].", ""),
                                        ("Every copy", "every"), ("not AT   ALL", "at all"),
                                        ("fine; HOWEVER, no", "however"), ("", "")])
def test_claim_words_are_whole_words_in_any_case(text, word):
    assert claim_word(text) == word


def test_an_also_keeps_even_a_grounded_answer_grey_and_is_named():
    plain = judged("It is placed to the right of the rightmost copy of the same title, so copies keep the order they "
                   "came back in [S1].")
    assert plain.outcome == "answered" and plain.verdict.verdict == "anchored"
    added = judged("It is placed to the right of the rightmost copy of the same title, so copies also keep the order "
                   "they were bought in [S1].")
    assert added.outcome == "not confirmed" and added.verdict.verdict == "anchored"
    assert "its 'also' adds a claim of its own" in added.sentence
    likewise = judged("It is placed to the right of the rightmost copy of the same title [S1], and likewise for "
                      "magazines.")
    assert likewise.outcome == "not confirmed" and "its 'likewise' adds a claim of its own" in likewise.sentence


def test_an_also_whose_clause_the_span_writes_word_for_word_restates_it_and_stays_green():
    got = judged("It is placed to the right of the rightmost copy of the same title, so copies also keep the order "
                 "they came back in [S1].")
    assert got.outcome == "answered" and got.tone == "green"
