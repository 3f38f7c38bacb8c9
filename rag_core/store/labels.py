"""People's labels of answers, kept in the store beside datasets and runs: right or wrong, by dataset.

    labels = store.labels
    labels.set("bundled", question, answer, spans, "right", anchor=row.anchor, doc=row.doc, source="scripted")
    labels.list("bundled")                          # newest first
    labels.list("bundled", label="wrong", question="cutoff")      # filtered: the label, words of the question
    labels.get("bundled", question, answer, spans)  # the Label of that very answer, or None
    labels.clear(label_id)                          # forget one;  labels.clear_dataset("bundled")
    labels.as_cases(labels.list("bundled"))         # JSONL text for `python -m rag_core judge --cases -`

A label is keyed by its dataset, question, answer and spans (records.label_id): marking the same answer again
replaces its label and its time. The SQL is written once here, with `?` placeholders and {labels} for the table,
and run by either backend (sqlite.py, postgres.py), like base.py's. A store that keeps nothing (data folder off)
keeps no label either: `set` returns None and `list` is empty.

Left out on purpose: who made a label (the dashboard has no users), a label's history (the last one counts), and
anything beyond right and wrong (a judge is counted against a yes or a no).
"""
from __future__ import annotations

import json

from rag_core.evaluation.confusion import LABELS
from rag_core.store.records import Label, label_id, now

_COLUMNS = "id, dataset_key, question, answer, spans, label, anchor, doc, source, created_at"


class Labels:
    def __init__(self, db):
        self._db = db                                  # a backend (sqlite.SqliteFile, postgres.PostgresTables) or None

    def set(self, dataset_key: str, question: str, answer: str, spans, label: str, anchor: str | None = None,
            doc: str | None = None, source: str = "yours") -> str | None:
        """Keep a person's right or wrong for this answer (replacing an earlier one); its id, None when off."""
        keys = self.set_many([(dataset_key, question, answer, spans, label, anchor, doc, source)])
        return keys[0] if keys else None

    def set_many(self, rows) -> list[str]:
        """set() for many (dataset_key, question, answer, spans, label, anchor, doc, source) at once, in one
        transaction; their ids ([] when off)."""
        statements, keys = [], []
        for dataset_key, question, answer, spans, label, anchor, doc, source in rows:
            if label not in LABELS:
                raise ValueError(f"A label is 'right' or 'wrong', got {label!r}.")
            if not answer.strip():
                raise ValueError("An empty answer cannot be labelled: write or generate an answer first.")
            spans = [str(s) for s in spans]
            keys.append(label_id(dataset_key, question, answer, spans))
            statements.append((f"INSERT INTO {{labels}} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                               "ON CONFLICT (id) DO UPDATE SET label = excluded.label, anchor = excluded.anchor, "
                               "doc = excluded.doc, source = excluded.source, created_at = excluded.created_at",
                               (keys[-1], dataset_key, question, answer, json.dumps(spans, ensure_ascii=False),
                                label, anchor, doc, source, now())))
        if self._db is None or not statements:
            return []
        self._db.write(statements)
        return keys

    def get(self, dataset_key: str, question: str, answer: str, spans) -> Label | None:
        if self._db is None:
            return None
        rows = self._db.read(f"SELECT {_COLUMNS} FROM {{labels}} WHERE id = ?",
                             (label_id(dataset_key, question, answer, [str(s) for s in spans]),))
        return _label(rows[0]) if rows else None

    def list(self, dataset_key: str | None = None, label: str | None = None,
             question: str | None = None) -> list[Label]:
        """The labels, newest first: of one dataset, one label, and questions holding `question` (any case)."""
        if self._db is None:
            return []
        where, args = [], []
        for col, value in (("dataset_key", dataset_key), ("label", label)):
            if value is not None:
                where.append(f"{col} = ?")
                args.append(value)
        sql = (f"SELECT {_COLUMNS} FROM {{labels}}" + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY created_at DESC, id")
        found = [_label(r) for r in self._db.read(sql, args)]
        words = (question or "").strip().lower()
        return [x for x in found if words in x.question.lower()] if words else found

    def clear(self, key: str) -> None:
        """Forget one label (by its id)."""
        if self._db is not None:
            self._db.write([("DELETE FROM {labels} WHERE id = ?", (key,))])

    def clear_dataset(self, dataset_key: str) -> None:
        if self._db is not None:
            self._db.write([("DELETE FROM {labels} WHERE dataset_key = ?", (dataset_key,))])

    @staticmethod
    def as_cases(labels) -> str:
        """The labels as labelled cases, one JSON object a line (evaluation.cases), for `judge --cases` (a label of
        an answer given no span is left out: a case holds at least one)."""
        return "".join(json.dumps({"spans": list(x.spans), "answer": x.answer, "anchor": x.anchor or "",
                                   "question": x.question, "label": x.label}, ensure_ascii=False) + "\n"
                       for x in labels if x.spans)


def _label(row) -> Label:
    key, dataset_key, question, answer, spans, label, anchor, doc, source, created_at = row
    return Label(key, dataset_key, question, answer, tuple(json.loads(spans)), label, anchor, doc, source, created_at)
