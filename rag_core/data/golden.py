"""The golden set: questions with the document that answers and a literal anchor, checked against a corpus.

A row is valid when its question can be searched (a word the tokenizer keeps, at most
MAX_QUESTION_CHARS characters) and was not asked by an earlier valid row (a question counts once), its doc names a
document, and its anchor (at least MIN_ANCHOR_CHARS characters besides spaces, with a word or number of its own)
appears literally in that document after whitespace is collapsed on both sides, standing alone: not glued to a
letter, digit or _ it begins or ends with, nor part of a longer number ('0' is not found in '0.6', nor 'max' in
'maxsize'; '(default 0.6)' is found in 'cutoff (default 0.6) is'). A row may carry an answer key (`answer`): the
words of the anchor that answer the question ("0.6" of "Optional arg cutoff (default 0.6)"), found in the anchor
the same way; without one the anchor is the key (`GoldenRow.key`). A yes/no question may carry its golden reply
(`reply`: "yes" or "no"): an answer that opens with the other one is wrong, one that opens with it and contradicts
nothing of the key is right (judgement.judge_answer). A row may list other wordings of its key that a marker
accepts (`accept`: "no size limit", "unbounded" for "the cache can grow without bound"), each a short phrase of
its own words, not necessarily in the document. An invalid row is never an assert: it is
reported with its reason and excluded from every metric, and the count excluded travels with every result.

    check_golden([GoldenRow("q?", "math", "evaluates to zero")], corpus).valid  -> the rows that count
    golden_problems(rows, documents)   -> the same reasons, cheaply, for documents not yet indexed

A doc may name its document with or without a file extension ("notes" for "notes.md", or the
reverse); a valid row carries the document's own id. An unknown doc gets a "did you mean" suggestion.

Anchors are located once, in every document, as ranges of whitespace tokens: a chunk holds an anchor
exactly when its own word span covers one of those ranges, which is what the article's
`normalize(anchor) in normalize(chunk)` tests, without rescanning the text for every chunk.

Left out on purpose: fuzzy matching of anchors. An anchor that differs in case or punctuation is
invalid, and the reason says so, because a lenient match would hide a golden-set mistake.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from rag_core.data.anchor_places import alone, find_all, token_ranges, token_starts
from rag_core.data.corpus import DATA, Corpus, Document
from rag_core.text.messages import shorten
from rag_core.text.questions import MAX_QUESTION_CHARS, check_question, question_key
from rag_core.text.tokens import normalize, words

GOLDEN_FILES = {"article": DATA / "golden.json",      # the article's questions, in the library's own words
                "user": DATA / "golden_user.json"}     # the same anchors, asked as a user would (trap 3)

_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")   # ".md", ".jsonl": what a doc may leave out or add
_SUGGEST_AMONG = 20_000                                   # more document ids than this: no "did you mean"
MIN_ANCHOR_CHARS = 3          # shorter anchors ('0', 'b') are found in almost any chunk: every search would be a hit


class GoldenRow(NamedTuple):
    question: str   # as a user would type it
    doc: str        # id of the document that answers
    anchor: str     # literal string of that document that contains the answer
    answer: str = ""    # the answer key: the words of the anchor that answer ("0.6"); "" = the whole anchor
    reply: str = ""     # a yes/no question's golden reply, "yes" or "no"; "" = not a yes/no question, or not said
    accept: tuple = ()  # other wordings of the key a marker accepts ("no size limit" for "grow without bound")

    @property
    def key(self) -> str:
        """What an answer must state to be right: the answer key, or the anchor when the row has none.

        GoldenRow("q?", "difflib", "Optional arg cutoff (default 0.6)", "0.6").key -> "0.6"
        """
        return self.answer if isinstance(self.answer, str) and self.answer.strip() else self.anchor


@dataclass(frozen=True)
class Problem:
    row: int        # 0-based position in the golden set
    question: str
    reason: str     # plain sentence: why the row does not count


@dataclass(frozen=True)
class GoldenCheck:
    rows: tuple                 # every row, as given
    valid: tuple                # the rows that count, in order, each with its document's own id
    problems: tuple             # Problem for each excluded row
    occurrences: dict           # valid row position -> {doc position: (n, 2) int array of (first, last) token}

    @property
    def n_excluded(self) -> int:
        return len(self.problems)

    def frame(self):
        """One row per question: question, doc, anchor, answer key, valid, reason."""
        import pandas as pd
        reasons = {p.row: p.reason for p in self.problems}
        return pd.DataFrame([{"question": r.question, "doc": r.doc, "anchor": r.anchor, "answer key": r.key,
                              "valid": i not in reasons, "reason": reasons.get(i, "")}
                             for i, r in enumerate(self.rows)])


def load_golden(which: str = "article") -> list[GoldenRow]:
    """A bundled golden set: "article" (the article's 18 questions) or "user" (the same, phrased as a user would)."""
    if which not in GOLDEN_FILES:
        raise ValueError(f"Unknown golden set {which!r}: use one of {', '.join(GOLDEN_FILES)}.")
    rows = json.loads(GOLDEN_FILES[which].read_text(encoding="utf-8"))["questions"]
    return [as_row(r, i) for i, r in enumerate(rows)]


def _question_problem(question) -> str:
    """Why a question cannot be searched, or "" when it can (the rules of `index.check_question`).

    "What is it?" -> "The question has no word the search can use (...)"
    """
    if not isinstance(question, str):
        return f"The question must be text, got {type(question).__name__}."
    if not question.strip():
        return "The question is empty."
    if len(question) > MAX_QUESTION_CHARS:
        return f"The question is {len(question):,} characters long; the limit is {MAX_QUESTION_CHARS:,}."
    if not words(question):
        return ("The question has no word the search can use (it reads the letters a-z and digits, and skips "
                "stopwords such as 'what', 'is', 'it'): rephrase it with a content word, e.g. a function name.")
    try:
        check_question(question)
    except ValueError as e:     # a rule the search gained later: its own sentence
        return str(e)
    return ""


class _Documents:
    """The documents a golden set is checked against: ids resolved, normalised texts computed once."""

    def __init__(self, documents, normalized: list[str] | None = None):
        self.docs = {}                                    # id -> Document (the first of a repeated id)
        for d in documents:
            if not isinstance(d, Document):
                raise ValueError(f"Expected Document objects (or a Corpus), got {type(d).__name__}: "
                                 "build them with Document(id, text, status).")
            self.docs.setdefault(d.id, d)
        self.normalized = dict(zip(self.docs, normalized)) if normalized is not None else {}
        self.lowered: dict[str, str] = {}
        self.stems: dict[str, list[str]] = {}             # id without its extension -> ids
        for i in self.docs:
            if isinstance(i, str) and _EXTENSION.search(i):
                self.stems.setdefault(_EXTENSION.sub("", i), []).append(i)
        self.suggestions: dict[str, str] = {}             # unknown doc -> " Did you mean ...?" or ""

    def resolve(self, doc: str) -> tuple[str | None, str]:
        """(the document id doc names, "") or (None, why not). "notes" finds "notes.md", and the reverse."""
        if doc in self.docs:
            return doc, ""
        stem = _EXTENSION.sub("", doc)
        found = self.stems.get(doc, []) + ([stem] if stem != doc and stem in self.docs else [])
        if len(found) == 1:
            return found[0], ""
        if found:
            return None, (f"Document {shorten(doc)!r} matches several documents ({', '.join(repr(shorten(f)) for f in found)}): "
                          "write the full id.")
        return None, f"Unknown document {shorten(doc)!r}: no document has that id.{self.suggest(doc)}"

    def suggest(self, doc: str) -> str:
        if doc not in self.suggestions:
            ids = [i for i in self.docs if isinstance(i, str)] if len(self.docs) <= _SUGGEST_AMONG else []
            close = difflib.get_close_matches(doc, ids, n=1)
            self.suggestions[doc] = f" Did you mean {shorten(close[0])!r}?" if close else ""
        return self.suggestions[doc]

    def text(self, doc_id: str, lower: bool = False) -> str:
        if doc_id not in self.normalized:
            self.normalized[doc_id] = normalize(self.docs[doc_id].text)
        if lower and doc_id not in self.lowered:
            self.lowered[doc_id] = self.normalized[doc_id].lower()
        return self.lowered[doc_id] if lower else self.normalized[doc_id]


def _check_row(row: GoldenRow, docs: _Documents) -> tuple[str | None, str]:
    """(the document id of a valid row, "") or (None, the reason it is excluded)."""
    reason = _question_problem(row.question)
    if reason:
        return None, reason
    if not isinstance(row.anchor, str) or not row.anchor.strip():
        return None, "The anchor is empty: copy the sentence that answers from the document."
    if not words(row.anchor):
        return None, (f"The anchor {shorten(row.anchor.strip(), 60)!r} holds no word, number or name an answer could be "
                      "checked against (only stopwords or symbols): copy the sentence that answers from the document.")
    size = len("".join(row.anchor.split()))
    if size < MIN_ANCHOR_CHARS:
        return None, (f"The anchor {row.anchor.strip()!r} is {size} character{'s' * (size > 1)} long: an anchor "
                      f"shorter than {MIN_ANCHOR_CHARS} characters is found in almost any chunk, so every search "
                      "would count as a hit. Copy the sentence that answers from the document.")
    if not isinstance(row.doc, str) or not row.doc.strip():
        return None, "The document id is empty: write the id of the document that answers."
    doc_id, reason = docs.resolve(row.doc)
    if doc_id is None:
        return None, reason
    target = normalize(row.anchor)
    text = docs.text(doc_id)
    found = np.array([text.find(target)], dtype=np.int64)
    if found[0] >= 0 and not alone(text, found, target)[0]:      # the first match is inside a word: look further
        found = find_all(text, target)
    if found[0] >= 0 and alone(text, found, target).any():
        return doc_id, _key_problem(row) or _reply_problem(row) or accept_problem(row.accept if len(row) > 5 else ())
    found = found[found >= 0]
    if len(found):
        around = text[max(0, found[0] - 12):found[0] + len(target) + 12]
        return None, (f"Anchor found in {doc_id!r} only inside longer words or numbers ({around!r}): copy whole "
                      "words from the document.")
    if target.lower() in docs.text(doc_id, lower=True):
        return None, f"Anchor not found in {shorten(doc_id)!r}: it appears only with different upper/lower case."
    return None, f"Anchor not found in {shorten(doc_id)!r}: the document does not contain that text."


def _key_problem(row: GoldenRow) -> str:
    """Why a row's answer key does not count, or "" (none, or found in the anchor as the anchor is in its document).

    GoldenRow("q?", "d", "evaluates to zero when k > n", "zero when k < n") -> "The answer key 'zero when k < n' is
    not in the anchor: ..."
    """
    if row.answer is None or row.answer == "":
        return ""
    if not isinstance(row.answer, str):
        return f"The answer key must be text, got {type(row.answer).__name__}."
    key, anchor = normalize(row.answer), normalize(row.anchor)
    if not key:
        return ""
    if not words(key) and not any(ch.isdigit() for ch in key):
        return (f"The answer key {key[:60]!r} holds no word, number or name an answer could be checked against: "
                "copy the words of the anchor that answer the question.")
    if key in anchor:
        return ""
    if key.lower() in anchor.lower():
        return f"The answer key {key[:60]!r} is in the anchor only with different upper/lower case: copy it exactly."
    return (f"The answer key {key[:60]!r} is not in the anchor {anchor[:60]!r}: the key must be words of the anchor "
            "that answer the question (or leave it empty to use the whole anchor).")


def _reply_problem(row: GoldenRow) -> str:
    """Why a row's reply does not count, or "": it is "yes", "no" or empty, in any case.

    GoldenRow("Is it?", "d", "a", "", "maybe") -> "The reply 'maybe' must be yes or no, or empty: ..."
    """
    reply = row.reply if len(row) > 4 else ""
    if reply is None or (isinstance(reply, str) and reply.strip().lower() in ("", "yes", "no")):
        return ""
    shown = reply[:20] if isinstance(reply, str) else type(reply).__name__
    return (f"The reply {shown!r} must be yes or no, or empty: it is the golden answer to a yes/no question "
            "(leave it empty for any other question).")


MAX_ACCEPTED, MAX_ACCEPTED_CHARS = 20, 120     # other wordings a row may list, and the length of each


def accept_problem(accept) -> str:
    """Why a row's accepted wordings do not count, or "": a list of at most MAX_ACCEPTED short phrases, each with
    a word or number an answer could be checked against, none holding "|" (the golden CSV's separator).

    accept_problem(["no size limit", ""]) -> "Accepted wording 2 is empty: ..."
    """
    if accept is None or accept == "" or accept == ():
        return ""
    if isinstance(accept, (str, bytes)) or not isinstance(accept, (list, tuple)):
        return ("The accepted wordings must be a list of phrases (in a CSV: one cell, the phrases separated by "
                f"'|'), got {type(accept).__name__}.")
    if len(accept) > MAX_ACCEPTED:
        return f"There are {len(accept)} accepted wordings; the limit is {MAX_ACCEPTED}: keep the ones people write."
    for n, a in enumerate(accept, 1):
        if not isinstance(a, str):
            return f"Accepted wording {n} must be text, got {type(a).__name__}."
        if not a.strip():
            return f"Accepted wording {n} is empty: write a phrase, or remove it."
        if len(a) > MAX_ACCEPTED_CHARS:
            return (f"Accepted wording {n} is {len(a)} characters long; the limit is {MAX_ACCEPTED_CHARS}: a "
                    "short phrase that answers, such as 'no size limit'.")
        if "|" in a:
            return f"Accepted wording {n} holds '|', which separates wordings in a CSV cell: split it in two."
        if not words(a) and not any(ch.isdigit() for ch in a) and not re.search(r"[^\w\s'\"`()\[\].,;:!?]", a):
            return f"Accepted wording {n} ({shorten(a)!r}) holds no word, number or symbol an answer could state."
    return ""


def as_row(r, i: int = 0) -> GoldenRow:
    """A golden row from a (question, doc, anchor[, answer, reply, accept]) sequence or such a dict (accepted
    wordings given as a list, as JSON stores them, become a tuple), or a ValueError naming row i + 1."""
    if isinstance(r, dict) and set(GoldenRow._fields[:3]) <= set(r):
        return GoldenRow(*(r[f] for f in GoldenRow._fields[:3]), r.get("answer", ""), r.get("reply", ""),
                         _wordings(r.get("accept", ())))
    if isinstance(r, (str, bytes, dict)) or not hasattr(r, "__len__") or len(r) not in (3, 4, 5, 6):
        raise ValueError(f"Golden row {i + 1} is {shorten(repr(r))}: each row needs three fields, "
                         f"(question, document id, anchor), and may have a fourth, the answer key, a fifth, "
                         f"the reply to a yes/no question, and a sixth, the other wordings a marker accepts.")
    return GoldenRow(*r[:5], _wordings(r[5])) if len(r) > 5 else GoldenRow(*r)


def _wordings(accept):
    """Accepted wordings as a row holds them: a list (as JSON stores them) becomes a tuple; anything else is left
    for accept_problem to name."""
    return tuple(accept) if isinstance(accept, list) else accept


def _validate(rows: tuple, docs: _Documents) -> tuple[list[GoldenRow], list[Problem]]:
    valid, problems, asked = [], [], {}           # asked: a valid question, whitespace collapsed, casefolded -> row
    for i, row in enumerate(rows):
        doc_id, reason = _check_row(row, docs)
        same = question_key(row.question) if not reason else ""
        if same in asked:
            reason = (f"The same question as row {asked[same] + 1}: it counts once. Remove this row, or reword it "
                      "if it asks something else.")
        elif not reason:
            asked[same] = i
        if reason:
            problems.append(Problem(i, row.question if isinstance(row.question, str) else repr(row.question), reason))
        else:
            valid.append(row._replace(doc=doc_id))
    return valid, problems


def golden_problems(rows, documents) -> tuple[Problem, ...]:
    """Why each excluded row would be excluded by `check_golden`, without indexing anything.

    documents: a Corpus or a list of Documents, e.g. uploaded ones not yet used (a repeated id: the first counts).
    Cost: one normalisation of each document a row names, and one substring test per row.
    """
    rows = tuple(as_row(r, i) for i, r in enumerate(rows))
    return tuple(_validate(rows, _Documents(getattr(documents, "documents", documents)))[1])


def check_golden(rows, corpus: Corpus, tokens: list[list[str]] | None = None) -> GoldenCheck:
    """Validate each row against the corpus and locate the valid anchors in every document.

    tokens: each document's whitespace tokens, if already computed (TokenizedCorpus.tokens).
    """
    rows = tuple(as_row(r, i) for i, r in enumerate(rows))
    tokens = tokens if tokens is not None else [d.text.split() for d in corpus.documents]
    texts = [" ".join(t) for t in tokens]                       # = normalize(document text)
    valid, problems = _validate(rows, _Documents(corpus.documents, texts))
    starts: dict[int, np.ndarray] = {}                          # only for the documents an anchor is in
    occurrences = {}
    for v, row in enumerate(valid):
        target = normalize(row.anchor)
        occurrences[v] = {d: r for d, text in enumerate(texts)
                          if target in text and len(r := token_ranges(text, token_starts(starts, d, text), target))}
    return GoldenCheck(rows, tuple(valid), tuple(problems), occurrences)
