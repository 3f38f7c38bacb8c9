"""Spans an answer cites only to set them aside: "The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is
only a draft note." cites the draft S1 to say it is a draft, not as its source.

    dismissed("The default cutoff is 0.6 [S2]; the 0.9 mentioned in [S1] is only a draft note.")
    -> ({1}, "The default cutoff is 0.6 [S2];")
    dismissed("The default cutoff is 0.9 [S1].") -> (set(), "The default cutoff is 0.9 [S1].")

A citation is dismissed when its clause (the text between two of . ; : ! ? and "but", "while", "whereas", or an
"although ...," or "despite ...," concession) calls the one span it cites a draft, outdated, obsolete, superseded,
stale, deprecated, wrong, an old(er) or old-version note, "no longer applies", "not current", "contradicts (or
conflicts with, does not match) the documentation", "should be ignored", "set it aside", "not the 0.9 claimed in",
"doesn't apply", "has no bearing", "unrelated" or "irrelevant" (or the next clause does, without a citation of its
own and pointing back: "..., but that is outdated", "which was wrong"; "the old note says X" speaks of a note, and
"this replaced the outdated value" of a value, not of the clause before), or a later clause without a citation says
it of "the note" ("the note [S2] says 0.9, but the docs [S1] say 0.6, so the note is outdated" sets aside S2, the
last span cited in a clause naming a note or draft). A clause citing two spans sets aside only the one cited right
after the words "note" or "draft", and only when the rest of the clause says the status ("The note claiming 0.9 [S2]
is only a draft and conflicts with the documentation [S1]" sets aside S2, "Although the draft [S2] and the docs [S1]
differ" neither); what else it says is read. The key is then read in the rest of the answer; an answer whose every
citation is dismissed has no source.

Left out on purpose: a status named in another clause than the citation ("That is a draft. It says 0.9 [S1]."),
and what a status word negated means ("not a draft", "isn't wrong that"): it dismisses nothing then; a status word
about something else in the clause ("wrong words are dropped [S2]") still dismisses its citation.
"""
from __future__ import annotations

import re

from rag_core.generation.citations import LEADING_CITATIONS, cited_numbers, strip_citations
from rag_core.text.arguments import text_argument

_CLAUSE = re.compile(r"[.;:!?][\"'\u201d\u2019)]*(?:\s+|$)|\b(?:but|while|whereas)\b|\s(?:\u2014|\u2013|--)\s|\n"
                     r"|,\s+(?=so\s+(?:the|that|this)\s+(?:(?:draft|old|older|earlier)\s+)?(?:note|draft)\b)", re.I)
_CONCESSION = re.compile(r"\b(?:although|even though|though|even if|despite|in spite of)\b"    # to its comma
                         r"(?:[^,.;:!?]|\.(?=\w)){0,300},\s", re.I)     # bounded: linear on a comma-less text
# "..., but the docs say otherwise": the documentation disagrees with the clause before
_DOCS_DISAGREE = re.compile(r"^\W*(?:and\s+|so\s+)?the\s+(?:current\s+|official\s+)?(?:documentation|docs)\s+"
                            r"(?:contradicts?\s+(?:that|this|it)|disagrees?|says?\s+otherwise|says?\s+the\s+opposite)\b",
                            re.I)
_BACK = re.compile(r"^\W*(?:and\s+|so\s+)?(?:that|this|which|it|they|those|these|the\s+latter|the\s+former)"
                   r"(?:\s+(?:(?:draft|old|older|earlier)\s+)?(?:note|draft|claim|statement|one|behaviou?r))?"
                   r"(?:['\u2019]s|['\u2019]re|\s+(?:is|was|are|were|seems|looks|has\s+been|have\s+been|contradicts|"
                   r"conflicts|disagrees|does\s*n[o'\u2019]t\s+match|belongs\s+to|describes))\b"   # "that note is",
                   #                                                              "that behaviour belongs to"
                   r"|" + _DOCS_DISAGREE.pattern, re.I)        # "..., but the docs say otherwise" points back too
_LEAD = re.compile(r"^\s*(?:but|while|whereas)\b", re.I)     # the word that opens a clause, not what it says
NAMES_NOTE = re.compile(r"\b(?:note|draft)\b", re.I)      # a clause or sentence about a note or a draft
# a citation right after the note it cites ("the note claiming 0.9 [S2]"): within six words, no document between
_NOTED = re.compile(NAMES_NOTE.pattern + r"(?:(?!\b(?:documentation|docs)\b)[^\[\]()]){0,60}?"
                    r"[\[(][ \t]*[Ss]\d+[ \t]*[\])]", re.I)
# "..., so the note is outdated": a status clause about the note, not about the clause just before it
_NOTE_BACK = re.compile(r"^\W*(?:and\s+|so\s+)?(?:the|that|this)\s+(?:(?:draft|old|older|earlier)\s+)?"
                        r"(?:note|draft)\b", re.I)
_NOTE_TALK = frozenset("a an the and or of to in is it its this that these those so only old older version earlier "
                       "documentation docs doc source sources says said saying claims claiming states current "
                       "although though despite".split())       # what a clause about a note says of it, no claim
# a verb that sets one text against another: "contradicts", "is conflicting with", "doesn't agree with"
_AGAINST = (r"(?:contradict(?:s|ing)?|conflict(?:s|ing)?\s+with|disagree(?:s|ing)?\s+with|"
            r"(?:does\s+not|doesn['\u2019]t)\s+(?:match|agree\s+with))")
_STATUS = re.compile(r"\b(?:draft|outdated|out of date|obsolete|superseded|stale|deprecated|wrong|incorrect|mistaken)\b"
                     r"|\b(?:is\s+not|isn['\u2019]t|not)\s+(?:correct|accurate|right)\b"
                     r"|\bold(?:er)?(?:-version)?\s+(?:note|docs?|version|text)\b"
                     r"|\b" + _AGAINST + r"\s+"
                     r"(?:the\s+(?:current\s+|official\s+)?(?:documentation|docs?|documented|defaults?)|this|that|"
                     r"these|those)\b"
                     r"|\bno\s+longer\s+(?:appl(?:y|ies)|holds?|true|valid)\b"
                     r"|\bnot\s+(?:the\s+)?current\b"
                    r"|\bnot\s+what\s+the\s+(?:current\s+|official\s+)?(?:documentation|docs)\s+says?\b"
                    r"|\b(?:that['\u2019]s|that\s+is|it['\u2019]s|it\s+is)\s+(?:really\s+|actually\s+|just\s+)?"
                    r"(?:how\s+(?:the\s+)?[`'\"]?[\w.\- ]{1,40}?[`'\"]?\s+(?:behaves|works)"
                    r"|(?:what\s+)?(?:the\s+)?[`'\"]?[A-Za-z][\w.]*_\w+(?:\(\))?[`'\"]?"
                    r"(?:\s+(?:behaves|does|returns|works|is\s+for)|(?:['\u2019]s)?\s+(?:behaviou?r|job|rule))?)"
                    r"(?=\s*(?:[,;.)!?]|$))"
                    r"|\b(?:that|this|it)(?:\s+(?:behaviou?r|one|note|draft))?\s+(?:belongs\s+to|describes|is\s+about|"
                    r"(?:actually|really)\s+describes)\s+[`'\"]?[A-Za-z][\w.]*_\w+", re.I)   # nothing after it:
# "that's how fmean behaves on Python 3.12" says more than that the note speaks of another function
# words that set aside whatever their clause speaks of: they dismiss a citation only in a clause that names a note,
# a draft or a source, or opens with the citation ("The note in [S2] is about fmean and doesn't apply", "[S2] is
# unrelated"; not "... 0.9 [S2], since the documented value is irrelevant")
_ASIDE = re.compile(r"\b(?:should|can)\s+be\s+(?:ignored|disregarded)\b|\b(?:ignore|disregard)\s+it\b"
                    r"|\b(?:ignore|disregard)\s+(?:the|that|this)\s+(?:[\w.\-]+\s+){0,3}?(?:note|draft)s?\b"
                    r"|\bset\s+(?:it|this|that|(?:this|that)\s+one)\s+aside\b"
                    r"|\b(?:does\s+not|doesn['\u2019]t|do\s+not|don['\u2019]t)\s+"
                    r"(?:apply|change\s+(?:this|that|the\s+answer|anything))\b"
                    r"|\bhas\s+no\s+bearing\b|\b(?:unrelated|irrelevant)\b|\bhas\s+nothing\s+to\s+do\s+with\b"
                    r"|\b(?:does\s+not|doesn['\u2019]t)\s+affect\s+(?:this|that|it|the\s+answer)\b"
                    r"|\b(?:do\s+not|don['\u2019]t)\s+trust\b"
                    r"|\b(?:is|talks|speaks)\s+about\s+[\w.()]+,?\s+not\s+(?:about\s+)?(?:this|the\s+one|[\w.()]+)"
                    r"|\bconcerns\s+[\w.()]+\s+rather\s+than\b"
                    r"|\bnot\s+the\s+(?:[^,;.]|\.(?=\d)){0,40}?\b(?:claimed|stated|given|suggested|said)\s+(?:in|by)\b",
                    re.I)
# a citation a status clause trusts: "..., but that contradicts the documentation, so go with [S1]"
# and the one it measures the note against: "..., but that note is a draft and contradicts [S1]", "which conflicts
# with the documentation in [S1]"
_ENDORSED = re.compile(r"\b(?:(?<!not\s)(?<!n't\s)(?<!n\u2019t\s)(?<!never\s)(?:go(?:ing)?\s+with|trust(?:ing)?|stick(?:ing)?\s+(?:with|to)|rely(?:ing)?\s+on|"
                       r"follow(?:ing)?|believ(?:e|ing))\s+(?:the\s+)?"
                       r"(?:(?:[^\[\]().;:!?]|\.(?=\d)){1,60}?\s)?"       # words between: "go with 0.6 [S1]"
                       r"|(?:" + _AGAINST + r"|differs?\s+from|is\s+at\s+odds\s+with)\s+(?:(?:what\s+)?the\s+(?:current\s+|official\s+)?"
                       r"(?:documentation|docs)\s+(?:says\s+)?(?:in|at|from)\s+)?)"
                       r"[\[(][ \t]*[Ss]\d+[ \t]*[\])]", re.I)
_MEASURED = re.compile(r"\b" + _AGAINST + r"\s+(?:the\s+(?:documentation|docs)\s+"
                       r"(?:in|at|from)\s+)?(?:[\[(][ \t]*)?[Ss]\d", re.I)      # "[S1]", or "S1" bare
# a clause that reports what a span says: "whereas [S2] claims it stores the current time", "the note in [S2] says"
_REPORTS = re.compile(r"^\W*(?:(?:but|while|whereas|and)\s+)?(?:(?:the\s+)?(?:draft\s+|old\s+)?(?:note|draft)\s+"
                      r"(?:in\s+)?)?[\[(][ \t]*[Ss]\d+[ \t]*[\])]\s+(?:says|said|claims|claimed|states|stated|suggests|"
                      r"reports|gives|has)\b", re.I)
_NOT_AS_NOTE = re.compile(r"\bnot\s+(?:[^,;.\[\]]|\.(?=\d)){0,40}?\bas\s+(?:the\s+|that\s+|this\s+)?(?:\w+\s+){0,2}?"
                          r"(?:note|draft)\b", re.I)           # "0.6, not 0.9 as the draft note [S2] claims [S1]"
_IGNORE_CITED = re.compile(r"\b(?:ignore|disregard)\s+(?:the\s+)?[\[(]\s*[Ss]\d", re.I)     # "Ignore [S2], ..."
_SOURCE_NAMED = re.compile(r"\b(?:note|draft|source)\b", re.I)
_CITED_FIRST = re.compile(r"\s*(?:the\s+)?(?:[\[(]\s*)?[Ss]\d")    # "[S2] is about fmean and doesn't apply", "S2 says"
_NOT_STATUS = re.compile(r"(?:\b(?:not|no|never|hardly|barely|scarcely)|n't|n\u2019t)\s+"
                         r"(?!(?:trust|rely|believe|follow|use)\b)(?:\w+\s+){0,2}?"
                         r"(?:a\s+|an\s+|the\s+)?(?:draft|outdated|obsolete|stale|wrong|incorrect|mistaken)\b", re.I)


def dismissed(answer: str) -> tuple[set[int], str]:
    """(the span numbers the answer cites only in clauses that call them a draft or outdated, the answer without
    those clauses). A clause that says so without a citation ("..., but that is outdated") speaks of the clause
    before it."""
    text_argument(answer, "answer")
    out, kept, marks = set(), set(), []     # marks: [clause as read, kept?] for every clause, in order
    previous, note = set(), None            # the citations of the clause before; the mark of the last one citing a note
    for clause in _clauses(answer):
        cites = set(cited_numbers(clause))
        words = strip_citations(_LEAD.sub("", clause))
        named = _SOURCE_NAMED.search(words) or _CITED_FIRST.match(_LEAD.sub("", clause))
        docs_disagree = bool(_DOCS_DISAGREE.search(words))
        measured = bool((named or _BACK.search(words)) and _MEASURED.search(clause))    # "[S2] describes X,
        #                                         which contradicts [S1]", "[S2] says X, but that contradicts [S1]"
        status = bool(_aside(words) if named else _STATUS.search(words)) and not _NOT_STATUS.search(words) or \
            bool(_IGNORE_CITED.search(clause)) or docs_disagree or measured
        endorsed = set(cited_numbers("".join(m[0] for m in _ENDORSED.finditer(clause)))) | (   # "so go with [S1]",
            cites if docs_disagree else set())                          # "but the documentation [S1] says otherwise"
        kept |= endorsed if status else set()
        cites -= endorsed if status else set()
        mark = [clause, False]
        if status and not cites and note is not None and _NOTE_BACK.search(words):
            out |= note[1]
            kept -= note[1]
            note[0][1] = False
        elif status and not cites and previous and _BACK.search(words):
            out |= previous - endorsed
            kept -= previous - endorsed
            marks[-1][1] = False
        elif status and not cites and marks and not marks[-1][1] and _BACK.search(words):
            pass                                    # "the draft [S2] says larger, but that is median_high's
            #                                         behaviour": more said of a clause set aside, set aside too
        elif status and len(cites) == 1:          # a clause citing two spans sets neither aside: "although the
            out |= cites                            # default is 1 [S1] and the draft [S2] is wrong, ..."
        elif len(cites) > 1 and (_aside(strip_citations(_NOTED.sub(" ", clause))) or _NOT_AS_NOTE.search(clause)) \
                and len(noted := set(
                cited_numbers("".join(m[0] for m in _NOTED.finditer(clause))))) < len(cites):
            out |= noted                            # "The note [S2] is a draft and conflicts with the docs [S1]":
            kept |= cites - noted                   # the note is set aside, the document stays a source, and
            rest = _ASIDE.sub(" ", _STATUS.sub(" ", _NOTED.sub(" ", clause)))   # what else the clause says is read
            mark = [rest, any(w.lower() not in _NOTE_TALK for w in re.findall(r"[A-Za-z0-9]+", strip_citations(rest)))]
        else:
            kept |= cites
            mark[1] = True
            note = (mark, cites) if len(cites) == 1 and NAMES_NOTE.search(words) else note
        marks.append(mark)
        previous = cites if not status else set()
    for n in out & kept:                    # "whereas [S2] claims X; [S2] is a draft": what it claims is reported
        reports = [m for m in marks if m[1] and set(cited_numbers(m[0])) == {n}]
        if reports and all(_REPORTS.search(m[0]) for m in reports) and \
                not any(n in cited_numbers(m[0]) for m in marks if m[1] and m not in reports):
            kept.discard(n)
            for m in reports:
                m[1] = False
    if not out - kept:
        return set(), answer
    pieces = [_LEAD.sub("", text) if i == 0 or not marks[i - 1][1] else text     # "but" after a clause set
              for i, (text, keep) in enumerate(marks) if keep]                  # aside opens nothing
    return out - kept, "".join(pieces).strip()


def about_a_note(text: str) -> bool:
    """Whether a sentence names a note or a draft or calls something outdated, wrong, obsolete ...: it speaks of a
    source set aside, not of the answer ("[S1], but that is outdated")."""
    return bool(NAMES_NOTE.search(text) or _STATUS.search(text))


def sets_aside(text: str) -> bool:
    """Whether a text calls something a draft, outdated, wrong, beside the point ... (as a clause that dismisses
    its citation does)."""
    return _aside(strip_citations(text)) and not _NOT_STATUS.search(text) or bool(_IGNORE_CITED.search(text))


def _aside(words: str) -> bool:
    """Whether the words, about a note the clause cites, call it a draft, outdated or beside the point."""
    return bool(_STATUS.search(words) or _ASIDE.search(words))


def _clauses(answer: str) -> list[str]:
    """The answer cut after . ; : ! ?, a dash between spaces and a line break, before "but", "while", "whereas",
    before "so the note", and after a
    concession's comma: "although a draft [S2] says 0.9, the docs say 0.6 [S1]" is two clauses. The clauses
    together are the answer, character for character: what is kept of it reads as it was written ("not a number:
    an empty input" does not become "not a number an empty input")."""
    cuts = [m.start() if m[0][:1].isalpha() else m.end() for m in _CLAUSE.finditer(answer)]
    out, start = [], 0
    for end in [*cuts, len(answer)]:
        clause = answer[start:end]
        m = _CONCESSION.search(clause)
        out += [clause[:m.start()], clause[m.start():m.end()], clause[m.end():]] if m else [clause]
        start = end
    out = [c for c in out if c]
    for i in range(1, len(out)):            # '"... for reproducibility." [S1] The draft note says ...': S1 is the
        lead = LEADING_CITATIONS.match(out[i])      # quotation's
        if lead and not cited_numbers(out[i - 1]):
            out[i - 1], out[i] = out[i - 1] + out[i][:lead.end()], out[i][lead.end():]
    return [c for c in out if c]


# what calls a source right: "but it is correct for newer versions", "[S2] is current", "what newer versions use"
_CALLED_RIGHT = re.compile(r"(?:\b(?:is|are|was|were)|['\u2019]s|['\u2019]re)\s+(?:(?:still|actually|now|also|in\s+fact|"
                           r"really)\s+)?(?:correct|right|accurate|current|valid|true|up[- ]to[- ]date)\b"
                           r"|\bnewer\s+(?:versions?|releases?|pythons?)\s+(?:use|have|say|do|adopted|moved|switched)\b"
                           r"|\b(?:adopted|switched\s+to)\s+by\s+newer\b|\bwhich\s+newer\s+(?:versions?|releases?)\s+\w+"
                           r"|\b(?:is\s+what|the\s+value)\s+you\s+(?:actually\s+|really\s+)?(?:get|see)\b"
                           r"|\bis\s+what\s+(?:newer|current|modern)\b", re.I)


def called_right(answer: str) -> str:
    """The words by which an answer calls a source right ("it is correct for newer versions", "is what newer
    versions use"), lower case, or "": beside a note it sets aside, the rule cannot tell which of the two it
    endorses ("[S2] is an old note saying 0.9, ..., but it is correct for newer versions")."""
    m = next((m for m in _CALLED_RIGHT.finditer(answer) if not m[0].endswith("True")), None)   # "delete is True":
    return " ".join(m[0].lower().split()) if m else ""                                          # a value
