"""Text primitives shared by every stage: whitespace normalisation, the tokenizer, the word hash.

They are the article's, to the letter, because the rankings depend on them:
    normalize("a\\n  b") -> "a b"
    words("How does getCloseMatches work?") -> ["get", "close", "matches", "work"]

`Tokenizer` adds one thing the article does not have: a cache from a whitespace token to its word
ids, so that a corpus is tokenized once and every chunking of it reuses the result. It is exact
because no word of `words()` ever spans whitespace.

Left out on purpose: stemming, synonyms, any language other than the article's English stopwords.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import re

import numpy as np

STOP = frozenset("a an and are as at be by for from if in into is it its of on or that the this to when with "
                 "what which who how does do not can than then there their was were will".split())

_CAMEL = re.compile(r"([a-z])([A-Z])")
_WORD = re.compile(r"[a-z0-9]+")


def normalize(s: str) -> str:
    """Collapse every run of whitespace to one space: "a\\n  b " -> "a b"."""
    return " ".join(s.split())


def words(text: str) -> list[str]:
    """The article's tokenizer: split camelCase, lowercase, keep [a-z0-9]+ runs, drop stopwords."""
    return list(cached_words(text))


@functools.lru_cache(maxsize=65536)
def cached_words(text: str) -> tuple[str, ...]:
    """words(text) as a tuple, remembered: for the short texts (tokens, sentences) seen again and again."""
    text = _CAMEL.sub(r"\1 \2", text)
    return tuple(w for w in _WORD.findall(text.lower()) if w not in STOP)


@functools.lru_cache(maxsize=65536)
def word_hash(w: str) -> int:
    """64-bit blake2b of the word: bucket = h % dim, sign = +1 if bit 40 is set else -1."""
    return int.from_bytes(hashlib.blake2b(w.encode(), digest_size=8).digest(), "big")


class Tokenizer:
    """Maps words to dense ids and whitespace tokens to the ids of their words, with caches.

    vocab:  word -> id         e.g. {"bisect": 0, "left": 1}
    hashes: id -> blake2b hash  (grown with the vocabulary)
    """

    def __init__(self):
        self.vocab: dict[str, int] = {}
        self.hashes: list[int] = []
        self._token_ids: dict[str, tuple[int, ...]] = {}      # whitespace token -> its word ids

    def word_id(self, w: str) -> int:
        i = self.vocab.get(w)
        if i is None:
            i = self.vocab[w] = len(self.hashes)
            self.hashes.append(word_hash(w))
        return i

    def tokens_to_ids(self, tokens: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Word ids of a list of whitespace tokens, and offsets: token t owns ids[offsets[t]:offsets[t+1]].

        ["getCloseMatches", "is", "fast."] -> ids [get, close, matches, fast], offsets [0, 3, 3, 4]
        """
        cache = self._token_ids
        new = [t for t in dict.fromkeys(tokens) if t not in cache]
        if new:   # tokenize all new tokens in one regex pass; "\n" keeps them apart
            for t, lowered in zip(new, _CAMEL.sub(r"\1 \2", "\n".join(new)).lower().split("\n")):
                cache[t] = tuple(self.word_id(w) for w in _WORD.findall(lowered) if w not in STOP)
        per_token = list(map(cache.__getitem__, tokens))
        offsets = np.zeros(len(tokens) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, per_token), dtype=np.int64, count=len(tokens)), out=offsets[1:])
        ids = np.fromiter(itertools.chain.from_iterable(per_token), dtype=np.int64, count=int(offsets[-1]))
        return ids, offsets

    def hash_array(self) -> np.ndarray:
        """The hashes of every known word as uint64, indexed by word id."""
        return np.array(self.hashes, dtype=np.uint64)
