"""A sentence that only says where the answer is in the sources ("Reasoning: [S1] covers the duplicate case for
insort_right explicitly.", "[S1] gives the purpose directly."): it points at a span and claims nothing the checker
could look for, so it needs nothing to check of its own, as long as the answer has a sentence that does.

    source_talk("Reasoning: [S1] gives the default right in the parameter description.") -> True
    source_talk("[S1] says the default is 0.9.")                                          -> False (a claim)

It opens with a citation or a span's label ("S1 gives ...", after a label such as "Reasoning:"), a verb of pointing ("covers", "gives", "states",
"describes", "spells out", "addresses" ...) follows, and what it points at is a noun phrase or an indirect question
("what fmean does when given empty input"): no "that", no "as" ("describes the cache as bounded"), no copula or verb of its own ("is", "returns", "raises"), no
number. Left out on purpose: a sentence that says what the span says ("[S1] says the cutoff is 0.6"), which is a
claim the checker reads as any other.
"""
from __future__ import annotations

import re

from rag_core.generation.citations import CITATION

_POINTS = re.compile(
    r"^[\s*_]*(?:(?:reasoning|thinking|analysis|sources?|context|evidence)[\s*_]*:[\s*_]*)?"
    r"(?:(?:the\s+)?(?:excerpt|source|span|documentation|docs|passage)\s+)?(?:[\[(][ \t]*[Ss]\d+[ \t]*[\])]|S\d+)[ \t]*"
    r"(?:covers|gives|states|describes|spells\s+out|addresses|answers|documents|explains|mentions|compares|contrasts|"
    r"deals\s+with|speaks\s+to|uses|lists|notes|shows|is\s+explicit\s+about|is\s+the\s+(?:relevant|right)\s+"
    r"(?:span|source|passage|section))\b(?P<rest>[^.!?]*)[.!?]?\s*$", re.I | re.S)
# what makes the rest a claim: a clause of its own ("that ..."), a verb of being or doing, a number
_CLAIMS = re.compile(r"\b(?:that|as|is|are|was|were|be|returns?|raises?|gives|yields?|becomes?|means?|"
                     r"equals?|evaluates?|must|should|will|can(?:not|'t)?|does(?:n't)?|do|not|no|never)\b|\d", re.I)


def source_talk(sentence: str) -> bool:
    """Whether the sentence only points at a span (see the module)."""
    m = _POINTS.match(sentence) if len(sentence) <= 300 else None
    return bool(m) and not _CLAIMS.search(_INDIRECT.sub(" ", CITATION.sub(" ", m["rest"])))


# an indirect question points at a part of the span: "what fmean does when given empty input"
_INDIRECT = re.compile(r"\b(?:what|how|which|whether|where|when)\b.*$", re.I | re.S)
