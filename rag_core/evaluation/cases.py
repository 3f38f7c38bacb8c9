"""Labelled cases: an answer, the spans it was written against, its golden anchor and a person's right or wrong;
read one JSON object a line, and decided by the rule (`judgement.judge_answer`) as the Ask page decides them.

    {"spans": ["## difflib...", "NOTE (draft): ..."], "answer": "Default: 0.6 [S1].",
     "anchor": "Optional arg cutoff (default 0.6)", "key": "0.6", "question": "What is ...?", "label": "right"}

    cases, problems = read_cases(text)      # problems: (line number, sentence); a bad line costs only itself
    tone = rule_judgement(case, sources).tone      # "green", "red" or another colour

A case's spans carry no document: `SpanSources` finds each span in a corpus, literally (whitespace folded: the
whole span inside one document, else each of its paragraphs inside the same one), and takes that document's id
and status. The document that holds the answer (`expected_doc`) is the golden row's for a question of the
golden sets given, else the document of the first span holding the anchor, else UNMATCHED. A span found in no
document is taken as a trusted (current) passage of that expected document: a case written against text the
corpus does not hold is judged on its words alone, never sent to "wrong source" for a mismatch of ours.

Left out on purpose: the rule itself (judgement.judge_answer), the model judge (generation.model_judge) and
the counts (evaluation.confusion).
"""
from __future__ import annotations

import json
from typing import NamedTuple

from rag_core.data.golden import accept_problem
from rag_core.data.sections import section_title
from rag_core.evaluation.confusion import LABELS
from rag_core.evaluation.judgement import Judgement, judge_answer
from rag_core.generation.verifier import MAX_ANSWER_CHARS

UNMATCHED = "(a span found in no document)"    # the expected document when nothing tells which it is
FIELDS = ("spans", "answer", "anchor", "key", "question", "label")


class LabelledCase(NamedTuple):
    spans: tuple                  # the span texts, S1 first
    answer: str
    anchor: str                   # the golden anchor (the sentence of the source that holds the answer)
    label: str                    # "right" or "wrong": a person's reading
    question: str | None = None
    key: str | None = None        # the golden answer's key (optional; passed to the rule when it takes one)
    line: int = 0                 # where it was read (1-based), 0 when made in code
    reply: str | None = None      # a yes/no question's golden reply, "yes" or "no" (optional)
    accept: tuple | None = None   # other wordings of the key a marker accepts (optional; GoldenRow.accept)

    def as_dict(self) -> dict:
        row = {"spans": list(self.spans), "answer": self.answer, "anchor": self.anchor, "label": self.label}
        row.update({k: v for k, v in (("question", self.question), ("key", self.key), ("reply", self.reply),
                                      ("accept", list(self.accept) if self.accept is not None else None))
                    if v is not None})
        return row


def parse_case(obj, line: int = 0) -> LabelledCase:
    """A LabelledCase from one decoded JSON value; ValueError saying what to fix otherwise."""
    if not isinstance(obj, dict):
        raise ValueError('not a JSON object (expected {"spans": [...], "answer": ..., "anchor": ..., "label": ...})')
    for name in ("spans", "answer", "anchor", "label"):
        if name not in obj:
            raise ValueError(f"missing {name!r}")
    spans = obj["spans"]
    if not isinstance(spans, list) or not spans or not all(isinstance(s, str) for s in spans):
        raise ValueError("'spans' must be a non-empty list of span texts, S1 first")
    for name in ("answer", "anchor"):
        if not isinstance(obj[name], str) or not obj[name].strip():
            raise ValueError(f"{name!r} must be a non-empty string")
    if len(obj["answer"]) > MAX_ANSWER_CHARS:
        raise ValueError(f"'answer' has {len(obj['answer']):,} characters, and at most {MAX_ANSWER_CHARS:,} are checked")
    label = obj["label"]
    if label not in LABELS:
        raise ValueError(f"'label' must be \"right\" or \"wrong\", got {json.dumps(label)[:40]}")
    optional = {}
    for name in ("question", "key"):
        value = obj.get(name)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{name!r} must be a string when given")
        optional[name] = value if value and value.strip() else None
    reply = obj.get("reply")
    if reply is not None and (not isinstance(reply, str) or reply.strip().lower() not in ("", "yes", "no")):
        raise ValueError(f"'reply' must be \"yes\" or \"no\" when given, got {json.dumps(reply)[:40]}")
    optional["reply"] = reply.strip().lower() if reply and reply.strip() else None
    accept = obj.get("accept")
    if accept is not None:
        problem = accept_problem(accept) if isinstance(accept, list) else "'accept' must be a list of phrases"
        if problem:
            raise ValueError(problem)
        optional["accept"] = tuple(accept)
    return LabelledCase(tuple(spans), obj["answer"], obj["anchor"], label, line=line, **optional)


def read_cases(text: str) -> tuple[list[LabelledCase], list[tuple[int, str]]]:
    """The cases of a JSONL text and the problems of its bad lines, (line, sentence) each; blank lines are skipped.

    '{"spans": ["a"], "answer": "a [S1].", "anchor": "a", "label": "right"}\\nx' -> ([case], [(2, "not valid JSON
    (Expecting value); skipped.")])
    """
    cases, problems = [], []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except RecursionError:
            problems.append((number, "nested too deeply to read; skipped."))
            continue
        except ValueError as e:
            problems.append((number, f"not valid JSON ({getattr(e, 'msg', e)}); skipped."))
            continue
        try:
            cases.append(parse_case(obj, number))
        except ValueError as e:
            problems.append((number, f"{e}; skipped."))
    return cases, problems


def _folded(text: str) -> str:
    return " ".join(text.split())


class SpanSources:
    """Which document of a corpus each span comes from (see the module docstring), and the expected documents of
    the golden questions given. `sources.of(case)` -> (a view with doc_id/status for judge_answer, expected_doc)."""

    def __init__(self, documents, golden_rows=()):
        self._docs = [(d.id, d.status, _folded(d.text)) for d in documents]
        self._texts = {d.id: d.text for d in documents}
        self._doc_of_question, self._key_of_question, self._reply_of_question = {}, {}, {}
        self._accept_of_question = {}
        for r in golden_rows:
            self._doc_of_question.setdefault(r.question.strip(), r.doc)
            self._key_of_question.setdefault(r.question.strip(), r.key)
            self._reply_of_question.setdefault(r.question.strip(), getattr(r, "reply", "") or None)
            self._accept_of_question.setdefault(r.question.strip(), tuple(getattr(r, "accept", ()) or ()))
        self._memo: dict[str, tuple | None] = {}

    def find(self, span: str) -> tuple[str, str] | None:
        """(document id, status) of the first document holding the span, or None."""
        if span not in self._memo:
            whole = _folded(span)
            paragraphs = [_folded(p) for p in span.split("\n\n") if p.strip()]
            hit = next(((i, s) for i, s, t in self._docs if whole and whole in t), None)
            if hit is None and paragraphs:
                hit = next(((i, s) for i, s, t in self._docs if all(p in t for p in paragraphs)), None)
            self._memo[span] = hit
        return self._memo[span]

    def expected_doc(self, case: LabelledCase) -> str:
        if case.question and case.question.strip() in self._doc_of_question:
            return self._doc_of_question[case.question.strip()]
        anchor = _folded(case.anchor).lower()
        for span in case.spans:
            hit = self.find(span)
            if hit is not None and anchor in _folded(span).lower():
                return hit[0]
        return UNMATCHED

    def key(self, case: LabelledCase) -> str | None:
        """The case's answer key, else its golden question's (the anchor when the row has none), else None."""
        return case.key if case.key is not None else self._key_of_question.get((case.question or "").strip())

    def reply(self, case: LabelledCase) -> str | None:
        """The case's golden reply to a yes/no question, else its golden question's, else None."""
        return case.reply if case.reply is not None else self._reply_of_question.get((case.question or "").strip())

    def accept(self, case: LabelledCase) -> tuple:
        """The other wordings of the key a marker accepts: the case's, else its golden question's, else none."""
        return case.accept if case.accept is not None else \
            self._accept_of_question.get((case.question or "").strip(), ())

    def of(self, case: LabelledCase) -> tuple["_CaseSpans", str]:
        expected = self.expected_doc(case)
        found = [self.find(s) or (expected, "current") for s in case.spans]
        titles = [section_title(d, self._texts[d], s) if d in self._texts else d
                  for (d, _), s in zip(found, case.spans)]
        return _CaseSpans(found, titles), expected


class _CaseSpans:
    """What judge_answer asks of an index, for the spans of one case: span i's document and status."""

    def __init__(self, found: list, titles: list):
        self._found = found                        # [(document id, status)], S1 first
        self._titles = titles                      # where each span sits: data.sections.section_title

    def doc_id(self, i: int) -> str:
        return self._found[i][0]

    def status(self, i: int) -> str:
        return self._found[i][1]

    def title(self, i: int) -> str:
        return self._titles[i]


def rule_judgement(case: LabelledCase, sources: SpanSources, trusted=("current",)) -> Judgement:
    """The rule's judgement of a case, as the Ask page judges an answer: with the case's key, else its golden
    question's."""
    spans, expected = sources.of(case)
    return judge_answer(case.answer, list(case.spans), list(range(len(case.spans))), spans, expected, case.anchor,
                        trusted, with_article=False, key=sources.key(case), question=case.question or None,
                        reply=sources.reply(case), accept=sources.accept(case))
