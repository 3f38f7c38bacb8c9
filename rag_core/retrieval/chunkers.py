"""The article's three chunkers, each returning pieces that know their word span in the document.

A piece is (text, start, end): `text` is exactly what the article's chunker returns, and
`text.split() == document.split()[start:end]`, so a UI can draw boundaries and overlaps.

    fixed_window("a b c d e", size=2, overlap=1) -> [("a b",0,2), ("b c",1,3), ("c d",2,4), ("d e",3,5), ("e",4,5)]

Unlike the article, a size <= 0 or an overlap >= size is a ValueError instead of a silent step of 1.

Left out on purpose: token-based sizes (the unit is the word, as in the article) and recursive or
semantic splitters.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE = re.compile(r"(?<=[.!?:])\s+")

KINDS = ("fixed", "structure", "sentence")
# (size, overlap) each kind starts from, the article's: words for fixed and structure, sentences for sentence
STRATEGY_DEFAULTS = {"fixed": (160, 32), "structure": (160, 0), "sentence": (4, 1)}


class Piece(NamedTuple):
    text: str    # the chunk as the article's chunker writes it
    start: int   # first whitespace-separated word of the document in the chunk
    end: int     # one past the last word


def _whole(x) -> bool:
    """A whole number: int or numpy integer, but not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


@dataclass(frozen=True)
class ChunkerConfig:
    kind: str = "fixed"   # "fixed" window of words, "structure" (paragraphs), or "sentence"
    size: int = 160       # words per window; max words per piece; sentences per piece
    overlap: int = 32     # words (fixed) or sentences (sentence) shared with the previous piece; 0 for structure

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Unknown chunker {self.kind!r}: use one of {', '.join(KINDS)}.")
        unit = "sentences" if self.kind == "sentence" else "words"
        if not _whole(self.size) or self.size <= 0:
            raise ValueError(f"Chunk size must be a whole number above 0 {unit}, got {self.size!r}.")
        if not _whole(self.overlap) or self.overlap < 0:
            raise ValueError(f"Overlap must be 0 or more {unit}, got {self.overlap!r}.")
        if self.kind == "structure" and self.overlap:
            raise ValueError("The structure chunker has no overlap: set overlap to 0.")
        if self.overlap >= self.size:
            raise ValueError(f"Overlap ({self.overlap}) must be smaller than the size ({self.size}): "
                             f"otherwise the window never advances. Lower the overlap or raise the size.")

    @property
    def label(self) -> str:
        """The article's name for the configuration, e.g. 'fixed window 160, overlap 32'."""
        if self.kind == "fixed":
            return f"fixed window {self.size}, overlap {self.overlap}"
        if self.kind == "structure":
            return f"by structure (paragraphs, max {self.size})"
        return f"by sentence ({self.size} sentences, {self.overlap} overlap)"

    def split(self, text: str, tokens: list[str] | None = None) -> list[Piece]:
        """Cut a text; `tokens` may pass text.split() when the caller already has it."""
        if self.kind == "fixed":
            return fixed_window(text, self.size, self.overlap, tokens)
        if self.kind == "structure":
            return by_structure(text, self.size)
        return by_sentence(text, self.size, self.overlap)


def _spans(units: list[str]) -> list[tuple[int, int]]:
    """Word span of each unit, for units that partition a text's words in order: ["a b", "c"] -> [(0, 2), (2, 3)]."""
    spans, at = [], 0
    for u in units:
        n = len(u.split())
        spans.append((at, at + n))
        at += n
    return spans


def fixed_window(text: str, size: int, overlap: int, tokens: list[str] | None = None) -> list[Piece]:
    """Windows of `size` words that slide by `size - overlap`."""
    ChunkerConfig("fixed", size, overlap)            # validates
    tokens = text.split() if tokens is None else tokens
    step = size - overlap
    pieces = [Piece(" ".join(tokens[i:i + size]), i, min(i + size, len(tokens)))
              for i in range(0, len(tokens), step)]
    return pieces or [Piece(text, 0, 0)]


def fixed_window_spans(n_tokens: np.ndarray, size: int, overlap: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(doc, start, end) of every piece fixed_window makes, for documents of n_tokens words, vectorized.

    n_tokens [5, 1], size 2, overlap 1 -> doc [0, 0, 0, 0, 0, 1], start [0, 1, 2, 3, 4, 0], end [2, 3, 4, 5, 5, 1]
    An empty document gives one piece (start = end = 0), as fixed_window does.
    """
    ChunkerConfig("fixed", size, overlap)            # validates
    n_tokens = np.asarray(n_tokens, dtype=np.int64)
    step = size - overlap
    per_doc = np.maximum(1, -(-n_tokens // step))                                   # ceil(n / step), at least 1
    doc = np.repeat(np.arange(len(n_tokens), dtype=np.int64), per_doc)              # (n_pieces,)
    start = (np.arange(len(doc), dtype=np.int64) - np.repeat(np.cumsum(per_doc) - per_doc, per_doc)) * step
    return doc, start, np.minimum(start + size, n_tokens[doc])


def by_structure(text: str, max_size: int) -> list[Piece]:
    """Cut on paragraph boundaries; merge short paragraphs up to max_size words."""
    ChunkerConfig("structure", max_size, 0)
    paragraphs = blocks(text)
    spans = _spans(paragraphs)
    pieces, current, words_in_current = [], [], 0
    for i, p in enumerate(paragraphs):
        n = spans[i][1] - spans[i][0]
        if current and words_in_current + n > max_size:
            pieces.append(Piece("\n\n".join(paragraphs[j] for j in current), spans[current[0]][0], spans[current[-1]][1]))
            current, words_in_current = [], 0
        current.append(i)
        words_in_current += n
    if current:
        pieces.append(Piece("\n\n".join(paragraphs[j] for j in current), spans[current[0]][0], spans[current[-1]][1]))
    return pieces


def blocks(text: str) -> list[str]:
    """The text's paragraphs as the structure chunker cuts them: at blank lines. "a\n\n b\nc" -> ["a", "b\nc"]"""
    return [p.strip() for p in _PARAGRAPH.split(text) if p.strip()]


def sentences(text: str) -> list[str]:
    """The text's sentences as the sentence chunker cuts them: after . ! ? or : and a space, lines joined.

    "Call f(). It returns 0.6: done" -> ["Call f().", "It returns 0.6:", "done"]
    """
    return [f.strip() for f in _SENTENCE.split(text.replace("\n", " ")) if f.strip()]


def by_sentence(text: str, sentences_per_piece: int, overlapping_sentences: int) -> list[Piece]:
    """A window of N sentences that slides by N minus the overlapping sentences."""
    ChunkerConfig("sentence", sentences_per_piece, overlapping_sentences)
    units = sentences(text)
    spans = _spans(units)
    step = sentences_per_piece - overlapping_sentences
    pieces = []
    for i in range(0, len(units), step):
        last = min(i + sentences_per_piece, len(units)) - 1
        pieces.append(Piece(" ".join(units[i:last + 1]), spans[i][0], spans[last][1]))
    return pieces or [Piece(text, 0, 0)]
