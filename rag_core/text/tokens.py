"""The article's tokenizer, to the letter (the rankings depend on it): whitespace normalisation, words, the word
hash, and a Tokenizer that reads a corpus once for every chunking of it.

    normalize("a\\n  b") -> "a b"
    words("How does getCloseMatches work?") -> ["get", "close", "matches", "work"]

`Tokenizer` adds one thing the article does not have: a table from each distinct whitespace token to
its word ids, so that a corpus is tokenized once and every chunking of it reuses the result, and the
regex runs once per distinct token instead of once per occurrence. It is exact because no word of
`words()` ever spans whitespace. Its cost grows with the number of distinct tokens: a corpus that
rarely repeats a token makes a large table whose look-ups miss the CPU cache (see the cold variant
of benchmarks/bench_scale.py).

Left out on purpose: stemming, synonyms, any language other than the article's English stopwords; what a question
must be (`text.questions`).
"""
from __future__ import annotations

import functools
import hashlib
import re

import numpy as np

STOP = frozenset("a an and are as at be by for from if in into is it its of on or that the this to when with "
                 "what which who how does do not can than then there their was were will".split())

_CAMEL = re.compile(r"([a-z])([A-Z])")
_WORD = re.compile(r"[a-z0-9]+")
_WORD_OR_BREAK = re.compile(r"[a-z0-9]+|\n")


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


def concat_ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The integer ranges [starts[i], starts[i] + lengths[i]) end to end, as one int64 array.

    starts [10, 20], lengths [2, 3] -> [10, 11, 20, 21, 22]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    first = np.cumsum(lengths) - lengths                         # (n,) where each range begins in the output
    out = np.repeat(np.asarray(starts, dtype=np.int64) - first, lengths)
    out += np.arange(len(out), dtype=np.int64)
    return out


def index_dtype(n: int):
    """int32 for positions or ids below n when they fit, else int64: half the memory for big arrays."""
    return np.int32 if n < 2 ** 31 else np.int64


class _TokenIndex(dict):
    """Whitespace token -> dense token id; an unseen token gets the next id (and is listed in `strings`)."""

    def __init__(self):
        super().__init__()
        self.strings: list[str] = []                            # token id -> token

    def __missing__(self, token: str) -> int:
        i = self[token] = len(self.strings)
        self.strings.append(token)
        return i


class _WordIndex(dict):
    """Word -> word id for the batch tokenizer: a stopword is -1, the token break "\n" is -2, a new word is registered."""

    def __init__(self, register):
        super().__init__(dict.fromkeys(STOP, -1))
        self["\n"] = -2
        self._register = register

    def __missing__(self, w: str) -> int:
        i = self[w] = self._register(w)
        return i


class Tokenizer:
    """Maps words to dense ids and whitespace tokens to the ids of their words, with caches.

    vocab:  word -> id         e.g. {"bisect": 0, "left": 1}
    hashes: id -> blake2b hash  (grown with the vocabulary)

    Texts are read in two steps, so that the per-token Python work is one dict look-up:
    `token_ids` turns whitespace tokens into token ids (a new token is only registered), and
    `token_words` runs the article's tokenizer once per distinct token, in one regex pass, giving the
    word ids of every token as a CSR table that numpy gathers from.
    """

    def __init__(self):
        self.vocab: dict[str, int] = {}
        self.hashes: list[int] = []
        self._tokens = _TokenIndex()                            # whitespace token -> token id
        self._words_of = _WordIndex(self.word_id)               # word -> id, for token_words
        self._ptr = np.zeros(1, dtype=np.int64)                 # token id -> its words: _words[_ptr[t]:_ptr[t+1]]
        self._words = np.zeros(0, dtype=np.int32)

    def word_id(self, w: str) -> int:
        i = self.vocab.get(w)
        if i is None:
            i = self.vocab[w] = len(self.hashes)
            self.hashes.append(word_hash(w))
        return i

    def token_ids(self, tokens: list[str]) -> np.ndarray:
        """(len(tokens),) int32 token ids; unseen tokens are registered, not yet tokenized."""
        return np.fromiter(map(self._tokens.__getitem__, tokens), dtype=np.int32, count=len(tokens))

    @property
    def token_strings(self) -> list[str]:
        """Token id -> whitespace token."""
        return self._tokens.strings

    def token_words(self, batch: int = 1 << 16) -> tuple[np.ndarray, np.ndarray]:
        """(ptr, words): token id t owns the word ids words[ptr[t]:ptr[t+1]] (stopwords dropped).

        Tokens registered since the last call are tokenized `batch` at a time, each batch in one regex pass.
        """
        done = len(self._ptr) - 1
        new_ptr, new_words = [self._ptr], [self._words]
        for a in range(done, len(self._tokens.strings), batch):
            counts, ids = self._tokenize(self._tokens.strings[a:a + batch])
            new_ptr.append(new_ptr[-1][-1] + np.cumsum(counts))
            new_words.append(ids)
        if len(new_ptr) > 1:
            self._ptr, self._words = np.concatenate(new_ptr), np.concatenate(new_words)
        return self._ptr, self._words

    def _tokenize(self, tokens: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(words per token, word ids end to end) of tokens, in one regex pass with "\n" between them."""
        items = _WORD_OR_BREAK.findall(_CAMEL.sub(r"\1 \2", "\n".join(tokens)).lower())   # words and breaks
        ids = np.fromiter(map(self._words_of.__getitem__, items), dtype=np.int64, count=len(items))
        token_of = np.cumsum(ids == -2)                              # (n_items,) which token an item is in
        keep = ids >= 0                                              # words that are not stopwords
        return np.bincount(token_of[keep], minlength=len(tokens)), ids[keep].astype(index_dtype(len(self.hashes)))

    def ids_of_tokens(self, token_ids: np.ndarray, block: int = 1 << 20) -> tuple[np.ndarray, np.ndarray]:
        """Word ids of a sequence of token ids, and offsets: token t owns ids[offsets[t]:offsets[t+1]].

        Both are int32 when they fit (see index_dtype).
        """
        ptr, table = self.token_words()
        n_words = np.diff(ptr).astype(np.int32)[token_ids]                    # (n_tokens,) words per token
        dtype = index_dtype(int(n_words.sum(dtype=np.int64)) + 1)
        offsets = np.zeros(len(token_ids) + 1, dtype=dtype)
        np.cumsum(n_words, dtype=dtype, out=offsets[1:])
        ids = np.empty(int(offsets[-1]), dtype=index_dtype(len(self.hashes)))
        for a in range(0, len(token_ids), block):                             # in blocks: small temporaries
            b = min(a + block, len(token_ids))
            ids[offsets[a]:offsets[b]] = table[concat_ranges(ptr[token_ids[a:b]], n_words[a:b])]
        return ids, offsets

    def hash_array(self) -> np.ndarray:
        """The hashes of every known word as uint64, indexed by word id."""
        return np.array(self.hashes, dtype=np.uint64)
