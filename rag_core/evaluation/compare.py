"""Setups side by side: a leaderboard with intervals, every pair tested, the per-question grid, the loss account.

    c = compare_setups(wb, [parse_setup("filter:", base), parse_setup("no filter: statuses=all", base)])
    c.leaderboard   setup, recall_at_1, ci_low_at_1, ci_high_at_1, hits_at_1, ... questions, answered,
                    wrong_answer, not_confirmed, wrong_source, refused, abstained, chunks, mean_seconds  (one row
                    per setup)
    c.recall        setup, k, recall, ci_low, ci_high, hits, questions               (long: error bars)
    c.pairs         a, b, k, a_only, b_only, both, neither, questions, p_value, sentence, questions_needed,
                    power_sentence                                                   (every pair at every k)
    c.pair(a, b, k) one row of pairs as a dict; c.discordant(a, b, k): the questions only one of them finds
    c.grid          question, doc, then "NAME rank", "NAME stage", "NAME outranked" per setup  (one row per question)
    c.losses        setup x STAGES counts; c.losses_long: setup, stage, questions, colour
    c.to_json(), c.to_markdown()

"Found at k" is the ceiling: a chunk holding the anchor among the first k of the setup's final order
(after the filter and the rerank). Ranks go as deep as the setup's candidates: a k above them counts
the candidates only. Recall intervals are Wilson's (95 %); pairs use the exact McNemar test.

A Comparison is made from per-question results, so runs saved earlier (`store`) compare the same way:
`Comparison(setups, results, chunks)` with results[name] a list of QuestionResult in golden-set order.

Left out on purpose: charts and colours on screen (the page draws them, with losses.COLOURS), and any
correction for testing several pairs at once (see `stats`).
"""
from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from typing import Callable

import pandas as pd

from rag_core.evaluation import stats
from rag_core.evaluation.vocabulary import GOLDEN_OUTCOMES, column
from rag_core.evaluation.losses import COLOURS, STAGES, loss_counts, run_setup, setup_workbench
from rag_core.evaluation.setup import MAX_NAME, Setup, distinct_names
from rag_core.evaluation.workbench import Workbench
from rag_core.generation.generator import scripted_answer
from rag_core.evaluation.report import markdown_table
from rag_core.text.markdown import plain

KS = (1, 3, 5)


class Comparison:
    def __init__(self, setups, results: dict, chunks: dict | None = None, ks=KS):
        self.setups = list(setups)                       # Setup, in the order shown
        self.names = [s.name for s in self.setups]
        distinct_names(self.setups)
        self.results = {n: list(results[n]) for n in self.names}   # name -> [QuestionResult], golden order
        lengths = {len(r) for r in self.results.values()}
        if len(lengths) > 1:
            raise ValueError("The setups were not run on the same questions: compare runs of one golden set.")
        questions = [[r.question for r in rs] for rs in self.results.values()]
        if any(q != questions[0] for q in questions):
            raise ValueError("The setups were run on different golden questions: compare runs of one golden set.")
        self.questions = questions[0] if questions else []
        self.chunks = dict(chunks or {})                 # name -> chunks in the setup's index
        self.ks = tuple(sorted(set(int(k) for k in ks)))
        if not self.ks or self.ks[0] < 1:
            raise ValueError(f"k must be whole numbers above 0, got {ks!r}.")

    # ---- per setup -------------------------------------------------------------------------------
    def found(self, name: str, k: int) -> list[bool]:
        """Per question: is a chunk holding the anchor among the first k of this setup's final order?"""
        return [r.first_rank is not None and r.first_rank <= k for r in self.results[name]]

    @property
    def recall(self) -> pd.DataFrame:
        rows = []
        for name in self.names:
            for k in self.ks:
                hits, n = sum(self.found(name, k)), len(self.questions)
                lo, hi = stats.wilson(hits, n)
                rows.append({"setup": name, "k": k, "recall": hits / n if n else math.nan, "ci_low": lo,
                             "ci_high": hi, "hits": hits, "questions": n})
        return pd.DataFrame(rows, columns=["setup", "k", "recall", "ci_low", "ci_high", "hits", "questions"])

    @property
    def leaderboard(self) -> pd.DataFrame:
        rows, recall = [], self.recall
        for name in self.names:
            row = {"setup": name}
            for r in recall[recall.setup == name].itertuples():
                row.update({f"recall_at_{r.k}": r.recall, f"ci_low_at_{r.k}": r.ci_low, f"ci_high_at_{r.k}": r.ci_high,
                            f"hits_at_{r.k}": r.hits})
            outcomes = self.outcomes(name)
            secs = [r.seconds for r in self.results[name]]
            row.update({"questions": len(self.questions), **{column(o): outcomes[o] for o in GOLDEN_OUTCOMES},
                        "chunks": self.chunks.get(name), "mean_seconds": sum(secs) / len(secs) if secs else math.nan})
            rows.append(row)
        return pd.DataFrame(rows)

    def outcomes(self, name: str) -> dict:
        """outcome -> number of answers of this setup (every answer, lost anchor or not)."""
        counts = dict.fromkeys(GOLDEN_OUTCOMES, 0)
        for r in self.results[name]:
            counts[r.outcome] += 1
        return counts

    @property
    def losses(self) -> pd.DataFrame:
        """Setup x stage: how many questions each stage loses (the last column, answered, keeps)."""
        return pd.DataFrame([loss_counts(self.results[n]) for n in self.names],
                            index=pd.Index(self.names, name="setup"), columns=list(STAGES))

    @property
    def losses_long(self) -> pd.DataFrame:
        """setup, stage, questions, colour: one row per (setup, stage), stages in pipeline order, zeros kept."""
        return pd.DataFrame([{"setup": n, "stage": s, "questions": c, "colour": COLOURS[s]}
                             for n in self.names for s, c in loss_counts(self.results[n]).items()])

    # ---- pairs -----------------------------------------------------------------------------------
    def pair(self, a: str, b: str, k: int) -> dict:
        """The discordant questions of a against b at k, the exact test, its sentence and the power estimate."""
        fa, fb = self.found(a, k), self.found(b, k)
        a_only = sum(x and not y for x, y in zip(fa, fb))
        b_only = sum(y and not x for x, y in zip(fa, fb))
        both = sum(x and y for x, y in zip(fa, fb))
        n = len(self.questions)
        p = stats.mcnemar_exact(a_only, b_only)
        needed = stats.questions_needed(a_only / n, b_only / n) if n else None
        return {"a": a, "b": b, "k": k, "a_only": a_only, "b_only": b_only, "both": both,
                "neither": n - a_only - b_only - both, "questions": n, "p_value": p,
                "sentence": stats.verdict_sentence(a_only, b_only, p, a, b, k),
                "questions_needed": needed, "power_sentence": stats.power_sentence(needed, n, a_only, b_only)}

    @property
    def pairs(self) -> pd.DataFrame:
        rows = [self.pair(a, b, k) for a, b in itertools.combinations(self.names, 2) for k in self.ks]
        out = pd.DataFrame(rows, columns=["a", "b", "k", "a_only", "b_only", "both", "neither", "questions", "p_value",
                                          "sentence", "questions_needed", "power_sentence"])
        out["questions_needed"] = out["questions_needed"].astype("Int64")
        return out

    def discordant(self, a: str, b: str, k: int) -> pd.DataFrame:
        """The questions found at k by exactly one of a and b: question, found_by, and both setups' rank and stage."""
        fa, fb = self.found(a, k), self.found(b, k)
        rows = [{"question": q, "found_by": a if x else b, f"{a} rank": ra.first_rank, f"{a} stage": ra.stage,
                 f"{b} rank": rb.first_rank, f"{b} stage": rb.stage}
                for q, x, y, ra, rb in zip(self.questions, fa, fb, self.results[a], self.results[b]) if x != y]
        return pd.DataFrame(rows, columns=["question", "found_by", f"{a} rank", f"{a} stage", f"{b} rank",
                                           f"{b} stage"])

    # ---- per question ----------------------------------------------------------------------------
    @property
    def grid(self) -> pd.DataFrame:
        """One row per golden question: question, doc, then per setup its first rank (empty: not a candidate),
        its stage, and whether an untrusted chunk outranked the anchor's."""
        first = self.results[self.names[0]] if self.names else []
        data = {"question": self.questions, "doc": [r.doc for r in first]}
        for n in self.names:
            data[f"{n} rank"] = pd.array([r.first_rank for r in self.results[n]], dtype="Int64")
            data[f"{n} stage"] = pd.Categorical([r.stage for r in self.results[n]], categories=STAGES)
            data[f"{n} outranked"] = [r.outranked_by_untrusted for r in self.results[n]]
        return pd.DataFrame(data)

    # ---- export ----------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        recall = self.recall
        setups = []
        for s in self.setups:
            rec = recall[recall.setup == s.name]
            secs = [r.seconds for r in self.results[s.name]]
            setups.append({"name": s.name, "setup": s.to_text(),
                           "recall": [{"k": int(r.k), "recall": _num(r.recall), "ci_low": _num(r.ci_low),
                                       "ci_high": _num(r.ci_high), "hits": int(r.hits), "questions": int(r.questions)}
                                      for r in rec.itertuples()],
                           "outcomes": self.outcomes(s.name), "losses": loss_counts(self.results[s.name]),
                           "outranked_by_untrusted": sum(r.outranked_by_untrusted for r in self.results[s.name]),
                           "chunks": self.chunks.get(s.name),
                           "mean_seconds": _num(sum(secs) / len(secs)) if secs else None})
        pairs = [{k: (_num(v) if isinstance(v, float) else v) for k, v in p.items()}
                 for p in (self.pair(a, b, k) for a, b in itertools.combinations(self.names, 2) for k in self.ks)]
        questions = [{"question": q, "doc": self.results[self.names[0]][i].doc,
                      "setups": {n: {"first_rank": self.results[n][i].first_rank, "stage": self.results[n][i].stage,
                                     "outranked_by_untrusted": self.results[n][i].outranked_by_untrusted,
                                     "outcome": self.results[n][i].outcome}
                                 for n in self.names}}
                     for i, q in enumerate(self.questions)]
        return {"setups": setups, "pairs": pairs, "questions": questions}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    def to_markdown(self) -> str:
        lb = self.leaderboard
        board = pd.DataFrame({"setup": lb.setup})
        for k in self.ks:
            board[f"ceiling at {k} (95 % interval)"] = [
                f"{h}/{n} = {v:.3f} ({lo:.3f}-{hi:.3f})" if n else "no question"
                for h, n, v, lo, hi in zip(lb[f"hits_at_{k}"], lb.questions, lb[f"recall_at_{k}"],
                                           lb[f"ci_low_at_{k}"], lb[f"ci_high_at_{k}"])]
        for col in ("answered", "wrong_answer", "not_confirmed", "wrong_source", "refused", "abstained", "chunks",
                    "mean_seconds"):
            board[col] = lb[col]
        parts = ["# Open Book comparison", "\n".join(f"- {plain(s.to_text(), one_line=True)}" for s in self.setups),
                 "## Leaderboard\n\n" + markdown_table(board)]
        if len(self.names) > 1:
            line = lambda p: plain(f"{p['a']} / {p['b']}, k = {p['k']}: {p['sentence']} {p['power_sentence']}",  # noqa: E731
                                   one_line=True)
            lines = [f"- {line(p)}"
                     for p in (self.pair(a, b, k) for a, b in itertools.combinations(self.names, 2) for k in self.ks)]
            parts.append("## Pairs\n\n" + "\n".join(lines))
        parts.append("## Where questions are lost\n\n" + markdown_table(self.losses.reset_index()))
        grid = self.grid.drop(columns=[f"{n} outranked" for n in self.names])
        for n in self.names:
            grid[f"{n} rank"] = grid[f"{n} rank"].astype(object).where(grid[f"{n} rank"].notna(), "-")
        parts.append("## Questions\n\n" + markdown_table(grid))
        return "\n\n".join(parts) + "\n"


def _num(v):
    """A float for JSON: NaN -> None."""
    v = float(v)
    return None if math.isnan(v) else v


def compare_setups(wb: Workbench, setups, ks=KS, generate_for: Callable[[Setup], Callable] = lambda setup: scripted_answer,
            done: dict | None = None,
            on_progress: Callable[[int, int, str], None] | None = None) -> Comparison:
    """Run every setup over the valid golden questions and put them side by side.

    generate_for(setup) gives the generator of a setup (scripted_answer unless it says "model").
    done: name -> list of results, appended as they come (kept by the caller if a run stops half-way).
    on_progress(answers done, answers in all, what comes next) before each answer.
    """
    setups = list(setups)
    if not setups:
        raise ValueError("No setup to compare: give at least one.")
    distinct_names(setups)
    done = {} if done is None else done
    n, chunks = len(wb.golden_check.valid), {}
    for i, s in enumerate(setups):
        step = (lambda d, total, what, i=i: on_progress(i * n + d, len(setups) * n, what)) if on_progress else None
        bench = setup_workbench(wb, s)
        run_setup(wb, s, generate_for(s), done.setdefault(s.name, []), step, bench)
        chunks[s.name] = len(bench.index(s.chunker))
    if on_progress:
        on_progress(len(setups) * n, len(setups) * n, "done")
    return Comparison(setups, done, chunks, ks)


def compare_runs(runs, ks=KS) -> Comparison:
    """Saved runs (store.Run) side by side, e.g. two models on one golden set; each labelled by its setup's
    name, or "name #id" when two share a name. ValueError when they were run on different golden sets."""
    runs = list(runs)
    ids = [r.info.id for r in runs]
    if len(set(ids)) != len(ids):
        raise ValueError(f"Run #{next(i for i in ids if ids.count(i) > 1)} is chosen twice: pick different runs.")
    if len({r.info.golden_key for r in runs}) > 1:
        ids = ", ".join(f"#{r.info.id}" for r in runs)
        raise ValueError(f"Runs {ids} were made on different golden sets: only runs of one golden set compare "
                         "question by question.")
    names = [r.setup.name for r in runs]
    if len(set(names)) != len(names):
        names = [f"{n[:MAX_NAME - 8]} #{r.info.id}" for n, r in zip(names, runs)]
    labels = names
    setups = [replace(r.setup, name=label) for r, label in zip(runs, labels)]
    return Comparison(setups, {label: r.results for label, r in zip(labels, runs)},
                      {label: r.info.chunks for label, r in zip(labels, runs)}, ks)
