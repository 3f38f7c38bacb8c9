"""Judging answers against one made-up document, all its spans current: what judge_answer asks of an index, and a
judge of answers with the document's text as S1; `Documents`, the same for spans of several documents, in order.

    judged = judged_in("## shelf\n\nA returned book is placed ...", "shelf", "placed to the right", key="right")
    judged("It goes to the right [S1].").outcome -> "answered"
"""
from rag_core.evaluation.judgement import judge_answer


class OneDocument:
    def __init__(self, doc_id: str, status: str = "current"):
        self._doc, self._status = doc_id, status

    def doc_id(self, i):
        return self._doc

    def status(self, i):
        return self._status


class Documents:
    """Chunk i from the i-th (document id, status): Documents(("difflib", "current"), ("note-difflib", "draft"))."""

    def __init__(self, *docs: tuple[str, str]):
        self._docs = docs

    def doc_id(self, i):
        return self._docs[i][0]

    def status(self, i):
        return self._docs[i][1]


def judged_in(text: str, doc_id: str, anchor: str, **fixed):
    """answer (and any judge_answer keyword) -> its Judgement, with `text` as the only span, from `doc_id`."""
    return lambda answer, **more: judge_answer(answer, [text], [0], OneDocument(doc_id), doc_id, anchor,
                                               **{**fixed, **more})
