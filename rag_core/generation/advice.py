"""A sentence that gives the reader advice instead of saying what the document says: "Tip: pass delete=False if
you want to keep the file.", "If you need hidden files, match the leading dot explicitly.", "Keep == for values
that aren't secret.", "You can raise or lower it per call.", a short cheer ("Nice and predictable!"), and a question
to the reader ("Quick check: which argument keeps the file?", `asks`).

    advice("Tip: bump the cutoff up if you only want really close suggestions.") -> True
    advice("In addition, mkdtemp removes the directory when the program exits.") -> False

Judgement reads an uncited last sentence of advice as no claim about the document, when its numbers and names are
in the span before it and it neither contradicts nor hedges the answer (evaluation.judgement).

Left out on purpose: whether the advice is good. Advice that says the function does not do its job ("check for
emptiness yourself", "set the permissions yourself", "benchmark it", "to be safe", "use it only when readability
matters") is not read as advice: it doubts or restricts the answer it follows.
"""
from __future__ import annotations

import re

_LONGEST = 300                  # characters of a sentence read as advice
_LABEL = r"(?:(?:handy|pro|quick|one)\s+)?(?:tip|note|edit|ps|p\.s\.|related|see\s+also)\s*[:\-\u2013\u2014]\s*"
_DO = (r"(?:use|pass|keep|prefer|wrap|check|match|write|remember|watch|try|consider|avoid|decode|encode|remove|"
       r"delete|call|bump|raise|lower|put|add|make\s+sure|be\s+sure|don['\u2019]t\s+forget|go\s+with|catch|guard|"
       r"inspect|compare|switch|supply|give|set|import|reach\s+for|include|pad|chmod)")
_IMPERATIVE = re.compile(rf"^(?:{_LABEL})?(?:just\s+|so\s+|and\s+)?(?:(?:don['\u2019]t|do\s+not|never)\s+)?(?:{_DO})\b",
                         re.I)                  # "Just don't use == for secrets."
_CONDITION = re.compile(rf"^(?:{_LABEL})?(?:so\s+)?(?:if|when|whenever)\s+you\b[^.!?]*?,\s*"
                        rf"(?:just\s+)?(?:{_DO}|you\s+can|that['\u2019]s\s+what|it['\u2019]s\s+worth)\b", re.I)
_PURPOSE = re.compile(rf"^(?:{_LABEL})?to\s+\w+[^,.!?]{{0,60}},\s*(?:just\s+)?(?:{_DO})\b", re.I)   # "To keep it, pass"
_YOU_CAN = re.compile(rf"^(?:{_LABEL})?(?:you\s+can|you\s+could)\s+(?:still\s+|always\s+)?(?:{_DO})\b", re.I)
_CHEER = re.compile(r"^(?:nice(?:\s+and\s+\w+)?|hope\s+(?:this|that)\s+helps|happy\s+coding|good\s+luck|"
                    r"makes\s+sense|easy|done|that['\u2019]s\s+it|thanks?(?:\s+you)?(?:\s+for\s+asking)?|"
                    r"let\s+me\s+know\s+if\s+you\s+(?:need|have|want)\s+(?:more|anything\s+else|any\s+other\s+"
                    r"questions?)|handy,?\s+right)\s*[!.?]?$", re.I)
# advice that doubts the answer it follows: do it yourself, measure it, to be safe
_DOUBTS = re.compile(r"\b(?:yourself|benchmark|measure|to\s+be\s+safe|just\s+in\s+case|double[-\s]check|"
                     r"don['\u2019]t\s+(?:rely|count|depend)|instead\s+of\s+relying|safest|unless|"
                     r"only\s+(?:when|if|for|in|where))\b", re.I)


_QUIZ = re.compile(r"^(?:(?:quick\s+)?(?:check|quiz|question|try\s+this|exercise)\s*[:\-\u2013\u2014]\s*)?"
                   r"(?:what|which|how|can\s+you|could\s+you|would|will|do\s+you|guess|where|who)\b", re.I)


def asks(sentence: str) -> bool:
    """Whether the sentence is a question to the reader ("Quick check: would 0.55 make the list?", "Can you guess
    what heappushpop(h, 3) returns?"): it claims nothing, its numbers included. Not a question that says something
    ("Or was it raised to 0.9?", "Isn't it still slower?")."""
    s = " ".join(sentence.split()).strip(" *_`\"')")
    return s.endswith("?") and bool(_QUIZ.match(s))


# verbs that also open a statement as a noun or an adjective ("Lower cutoffs make it slow", "Set operations are
# fast"): an imperative only before what it acts on ("Lower the cutoff", "Use it", "Set `mtime=0`")
_AMBIGUOUS = re.compile(r"^(?:just\s+|so\s+|and\s+)?(use|lower|raise|set|check|match|call|compare|switch|watch|write|"
                        r"add|delete|remove|import|catch|guard|try|put|give|keep|encode|decode)\s+(\S+)", re.I)
_OBJECT = re.compile(r"^(?:it|them|this|that|these|those|the|a|an|your|its|their|one|both|each|any|some|up|down|out|"
                     r"in|on|off|for|with|against|explicitly|instead|only|[`'\"(\[=<>.]\S*|\S*[_=(.]\S*)$", re.I)


def advice(sentence: str) -> bool:
    """Whether the sentence is advice to the reader or a cheer, not a claim about the document (see the module)."""
    s = " ".join(sentence.split()).strip(" *_`\"'")
    if len(s) > _LONGEST or _DOUBTS.search(s):  # a tip is a sentence, not a page
        return False
    bare = re.sub(rf"^(?:{_LABEL})", "", s, flags=re.I)
    m = _AMBIGUOUS.match(bare)
    if m and not _OBJECT.match(m[2].strip(",;:")):
        return bool(_CONDITION.match(s) or _YOU_CAN.match(s) or _PURPOSE.match(s))   # "Lower cutoffs make ..."
    return bool(_IMPERATIVE.match(s) or _CONDITION.match(s) or _YOU_CAN.match(s) or _PURPOSE.match(s) or
                _CHEER.match(s))


# advice for the reader who wants the other behaviour ("if you want them", "to keep it"): it speaks of another case
_WISH = re.compile(r"\b(?:if|when|whenever)\s+you\s+(?:\w+\s+){0,2}?(?:want|need|would\s+like|['\u2019]d\s+(?:like|"
                   r"rather)|prefer|care)\b|^(?:\W*(?:\w+\s*:\s*)?)to\s+(?:keep|match|get|include|pick|persist|have)\b",
                   re.I)


_PASSES = re.compile(r"\b[A-Za-z_]\w*\s*=\s*([^\s,;:)`'\"]+)")    # "delete=False", "cutoff=0.8": a value passed


def for_another_case(sentence: str) -> tuple:
    """The values a piece of advice passes for a reader who wants another behaviour than the documented one
    ("Pass delete=False if you need the file to persist." -> ("False",); "Bump it for stricter matches, e.g.
    cutoff=0.8" -> ("0.8",)), else (): a value passed for the other case is no claim of the default. Not when
    the wish is the default's ("if you want the default behaviour, pass cutoff=0.9")."""
    s = " ".join(sentence.split())
    if not (_WISH.search(s) or _FOR.search(s)) or re.search(r"\bdefault", s, re.I):
        return ()
    return tuple(m[1].rstrip(".!?") for m in _PASSES.finditer(s))


_FOR = re.compile(r"\bfor\s+(?:stricter|looser|more|fewer|closer|exact|a\s+(?:specific|real|different))\b", re.I)
