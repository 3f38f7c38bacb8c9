"""A bound the answer puts on the key's value that its cited spans do not write: "scoring above 0.6" where the
span says "don't score at least that similar ... are ignored". The rule reads the value, not what is said of it;
an answer that states the value with a bound of its own ("above", "below", "at most", "or less") may say the
opposite of the span, so it is not confirmed.

    unsupported_bound("Candidates scoring above 0.6 are ignored [S1].", "0.6",
                      ["Optional arg cutoff (default 0.6) ... that don't score at least that similar are ignored."])
    -> "above"
    unsupported_bound("It must score at least 0.6 [S1].", "0.6", [same span]) -> ""      (the span says "at least")

Left out on purpose: what the bound means (the rule only asks whether a span writes the same words), bounds
further than the two words before the value or after it, and keys without a number.
"""
from __future__ import annotations

import re
from decimal import Decimal

from rag_core.generation import quantities
from rag_core.generation.key_reading import as_read, number_places

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
