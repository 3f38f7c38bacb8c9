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

_WORDS = re.compile(r"\b(" + "|".join(w.replace(" ", r"\s+") for w in CONTRAST + ABSOLUTE + ADDITION) + r")\b",
                    re.I)


_ADDED = re.compile(r"\b(" + "|".join(ADDITION) + r")\b", re.I)


def added_claim(answer: str) -> str:
    """The word through which any answer, grounded or not, adds a claim of its own beside the one it makes ("and
    it also strips the padding"), lower case, or ""."""
    m = _ADDED.search(answer)
    return "" if m is None else m[1].lower()


_ALWAYS = re.compile(r"\b(always|never)\b", re.I)


def unwritten_always(answer: str, key: str, spans) -> str:
    """The first "always" or "never" of `answer` that neither `key` nor any of `spans` writes (lower case), or ""."""
    written = {w.lower() for w in _ALWAYS.findall(" ".join([key, *spans]))}
    return next((m[1].lower() for m in _ALWAYS.finditer(answer) if m[1].lower() not in written), "")


_CONTRAST = re.compile(r"\b(" + "|".join(CONTRAST) + r")\b", re.I)


def contrast_word(answer: str) -> str:
    """The first contrast word of `answer` ("but", "yet", ...), lower case, or "": beside a wording the golden set
    accepts, which is read without its context, it may say what the wording is not ("costs less typing, yet it runs
    slower")."""
    m = _CONTRAST.search(answer)
    return "" if m is None else m[1].lower()


def claim_word(answer: str) -> str:
    """The first word of `answer` that may add a claim of its own (lower case), or ""."""
    m = _WORDS.search(answer)
    return "" if m is None else " ".join(m[1].lower().split())
