"""A corpus tokenized once: every document's whitespace tokens and word ids, end to end, shared by every chunking.

    tc = TokenizedCorpus(bundled_corpus())
    tc.tokens[0][:3]                     # the first document's first whitespace tokens
    tc.word_ids[tc.word_position(0, 0)]  # its first word id

Left out on purpose: chunking and encoding (retrieval.index builds on this, once per chunker).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rag_core.data.corpus import Corpus
from rag_core.text.tokens import Tokenizer, index_dtype


class DocumentTokens(Sequence):
    """Document position -> its whitespace tokens (a list of str), split on demand from the normalised text.

    Keeping one str object per token of a large corpus would cost more memory than the corpus itself.
    """

    def __init__(self, normalized: list[str]):
        self._normalized = normalized

    def __len__(self) -> int:
        return len(self._normalized)

    def __getitem__(self, d):
        if isinstance(d, slice):
            return [t.split() for t in self._normalized[d]]
        return self._normalized[d].split()


class TokenizedCorpus:
    """A corpus with each document split into whitespace tokens and word ids, computed once.

    token_ids  (n_tokens,) int32    every document's whitespace tokens as token ids, end to end
    token_base (n_docs + 1,) int64  document d owns token_ids[token_base[d]:token_base[d + 1]]
    word_ids   (n_words,)           every document's words (stopwords dropped) as word ids, end to end
    offsets    (n_tokens + 1,)      token i of token_ids starts at word_ids[offsets[i]]
    normalized                      document d's text with whitespace collapsed: " ".join(tokens[d])
    tokens                          document d's whitespace tokens, split from normalized[d] when asked

    word_ids and offsets are int32 while they fit (int64 beyond 2**31), to halve their memory.
    """

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.tokenizer = Tokenizer()
        self.normalized: list[str] = []
        per_doc = []
        for d in corpus.documents:          # the only per-token Python work: split, one dict look-up, join
            toks = d.text.split()
            per_doc.append(self.tokenizer.token_ids(toks))
            self.normalized.append(" ".join(toks))
        self.tokens = DocumentTokens(self.normalized)
        self.token_ids = np.concatenate(per_doc) if per_doc else np.zeros(0, np.int32)
        self.token_base = np.zeros(len(per_doc) + 1, dtype=np.int64)
        np.cumsum([len(t) for t in per_doc], out=self.token_base[1:])
        self.word_ids, self.offsets = self.tokenizer.ids_of_tokens(self.token_ids)

    def word_position(self, doc: np.ndarray, token: np.ndarray) -> np.ndarray:
        """Position in word_ids where token `token` of document `doc` starts (vectorized).

        token may be the document's token count: that is where its words end.
        """
        return self.offsets[self.token_base[doc] + token]

    def char_span(self, doc: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(first, last): " ".join(tokens[doc][start:end]) == normalized[doc][first:last] (vectorized, end > start)."""
        dtype = index_dtype(sum(map(len, self.normalized)) + len(self.normalized) + 1)   # holds every position
        strings = self.tokenizer.token_strings
        lengths = np.fromiter(map(len, strings), dtype=dtype, count=len(strings))            # token id -> chars
        at = np.zeros(len(self.token_ids) + 1, dtype=dtype)
        np.cumsum(lengths[self.token_ids] + 1, dtype=dtype, out=at[1:])        # each token and one space
        base = at[self.token_base[doc]]
        return at[self.token_base[doc] + start] - base, at[self.token_base[doc] + end] - base - 1
