"""A bound the answer puts on the key's value that its cited spans do not write: "scoring above 0.6" where the
span says "don't score at least that similar ... are ignored". The rule reads the value, not what is said of it;
an answer that states the value with a bound of its own ("above", "below", "at most", "or less") may say the
opposite of the span, so it is not confirmed. So is a restriction: "only" next to the key with a condition whose
words no cited span writes ("only more efficient for small heaps", "0 only when that is unknown"). An answer made
right by a yes/no question's golden reply alone ("Yes [S1].") is restricted by a "but" after its reply, by any "only"
with such a condition.

    unsupported_bound("Candidates scoring above 0.6 are ignored [S1].", "0.6",
                      ["Optional arg cutoff (default 0.6) ... that don't score at least that similar are ignored."])
    -> "above"
    unsupported_bound("It must score at least 0.6 [S1].", "0.6", [same span]) -> ""      (the span says "at least")
    unsupported_restriction("It is only more efficient for small heaps [S1].", "more efficiently",
                            ["The combined action runs more efficiently than heappush() ..."])
    -> "only more efficient for small heaps"

Left out on purpose: what the bound means (the rule only asks whether a span writes the same words: "0.6 or more"
stays grey where the span says "at least", because which side of the bound is kept is not read, and "scoring 0.6 or
higher are ignored" is wrong in the same words), bounds
further than the two words before the value or after it, and keys without a number; restrictions without "only"
("for small heaps it is faster") and conditions of more than one phrase.
"""
from __future__ import annotations

import re
from decimal import Decimal

from rag_core.generation import quantities
from rag_core.generation.inflect import folded_words
from rag_core.generation.key_reading import as_read, key_words, number_places
from rag_core.generation.yes_no import opening_reply
from rag_core.text.tokens import STOP

_WORDS = r"above|below|over|under|beyond|exceeding|exceeds?|(?:more|less|fewer|greater|higher|lower)\s+than" \
         r"|at\s+(?:least|most)|up\s+to|no\s+(?:more|less)\s+than|[<>]=?|\u2264|\u2265"
_BEFORE = re.compile(rf"(?:^|[^\w<>=])({_WORDS})\s*$", re.I)
_AFTER = re.compile(r"^\s*(?:or|and)\s+(above|below|over|under|more|less|fewer|greater|higher|lower|larger|smaller)"
                    r"\b", re.I)


def unsupported_bound(answer: str, key: str, spans: list[str]) -> str:
    """The first bound the answer writes next to a number of the key that no span writes (lower case), or ""."""
    text = as_read(answer)
    values = {v for _, v in quantities.numbers(key) if isinstance(v, Decimal)}
    if not values:
        return ""
    written = " ".join(" ".join(s.split()) for s in spans).lower()
    for lit, v in dict.fromkeys(quantities.numbers(text)):
        if v not in values:
            continue
        for p in number_places(text, lit):
            found = _BEFORE.search(text[max(0, p - 24):p]) or _AFTER.match(text[p + len(lit):p + len(lit) + 24])
            bound = " ".join(found[1].lower().split()) if found else ""
            if bound and not re.search(rf"(?<!\w){re.escape(bound)}(?!\w)", written):
                return bound
    return ""


_ONLY = re.compile(r"\bonly\b", re.I)
_CONDITION = re.compile(r"((?:[\w.'-]+\s+){0,3}?)(for|when|if|on|in|with|after|during|while|where|under|unless)\s+"
                        r"([^,;:.!?()\[\]\u2014\u2013]{1,80})", re.I)


def unsupported_restriction(answer: str, key: str, spans: list[str]) -> str:
    """'only' beside the key (the key within the three words after it, or among the two before it in its phrase)
    followed by a condition ("for small heaps", "when that is unknown") with a content word no span writes; else ""."""
    text = as_read(answer)
    stems = set(key_words(key))
    values = {v for _, v in quantities.numbers(key)}
    written = folded_words(" ".join(spans))

    def holds_key(part: str) -> bool:
        return bool(folded_words(part) & stems) or any(v in values for _, v in quantities.numbers(part))

    for m in _ONLY.finditer(text):
        c = _CONDITION.match(text, m.end() + 1) if text[m.end():m.end() + 1].isspace() else None
        if c is None:
            continue
        before = " ".join(re.split(r"[,;:.!?()\[\]\u2014\u2013]", text[max(0, m.start() - 40):m.start()])[-1]
                          .split()[-2:])                    # the two words before it, in its phrase
        if not (holds_key(c[1]) or holds_key(before)):
            continue
        unsaid = folded_words(" ".join(w for w in c[3].split() if w.lower() not in STOP)) - written
        if unsaid:
            return " ".join(f"only {c[1]}{c[2]} {c[3]}".split())
    return ""


_QUALIFIED = re.compile(r"[\W_]*(but|except|although|though|however)\b", re.I)


def restricted_reply(answer: str, spans: list[str]) -> str:
    """What restricts an answer that only its Yes or No makes right, or "": "but" right after the reply, or "only"
    with a condition no span writes (anywhere in the answer)."""
    text = as_read(answer)
    m = _QUALIFIED.match(opening_reply(text)[1])
    if m:
        return f"'{m[1].lower()}' after its reply"
    written = folded_words(" ".join(spans))
    for m in _ONLY.finditer(text):
        c = _CONDITION.match(text, m.end() + 1) if text[m.end():m.end() + 1].isspace() else None
        if c and folded_words(" ".join(w for w in c[3].split() if w.lower() not in STOP)) - written:
            return f"'{' '.join(f'only {c[1]}{c[2]} {c[3]}'.split())}'"
    return ""
