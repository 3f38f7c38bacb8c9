"""An answer's frame: a letter's greeting ("Hi Sam,") and sign-off ("Best regards,\\nDana"), and the question said
again at its opening ("Restating your question: is heappushpop faster?", "You're asking whether ..."), claim
nothing, so the checker reads the answer without them (a restated question holds the question's words, which
would read as the answer's).

    body("Hi Sam,\\n\\nThe default is 0.6 [S1].\\n\\nBest regards,\\nDana") -> "The default is 0.6 [S1]."

A greeting is the answer's first line when it is only a salutation and a name ("Hi Sam,", "Hello!", "Dear Ms. Lee:",
"Good morning, team,"). A sign-off is a closing word on a line of its own ("Best regards,", "Cheers,", "Thanks,",
"Kind regards", "All the best,") or a dash before a name ("-- Dana"), with at most two short lines after it
(a name, a role, a team: capitalised words), at the end of the answer. Left out on purpose: a salutation inside a line that goes on
("Hi Sam, the default is 0.6 [S1]." keeps its words; they are no claim the checker would look for anyway), a
closing word that goes on ("Thanks to the cache, ..."), and what a line after the sign-off says when it has a
citation, a digit or more than six words: it is read as a claim (a "P.S." says something).
"""
from __future__ import annotations

import re

_GREETING = re.compile(r"\A\s*(?:hi|hello|hey|hiya|dear|greetings|good\s+(?:morning|afternoon|evening|day))\b,?[ \t]*"
                       r"(?:[\w.'\u2019-]+(?:[ \t]+[\w.'\u2019-]+){0,4}[ \t]*)?(?:[,!:.][ \t]*)?\n", re.I)   # no two
#                        runs of spaces side by side: 1 MB of them after "Hi" is read in linear time
_CLOSING = (r"(?:(?:best|kind|kindest|warm|warmest|many|with)\s+(?:regards|wishes|thanks)|regards|cheers|thanks"
            r"(?:\s+again)?|thank\s+you(?:\s+again)?|many\s+thanks|all\s+the\s+best|best|sincerely|yours(?:\s+truly|"
            r"\s+sincerely)?|take\s+care|talk\s+soon|speak\s+soon)")
# the closing word alone on its line, then up to two short lines; or a dash and a name
_SIGN_OFF = re.compile(rf"\n[^\S\n]*(?:{_CLOSING}[^\S\n]*[,.!]?|(?:--|\u2014|\u2013)[^\S\n]*[A-Z][\w.'\u2019\- ]{{0,40}})"
                       r"(?:[^\S\n]*\n[^\S\n]*[^\n\[\]\d]{1,60}?){0,2}\s*\Z", re.I)
_NAME_LINE = 6          # words at most on a line after the closing word (a name, "Support Engineer, Acme")
# a name or a role: capitalised words ("Dana", "Dana Lee", "Support Engineer, Acme", "The Docs Team")
_NAME = re.compile(r"(?:--|\u2014|\u2013)?\s*[A-Z][\w.'\u2019-]*(?:\s+(?:[A-Z&][\w.'\u2019&-]*|of|at|the|and|de|van|von))*"
                   r"(?:,\s*[A-Z][\w.'\u2019-]*(?:\s+(?:[A-Z&][\w.'\u2019&-]*|of|at|the|and))*)?")


# the question said again at the opening: "Restating your question: is it faster?", "You're asking whether ..."
_RESTATED = re.compile(r"\A\s*(?:(?:restating|to\s+restate|rephrasing)(?:\s+(?:your|the)\s+question)?\s*:[^?\n\[\]]{1,300}\?"
                       r"|(?:so\s+)?(?:you(?:['\u2019]re|\s+are)\s+asking|you\s+asked|the\s+question\s+is)\s+"
                       r"(?:whether|if|what|how|why|which|where|who|when|about)\b(?:[^.?!\n\[\]]|\.(?=\d)){1,300}[.?])\s+(?=\S)", re.I)


def body(answer: str) -> str:
    """The answer without the greeting on its first line, the question said again after it and the sign-off at
    its end (see the module)."""
    start = _GREETING.match(answer)
    begin = start.end() if start else 0
    again = _RESTATED.match(answer, begin)
    begin = again.end() if again else begin
    end = _sign_off(answer, begin)
    return answer[begin:end].strip() if (begin or end < len(answer)) and answer[begin:end].strip() else answer


def _sign_off(answer: str, begin: int) -> int:
    """Where the sign-off starts (len(answer) for none): the last match whose lines after the closing word are
    short (each _NAME_LINE words at most)."""
    tail = answer[-400:]                        # a sign-off is short: a 1 MB answer is not searched whole
    m = _SIGN_OFF.search(tail)
    if m is None:
        return len(answer)
    lines = m[0].strip().splitlines()[1:]
    if any(len(line.split()) > _NAME_LINE or not _NAME.fullmatch(line.strip()) for line in lines):
        return len(answer)                      # "Negative k gives zero too" after "Cheers," is no name: a claim
    return max(begin, len(answer) - len(tail) + m.start())
