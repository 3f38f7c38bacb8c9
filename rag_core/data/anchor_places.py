"""Where a literal anchor stands in a text: found whole, never as a piece of a longer word or number.

    find_all("x y x y x", "x y x")                 -> [0, 4]      every start, overlapping ones included
    alone("0.6 is", [0], "0")                      -> [False]     '0' is part of '0.6'
    token_ranges("a bc d", [0, 2, 5], "c d")       -> [[1, 2]]    as the (first, last) whitespace token it touches
    phrase_positions(["a", "b", "a", "b"], ["a", "b"]) -> [0, 2]  whole tokens only

Each is linear in the text (one str.find pass, then numpy over the matches), so a golden set of thousands of rows
is checked against a large upload in seconds. The golden set's rules (data.golden) and the ceiling's search of
anchors in chunks (evaluation.metrics) both read anchors through here.

Left out on purpose: case folding and fuzzy matching (an anchor is literal: data.golden says why).
"""
from __future__ import annotations

import functools
from array import array

import numpy as np


def find_all(text: str, target: str) -> np.ndarray:
    """Every position where target starts in text, overlapping ones included: "x y x y x", "x y x" -> [0, 4].

    One pass of str.find from each match to the next, so linear in the text (plus the matches).
    """
    found, at = array("q"), text.find(target)
    while at >= 0:
        found.append(at)
        at = text.find(target, at + 1)
    return np.frombuffer(found, dtype=np.int64) if found else np.zeros(0, dtype=np.int64)


def _wordish(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


_ASCII = {test: np.array([test(chr(c)) for c in range(128)]) for test in (_wordish, str.isdigit)}


@functools.lru_cache(maxsize=2)           # the last documents checked (4 bytes a character each)
def _code_points(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The text's code points and where its '.' and ',' are: once per document, not once per golden row (a
    document of 100,000 question headings checked its suggestions in quadratic time)."""
    points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    return points, np.isin(points, [ord("."), ord(",")])


def alone(text: str, at: np.ndarray, target: str) -> np.ndarray:
    """Which matches of target (starting at `at` in text) are no piece of a longer word or number: a letter, digit
    or _ it begins (ends) with has none before (after) it, and a digit it begins (ends) with has no digit and '.' or
    ',' before (after) it. Vectorized over the matches; each distinct neighbour is classified once.

    "0.6 is", [0], "0" -> [False];  "x 0.6 is", [2], "0.6" -> [True];  "maxsize", [0], "max" -> [False]
    """
    keep = np.ones(len(at), dtype=bool)
    if not len(at):
        return keep
    points, seps = _code_points(text)

    def kind(idx: np.ndarray, test) -> np.ndarray:          # test(char) for the code points at idx
        got, cps = np.zeros(len(idx), dtype=bool), points[idx]
        ascii_ = cps < 128
        got[ascii_] = _ASCII[test][cps[ascii_]]
        if not ascii_.all():                                 # any other character: each distinct one classified once
            uniq, inverse = np.unique(cps[~ascii_], return_inverse=True)
            got[~ascii_] = np.array([test(chr(c)) for c in uniq], dtype=bool)[inverse.reshape(-1)]
        return got

    for edge, inside, outside in ((target[0], at - 1, at - 2), (target[-1], at + len(target), at + len(target) + 1)):
        if not _wordish(edge):
            continue
        there = (inside >= 0) & (inside < len(points))
        near, far = np.clip(inside, 0, len(points) - 1), np.clip(outside, 0, len(points) - 1)
        glued = there & kind(near, _wordish)
        if edge.isdigit():                                   # '0' of '0.6', '6' of '0.6', '1' of '1,000'
            far_there = there & (outside >= 0) & (outside < len(points))
            glued |= far_there & seps[near] & kind(far, str.isdigit)
        keep &= ~glued
    return keep


def token_ranges(text: str, starts: np.ndarray, target: str) -> np.ndarray:
    """Every occurrence of target standing alone in text = " ".join(tokens), as the (first, last) token it touches:
    (n, 2). starts[t] is where token t begins in text. "a bc d", target "c d" -> [[1, 2]]; "b 0.6", "0" -> none
    """
    at = find_all(text, target)
    at = at[alone(text, at, target)]
    first = np.searchsorted(starts, at, side="right") - 1
    last = np.searchsorted(starts, at + len(target) - 1, side="right") - 1
    return np.stack([first, last], axis=1).astype(np.int64)


def phrase_positions(tokens: list[str], phrase: list[str]) -> np.ndarray:
    """The positions i, ascending, where tokens[i:i + len(phrase)] == phrase (whole tokens, overlaps included).

    ["a", "b", "a", "b", "ab"], ["a", "b"] -> [0, 2]. Linear in the text: one str.find pass over the joined
    tokens, kept where the match starts and ends on a token boundary. An empty phrase matches nowhere.
    """
    if not phrase:
        return np.zeros(0, dtype=np.int64)
    text, target = " ".join(tokens), " ".join(phrase)
    at = find_all(text, target)
    end = at + len(target)
    points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    before = (at == 0) | (points[np.maximum(at - 1, 0)] == 32)
    after = (end == len(text)) | (points[np.minimum(end, len(text) - 1)] == 32)
    return np.searchsorted(token_starts({}, 0, text), at[before & after]).astype(np.int64)


def token_starts(memo: dict, d: int, text: str) -> np.ndarray:
    """Where each token of a single-spaced text begins, as str positions: "ab c d" -> [0, 3, 5].

    Vectorized over the text's code points (UTF-32, one per str position); remembered per document.
    """
    if d not in memo:
        points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
        memo[d] = np.concatenate([[0], np.flatnonzero(points == 32) + 1]) if len(points) else np.zeros(1, np.int64)
    return memo[d]
