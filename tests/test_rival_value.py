"""Rival values (generation.rival): another number after the words that introduce the key's value is a wrong
answer; the bounds of a range and the pronoun "one" are not rivals."""
import pytest

from rag_core.generation.answer_key import check_key

CUT = "Optional arg cutoff (default 0.6)"
GZ = "The modification time is set to 0 by default, for reproducibility."


@pytest.mark.parametrize("answer", [
    "A candidate must score at least 0.6 (the cutoff, a float between 0 and 1) [S1].",
    "The cutoff, a float from 0 to 1, is 0.6 by default [S1].",
    "The cutoff is 0.6, a float in [0, 1] [S1].",
])
def test_the_bounds_of_a_range_are_no_rival(answer):
    assert check_key(answer, "0.6", CUT).right is True


@pytest.mark.parametrize("answer", ["The default cutoff is 1 [S1].", "The cutoff is between 0.6 and 0.9 [S1].",
                                    "The default cutoff is 0.6 or 0.9 [S1]."])
def test_a_value_after_its_subject_or_offered_beside_the_key_is_still_red(answer):
    assert check_key(answer, "0.6", CUT).right is False


def test_the_pronoun_one_is_no_rival_and_the_value_one_is():
    said = "By default it writes 0 as the modification time; you can pass mtime to set one [S1]."
    assert check_key(said, "set to 0", GZ).right is not False
    assert check_key("The modification time is set to one [S1].", "set to 0", GZ).right is False
    assert check_key("The modification time is one by default [S1].", "set to 0", GZ).right is False
