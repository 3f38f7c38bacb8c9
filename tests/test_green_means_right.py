"""Green means right: an answer is green ('answered') only when it is grounded, from the document that holds the
golden anchor, and states that anchor (generation.anchor). Checked on generated cases, on the issue's examples,
and over every golden question of both bundled golden sets x every answer preset x the filter on and off."""
import random

import pytest

from rag_core.data.golden import load_golden
from rag_core.evaluation.judgement import COLOURS, OUTCOMES, TONES, judge_answer
from rag_core.evaluation.losses import STAGES, losses_table
from rag_core.evaluation.pipeline import ask
from rag_core.generation.anchor import content_words, states_anchor
from rag_core.generation.presets import presets

CUTOFF = "What is the default cutoff of get_close_matches?"
ANCHOR = "Optional arg cutoff (default 0.6)"


@pytest.fixture(scope="module")
def both(wb):
    return {"article": wb, "user": wb.with_golden(load_golden("user"))}


# ---- the rule ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer,states", [
    ("Optional arg cutoff (default 0.6) is a float in [0, 1] [S1].", True),
    ("The optional arg cutoff defaults to 0.60 [S1].", False),          # 'default' is not 'defaults'
    ("The optional arg cutoff is 0.60 by default [S1].", True),         # numbers by value, words in any order
    ("The default cutoff is 0.6 [S1].", False),                         # 'optional' and 'arg' missing
    ("Optional arg cutoff (default 0.9) [S1].", False),                 # the number differs
    ("Optional arg cutoff (default) [S1].", False),                     # the number is missing
    ("The answer is: [S3][S2].", False),
])
def test_the_anchor_is_stated_by_its_numbers_names_and_every_word(answer, states):
    assert states_anchor(answer, ANCHOR).states is states


@pytest.mark.parametrize("answer,anchor", [          # the attack pass's substitutions: one word or symbol decides
    ("The larger of the two middle values is returned [S1].", "the smaller of the two middle values is returned"),
    ("comb evaluates to zero when k < n [S1].", "evaluates to zero when k > n"),
    ("The last batch may be longer than n [S1].", "The last batch may be shorter than n."),
    ("It uses '+' instead of '-' and '_' instead of '/' [S1].", "uses '-' instead of '+' and '_' instead of '/'"),
    ("insert just before the rightmost x [S1].", "insert just before the leftmost x already there"),
    ("The LRU features are enabled and the cache can grow without bound [S1].",
     "the LRU features are disabled and the cache can grow without bound"),
    ("The file is not automatically deleted by default (default True) [S1].",
     "whether the file is automatically deleted (default True)"),
])
def test_a_word_symbol_or_negation_that_changes_the_answer_is_not_stated(answer, anchor):
    assert not states_anchor(answer, anchor).states
    assert states_anchor(f"{anchor} [S1].", anchor).states          # the anchor itself is


def test_names_are_needed_whole_and_the_missing_part_is_said():
    anchor = "harmonic_mean([40, 60]) 48.0"
    assert states_anchor("harmonic_mean([40, 60]) gives 48.0 [S1].", anchor).states
    got = states_anchor("harmonic([40, 60]) gives 48 [S1].", anchor)
    assert not got.states and "harmonic_mean" in got.missing and "48.0" not in got.missing   # 48 = 48.0 by value
    assert states_anchor("deleted automatically [S1].", "automatically deleted").states       # any order


def test_the_rule_on_generated_anchors():
    rng = random.Random(7)
    vocab = ["cutoff", "default", "float", "matches", "window", "chunk", "status", "draft", "module", "returns"]
    for _ in range(300):
        ws = rng.sample(vocab, rng.randint(1, 6))
        number = f"{rng.randint(0, 99)}.{rng.randint(1, 9)}"
        anchor = " ".join(ws) + f" {number}"
        keep = rng.sample(ws, rng.randint(0, len(ws)))
        answer = " ".join(keep) + (f" {number}" if rng.random() < 0.7 else "") + " [S1]."
        got = states_anchor(answer, anchor)
        expected = number in answer.split() and len(keep) == len(ws)
        assert got.states is expected, (anchor, answer, got)
        assert set(got.missing) == ({number} if number not in answer.split() else set()) | (set(ws) - set(keep))
    assert content_words("Optional arg cutoff (default 0.6)") == ["optional", "arg", "cutoff", "default"]


# ---- the outcomes ------------------------------------------------------------------------------------------

def test_only_answered_is_green_and_every_outcome_has_one_colour():
    assert [o for o in OUTCOMES if TONES[o] == "green"] == ["answered"]
    assert set(COLOURS) == set(TONES) == set(OUTCOMES) and len(set(COLOURS.values())) == len(OUTCOMES)
    assert STAGES.index("wrong source") < STAGES.index("misses the answer") < STAGES.index("answered")


def test_the_issues_examples_are_not_green(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, None)                     # all statuses allowed: the draft note is S1 or S2
    draft = next(n for n, c in enumerate(a.retrieved.ids, 1) if ix.status(int(c)) == "draft")
    other = next(n for n, c in enumerate(a.retrieved.ids, 1) if ix.doc_id(int(c)) == "difflib")
    # the draft's sentence with another span's number, cited to difflib's span
    said = f"NOTE (draft): the default cutoff of get_close_matches is 3, so only near identical words are returned [S{other}]."
    j = judge_answer(said, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, wb.trusted)
    assert j.outcome != "answered" and j.tone != "green"
    j = judge_answer("Use SequenceMatcher to return list of the best good enough matches "
                     f"[S{other}].", a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, wb.trusted)
    assert j.verdict.verdict == "anchored" and j.outcome == "misses the answer" and j.tone == "blue"
    assert "does not state the golden anchor" in j.sentence and "'optional'" in j.sentence
    j = judge_answer(f"the default cutoff of get_close_matches is 0.9 [S{draft}].", a.spans, a.retrieved.ids, ix,
                     "difflib", ANCHOR, wb.trusted)
    assert j.outcome == "wrong source"


def test_a_question_without_a_golden_answer_is_at_best_grounded(wb):
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    j = judge_answer(a.answer, a.spans, a.retrieved.ids, ix, None, None, wb.trusted, verdict=a.verdict)
    assert j.outcome == "grounded" and j.tone == "gray" and "no golden answer to compare with" in j.sentence


def test_the_article_pipeline_loses_the_cutoff_question_at_misses_the_answer(wb):
    """The article: with the filter, the scripted generator cites difflib's header sentence, not the one about
    cutoff. 'Right source' is not a right answer: the loss account says so."""
    ix = wb.index()
    a = ask(ix, CUTOFF, 20, 3, True, {"current"})
    j = judge_answer(a.answer, a.spans, a.retrieved.ids, ix, "difflib", ANCHOR, wb.trusted)
    assert j.outcome == "misses the answer"
    account = losses_table(wb).set_index("stage").questions
    assert account["misses the answer"] >= 1 and account.sum() == len(wb.check.valid)


@pytest.mark.parametrize("which", ["article", "user"])
@pytest.mark.parametrize("allowed", [None, {"current"}], ids=["filter off", "filter on"])
def test_no_preset_is_green_unless_it_states_its_anchor(both, which, allowed):
    """Every golden question x every preset: each preset's expected outcome, and green only with the anchor."""
    wb = both[which]
    ix = wb.index()
    for row in wb.check.valid:
        a = ask(ix, row.question, 20, 3, True, allowed)
        statuses = [ix.status(int(c)) for c in a.retrieved.ids]
        tried = presets(row.question, a.spans, row.anchor, statuses)
        for p in tried:
            j = judge_answer(p.answer, a.spans, a.retrieved.ids, ix, row.doc, row.anchor, wb.trusted)
            assert (j.outcome == "answered") == (j.tone == "green")
            if j.outcome == "answered":
                assert states_anchor(p.answer, row.anchor).states, (row.question, p)
            if p.kind == "the anchor, cited":
                assert j.outcome in ("answered", "wrong source"), (row.question, p, j.sentence)
            elif p.kind.endswith("no citation") or "not handed over" in p.kind or "a number changed" in p.kind:
                assert j.outcome == "refused", (row.question, p, j.sentence)
            elif p.kind.startswith("a number from"):
                assert j.outcome in ("refused", "wrong source", "misses the answer"), (row.question, p, j.sentence)
            elif p.kind == "abstention":
                assert j.outcome == "abstained"
        kinds = [p.kind for p in tried]
        holder = any(" ".join(row.anchor.split()) in " ".join(s.split()) for s in a.spans)
        assert ("the anchor, cited" in kinds) == holder


def test_the_latency_of_a_trained_encoder_counts_encoding_the_question(wb):
    """Each timed search encodes its question anew (fresh_queries), and the caches are left as they were."""
    mini = wb.using(retriever="minilm")
    calls = []
    real = mini.embedder.model.encode
    mini.embedder.model.encode = lambda texts, *a, **k: calls.append(texts) or real(texts, *a, **k)
    try:
        from rag_core.evaluation.tables import latency
        latency(mini, runs=1, repetitions=1)
    finally:
        mini.embedder.model.encode = real
    assert len(calls) == 2 * len(wb.questions)          # both routes, every question encoded each time
    assert not mini.embedder._fresh


@pytest.mark.parametrize("anchor", ["the of", "is a", "((", "'-'"])
def test_an_anchor_with_nothing_to_state_is_excluded_with_a_reason(wb, anchor):
    """'the of' is in almost any document and any grounded answer would 'state' it: such a row never counts."""
    from rag_core import Corpus, Document, GoldenRow
    from rag_core.data.golden import check_golden
    doc = Document("a", "the of is a (( '-' the cutoff is 0.6", "current")
    got = check_golden([GoldenRow("What is the cutoff?", "a", anchor)], Corpus((doc,)))
    assert not got.valid and "no word, number or name" in got.problems[0].reason


def test_a_draft_is_never_green_even_when_it_holds_the_golden_anchor():
    """A golden set pointing at a draft document: the answer is grounded on an untrusted status, so wrong source."""
    from rag_core import Corpus, Document, GoldenRow, Workbench
    docs = (Document("a", "The default cutoff is 0.9 for drafts.", "draft"),
            Document("b", "The default cutoff is 0.6 in the library.", "current"))
    wb = Workbench(Corpus(docs), [GoldenRow("What is the default cutoff?", "a", "The default cutoff is 0.9")],
                   trusted=("current",))
    ix = wb.index()
    a = ask(ix, "What is the default cutoff?", 2, 2, False, None)
    n = next(i for i, c in enumerate(a.retrieved.ids, 1) if ix.doc_id(int(c)) == "a")
    j = judge_answer(f"The default cutoff is 0.9 [S{n}].", a.spans, a.retrieved.ids, ix, "a",
                     "The default cutoff is 0.9", wb.trusted)
    assert j.outcome == "wrong source" and j.tone != "green"


def test_the_ask_page_checks_each_answer_once_per_checker(monkeypatch):
    """One judgement per answer: the scripted answer's strict verdict comes from `ask` and is reused, the article's
    checker runs once beside it (it was three strict passes and one article pass per answer)."""
    from apptest_helpers import CUTOFF, open_page
    from rag_core.evaluation import judgement, pipeline
    calls = []

    def counting(real):
        return lambda answer, spans, mode="strict": calls.append(mode) or real(answer, spans, mode)

    monkeypatch.setattr(pipeline, "verify", counting(pipeline.verify))
    monkeypatch.setattr(judgement, "verify", counting(judgement.verify))
    open_page("ask", query={"ask_question": CUTOFF})
    assert calls.count("strict") == 1 and calls.count("article") == 1, calls
