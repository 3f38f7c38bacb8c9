"""A key (a part of its anchor) with a value or a technical name is stated by them: its other words may be left
out ("Zero [S1]." for "zero when k > n"), but a word the key negates stays needed, and every word is still read
for a contradiction. An anchor used as its own key needs every word."""
import pytest

from rag_core.generation.answer_key import check_key

COMB = "evaluates to zero when k > n"
GZ = "The modification time is set to 0 by default, for reproducibility."
FM = "If the input dataset is empty, it raises a StatisticsError."
GLOB = "filenames starting with a dot are special cases that are not matched by '*' and '?'"


@pytest.mark.parametrize("answer,key,anchor", [
    ("Zero [S1].", "zero when k > n", COMB),
    ("0 [S1].", "zero when k > n", COMB),
    ("By default the modification time is zero, so the output is reproducible [S1].", "set to 0", GZ),
    ("It raises StatisticsError [S1].", "empty, it raises a StatisticsError", FM),
    ("An exception: StatisticsError [S1].", "empty, it raises a StatisticsError", FM),
])
def test_the_value_or_name_of_a_key_states_it(answer, key, anchor):
    assert check_key(answer, key, anchor).right is True


@pytest.mark.parametrize("answer,key,anchor", [
    ("Zero when n > k [S1].", "zero when k > n", COMB),
    ("It is never set to 0 [S1].", "set to 0", GZ),
    ("It returns 0.0 instead of raising StatisticsError [S1].", "empty, it raises a StatisticsError", FM),
    ("StatisticsError is not raised [S1].", "empty, it raises a StatisticsError", FM),
])
def test_its_other_words_still_contradict(answer, key, anchor):
    assert check_key(answer, key, anchor).right is False


def test_a_negated_key_word_stays_needed_and_an_anchor_as_its_own_key_needs_every_word():
    assert check_key("'*' skips them [S1].", "not matched by '*'", GLOB).right is not True
    assert check_key("Zero [S1].", COMB, COMB).right is None
