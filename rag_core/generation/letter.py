"""An answer's frame: a letter's greeting ("Hi Sam,") and sign-off ("Best regards,\\nDana"), and the question said
again at its opening ("Restating your question: is heappushpop faster?", "You're asking whether ..."), claim
nothing, so the checker reads the answer without them (a restated question holds the question's words, which
would read as the answer's).

    body("Hi Sam,\\n\\nThe default is 0.6 [S1].\\n\\nBest regards,\\nDana") -> "The default is 0.6 [S1]."

A greeting is the answer's first line when it is only a salutation and a name ("Hi Sam,", "Hello!", "Dear Ms. Lee:",
"Good morning, team,"). A sign-off is a closing word on a line of its own ("Best regards,", "Cheers,", "Thanks,",
"Kind regards", "All the best,") or a dash before a name ("-- Dana"), with at most two short lines after it
(a name, a role, a team: capitalised words), at the end of the answer; so is a closing pleasantry after the last
sentence ("Hope that clears it up!", "Happy coding!", "Let me know if you have any other questions.").

Left out on purpose: a salutation inside a line that goes on ("Hi Sam, the default is 0.6 [S1]." keeps its
words; they are no claim the checker would look for anyway), a closing word that goes on ("Thanks to the cache,
..."), and what a line after the sign-off says when it has a citation, a digit, more than six words or a word that
makes a claim ("is", "gives", "too", "except"): it is read as a claim (a "P.S." says something, in Title Case too).
"""
from __future__ import annotations

import re

from rag_core.generation import lexicon
from rag_core.text.arguments import text_argument
from rag_core.text.tokens import STOP

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
# a name holds no word that makes a claim: "P.S. The Last Batch Is Padded", "Negative K Gives Zero Too", "Except On
# Windows" and "Median_high Does The Same" are claims in Title Case
_ROLE = frozenset({"at", "of", "and", "&"})    # more than three words: a role at a place ("Support Engineer at Acme")
# the line under a name says who they are: "Support Engineer, Acme", "The Docs Team", "Python Help Desk"
_ROLE_WORDS = frozenset("team support engineer engineering developer developers manager lead assistant desk docs "
                        "documentation helpdesk maintainer maintainers tutor teacher instructor ta mentor consultant "
                        "analyst architect staff group department inc ltd corp llc gmbh services service customer "
                        "success advocate specialist officer intern student professor lecturer community "
                        "bot help".split())


def _role(line: str) -> bool:
    """Whether a line under a sign-off's name says a role or a place: a comma, "at", "of", or a role word."""
    words = set(re.findall(r"[a-z&]+", line.lower()))
    return "," in line or bool(words & (_ROLE | _ROLE_WORDS))
_NOT_IN_NAME = (STOP - {"of", "at", "the", "and"}) | {"too", "also", "same", "except", "only", "never", "always", "no",
                                                     "gives", "returns", "raises", "p", "ps", "s", "n", "b", "nb",
                                                     "likewise", "identical", "excluded", "removed", "accepted"}


# the question said again at the opening: "Restating your question: is it faster?", "You're asking whether ..."
_RESTATED = re.compile(r"\s*(?:(?:restating|to\s+restate|rephrasing)(?:\s+(?:your|the)\s+question)?\s*:[^?\n\[\]]{1,300}\?"
                       r"|(?:so\s+)?(?:you(?:['\u2019]re|\s+are)\s+asking|you\s+asked|the\s+question\s+is)\s+"
                       r"(?:whether|if|what|how|why|which|where|who|when|about)\b(?:[^.?!\n\[\]]|\.(?=\d)){1,300}[.?])\s+(?=\S)", re.I)


# a closing pleasantry at the very end, after the last sentence: "Hope that clears it up!", "Happy coding!"
_PLEASANTRY = re.compile(r"(?:(?<=[.!?\]])|(?<=[.!?\]][\"'\u201d\u2019)])|\A)\s+(?:(?:i\s+)?hope\s+(?:this|that|it)\s+(?:helps|"
                         r"clears\s+(?:it|things)\s+up|answers\s+your\s+question)|happy\s+coding|good\s+luck|hth|"
                         r"let\s+me\s+know\s+if\s+you\s+have\s+(?:any\s+)?(?:other\s+|more\s+|further\s+)?questions)"
                         r"[^\S\n]*[.!]*(?:[^\S\n]*[\U0001F300-\U0001FAFF\u263a\u2764])?\Z", re.I)
PLEASANTRY = 120                # characters at the end of an answer searched for a pleasantry: it is short


def body(answer: str, question: str | None = None) -> str:
    """The answer without the greeting on its first line, the question said again after it, the sign-off and a
    closing pleasantry at its end (see the module)."""
    text_argument(answer, "answer")
    return framed(answer, question)[0]


_ADDRESSED = frozenset("team all there everyone everybody folks both y'all".split())   # "Hi team," "Hello there!"


def _greeting(answer: str):
    """The greeting on the answer's first line (_GREETING) when what follows the salutation is a name: capitalised
    words ("Hi Sam,", "Dear Ms. Lee:") or a group ("Good morning, team,"); not "Hi, nine tenths in practice!"."""
    m = _GREETING.match(answer)
    if m is None:
        return None
    words = re.findall(r"[\w.'\u2019-]+", m[0])[1:]
    words = words[1:] if m[0].strip().lower().startswith("good") else words
    return m if all(w[:1].isupper() or w.lower() in _ADDRESSED for w in words) else None


def framed(answer: str, question: str | None = None) -> tuple[str, tuple[str, ...]]:
    """(body(answer, question), what of its frame was left out, in the words a page shows: "its greeting", "its
    sign-off", "a closing pleasantry", "the question said again"); the answer itself and () when nothing, or nothing
    else. The question said again is left out only beside the `question` it says again (_only_asks)."""
    start = _greeting(answer)
    begin = start.end() if start else 0
    again = _RESTATED.match(answer, begin)
    again = again if again and _only_asks(again[0], question) else None
    begin = again.end() if again else begin
    end = _sign_off(answer, begin)
    signed = end < len(answer)
    shown = len(answer[:end].rstrip())                  # to its last character: 64 KB of spaces after "Hope this
    thanks = _PLEASANTRY.search(answer, max(begin, shown - PLEASANTRY), shown)      # helps" took 96 s
    end = thanks.start() if thanks and answer[begin:thanks.start()].strip() else end
    if not (begin or end < len(answer)) or not answer[begin:end].strip():
        return answer, ()
    left = [name for name, found in (("its greeting", start), ("the question said again", again),
                                     ("a closing pleasantry", end < len(answer) and thanks and
                                      end == thanks.start()), ("its sign-off", signed)) if found]
    return answer[begin:end].strip(), tuple(left)


_ASKING = lexicon.stem_set("restating restate rephrasing your question you are re asking asked whether wonder "
                           "want know so the is about")
_ASKS_WHETHER = re.compile(r"\b(?:whether|if)\b", re.I)
_ADDS = re.compile(r",\s*(?:which|and|as|since|because|but)\b|\b(?:like|as)\s+(?:in|it|they|on|with)\b", re.I)
_NAME_OR_NUMBER = re.compile(r"\w+_\w+|\w+\(\)|[A-Z]\w*[a-z][A-Z]\w*|\d+(?:\.\d+)?")


def _only_asks(said: str, question: str | None) -> bool:
    """Whether the question said again adds nothing to `question`: no clause is joined to it (", which ...", "as it
    does ..."), and it asks ("...?", "whether ...") or every name and number of it is the question's and at most
    three of its content words are not ("You're asking whether runs of spaces get squashed when shortening a
    paragraph" beside "... are runs of spaces squashed first?"; not "You're asking about the default cutoff,
    which newer releases moved to 0.9."). Without the question nothing is known to be said again."""
    if not question or _ADDS.search(said):         # "..., which newer releases moved to 0.9", "as it does by default"
        return False
    if said.rstrip().endswith("?") or _ASKS_WHETHER.search(said):
        return True                                 # "is the default 0.9?", "whether it is 0.9": asked, not claimed
    if set(_NAME_OR_NUMBER.findall(said)) - set(_NAME_OR_NUMBER.findall(question)):
        return False
    return len(lexicon.stem_set(said) - lexicon.FUNCTION_STEMS - _ASKING - lexicon.stem_set(question)) <= 3


def _sign_off(answer: str, begin: int) -> int:
    """Where the sign-off starts (len(answer) for none): the last match whose lines after the closing word are
    short (each _NAME_LINE words at most)."""
    tail = answer[-400:]                        # a sign-off is short: a 1 MB answer is not searched whole
    m = _SIGN_OFF.search(tail)
    if m is None:
        return len(answer)
    lines = m[0].strip().splitlines()[1:]
    if any(len(line.split()) > _NAME_LINE or not _NAME.fullmatch(line.strip())
           or _NOT_IN_NAME.intersection(re.findall(r"[a-z]+", line.lower()))
           or len(line.split()) > 3 and "," not in line and not _ROLE.intersection(line.lower().split())
           for line in lines) or len(lines) > 1 and not _role(lines[1]):
        return len(answer)                      # "Negative k gives zero too" after "Cheers," is no name: a claim
    return max(begin, len(answer) - len(tail) + m.start())
