"""The golden set: questions with the document that answers and a literal anchor, checked against a corpus.

A row is valid when its anchor appears literally in its document after whitespace is collapsed on
both sides. An invalid row is never an assert: it is reported with its reason and excluded from every
metric, and the count excluded travels with every result.

    check_golden([GoldenRow("q?", "math", "evaluates to zero")], corpus).valid  -> the rows that count

Anchors are located once, in every document, as ranges of whitespace tokens: a chunk holds an anchor
exactly when its own word span covers one of those ranges, which is what the article's
`normalize(anchor) in normalize(chunk)` tests, without rescanning the text for every chunk.

Left out on purpose: fuzzy matching. An anchor that differs in case or punctuation is invalid, and
the reason says so, because a lenient match would hide a golden-set mistake.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .corpus import DATA, Corpus
from .text import normalize

GOLDEN_FILES = {"article": DATA / "golden.json",      # the article's questions, in the library's own words
                "user": DATA / "golden_user.json"}     # the same anchors, asked as a user would (trap 3)


class GoldenRow(NamedTuple):
    question: str   # as a user would type it
    doc: str        # id of the document that answers
    anchor: str     # literal string of that document that contains the answer


@dataclass(frozen=True)
class Problem:
    row: int        # 0-based position in the golden set
    question: str
    reason: str     # plain sentence: why the row does not count


@dataclass(frozen=True)
class GoldenCheck:
    rows: tuple                 # every row, as given
    valid: tuple                # the rows that count, in order
    problems: tuple             # Problem for each excluded row
    occurrences: dict           # valid row position -> {doc position: [(first token, last token), ...]}

    @property
    def n_excluded(self) -> int:
        return len(self.problems)

    def frame(self):
        """One row per question: question, doc, anchor, valid, reason."""
        import pandas as pd
        reasons = {p.row: p.reason for p in self.problems}
        return pd.DataFrame([{"question": r.question, "doc": r.doc, "anchor": r.anchor,
                              "valid": i not in reasons, "reason": reasons.get(i, "")}
                             for i, r in enumerate(self.rows)])


def load_golden(which: str = "article") -> list[GoldenRow]:
    """A bundled golden set: "article" (the article's 18 questions) or "user" (the same, phrased as a user would)."""
    if which not in GOLDEN_FILES:
        raise ValueError(f"Unknown golden set {which!r}: use one of {', '.join(GOLDEN_FILES)}.")
    rows = json.loads(GOLDEN_FILES[which].read_text(encoding="utf-8"))["questions"]
    return [GoldenRow(r["question"], r["doc"], r["anchor"]) for r in rows]


def _token_ranges(text: str, starts: np.ndarray, target: str) -> list[tuple[int, int]]:
    """Every occurrence of target in text = " ".join(tokens), as the (first, last) token it touches.

    starts[t] is where token t begins in text. "a bc d", target "c d" -> [(1, 2)]
    """
    out, at = [], text.find(target)
    while at >= 0:
        first = int(np.searchsorted(starts, at, side="right") - 1)
        last = int(np.searchsorted(starts, at + len(target) - 1, side="right") - 1)
        out.append((first, last))
        at = text.find(target, at + 1)
    return out


def _reason(row: GoldenRow, docs: dict) -> str:
    if not isinstance(row.question, str) or not row.question.strip():
        return "The question is empty."
    if not isinstance(row.anchor, str) or not row.anchor.strip():
        return "The anchor is empty: copy the sentence that answers from the document."
    if not isinstance(row.doc, str) or row.doc not in docs:
        return f"Unknown document {row.doc!r}: no document has that id."
    target, text = normalize(row.anchor), normalize(docs[row.doc].text)
    if target in text:
        return ""
    if target.lower() in text.lower():
        return f"Anchor not found in {row.doc!r}: it appears only with different upper/lower case."
    return f"Anchor not found in {row.doc!r}: the document does not contain that text."


def _as_row(i: int, r) -> GoldenRow:
    """A golden row from a (question, doc, anchor) triple or such a dict, or a ValueError naming the row."""
    if isinstance(r, dict) and set(GoldenRow._fields) <= set(r):
        return GoldenRow(*(r[f] for f in GoldenRow._fields))
    if isinstance(r, (str, bytes, dict)) or not hasattr(r, "__len__") or len(r) != 3:
        raise ValueError(f"Golden row {i + 1} is {r!r:.80}: each row needs three fields, "
                         f"(question, document id, anchor).")
    return GoldenRow(*r)


def check_golden(rows, corpus: Corpus, tokens: list[list[str]] | None = None) -> GoldenCheck:
    """Validate each row against the corpus and locate the valid anchors in every document.

    tokens: each document's whitespace tokens, if already computed (TokenizedCorpus.tokens).
    """
    rows = tuple(_as_row(i, r) for i, r in enumerate(rows))
    docs = corpus.by_id
    tokens = tokens if tokens is not None else [d.text.split() for d in corpus.documents]
    texts = [" ".join(t) for t in tokens]
    starts = [np.cumsum([0] + [len(t) + 1 for t in toks[:-1]]) for toks in tokens]
    valid, problems, occurrences = [], [], {}
    for i, row in enumerate(rows):
        reason = _reason(row, docs)
        if reason:
            problems.append(Problem(i, row.question, reason))
            continue
        target = normalize(row.anchor)
        occurrences[len(valid)] = {d: r for d, text in enumerate(texts)
                                   if target in text and (r := _token_ranges(text, starts[d], target))}
        valid.append(row)
    return GoldenCheck(rows, tuple(valid), tuple(problems), occurrences)
