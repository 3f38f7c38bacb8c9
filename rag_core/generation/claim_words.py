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
from decimal import Decimal

from rag_core.generation import examples, lexicon, negation
from rag_core.generation.citations import CITATION, strict_sentences, strip_citations
from rag_core.generation.dismissal import about_a_note

CONTRAST = ("but", "however", "while", "whereas", "although", "though", "yet", "except", "unlike", "instead")
ABSOLUTE = ("completely", "entirely", "every", "everyone", "everybody", "everything", "anyone", "anybody",
            "anything", "even", "always", "never", "at all")
ADDITION = ("also", "likewise", "similarly", "as well", "additionally", "in addition", "moreover", "furthermore")
_EVEN_COUNT = r"(?<!\bis\s)(?<!\bare\s)even(?!(?:\s+|-)(?:count|counts|number|numbers|length|lengths|size|sized|total|amount|n)\b)"


def _pattern(words) -> re.Pattern:
    """`words` as one pattern, whole words in any case, any spaces between the words of a phrase; "even" is not one
    before "count", "number", ... or after "is": "an even count of numbers" is no claim of its own; nor is the
    "except" of "try/except" or "except ValueError"."""
    return re.compile(r"\b(" + "|".join(_EVEN_COUNT if w == "even" else _EXCEPT if w == "except" else
                                        w.replace(" ", r"\s+") for w in words) + r")\b", re.I)


_EXCEPT = r"(?<![/\-])(?<!try\s)except(?!\s+\w*(?:Error|Exception)\b)"     # not the "except" of "try/except"


def _finder(words):
    """A function: the first of `words` in a text (lower case, its spaces one), or ""."""
    pattern = _pattern(words)
    return lambda text: " ".join(m[1].lower().split()) if (m := pattern.search(text)) else ""


claim_word = _finder(CONTRAST + ABSOLUTE + ADDITION)   # the first word of an answer that may add a claim of its own
contrast_word = _finder(CONTRAST)   # beside a wording the golden set accepts, read without its context, it may say
#                                     what the wording is not ("costs less typing, yet it runs slower")
_ADDITION = _pattern(ADDITION)
_SPAN_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CLAUSE_END = re.compile(r"[,;:.!?()]|\b(?:and|but|so|because|since|which|while|whereas|then)\b", re.I)




def _content_stems(text: str) -> set[str]:
    """The stems of the words of `text` that carry a claim (lexicon.stem_set without lexicon.FUNCTION)."""
    return lexicon.stem_set(text) - lexicon.FUNCTION_STEMS


def added_claim(text: str, spans=()) -> str:
    """The first addition word ("also", "likewise", "as well", ...) through which any answer, grounded or not, adds a
    claim ("and it also strips the padding"), lower case, or "". One whose clause one sentence of the cited `spans`
    writes word for word, inflections folded, restates it and adds nothing: "delete_on_close also defaults to
    True" beside "'delete_on_close' ... (default True)"; not "compresslevel likewise defaults to 0" beside
    "compresslevel sets the compression level in range of 0-9. ... The modification time is set to 0 by default"."""
    written = [lexicon.stem_set(sentence) for span in spans for sentence in _SPAN_SENTENCE.split(span)]
    for m in _ADDITION.finditer(text):
        start = max((e.end() for e in _CLAUSE_END.finditer(text, max(0, m.start() - 200), m.start())), default=0)
        end = next((e.start() for e in _CLAUSE_END.finditer(text, m.end())), len(text))
        clause = strip_citations(text[start:m.start()] + " " + text[m.end():end])
        said = _content_stems(clause)
        if not said or not any(said <= one for one in written):
            return " ".join(m[1].lower().split())
    return ""

_CONTRARY = re.compile(r"\b(but|whereas|while|however|yet)\b((?:[^.;:!?]|[.;:!?](?!\s|$)){0,200})", re.I)
_ASSERTS = re.compile(r"\b(?:does|do|did|will|can|is|are)\b(?!\s*(?:not\b|n['\u2019]t))", re.I)


def contrary_contrast(answer: str, key: str) -> str:
    """The contrast word ("but", "whereas", ...) of `answer` after which, to a negated key, a clause asserts without
    a negation what the key denies, or says it with an auxiliary: "not matched by '*', but '?' does match them" or
    "..., but '?' does", lower case; or "". The rule cannot tell what the other subject is, so such an answer is
    not confirmed."""
    if not negation.has_negation(key):
        return ""
    stems = _content_stems(key)
    for m in _CONTRARY.finditer(answer):
        clause = m[2]
        if negation.has_negation(clause):
            continue
        if _ASSERTS.search(clause) or stems & lexicon.stem_set(clause):
            return m[1].lower()
    return ""


_EITHER = re.compile(r"\beither\b((?:[^.;!?]|[.;!?](?!\s|$)){0,200}?\bor\b(?:[^.;!?]|[.;!?](?!\s|$)){0,200})", re.I)


def either_or(answer: str, key: str) -> str:
    """"either" when the answer writes a word of `key` inside an "either ... or ..." (the key offered as one of two
    alternatives: "either shorter than n or padded out to n"), else ""."""
    stems = _content_stems(key)
    for m in _EITHER.finditer(answer):
        if stems & lexicon.stem_set(m[1]) or any(n in m[1] for n in _NUMBER.findall(key)):
            return "either"
    return ""


_MAY_OR = re.compile(r"\b(?:may|might|can|could)\b([^.;!?\[\]()]{1,200}?)[,;(]?\s*\bor\s+([^.;!?\[\]()]{1,200})", re.I)


def may_or(answer: str, key: str, spans) -> str:
    """"or" when the answer writes a word of `key` after "may" (or "might", "can", "could") and then, after a comma,
    an "or" whose words are mostly in none of `spans`: "It may be zero when k > n, or an error is raised", "may be
    shorter than n, or get discarded": another outcome offered beside the key; else ""."""
    stems, written = _content_stems(key), lexicon.stem_set(" ".join(spans))
    for m in _MAY_OR.finditer(answer):
        other = _content_stems(m[2])
        if (stems & lexicon.stem_set(m[1]) or any(n in m[1] for n in _NUMBER.findall(key))) and other and \
                2 * len(other & written) < len(other):
            return "or"
    return ""


_ONLY = re.compile(r"\bonly\b([^,;:.!?\[(]{1,120})", re.I)
_WIDER = re.compile(r"\b(?:and|or|plus|as\s+well\s+as)\s+(?!(?:no(?:body|\s+one)?|none|nothing|not|never)\b)"
                    r"([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,4})", re.I)


def widens_only(answer: str, key: str, spans) -> str:
    """The words an answer adds to a key's "only ..." with an "and" or an "or" that no cited span writes ("only the
    creating user and members of that user's group"), else "": an "only" widened is another claim."""
    if not re.search(r"\bonly\b", key, re.I):
        return ""
    span_stems = set().union(*(lexicon.stem_set(s) for s in spans)) if spans else set()
    for m in _ONLY.finditer(answer):
        for w in _WIDER.finditer(m[1]):
            if lexicon.stem_set(w[1]) - span_stems - lexicon.FUNCTION_STEMS:
                return w[0].strip()
    return ""


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_UN = re.compile(r"\b(?:un|non-?)([a-z]{3,})\b", re.I)


def undoes_key(answer: str, key: str) -> str:
    """The first word of `answer` that is a word of `key` with "un" or "non" before it ("uncollapsed" beside the key
    "collapsed"): the answer denies a word of the key somewhere, lower case; or "". A phrase the rule reads as one
    word ("unbounded": without bound, lexicon.PHRASES) is not one."""
    stems = _content_stems(key)
    return next((m[0].lower() for m in _UN.finditer(answer)
                 if lexicon.same(m[1]) in stems and m[0].lower() not in lexicon.PHRASES), "")


_JOINER = r"(?:and|because|since|so|which|provided|but|while|whereas|as|then)"     # a word that opens a clause
_BREAK = r"(?:[,;]|\s-\s|\u2014)"                                                  # what ends the clause before it
_TAIL = re.compile(rf"\s*(?:{_BREAK}\s*{_JOINER}?|{_JOINER})\b", re.I)     # "[S1] because ...": no comma needed
_CONJUNCTION = re.compile(rf"^{_JOINER}\b\s*", re.I)
_NEXT_CLAUSE = re.compile(rf"[;:(\u2014]|\s(?:--?|\u2013)\s|{_BREAK}\s*{_JOINER}\b", re.I)  # "; Y", ": Y": no joiner
_ATTRIBUTION = re.compile(r"^\W*(?:(?:based\s+on|according\s+to|(?:as\s+)?per|as\s+(?:(?:stated|said|noted|documented|"
                          r"described|explained|written)\s+)?in|from|in|as)\s+(?:the\s+)?"
                          r"(?:source\s+|span\s+|excerpt\s+|(?:docs|documentation)\s+)?)?$", re.I)
#                                                            "As [S1] says, X; Y" and "[S1] says X; Y" attribute X too


def uncited_tail(answer: str, key: str, spans) -> str:
    """The first clause after the last citation of a sentence ("... [S1], because it skips restoring the heap", "...
    [S1]; those items come back as a list") with three content words or more, most of them in none of `spans` (the
    cited spans): a claim no span is cited for, its first 60 characters; or "". A clause about a note or a status
    ("[S1], but that is outdated") is the draft set aside, one that restates `key` ("[S1], so the average speed
    is 48 km/hr") the answer, and examples Python agrees with ("so math.comb(3, 5) returns 0") are run: none is a
    claim of its own; a citation that opens its sentence ("According to [S1], X, because Y")
    cites its first clause, and what follows is read as after a citation."""
    written = lexicon.stem_set(" ".join(spans)) | lexicon.stem_set(key)
    key_values = {Decimal(n) for n in _NUMBER.findall(key)}             # "48 km/hr" for the key 48.0
    joined = " ".join(spans)                                            # examples of what they name are run
    for sentence in strict_sentences(answer):
        last = None
        for last in CITATION.finditer(sentence):
            pass
        if last is None or about_a_note(sentence):
            continue
        start = last.end()
        if _ATTRIBUTION.match(sentence[:last.start()]):     # "According to [S1], X, because Y": it cites X; Y
            clause = _NEXT_CLAUSE.search(sentence, start + 1)       # is a clause of its own after it
            if clause is None:
                continue
            start = clause.start()
        elif not _TAIL.match(sentence, start):
            continue
        tail = sentence[start:].strip(" ,;:.!?\u2014-")
        said = _content_stems(_CONJUNCTION.sub("", tail))          # "which is a float ...": "which" says nothing
        if len(said) >= 3 and 2 * len(said & written) <= len(said) and \
                not key_values & {Decimal(n) for n in _NUMBER.findall(tail)} and \
                not examples.only_examples(tail, lambda name: name in joined):    # "so math.comb(3, 5) returns 0": run
            return tail[:60]
    return ""


_EVERYONE = ("everyone", "everybody", "anyone", "anybody", "every user", "all users")
_ALWAYS = _pattern(("always", "never", "completely", "entirely", "even") + _EVERYONE)


def unwritten_always(answer: str, key: str, spans) -> str:
    """The first "always", "never", "completely", "entirely" or "even" ("even in mid-word"), or "everyone", "anyone",
    "every user" ... outside a sentence about a note ("readable by every user, but writable only by ..."), of
    `answer` that neither `key` nor any of `spans` writes (lower case), or "". "every" alone, "anything", "at all"
    are left to answers in words of their own: "None at all", "before anything else" are how people restate a
    span."""
    written = {" ".join(w.lower().split()) for w in _ALWAYS.findall(" ".join([key, *spans]))}
    return next((said for m in _ALWAYS.finditer(answer) if (said := " ".join(m[1].lower().split())) not in written and
                 not (said in _EVERYONE and about_a_note(negation.sentence_around(answer, m.start())))), "")
