"""Where each golden question is lost: the first stage, in pipeline order, that loses it under one setup.

    results = run_setup(wb, parse_setup("filtered: statuses=current"))
    results[0] -> QuestionResult(question=..., first_rank=1, stage="answered", outcome="answered", ...)
    loss_counts(results) -> {"cut": 0, "filtered": 0, ..., "answered": 12}

Stages (STAGES, in pipeline order; MEANING says each in one sentence, COLOURS gives each its colour on
every page and chart):
    cut             no chunk holds the anchor whole (a boundary cuts it everywhere)
    filtered        only chunks of a status the filter does not allow hold it
    not retrieved   no chunk holding it is among the candidates
    ranked out      among the candidates, but below k (after the rerank, when on, as before it)
    lost by rerank  within k before the rerank, below k after it
    then the answer, judged by `judgement.judge_answer` with the strict checker: refused, abstained,
    wrong source (grounded on another document or a non-trusted status), wrong answer (grounded on the anchor's
    document, but it contradicts the answer key), not confirmed (neither states nor contradicts the key) or
    answered (grounded, from the anchor's document, states the key and contradicts none of it). Only a
    question whose anchor is in the k chunks kept reaches these.

Every question is also answered when retrieval lost it: `outcome` holds that answer's judgement (an answer
can be "answered" from another chunk of the right document even though the anchor's chunk was not kept),
so a setup's answer counts and its loss account can differ; the loss account is the stricter one.
`outranked_by_untrusted` flags a chunk of a non-trusted status kept above the anchor's chunk (or kept at
all, when the anchor's chunk is not), as the Ask page warns.

Retrieval runs for all questions at once (Workbench.top_ids); answers one by one, with a progress callback.
`seconds` is a question's share of the retrieval plus its own answer and check.

Left out on purpose: retries and caching of model answers (the caller keeps `done` when a run stops).
"""
from __future__ import annotations

import time
from typing import Callable, NamedTuple

import pandas as pd

from rag_core.evaluation.judgement import COLOURS as OUTCOME_COLOURS, anchor_place, judge_answer
from rag_core.evaluation.metrics import first_hit_ranks
from rag_core.evaluation.outcomes import counted
from rag_core.evaluation.setup import Setup, default_setup, typed_options
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.generation.generator import scripted_answer
from rag_core.text.messages import shorten

STAGES = ("cut", "filtered", "not retrieved", "ranked out", "lost by rerank",
          "refused", "abstained", "wrong source", "wrong answer", "not confirmed", "answered")
MEANING = {
    "cut": "No chunk holds the anchor whole: a chunk boundary cuts it everywhere.",
    "filtered": "Only chunks of a status the filter does not allow hold the anchor.",
    "not retrieved": "No chunk holding the anchor is among the candidates.",
    "ranked out": "A chunk holding the anchor is among the candidates, but ranked below k.",
    "lost by rerank": "A chunk holding the anchor was within k before the rerank and fell below k after it.",
    "refused": "The anchor was handed over, but the checker refused the answer.",
    "abstained": "The anchor was handed over, but the answer says the spans do not contain it.",
    "wrong source": "The anchor was handed over, but the answer is grounded on another document or an untrusted "
                    "status.",
    "wrong answer": "The anchor was handed over and the answer is grounded on the anchor's document, but it "
                    "contradicts the golden answer key.",
    "not confirmed": "The anchor was handed over and the answer cites the anchor's document, but it neither "
                     "states the golden answer key nor contradicts it, the rule cannot be sure, or a sentence has "
                     "nothing to check: it may be right in other words.",
    "answered": "The anchor was handed over, the answer is grounded on the anchor's document, states the golden "
                "answer key and contradicts none of it.",
}
# one palette everywhere: retrieval losses in violets and teal, answers in the outcome colours (green only for
# answered, red for a wrong answer, grey for one not confirmed), the same as every badge (judgement.COLOURS)
COLOURS = {"cut": "#4a2a7a", "filtered": "#6b3fa0", "not retrieved": "#8e6cc0", "ranked out": "#b39ddb",
           "lost by rerank": "#0f7c8c", **{s: OUTCOME_COLOURS[s] for s in STAGES[5:]}}


class QuestionResult(NamedTuple):
    question: str
    doc: str                                 # the document that holds the anchor
    first_rank_before_rerank: int | None     # 1-based rank of the first anchor chunk among the candidates (bi-encoder)
    first_rank: int | None                   # the same in the final order (reranked if on); None: not a candidate
    stage: str                               # one of STAGES
    outranked_by_untrusted: bool             # a kept chunk of a non-trusted status ranks above the anchor's
    outcome: str                             # the answer's judgement (vocabulary.OUTCOMES)
    answer: str
    reason: str                              # the judgement in one sentence
    seconds: float                           # retrieval share + generation + check

    def as_dict(self) -> dict:
        return self._asdict()


def stage_of(held: bool, allowed_holds: bool, rank_before: int | None, rank: int | None, k: int,
             rerank: bool, outcome: str) -> str:
    """The first stage that loses a question, from the facts about it.

    (True, True, 5, 2, 3, True, "answered") -> "answered" (the rerank brought the anchor into the top 3);
    (True, True, 2, 5, 3, True, "answered") -> "lost by rerank"; (False, ...) -> "cut"
    """
    if not held:
        return "cut"
    if not allowed_holds:
        return "filtered"
    if rank is None:
        return "not retrieved"
    if rank > k:
        return "lost by rerank" if rerank and rank_before is not None and rank_before <= k else "ranked out"
    return outcome


def setup_workbench(wb: Workbench, setup: Setup) -> Workbench:
    """The workbench that retrieves and judges as the setup says: `wb` itself, or wb.using(**options) for retrieval
    options, trusting the setup's trusted statuses when it names them."""
    try:
        wb = wb.trusting(setup.trusted) if setup.trusted is not None else wb
        return wb.using(**typed_options(setup.options, wb.using)) if setup.retrieval else wb
    except (TypeError, ValueError) as e:
        raise ValueError(f"Setup {shorten(setup.name)!r}: {e}") from None


def rankings(wb: Workbench, setup: Setup) -> tuple[list, list]:
    """(candidates in bi-encoder order, candidates in final order) for every valid question, all at once."""
    allowed = setup.statuses
    try:
        before = wb.top_ids(setup.chunker, setup.candidates, allowed)
        after = wb.top_ids(setup.chunker, setup.candidates, allowed, True, setup.candidates) if setup.rerank else before
    except ValueError as e:                  # an unknown status, said by the index
        raise ValueError(f"Setup {shorten(setup.name)!r}: {e}") from None
    return before, after


def run_setup(wb: Workbench, setup: Setup, generate: Callable[[str, list], str] = scripted_answer,
              done: list | None = None,
              on_progress: Callable[[int, int, str], None] | None = None, bench: Workbench | None = None
              ) -> list[QuestionResult]:
    """Every valid golden question through the setup: its loss stage, ranks and judged answer.

    done: a list to append the results to (kept by the caller if the loop is interrupted); questions already
    in it are not asked again. on_progress(answers done, answers in all, what comes next) before each answer.
    bench: setup_workbench(wb, setup), when the caller already has it.
    """
    done = [] if done is None else done
    bench = setup_workbench(wb, setup) if bench is None else bench
    t0 = time.perf_counter()
    ix = bench.index(setup.chunker)
    before, after = rankings(bench, setup)
    holders = bench.holders(setup.chunker)
    ranks_before, ranks = first_hit_ranks(holders, before), first_hit_ranks(holders, after)
    status = ix.statuses()
    n = len(bench.golden_check.valid)
    share = (time.perf_counter() - t0) / max(1, n)
    for q in range(len(done), n):
        if on_progress:
            on_progress(q, n, f"{setup.name}: question {q + 1} of {n}")
        done.append(_answer(bench, setup, q, after[q], holders[q], status, ranks_before[q], ranks[q], generate,
                            share))
    return done


def spans_of(wb: Workbench, setup: Setup) -> list[list[str]]:
    """The spans each valid golden question's answer was given under the setup, as `run_setup` handed them to the
    generator (rankings are deterministic): what a person's mark of that answer keeps beside it."""
    bench = setup_workbench(wb, setup)
    ix = bench.index(setup.chunker)
    return [[ix.texts[int(c)] for c in final[:setup.k]] for final in rankings(bench, setup)[1]]


def _rank(r: float) -> int | None:
    return int(r) if r != float("inf") else None


def _answer(wb, setup, q, final, held, status, rank_before, rank, generate, share) -> QuestionResult:
    t = time.perf_counter()
    ix, row = wb.index(setup.chunker), wb.golden_check.valid[q]
    kept = [int(c) for c in final[:setup.k]]
    spans = [ix.texts[c] for c in kept]
    answer = generate(row.question, spans)
    j = judge_answer(answer, spans, kept, ix, row.doc, row.anchor, wb.trusted, with_article=False,
                     key=row.key, question=row.question, reply=row.reply, accept=row.accept)
    allowed_holds = setup.statuses is None or any(status[c] in setup.statuses for c in held)
    stage = stage_of(bool(held), allowed_holds, _rank(rank_before), _rank(rank), setup.k, setup.rerank, j.outcome)
    outranked = bool(anchor_place(kept, held, ix, wb.trusted).outranked_by)
    return QuestionResult(row.question, row.doc, _rank(rank_before), _rank(rank), stage, outranked, j.outcome,
                          answer, j.sentence, share + time.perf_counter() - t)


def loss_counts(results) -> dict:
    """stage -> number of questions, every stage present, in pipeline order."""
    counts = dict.fromkeys(STAGES, 0)
    for r in results:
        counts[r.stage] += 1
    return counts


def losses_table(wb: Workbench, chunker=ARTICLE_CHUNKER, *, setup: Setup | None = None,
                 generate: Callable[[str, list], str] = scripted_answer) -> pd.DataFrame:
    """The loss account of the golden set: stage, questions, share, meaning; one row per stage, zeros kept.

    The default setup is the article's pipeline on `chunker`: 20 candidates reranked, 3 kept, only the
    trusted statuses allowed, the scripted generator, the strict checker. attrs["outranked_by_untrusted"]
    counts the questions where a kept untrusted chunk ranks above the anchor's.
    """
    setup = setup or default_setup(wb, chunker=chunker)
    results = run_setup(wb, setup, generate)
    n = len(results)
    df = counted([{"stage": s, "questions": c, "share": c / n if n else float("nan"), "meaning": MEANING[s]}
                for s, c in loss_counts(results).items()], wb)
    df.attrs.update(setup=setup.to_text(), outranked_by_untrusted=sum(r.outranked_by_untrusted for r in results))
    return df
