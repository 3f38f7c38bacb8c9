"""Which sentence of the cited spans an answer's words come from, when the key is in more than one of them.

A span may hold the golden answer key in two sentences: "The last batch may be shorter than n." (the anchor) and
"If strict is True, raises a ValueError if the final batch is shorter than n." An answer that states the key in
the words of the other sentence ("A ValueError is raised when the final batch is shorter than n") states the key,
but about something else; the rule cannot tell whether it still answers, so it is not confirmed.

    elsewhere("A ValueError is raised when the final batch is shorter than n [S1].", "shorter than n",
              "The last batch may be shorter than n.", [span])
    -> "If \"strict\" is True, raises a ValueError if the final batch is shorter than n."

An answer sentence belongs to another sentence of the spans when it shares MARGIN content words more with it than
with the anchor's (the key's own words aside, inflections folded), and does not quote the anchor itself.

Left out on purpose: meaning (a paraphrase shares few words with any sentence, and is left to the key's rule),
spans whose sentences are not split by '.', '!', '?' or a blank line, and more than SENTENCES sentences of a span
or of the answer.
"""
from __future__ import annotations

import re

from rag_core.generation.answer_key import check_key
from rag_core.generation.lexicon import same
from rag_core.generation.citations import strip_citations
from rag_core.text.tokens import normalize, words

MARGIN = 2                      # words more that another sentence must share than the anchor's, one word is chance
SENTENCES = 200                 # sentences of a span read (the first ones): the cost stays linear in the span
_SPLIT = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


def _stems(text: str) -> set[str]:
    return {same(w) for w in words(text)}


def elsewhere(answer: str, key: str, anchor: str, spans: list[str]) -> str:
    """The sentence of `spans` (not the anchor's) that the answer's key-stating sentences come from, or ""."""
    wanted = normalize(anchor).lower().rstrip(" .!?;:,")
    holders = [normalize(s) for span in spans for s in _SPLIT.split(span)[:SENTENCES]
               if s.strip() and check_key(s, key).states]
    home = [s for s in holders if wanted in s.lower()]
    others = [s for s in holders if wanted not in s.lower()]
    if not home or not others:
        return ""
    key_stems = _stems(key)
    pieces = re.split(r"(?<=[.!?])\s+", strip_citations(answer))[:SENTENCES]
    said = [s for s in pieces if s.strip() and check_key(s, key).states]
    if not said:
        return ""
    found = ""
    for sentence in said:
        mine = _stems(sentence) - key_stems
        if wanted in normalize(sentence).lower():                      # it quotes the anchor itself
            return ""
        best_home = max(len(mine & (_stems(h) - key_stems)) for h in home)
        best = max(others, key=lambda o: len(mine & (_stems(o) - key_stems)))
        if len(mine & (_stems(best) - key_stems)) < best_home + MARGIN:
            return ""
        found = found or best
    return found
