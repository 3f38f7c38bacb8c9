"""What judge_answer asks of an index, for spans that all come from one current document (tests' made-up ones)."""


class OneDocument:
    def __init__(self, doc_id: str, status: str = "current"):
        self._doc, self._status = doc_id, status

    def doc_id(self, i):
        return self._doc

    def status(self, i):
        return self._status
