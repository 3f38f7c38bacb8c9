"""Where a negation reaches: whether a word of a text is negated, as the answer-key rule reads it.

    negated_at("are not matched", 8) -> True          ("not" among the four words before "matched")
    negated_at("is 0.6, not 0.9", 3) -> False         (the "not" comes after 0.6, in another phrase)
    negated_at("No, it is set to 0", 16) -> False     (the "No," answers the question; a comma ends its phrase)
    negated_at("non-empty", 4) -> True;  negated_at("it matches unless hidden", 3) -> True

A negation counts within the WINDOW words before a word in the same phrase (a comma, a bracket, a colon, a dash,
"but", "and", "or" end a phrase; "instead of" and "rather than" negate what follows, up to a "when" or an "if"),
as "non-" right before it,
before it in its sentence for "unless" (not after an "Unless ...," clause that opens the sentence), and anywhere
in its sentence for "isn't true" / "not the case". A word followed by "unless" in its sentence is uncertain
(`uncertain_at`): "it matches unless ..." says both. Negations: not, no, never, nothing, neither, nor, without,
cannot, nobody, nowhere, and
any word ending in n't (the caller puts one apostrophe for ’ ‘ ʼ ´ ` ′), with the common spellings without one
("dont", "isnt").

Left out on purpose: a negation further away ("it is not the case ... that it matches" aside), double negation
(two count as one: "not ... unless" is negated), negative words that are not negations ("fails", "lacks", "none"
is a value in Python).
"""
from __future__ import annotations

import re

NEGATIONS = frozenset("not no never nothing neither nor without cannot nobody nowhere".split())
_CONTRACTED = re.compile(r"^(?:\w+n't|isnt|arent|doesnt|dont|cant|wont|wasnt|werent|didnt|hasnt|havent|shouldnt)$")
_PHRASE_END = re.compile(r"[,;:()\[\]{}.!?\u2014\u2013]|\s-\s")                  # what a negation does not cross
_PHRASE_WORDS = frozenset("but and or rather instead whereas while although though yet so".split())
# negations that negate only their own phrase: "without bound" ("unbounded cache" negates no cache), and a bound,
# "no less than 0.6", which does not negate 0.6
_WHOLE = (("without", "bound"), ("without", "limit")) + tuple(
    (no, than, "than") for no in ("no", "not") for than in ("less", "more", "fewer", "greater", "later", "earlier"))
_SENTENCE = re.compile(r"(?:[^.;!?\u2014\u2013]|[.!?](?=\S))+")     # how far "unless" and "isn't true" reach
_WIDE_TRUE = re.compile(r"\b(?:is|was|are)\s*n't\s+(?:true|correct|right|the\s+case)\b"
                        r"|\bnot\s+(?:true|correct|the\s+case)\b", re.I)
_UNLESS = re.compile(r"\bunless\b", re.I)
_IF_WORDS = frozenset("when whenever if where while for".split())   # a condition the whole clause is under
WINDOW = 4                      # words before a key word that a negation may stand in
_TOKEN = re.compile(r"[\w']+(?:[.-]\w+)*|[^\w\s]")


def tokens(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m[0]) for m in _TOKEN.finditer(text)]


def is_negation(token: str) -> bool:
    t = token.lower()
    return t in NEGATIONS or bool(_CONTRACTED.match(t))


def has_negation(text: str) -> bool:
    """Whether any word of `text` is a negation: "it isn't" -> True."""
    return any(is_negation(t) for _, t in tokens(text))


REACH = 1000                    # characters either side of a word searched for its sentence (time stays linear)


def _sentence_of(text: str, pos: int) -> tuple[str, str]:
    """(the sentence around text[pos] up to it, the rest of it), within REACH characters either side."""
    lo = max(0, pos - REACH)
    window = text[lo:pos + REACH]
    m = next((m for m in _SENTENCE.finditer(window) if m.start() <= pos - lo <= m.end()), None)
    return (m[0][:pos - lo - m.start()], m[0][pos - lo - m.start():]) if m else ("", "")


def sentence_around(text: str, pos: int) -> str:
    """The sentence around text[pos], within REACH characters either side."""
    return "".join(_sentence_of(text, pos))


def negated_at(text: str, pos: int) -> bool:
    """Whether the word at text[pos:] is negated: a negation among the WINDOW words before it in its phrase ("instead
    of" and "rather than" too), "non-" right before it, "unless" before it in its sentence, or "isn't true" in it.

    negated_at("are not matched", 8) -> True;  negated_at("is 0.6, not 0.9", 3) -> False
    negated_at("returns 0.0 instead of raising", 26) -> True
    """
    if text[max(0, pos - 4):pos].lower() in ("non-", "non "):
        return True
    before = [t.lower() for _, t in tokens(text[max(0, pos - 200):pos])]
    seen, condition = 0, False
    for i in range(len(before) - 1, -1, -1):
        t = before[i]
        condition = condition or t in _IF_WORDS   # "0 rather than raising when k > n": the "when" is not negated
        if i and (before[i - 1], t) in (("instead", "of"), ("rather", "than")) and not condition:
            return True
        if _PHRASE_END.fullmatch(t) or t in _PHRASE_WORDS:
            break
        if is_negation(t) and not any(tuple(before[i:i + len(w)]) == w for w in _WHOLE):
            return True
        seen += 1
        if seen >= WINDOW:
            break
    head, rest = _sentence_of(text, pos)
    return bool(_WIDE_TRUE.search(head + rest) or _unless_reaches(head))


_FRONTED = re.compile(r"\s*(?:(?:yes|no)\b\W*)?|.*[:\u2014\u2013]\s*", re.I | re.S)


def _unless_reaches(head: str) -> bool:
    """Whether the last "unless" of a sentence reaches its end: not when the "unless" clause opens the sentence (after
    a "Yes", "No" or a colon at most) and a comma closes it: "Unless you pass mtime, it is set to 0"."""
    last = None
    for last in _UNLESS.finditer(head):
        pass
    if last is None:
        return False
    return not (_FRONTED.fullmatch(head[:last.start()]) and re.search(r"[,;]", head[last.end():]))


def uncertain_at(text: str, pos: int) -> bool:
    """Whether "unless" follows the word at text[pos:] in its sentence: "'*' matches files unless they start with a
    dot" neither states nor denies that '*' matches; the rule counts such a word neither way."""
    return bool(_UNLESS.search(_sentence_of(text, pos)[1]))


def sentence_head(text: str, pos: int) -> str:
    """The sentence around text[pos] up to pos: sentence_head("It is. Not this", 10) -> "Not "."""
    return _sentence_of(text, pos)[0]


_CONDITION = re.compile(r"\b(?:unless|if)\b", re.I)


def conditional_at(text: str, pos: int) -> bool:
    """Whether the word at text[pos:] stands in a condition: after "unless" or "if" in its sentence ("deleted
    unless 'delete' is set to False": False is what a caller may pass, not what the answer says)."""
    return bool(_CONDITION.search(_sentence_of(text, pos)[0]))


def condition_in_phrase(text: str, pos: int, words: str = "if") -> bool:
    """Whether one of `words` ("if", or "if|unless") comes before text[pos] in its phrase. With "if" alone, an
    "unless" in the phrase too says no: it is a negation of its own."""
    head = re.split(r"[,;:()\u2014\u2013]", sentence_head(text, pos))[-1]
    return bool(re.search(rf"\b(?:{words})\b", head, re.I)) and \
        ("unless" in words or not re.search(r"\bunless\b", head, re.I))
