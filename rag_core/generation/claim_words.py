"""The words through which an answer may add a claim of its own beside the golden answer: a contrast ("but '?'
does match"), an absolute ("prevents timing analysis completely", "every user can read it") or an addition ("it
also hides the lengths").

An answer whose sentences the checker cannot ground one by one (no number, no name, not most of their words in the
span: a paraphrase) may still state the golden answer's key. It is read as right only when it has none of these
words: in such an answer the rule can check the key, not what a "but" or an "every" adds to it. An "also" makes
any answer not confirmed, grounded or not: "It uses '-' for '+' and '_' for '/', and it also strips the padding"
states the key and adds a claim the checker grounds word by word but nobody checked (`added_claim`).

    claim_word("It lands after them, to the right of the rightmost copy [S1].")       -> ""
    claim_word("Every user can read it, but only the creating user can write [S1].") -> "every"

An accepted wording (GoldenRow.accept) beside a contrast word is not confirmed either (`contrast_word`). An
"always" or a "never" that neither the key nor a cited span writes makes any answer not confirmed too: "It
always raises a ValueError when the final batch is shorter than n [S1]" claims a rule the span does not
(`unwritten_always`).

Left out on purpose: meaning. A wrong extra claim written without any of these words ("the list is re-sorted
first") is not seen, and a right one written with them ("but not their values") makes the answer grey. The
labelled sets measure both (README, "judge the judge").
"""
from __future__ import annotations

import re

CONTRAST = ("but", "however", "while", "whereas", "although", "though", "yet", "except", "unlike", "instead")
ABSOLUTE = ("completely", "entirely", "every", "everyone", "everybody", "everything", "anyone", "anybody",
            "anything", "even", "always", "never", "at all")
ADDITION = ("also",)


def _finder(words):
    """A function: the first of `words` in a text (lower case, its spaces one), or ""."""
    pattern = re.compile(r"\b(" + "|".join(w.replace(" ", r"\s+") for w in words) + r")\b", re.I)
    return lambda text: " ".join(m[1].lower().split()) if (m := pattern.search(text)) else ""


claim_word = _finder(CONTRAST + ABSOLUTE + ADDITION)   # the first word of an answer that may add a claim of its own
added_claim = _finder(ADDITION)     # through which any answer, grounded or not, adds a claim ("and it also strips")
contrast_word = _finder(CONTRAST)   # beside a wording the golden set accepts, read without its context, it may say
#                                     what the wording is not ("costs less typing, yet it runs slower")

_ALWAYS = re.compile(r"\b(always|never)\b", re.I)


def unwritten_always(answer: str, key: str, spans) -> str:
    """The first "always" or "never" of `answer` that neither `key` nor any of `spans` writes (lower case), or ""."""
    written = {w.lower() for w in _ALWAYS.findall(" ".join([key, *spans]))}
    return next((m[1].lower() for m in _ALWAYS.finditer(answer) if m[1].lower() not in written), "")
