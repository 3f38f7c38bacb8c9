"""The tour's sentences: what each step's figure shows, in words, as a pure function of the figure and its counts
(true on any data, not only the bundled one), so that tests can feed them generated cases.

    ceiling_sentence(DataFrame k=[3], found=[12], questions=[18], recall=[0.667], k=3)
    -> "At k = 3, the answer is among the chunks handed over for 12 of 18 golden questions (0.667): ..."

Left out on purpose: computing the figures and choosing the examples (rag_core.evaluation.tour), drawing (ui.tour_view).
"""
from __future__ import annotations

import pandas as pd

from rag_core.evaluation import losses as loss
from rag_core.text.messages import listing

NO_GOLDEN = ("This step needs golden questions (a question, its document and the sentence that answers it), and "
             "this dataset has none: add a golden set on the Your data page.")
TRAP3_K = 3                     # step 8: the ceiling compared at this k


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _share(x) -> str:
    return "n/a" if pd.isna(x) else f"{x:.3f}"


def untrusted_words(statuses, trusted) -> str:
    """('current', 'draft', 'outdated'), ('current',) -> 'draft or outdated'; nothing else -> 'untrusted'."""
    others = [s for s in statuses if s not in trusted]
    return listing(others, "or") if others else "untrusted"



def exam_sentence(example: dict, questions: int, documents: int) -> str:
    """Step 1: the question, its anchor and its document."""
    if not example:
        return f"The {documents} documents are there, but there is no golden question to ask them. " + NO_GOLDEN
    return (f"Question {example['number']} of {questions} asks \"{example['question']}\"; the sentence that answers "
            f"it, \"{example['anchor']}\", is in {example['doc']} ({example['status']}), one of {documents} documents: "
            "the search must hand over the chunk that holds it.")


def ceiling_sentence(fig: pd.DataFrame, k: int) -> str:
    """Step 2: fig has k, found, questions, recall."""
    if fig.empty or not int(fig.questions.iloc[0]):
        return NO_GOLDEN
    row = fig[fig.k == k]
    if row.empty:
        raise ValueError(f"k = {k} is not in the figure: choose k among {', '.join(map(str, fig.k))}.")
    r = row.iloc[0]
    return (f"At k = {k}, the answer is among the chunks handed over for {int(r.found)} of {int(r.questions)} golden "
            f"questions ({_share(r.recall)}): no prompt and no bigger model can score above {_share(r.recall)}.")


def cut_sentence(cut: int, questions: int, label: str, first: str | None) -> str:
    """Step 3: how many anchors the current chunker cuts, and the first."""
    if not questions:
        return NO_GOLDEN
    if not cut:
        return (f"With {label}, no anchor is cut: each of the {questions} is whole in some chunk. Smaller chunks "
                "or no overlap cut some (the chart counts them for every window size).")
    return (f"With {label}, {cut} of {questions} anchors {'is' if cut == 1 else 'are'} cut by a chunk boundary: no "
            f"chunk holds {'it' if cut == 1 else 'them'} whole, and no search can find {'it' if cut == 1 else 'them'}. "
            f"The first is the anchor of \"{first}\"")


def draft_sentence(outranked: int, questions: int, k: int, untrusted: str, example: dict) -> str:
    """Step 4: how many questions have an untrusted chunk above the anchor's (filter off), and the first one."""
    if not questions:
        return NO_GOLDEN
    if not outranked:
        return (f"In your documents no {untrusted} chunk outranks the anchor's chunk at k = {k}, in any of the "
                f"{questions} golden questions (filter off).")
    where = (f"the anchor is in S{example['anchor_rank']}" if example.get("anchor_rank")
             else f"the anchor is not in the {k} spans")
    above = listing(f"S{n} is {status}" for n, status in example["outranked_by"])
    return (f"In {outranked} of {questions} golden questions a {untrusted} chunk outranks the anchor's chunk at "
            f"k = {k} (filter off). The first: \"{example['question']}\": {above}, {where}, and the scripted "
            f"generator's answer is judged {example['outcome']}.")


def filter_sentence(before: int, after: int, questions: int, untrusted: str, example: dict, on: bool) -> str:
    """Step 5: contradicted questions in the top 3 without and with the filter, and the example's two outcomes."""
    if not questions:
        return (f"The filter keeps only the trusted statuses: {example.get('excluded', 0)} of "
                f"{example.get('chunks', 0)} chunks never compete. " + NO_GOLDEN)
    counts = (f"questions with a {untrusted} chunk in their top 3 go from {before} to {after} of {questions}")
    if not example:
        return f"With the filter on, {counts}."
    moves = (f"the answer to \"{example['question']}\" stays {example['outcome_off']}"
             if example["outcome_off"] == example["outcome_on"]
             else f"the answer to \"{example['question']}\" goes from {example['outcome_off']} to "
                  f"{example['outcome_on']}")
    why = {"not confirmed": f" (grounded on {example['doc']}, the right document, but the scripted generator's "
                            f"sentence neither states the golden answer '{example.get('key', '')}' nor contradicts "
                            "it: it may be right in other words)",
           "wrong answer": f" (grounded on {example['doc']}, the right document, but it contradicts the golden answer "
                           f"'{example.get('key', '')}')",
           "answered": f" (grounded on {example['doc']}, the right document, and it states the golden answer "
                       f"'{example.get('key', '')}')"}.get(example["outcome_on"], "")
    if on:
        return f"With the filter on, {counts}, and {moves}{why}."
    return (f"The filter is off: {before} of {questions} questions have a {untrusted} chunk in their top 3, and the "
            f"answer to \"{example['question']}\" is judged {example['outcome_off']}. Turned on, {after} would, "
            f"and the answer would be judged {example['outcome_on']}{why}.")


MOVES = ("moved up", "moved down", "unchanged", "not a candidate")


def rerank_sentence(fig: pd.DataFrame, candidates: int, k: int) -> str:
    """Step 6: fig has one row per question with `move` (MOVES), `rank_before`, `rank_after`."""
    if fig.empty:
        return NO_GOLDEN
    n = {m: int((fig.move == m).sum()) for m in MOVES}
    before, after = int((fig.rank_before <= k).sum()), int((fig.rank_after <= k).sum())
    text = (f"The reranker moves the anchor up in {n['moved up']} of {len(fig)} questions, down in "
            f"{n['moved down']}, and leaves it in place in {n['unchanged']}")
    text += (f"; in {n['not a candidate']} it is not among the {candidates} candidates, and no reranker can bring it "
             "back" if n["not a candidate"] else f"; every anchor is among the {candidates} candidates")
    return text + f". In the top {k}: {before} without the reranker, {after} with it."


def checker_sentence(fig: pd.DataFrame, question: str) -> str:
    """Step 7: fig has kind, outcome per answer tried."""
    if fig.empty:
        return "There is no answer to try."
    refused = list(fig[fig.outcome == "refused"].kind)
    passed = fig[~fig.outcome.isin(["refused", "abstained"])]
    text = f"Of {_count(len(fig), 'answer', 'answers')} tried for \"{question}\", the checker refuses "
    text += (f"{len(refused)} ({listing(refused)})" if refused else "none")
    if passed.empty:
        return text + ", and lets none through as grounded."
    return text + ", and lets through " + listing(f"{r.kind} as {r.outcome}" for r in passed.itertuples()) + "."


def trap3_sentence(fig: pd.DataFrame, k: int = TRAP3_K) -> str:
    """Step 8: fig has retriever, article_questions, user_questions (at k); user questions may be NaN (none)."""
    if fig.empty:
        return NO_GOLDEN
    if fig.user_questions.isna().all():
        return ("The questions phrased as a user would are written for the bundled corpus: none fits these "
                "documents, so only the golden set's own phrasing is measured.")
    parts = {"falls": [], "rises": [], "stays": []}
    for r in fig.itertuples():
        a, u = round(float(r.article_questions), 3), round(float(r.user_questions), 3)
        parts["falls" if u < a else "rises" if u > a else "stays"].append(f"{r.retriever} ({_share(a)} → {_share(u)})")
    said = [f"{verb} for {listing(items)}" for verb, items in parts.items() if items]
    return f"Asked as a user would, the ceiling at k = {k} " + "; it ".join(said) + "."


def fix_first_sentence(fig: pd.DataFrame) -> str:
    """Step 9: fig has stage, questions (losses_table). The stage that loses the most questions, ties named."""
    n = int(fig.questions.sum()) if not fig.empty else 0
    if not n:
        return NO_GOLDEN
    lost = fig[fig.stage != "answered"]
    most = int(lost.questions.max()) if not lost.empty else 0
    if not most:
        return f"No question is lost: all {n} are answered. Nothing to fix on this data."
    worst = list(lost[lost.questions == most].stage)
    if len(worst) > 1:
        return (f"Fix first one of {listing(worst)}: they lose {most} of {n} questions each, more than any other "
                "stage.")
    return (f"The one thing to fix first: {worst[0]}, where {most} of {n} questions end. "
            f"{loss.MEANING[worst[0]]}")
