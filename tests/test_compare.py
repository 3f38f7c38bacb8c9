"""Setups, where each question is lost, and setups side by side.

A hand-made corpus first, each stage derivable by hand; then the bundled corpus against a slow obvious
computation (one question at a time through `retrieve` and `ask`); then a Comparison built from results
written by hand, whose statistics are the issue's hand-computed values.
"""
import json
import math

import pytest

from rag_core import ChunkerConfig, Corpus, Document, Workbench, ask, retrieve
from rag_core.evaluation import tables
from rag_core.evaluation.compare import Comparison, compare_setups, compare_runs
from rag_core.evaluation.judgement import anchor_place, judge_answer
from rag_core.evaluation.losses import (COLOURS, MEANING, STAGES, QuestionResult, loss_counts, losses_table,
                                        run_setup, stage_of)
from rag_core.evaluation.metrics import anchor_holders
from rag_core.evaluation.setup import STRATEGY_DEFAULTS, Setup, default_setup, parse_setup


# ---- setups -----------------------------------------------------------------------------------------

BASE = Setup("base", ChunkerConfig("fixed", 160, 32), 20, 3, frozenset({"current"}), True, "scripted")


@pytest.mark.parametrize("text", [
    "a:", "no filter: statuses=all", "none: statuses=none", "small: size=80 overlap=16 k=1 candidates=5",
    "sent: chunker=sentence", "para: chunker=structure size=200", "two: statuses=current|draft rerank=off",
    "model: generator=model", "odd status: statuses='in review|current'",
])
def test_a_setup_reads_back_its_own_text(text):
    s = parse_setup(text, BASE)
    assert parse_setup(s.to_text(), BASE) == s
    assert parse_setup(s.to_text(), Setup("other", ChunkerConfig("sentence", 3, 0), 7, 7, None, False)) == s


def test_keys_change_only_what_they_name():
    s = parse_setup("small: size=80 overlap=16 rerank=off", BASE)
    assert s == Setup("small", ChunkerConfig("fixed", 80, 16), 20, 3, frozenset({"current"}), False, "scripted")
    assert parse_setup("all: statuses=all", BASE).statuses is None
    assert parse_setup("none: statuses=none", BASE).statuses == frozenset()


@pytest.mark.parametrize("kind", ["sentence", "structure"])
def test_a_new_chunker_kind_starts_from_its_own_defaults(kind):
    assert parse_setup(f"x: chunker={kind}", BASE).chunker == ChunkerConfig(kind, *STRATEGY_DEFAULTS[kind])
    assert parse_setup(f"x: chunker={kind} size=6", BASE).chunker.size == 6


@pytest.mark.parametrize("text, words", [
    ("no colon here", "starts with its name and a colon"),
    (": size=80", "starts with its name and a colon"),
    ("a: size 80", "'size' is not key=value"),
    ("a: size=", "is not key=value"),
    ("a: colour=red", "unknown key 'colour': use chunker, size, overlap, candidates, k, statuses, rerank, generator"),
    ("a: size=80 size=40", "size is given twice"),
    ("a: size=big", "size must be a whole number, got 'big'"),
    ("a: size=10 overlap=10", "Overlap (10) must be smaller than the size (10)"),
    ("a: chunker=semantic", "chunker must be one of fixed, structure, sentence"),
    ("a: k=30", "cannot keep k=30 chunks out of 20 candidates: set candidates=30 or more"),
    ("a: k=0", "k must be a whole number above 0"),
    ("a: rerank=maybe", "rerank is on or off"),
    ("a: generator=gpt", "generator must be scripted or model"),
    ("a: statuses='current", "close the quote"),
    ("x" * 41 + ": k=1", "at most 40 characters"),
])
def test_a_bad_setup_says_how_to_fix_it(text, words):
    with pytest.raises(ValueError) as e:
        parse_setup(text, BASE)
    assert words in str(e.value)


def test_retrieval_options_are_kept_and_linked():
    s = parse_setup("bm: retriever=bm25 reranker=none", BASE, options=("retriever", "reranker"))
    assert s.retrieval == (("reranker", "none"), ("retriever", "bm25")) and s.options == {"retriever": "bm25", "reranker": "none"}
    assert parse_setup(s.to_text(), BASE, options=("retriever", "reranker")) == s
    assert s.link_params()["retriever"] == "bm25"
    with pytest.raises(ValueError, match="unknown key 'retriever'"):
        parse_setup("bm: retriever=bm25", BASE, options=())


def test_link_params_open_ask_with_the_setup():
    s = parse_setup("x: size=80 overlap=16 k=2 candidates=10 rerank=off statuses=current|draft", BASE)
    assert s.link_params("Why?") == {"chunker": "fixed", "size": "80", "overlap": "16", "ask_candidates": "10",
                                     "ask_k": "2", "ask_statuses": "current,draft", "ask_rerank": "0",
                                     "ask_question": "Why?"}
    assert parse_setup("x: statuses=all", BASE).link_params(corpus_statuses=("current", "draft"))["ask_statuses"] == "current,draft"
    assert parse_setup("x: statuses=none", BASE).link_params()["ask_statuses"] == "-"


def test_the_default_setup_is_the_article_pipeline(wb):
    assert default_setup(wb) == Setup("default", ChunkerConfig("fixed", 160, 32), 20, 3, frozenset({"current"}),
                                      True, "scripted", {"retriever": "hashing", "reranker": "lexical", "engine": "memory"},
                                      frozenset({"current"}))
    assert default_setup(wb.using(retriever="bm25")).options["retriever"] == "bm25"    # the workbench's own
    assert default_setup() == Setup("default", ChunkerConfig("fixed", 160, 32), 20, 3, None, True, "scripted")


# ---- stages on a hand-made corpus -------------------------------------------------------------------

@pytest.mark.parametrize("facts, stage", [
    ((False, False, None, None, 3, True, "answered"), "cut"),
    ((True, False, None, None, 3, True, "answered"), "filtered"),
    ((True, True, None, None, 3, True, "refused"), "not retrieved"),
    ((True, True, 7, 5, 3, True, "answered"), "ranked out"),          # below k before and after the rerank
    ((True, True, 7, 5, 3, False, "answered"), "ranked out"),
    ((True, True, 2, 5, 3, True, "answered"), "lost by rerank"),      # in the top 3 before, 5th after
    ((True, True, 5, 2, 3, True, "refused"), "refused"),              # the rerank brought it in
    ((True, True, 1, 1, 3, False, "wrong source"), "wrong source"),
])
def test_stage_of_by_hand(facts, stage):
    assert stage_of(*facts) == stage


# fixed 4/0: alpha -> [zeta eta theta iota] [kappa lambda mu nu]; beta (draft) -> [omega psi chi phi];
# gamma -> [red blue green yellow]; delta -> [red blue green white]
HAND_DOCS = (Document("alpha", "zeta eta theta iota kappa lambda mu nu"), Document("beta", "omega psi chi phi", "draft"),
             Document("gamma", "red blue green yellow"), Document("delta", "red blue green white"))
HAND_GOLDEN = [("iota kappa?", "alpha", "iota kappa"),               # across the boundary of alpha's two chunks
               ("omega psi?", "beta", "omega psi"),                  # only in the draft
               ("red blue green white?", "gamma", "yellow"),         # delta holds all 4 words, gamma 3: gamma 2nd
               ("zeta theta?", "alpha", "zeta eta theta")]           # alpha's first chunk, first
FOUR = ChunkerConfig("fixed", 4, 0)


@pytest.fixture(scope="module")
def hand():
    return Workbench(Corpus(HAND_DOCS), HAND_GOLDEN)


@pytest.mark.parametrize("candidates, k, third", [(1, 1, "not retrieved"), (2, 1, "ranked out"), (2, 2, "wrong source")])
def test_stages_by_hand(hand, candidates, k, third):
    got = run_setup(hand, Setup("s", FOUR, candidates, k, frozenset({"current"}), False))
    assert [r.stage for r in got] == ["cut", "filtered", third, "answered"]
    assert [r.first_rank for r in got] == [None, None, None if candidates == 1 else 2, 1]
    assert got[2].outcome == "wrong source"           # the scripted answer quotes delta, gamma holds the anchor
    assert got[2].answer == "red blue green white [S1]." and got[3].answer == "zeta eta theta iota [S1]."


def test_without_the_filter_the_draft_holder_is_found_but_never_green(hand):
    got = run_setup(hand, Setup("s", FOUR, 2, 1, None, False))
    assert got[1].first_rank == 1 and not got[1].outranked_by_untrusted    # the anchor's own chunk comes first
    assert got[1].stage == "wrong source" and "only current documents are trusted" in got[1].reason   # a draft


def test_an_empty_filter_loses_everything_at_the_filter(hand):
    assert {r.stage for r in run_setup(hand, Setup("s", FOUR, 2, 1, frozenset(), True))} <= {"cut", "filtered"}


def test_an_unknown_status_names_the_setup(hand):
    with pytest.raises(ValueError, match="Setup 's': Unknown status 'final'"):
        run_setup(hand, Setup("s", FOUR, 2, 1, frozenset({"final"}), False))


# ---- the bundled corpus against one question at a time ---------------------------------------------

SETUPS = ["default:", "no filter: statuses=all", "no rerank: rerank=off", "small: size=40 overlap=0",
          "sentence: chunker=sentence k=2 candidates=8", "narrow: k=1 candidates=5 statuses=all"]


@pytest.mark.parametrize("text", SETUPS)
def test_run_setup_equals_the_slow_path(wb, text):
    s = parse_setup(text, default_setup(wb))
    ix, got = wb.index(s.chunker), run_setup(wb, s)
    assert len(got) == len(wb.golden_check.valid)
    for q, (row, r) in enumerate(zip(wb.golden_check.valid, got)):
        held = set(anchor_holders(ix, wb.golden_check.occurrences[q]).tolist())
        bi = retrieve(ix, row.question, s.candidates, s.candidates, False, s.statuses).ids.tolist()
        final = retrieve(ix, row.question, s.candidates, s.candidates, s.rerank, s.statuses).ids.tolist()
        rank_bi = next((i for i, c in enumerate(bi, 1) if c in held), None)
        rank = next((i for i, c in enumerate(final, 1) if c in held), None)
        a = ask(ix, row.question, s.candidates, s.k, s.rerank, s.statuses, mode="strict")
        outcome = judge_answer(a.answer, a.spans, a.retrieved.ids, ix, row.doc, row.anchor, wb.trusted, key=row.key,
                               question=row.question).outcome
        if not held:
            stage = "cut"
        elif s.statuses is not None and not any(ix.status(c) in s.statuses for c in held):
            stage = "filtered"
        elif rank is None:
            stage = "not retrieved"
        elif rank > s.k:
            stage = "lost by rerank" if s.rerank and rank_bi <= s.k else "ranked out"
        else:
            stage = outcome
        assert (r.first_rank_before_rerank, r.first_rank, r.stage, r.outcome, r.answer) == \
               (rank_bi, rank, stage, outcome, a.answer), row.question
        assert r.outranked_by_untrusted == bool(anchor_place(a.retrieved.ids, held, ix, wb.trusted).outranked_by)


def test_the_bundled_losses_cover_every_stage_there_is(wb):
    small = loss_counts(run_setup(wb, parse_setup("small: size=40 overlap=0", default_setup(wb))))
    assert small["cut"] == 2 and small["lost by rerank"] == 2 and sum(small.values()) == 18
    nofilter = run_setup(wb, parse_setup("nf: statuses=all", default_setup(wb)))
    assert loss_counts(nofilter)["wrong source"] == 10 and sum(r.outranked_by_untrusted for r in nofilter) == 10


def test_recall_of_an_unfiltered_unreranked_setup_is_the_ceiling_table(wb):
    c = compare_setups(wb, [parse_setup("bi: statuses=all rerank=off candidates=50", default_setup(wb))], ks=(1, 3, 5))
    ceiling = tables.ceiling(wb).set_index("k").recall
    for r in c.recall.itertuples():
        assert r.recall == pytest.approx(ceiling[r.k])


def test_the_losses_table_is_the_default_setup(wb):
    df = losses_table(wb)
    assert list(df.stage) == list(STAGES) and df.questions.sum() == 18 and df.attrs["questions"] == 18
    c = compare_setups(wb, [default_setup(wb)])
    assert dict(zip(df.stage, df.questions)) == c.losses.loc["default"].to_dict()
    assert df.attrs["setup"] == default_setup(wb).to_text()
    assert "losses" in tables.TABLES


def test_every_stage_has_a_meaning_and_a_colour():
    assert set(MEANING) == set(COLOURS) == set(STAGES) and len(set(COLOURS.values())) == len(STAGES)
    assert COLOURS["answered"] == "#1b7f3b"                      # green only for answered, as everywhere


# ---- compare ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def four(wb):
    base = default_setup(wb)
    return compare_setups(wb, [parse_setup(t, base) for t in ("filter:", "no filter: statuses=all",
                                                          "small: size=40 overlap=0", "sentence: chunker=sentence")])


def test_leaderboard_has_one_row_per_setup(wb, four):
    lb = four.leaderboard
    assert list(lb.setup) == ["filter", "no filter", "small", "sentence"]
    assert list(lb.columns) == ["setup", *[f"{m}_at_{k}" for k in (1, 3, 5) for m in ("recall", "ci_low", "ci_high", "hits")],
                                "questions", "answered", "wrong_answer", "not_confirmed", "wrong_source", "refused", "abstained", "chunks",
                                "mean_seconds"]
    assert list(lb.chunks) == [len(wb.index(s.chunker)) for s in four.setups]
    assert (lb[["answered", "wrong_answer", "not_confirmed", "wrong_source", "refused", "abstained"]].sum(axis=1)
            == 18).all()
    assert lb.recall_at_1.tolist() == pytest.approx([17 / 18, 7 / 18, 9 / 18, 14 / 18])   # as the slow path finds
    assert (lb.ci_low_at_1 <= lb.recall_at_1).all() and (lb.recall_at_1 <= lb.ci_high_at_1).all()


def test_pairs_cover_every_pair_at_every_k(four):
    p = four.pairs
    assert len(p) == 6 * 3
    assert ((p.a_only + p.b_only + p.both + p.neither) == 18).all()
    row = p[(p.a == "filter") & (p.b == "no filter") & (p.k == 1)].iloc[0]
    assert (row.a_only, row.b_only, row.p_value) == (10, 0, 2 / 2 ** 10)
    assert row.sentence.startswith("With filter, 10 questions are found at k = 1 that no filter misses")


def test_discordant_lists_the_questions(four):
    d = four.discordant("filter", "no filter", 1)
    assert len(d) == 10 and set(d.found_by) == {"filter"}


def test_grid_has_one_row_per_question_and_sorts(four):
    g = four.grid
    assert len(g) == 18 and list(g.columns[:2]) == ["question", "doc"]
    assert str(g["small rank"].dtype) == "Int64" and g["small rank"].isna().sum() == 2      # the two cut anchors
    assert list(g["small stage"].cat.categories) == list(STAGES)
    assert g.sort_values("small stage").iloc[0]["small stage"] == "cut"                      # pipeline order


def test_progress_and_an_interrupted_run_keeps_what_was_done(wb):
    calls, seen = [], []

    def failing(question, spans):
        if len(calls) == 5:
            raise RuntimeError("the server went away")
        calls.append(question)
        return "NOT IN THE CONTEXT"

    s = [parse_setup("a: generator=model", default_setup(wb)), parse_setup("b:", default_setup(wb))]
    done = {}
    with pytest.raises(RuntimeError):
        compare_setups(wb, s, generate_for=lambda setup: failing, done=done)
    assert len(done["a"]) == 5
    calls.clear()
    c = compare_setups(wb, s, generate_for=lambda setup: lambda q, spans: "NOT IN THE CONTEXT", done=done,
                on_progress=lambda d, total, what: seen.append((d, total)))
    assert [len(v) for v in c.results.values()] == [18, 18]
    assert seen[0] == (5, 36) and seen[-1] == (36, 36)            # the 5 done are not asked again


def test_two_setups_with_one_name_are_refused(wb):
    with pytest.raises(ValueError, match="Two setups are named 'a'"):
        compare_setups(wb, [parse_setup("a:", BASE), parse_setup("a: k=1", BASE)])


# ---- a Comparison from results written by hand: the issue's numbers -------------------------------

def results(ranks):
    return [QuestionResult(f"q{i}", "doc", r, r, "answered" if r else "not retrieved", False,
                           "answered" if r else "abstained", "", "", 0.5) for i, r in enumerate(ranks)]


@pytest.fixture
def hand_made():
    a = [1] * 16 + [None] * 2                      # 16 of 18 found at k = 1
    b = [1] * 7 + [4] * 9 + [None] * 2             # 7 of them at 1; the 9 others only at rank 4
    return Comparison([Setup("A"), Setup("B")], {"A": results(a), "B": results(b)}, {"A": 10, "B": 20})


def test_hand_made_comparison_gives_the_issue_values(hand_made):
    rec = hand_made.recall.set_index(["setup", "k"])
    lo, hi = rec.loc[("A", 1), ["ci_low", "ci_high"]]
    assert (round(lo, 3), round(hi, 3)) == (0.672, 0.969)
    p1 = hand_made.pair("A", "B", 1)
    assert (p1["a_only"], p1["b_only"], p1["both"], p1["neither"]) == (9, 0, 7, 2)
    assert round(p1["p_value"], 4) == 0.0039 and p1["sentence"].endswith("p = 0.004, unlikely to be chance.")
    p5 = hand_made.pair("A", "B", 5)
    assert (p5["a_only"], p5["b_only"], p5["p_value"]) == (0, 0, 1.0)
    assert hand_made.leaderboard.mean_seconds.tolist() == [0.5, 0.5]


def test_json_follows_the_documented_schema(hand_made):
    doc = json.loads(hand_made.to_json())
    assert set(doc) == {"setups", "pairs", "questions"}
    s = doc["setups"][0]
    assert {"name", "recall", "outcomes", "losses"} <= set(s) and s["name"] == "A"
    assert s["recall"][0] == {"k": 1, "recall": 16 / 18, "ci_low": pytest.approx(0.67199755), "ci_high": pytest.approx(0.96898113),
                              "hits": 16, "questions": 18}
    assert s["losses"] == {**dict.fromkeys(STAGES, 0), "answered": 16, "not retrieved": 2}
    assert s["outcomes"] == {"answered": 16, "wrong answer": 0, "not confirmed": 0, "wrong source": 0, "refused": 0,
                             "abstained": 2}
    assert {"a", "b", "k", "a_only", "b_only", "both", "neither", "p_value"} <= set(doc["pairs"][0])
    assert doc["questions"][16] == {"question": "q16", "doc": "doc", "setups": {
        "A": {"first_rank": None, "stage": "not retrieved", "outranked_by_untrusted": False, "outcome": "abstained"},
        "B": {"first_rank": None, "stage": "not retrieved", "outranked_by_untrusted": False, "outcome": "abstained"}}}


def test_markdown_has_every_section(hand_made):
    md = hand_made.to_markdown()
    for part in ("## Leaderboard", "| A | 16/18 = 0.889 (0.672-0.969)", "## Pairs", "## Where questions are lost",
                 "## Questions", "| q17 | doc | \\- | not retrieved | \\- | not retrieved |"):
        assert part in md, part


def test_no_question_gives_nan_not_an_error():
    c = Comparison([Setup("A"), Setup("B")], {"A": [], "B": []})
    assert math.isnan(c.leaderboard.recall_at_1[0]) and c.pair("A", "B", 1)["p_value"] == 1.0
    assert json.loads(c.to_json())["setups"][0]["recall"][0]["recall"] is None


def test_results_of_different_questions_do_not_compare():
    with pytest.raises(ValueError, match="different golden questions"):
        Comparison([Setup("A"), Setup("B")], {"A": results([1]), "B": [results([1])[0]._replace(question="other")]})


def test_setups_with_retrieval_options_go_through_using(hand):
    seen = []

    class WithOptions(Workbench):
        def using(self, retriever="hashing"):
            seen.append(retriever)
            return self

    wb = WithOptions(Corpus(HAND_DOCS), HAND_GOLDEN)
    s = parse_setup("x: retriever=bm25", Setup("base", FOUR, 2, 1, None, False), options=("retriever",))
    got = compare_setups(wb, [s]).results["x"]
    assert [r.stage for r in got] == [r.stage for r in run_setup(hand, Setup("x", FOUR, 2, 1, None, False))]
    assert seen == ["bm25"]
    with pytest.raises(ValueError, match="Setup 'x': .*unexpected keyword"):
        run_setup(wb, parse_setup("x: colour=red", Setup("base", FOUR, 2, 1), options="any"))


def test_compare_runs_refuses_different_golden_sets():
    from rag_core.store import Run, RunInfo
    info = RunInfo(1, "", "A", "A:", "d", "d", "g-1", "scripted", 1, 1, 1, 10)
    a = Run(info, Setup("A"), results([1]))
    b = Run(info._replace(id=2, golden_key="g-2"), Setup("A"), results([1]))
    with pytest.raises(ValueError, match="different golden sets"):
        compare_runs([a, b])
    c = compare_runs([a, b._replace(info=b.info._replace(golden_key="g-1"))])
    assert c.names == ["A #1", "A #2"]
    with pytest.raises(ValueError, match="Run #1 is chosen twice"):
        compare_runs([a, a])


def test_option_values_take_the_type_of_their_default(hand):
    seen = []

    class Typed(Workbench):
        def using(self, retriever="hashing", k1=1.2, depth=10, fast=False):
            seen.append((retriever, k1, depth, fast))
            return self

    wb = Typed(Corpus(HAND_DOCS), HAND_GOLDEN)
    opts = ("retriever", "k1", "depth", "fast")
    run_setup(wb, parse_setup("x: retriever=bm25 k1=0.9 depth=3 fast=on", Setup("b", FOUR, 2, 1), options=opts))
    assert seen == [("bm25", 0.9, 3, True)]
    with pytest.raises(ValueError, match="Setup 'x': k1 must be a float number, got 'high'"):
        run_setup(wb, parse_setup("x: k1=high", Setup("b", FOUR, 2, 1), options=opts))


def test_a_grid_cell_links_to_ask(four):
    assert four.setups[1].link_params(four.questions[0], ("current", "draft", "outdated")) == {
        "chunker": "fixed", "size": "160", "overlap": "32", "ask_candidates": "20", "ask_k": "3",
        "ask_statuses": "current,draft,outdated", "ask_rerank": "1", "ask_question": four.questions[0],
        "retriever": "hashing", "reranker": "lexical", "engine": "memory", "trusted": "current"}


def test_a_setup_takes_the_page_s_values_as_they_come():
    s = Setup("x", statuses=["current", "draft"], retrieval={"retriever": "bm25"})
    assert s.statuses == frozenset({"current", "draft"}) and s.retrieval == (("retriever", "bm25"),)
    assert hash(s) == hash(Setup("x", statuses={"draft", "current"}, retrieval=(("retriever", "bm25"),)))
    with pytest.raises(ValueError, match="without ':' or '='"):
        Setup("a=b")


def test_the_workbench_s_own_retrieval_options_are_setup_keys(wb):
    from rag_core.evaluation.metrics import first_hit_ranks
    from rag_core.evaluation.setup import retrieval_options
    assert {"retriever", "reranker"} <= set(retrieval_options()) and "on_progress" not in retrieval_options()
    s = parse_setup("bm25: retriever=bm25 rerank=off statuses=all", default_setup(wb))
    got = [r.first_rank for r in run_setup(wb, s)]
    bench = wb.using(retriever="bm25")
    want = first_hit_ranks(bench.holders(s.chunker), bench.top_ids(s.chunker, 20, None))
    assert got == [None if r == math.inf else int(r) for r in want]
    assert got != [r.first_rank for r in run_setup(wb, parse_setup("h: rerank=off statuses=all", default_setup(wb)))]
    assert s.link_params()["retriever"] == "bm25"


def test_setups_from_rows_says_what_keeps_them_from_running(wb):
    from rag_core.evaluation.setup import setups_from_rows
    base = default_setup(wb)
    two = [{"name": "a", "size": 80}, {"name": "b", "k": 5}]
    setups, problems = setups_from_rows(two, base, ["current", "draft", "outdated"])
    assert problems == [] and [s.name for s in setups] == ["a", "b"] and setups[1].chunker.size == 80   # row 1 is
    assert setups_from_rows(two[:1], base)[1] == ["Keep two to four setups, each with its own name."]   # the default
    assert setups_from_rows(two * 3, base)[1] == ["Keep two to four setups, each with its own name."]
    assert setups_from_rows([two[0], two[0]], base)[1] == ["Two setups are named 'a': give each setup its own name."]
    bad = setups_from_rows([two[0], {"name": "c", "size": "big"}, {"name": "d", "statuses": ["gone"]}], base, ["current"])
    assert [p[:11] for p in bad[1]] == ["Row 2 (c): ", "Row 3 (d): "] and "big" in bad[1][0] and "gone" in bad[1][1]
    assert setups_from_rows([{"name": "x:y"}, two[1]], base) == ([], [setups_from_rows([{"name": "x:y"}], base)[1][0]])
    assert setups_from_rows([{"name": "x:y"}, two[1]], base)[1][0].startswith("Row 1 (x:y): ")


def test_a_long_name_in_a_row_s_problem_is_cut_to_its_ends(wb):
    from rag_core.evaluation.setup import setups_from_rows
    said = setups_from_rows([{"name": "x" * 100_000}, {"name": "b"}], default_setup(wb))[1]
    assert len(said) == 1 and said[0].startswith("Row 1 (x") and "(100,000 characters)" in said[0] and len(said[0]) < 400
