"""Forms of a right answer the rule reads: "Yes" or "No" to a yes/no question (generation.yes_no), symbols by
their names ("a hyphen for the plus"), "A becomes B" and "respectively" pairs; and "unless" read in the sentence
that holds it (negation.sentence_head)."""
import pytest

from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.answer_key import check_key
from rag_core.generation.answer_forms import named_symbols, pairs
from rag_core.generation.negation import conditional_at, negated_at, uncertain_at
from rag_core.generation.yes_no import as_statement

TMP = "whether the file is automatically deleted (default True)"
Q_TMP = "Is a NamedTemporaryFile deleted automatically by default?"
GLOB = "filenames starting with a dot are special cases that are not matched by '*' and '?'"
Q_GLOB = "Does the star wildcard of glob match filenames that start with a dot?"
B64 = "uses '-' instead of '+' and '_' instead of '/'"
B64_KEY = "'-' instead of '+' and '_' instead of '/'"


@pytest.mark.parametrize("answer,key,anchor,question,right", [
    ("Yes [S1].", "deleted (default True)", TMP, Q_TMP, True),
    ("No [S1].", "deleted (default True)", TMP, Q_TMP, False),
    ("Yes, by default it is deleted when it is closed, unless the 'delete' argument is set to False [S1].",
     "deleted (default True)", TMP, Q_TMP, True),
    ("No (unless include_hidden is true) [S1].", "not matched by '*'", GLOB, Q_GLOB, True),
    ("Yes [S1].", "not matched by '*'", GLOB, Q_GLOB, False),
    ("Yes [S1].", "not matched by '*'", GLOB, "Adding a duplicate: does it land before or after the copies?", None),
])
def test_yes_or_no_says_the_questions_statement(answer, key, anchor, question, right):
    assert check_key(answer, key, anchor, question).right is right


def test_a_question_that_is_not_yes_or_no_leaves_the_answer_as_it_is():
    assert as_statement("Yes [S1].", "What does it return?") == "Yes [S1]."
    assert as_statement("Yes [S1].", "Does it go before or after them?") == "Yes [S1]."
    assert as_statement("Yesterday it was 3 [S1].", "Is it 3?") == "Yesterday it was 3 [S1]."
    assert as_statement("Yes [S1].", "When I split it, can the last group be shorter?").startswith("the last group")


def test_unless_reaches_only_its_own_sentence():
    text = "It is fine. It is kept unless it is deleted."
    assert negated_at(text, text.index("deleted")) and not uncertain_at(text, text.index("fine"))
    text = "It is fine. Unless told otherwise, it is deleted."        # an opening "Unless ...," ends at its comma
    assert not negated_at(text, text.index("deleted"))
    text = "Fine. If set, it is False."
    assert conditional_at(text, text.index("False"))


def test_symbols_by_name_and_pairs_in_any_form():
    assert named_symbols("A minus sign (hyphen) replaces the plus") == "'-' ('-') replaces '+'"
    assert pairs("'+' becomes '-' and '/' becomes '_'") == [("-", "+"), ("_", "/")]
    assert pairs("'-' and '_' (for '+' and '/' respectively)") == [("-", "+"), ("_", "/")]
    for answer in ["'+' becomes '-' and '/' becomes '_' [S1].", "A hyphen for the plus and an underscore for the "
                   "slash [S1].", "'-' and '_' (for '+' and '/' respectively) [S1]."]:
        assert check_key(answer, B64_KEY, B64).right is True, answer
    assert check_key("'+' becomes '_' and '/' becomes '-' [S1].", B64_KEY, B64).right is not True


class _Spans:
    def doc_id(self, i):
        return "base64"

    def status(self, i):
        return "current"


SPAN = "## base64.urlsafe_b64encode\n\nEncode bytes using the URL- and filesystem-safe alphabet, which " + B64 + \
    " in the standard Base64 alphabet."


@pytest.mark.parametrize("answer,outcome", [
    ("A minus sign (hyphen) replaces the plus and an underscore replaces the slash [S1].", "answered"),
    ("'+' becomes '-' and '/' becomes '_' [S1].", "answered"),
    ("'+' becomes '_' and '/' becomes '-' [S1].", "wrong answer"),      # each symbol put for the other's
])
def test_a_key_of_symbols_stated_in_a_sentence_with_nothing_else_to_check_is_green(answer, outcome):
    assert judge_answer(answer, [SPAN], [0], _Spans(), "base64", B64, key=B64_KEY).outcome == outcome


def test_a_fraction_of_the_span_grounds_it_in_words():
    from rag_core.generation.verifier import verify
    span = "Fraction(8, 6) will produce a rational number equivalent to 4/3."
    assert verify("Four thirds [S1].", [span]).verdict == "anchored"
    assert verify("Four thirds, i.e. Fraction(4, 3) [S1].", [span]).verdict == "anchored"
    assert verify("Five thirds [S1].", [span]).verdict == "refused"


BATCH = "The last batch may be shorter than n."
LEFT = "insert just before the leftmost x already there"


@pytest.mark.parametrize("answer,right", [
    ("It may be shorter: batched('ABCDEFG', 3) ends with ('G',) [S1].", True),
    ("The last batch may be shorter than n [S1].", True),
    ("It may be shorter than the other batches [S1].", None),
    ("It may be longer [S1].", False),
])
def test_a_comparative_without_than_leaves_out_what_it_compares_with(answer, right):
    assert check_key(answer, "shorter than n", BATCH).right is right


@pytest.mark.parametrize("answer,right", [
    ("It lands in front of all the existing copies, at the leftmost x [S1].", True),
    ("It lands ahead of the leftmost x [S1].", True),
    ("It lands after the leftmost x [S1].", False),
])
def test_in_front_of_is_before(answer, right):
    assert check_key(answer, "before the leftmost", LEFT).right is right


class _Tmp:
    def doc_id(self, i):
        return "tempfile"

    def status(self, i):
        return "current"


def test_a_bare_yes_says_the_questions_statement_and_is_green_when_that_states_the_key():
    from rag_core.generation.yes_no import bare_reply
    span = "## tempfile.NamedTemporaryFile\n\n" + TMP + ". More text about the file here."
    assert bare_reply("Yes [S1].") and bare_reply("**No** (S1)") and not bare_reply("Yes, it is [S1].")

    def judged(answer, question):
        return judge_answer(answer, [span], [0], _Tmp(), "tempfile", TMP, key="deleted (default True)",
                            question=question).outcome
    assert judged("Yes [S1].", Q_TMP) == "answered"
    assert judged("No [S1].", Q_TMP) == "wrong answer"
    assert judged("Yes [S1].", "Does a named scratch file vanish on its own once I close it?") == "not confirmed"
