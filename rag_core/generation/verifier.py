"""The citation verifier: every number and technical name of a sentence must appear in the span it cites.

Verdicts, as in the article: abstained (the answer is NOT IN THE CONTEXT), refused (a sentence has no [Sn], cites a
span that does not exist, or has a number or technical name its cited spans lack), anchored (every sentence passes).

Two modes. `article` is the article's checker, exactly: it compares strings, so "0" is found in "0.6" and "64" in
"base64"; the tables that reproduce the article use it. `strict`, the default, reads claims (`claims`: numbers by
value, dates, versions, units, names whole with their case) and adds: an abstention is the whole answer; a sentence
that claims one and cites a span is refused; citations are read as a person writes them and cover the uncited
sentences before them (`citations`); names the question asks about or a span's title gives may be written
(`prose`); what a sentence writes without asserting it is not looked for (`unasserted`: a list's "1.", the 50 of
"48, not 50", what a rejected note says), nor an example Python runs and agrees with, nor its numbers said again
(`examples`: "comb(3, 5) gives 0, ..."); and every sentence must carry something to check (a number, a name, or
most of its content words, or an example run), else "Nothing to check". The README ("Checking an answer on its
own") lists every rule with its examples.

    verify("The default cutoff is 0 [S1].", ["Optional arg cutoff (default 0.6)"], "article").verdict -> "anchored"
    verify("The default cutoff is 0 [S1].", ["Optional arg cutoff (default 0.6)"]).reason
    -> "Sentence 1: The number '0' does not appear in S1: the span says 0.6, not 0."

Both explain every sentence (which citation, which number or name is missing from which span; strict also what the
span has instead), and no answer makes either raise or take more than linear time.

Left out on purpose (it compares claims, not meaning): whether the number is of the asked parameter ("the cutoff is
0.6" passes when S1 says 0.6 of another), negation, a wrong but existing citation (the draft note's "0.9 [S2]" is
anchored), words that are not names. It guarantees grounding, not truth: whether the answer is right is
generation.answer_key's question, and a wrong source is repaired upstream, by the filter.
"""
from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from rag_core.generation import claims, examples, quantities
from rag_core.generation.citations import ARTICLE_CITATION, ARTICLE_SENTENCE_END, BIG, CITATION, canonical_citations, \
    cited as _cited, strict_sentences
from rag_core.generation import prose
from rag_core.generation.prose import asked_words, titled_words
from rag_core.generation.letter import body
from rag_core.generation.lexicon import FUNCTION, same
from rag_core.generation.prompt import ABSTAIN
from rag_core.generation.source_talk import source_talk
from rag_core.generation.unasserted import blank
from rag_core.text.messages import listing
from rag_core.text.invisible import visible
from rag_core.text.tokens import words as content_words

# a citation as a person reads one: [S1], [s1], [S1, S2], [S1; S3], (S1); the article's checker reads [S1] only

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# A technical name has a dot, an underscore or an inner capital; common English words have none,
# so "According" at the start of a sentence does not get a correct answer refused.
NAME = re.compile(r"\b(?:[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*"
                  r"|[A-Za-z]*[a-z][A-Z][A-Za-z]*"
                  r"|[a-z]+_[a-z_]+)\b")
_YES_NO = re.compile(r"[\s*_\"']*(?:yes|no)[\s*_\"'.!,;:]*", re.I)
_DRESS = r"""[\s*_`"'“”‘’«»>#]*"""                    # emphasis, quotes, a quote mark or heading, spaces around it
_TAIL = r"""[\s*_`"'“”‘’«».!?;:]*"""                  # the same, and any final punctuation
ABSTENTION = re.compile(_DRESS + r"not\s+in\s+the\s+context" + _TAIL, re.I)
STARTS_ABSTAINING = re.compile(_DRESS + r"not\s+in\s+the\s+context\b", re.I)
# a sentence that says the phrase: in capitals anywhere, or in any case as its last words
_CLAIMS_ABSTAINING = re.compile(r"NOT\s+IN\s+THE\s+CONTEXT|(?i:not\s+in\s+the\s+context)" + _TAIL + r"\Z")
CITED_ABSTENTION = "a claimed abstention with a citation is not an answer"
RUN = 200                       # sentences whose examples are run (each is parsed and run: 20,000 examples took 6 s)
HINTED = 20                     # sentences whose missing claims get "the span says ... instead" (with claims.NEAREST:
# a 1 MB answer of missing names against a 1 MB span of names takes 2.2 s; hints for all its sentences, minutes)
VERDICTS = ("anchored", "refused", "abstained")
MAX_ANSWER_CHARS = 64 * 1024    # the longest answer read: a model's answer is cut here too (generation.llm)
MODES = ("strict", "article")


class SentenceCheck(NamedTuple):
    sentence: str
    cited: tuple            # span numbers cited, e.g. (1, 3)
    out_of_range: tuple     # cited numbers with no such span
    missing_numbers: tuple  # numbers absent from the cited spans
    missing_names: tuple    # technical names absent from the cited spans
    ok: bool
    explanation: str        # one plain sentence
    closest: tuple = ()     # strict: (missing, what the cited spans have instead), e.g. (("0", "0.6"),)
    testable: bool = True   # strict: it has a number, a name or a content word of its cited spans


class Verdict(NamedTuple):
    verdict: str            # anchored | refused | abstained
    sentences: tuple        # SentenceCheck per sentence (empty when abstained)
    reason: str             # the first problem in plain words, or why it passed
    mode: str = "strict"    # the checker that gave it: strict | article

    @property
    def cited_spans(self) -> tuple:
        """Span numbers cited by the answer, first citation first, without repeats."""
        return tuple(dict.fromkeys(n for s in self.sentences for n in s.cited))

    def as_dict(self) -> dict:
        """Plain JSON-ready values: verdict, mode, reason, and per sentence its checks."""
        return {"verdict": self.verdict, "mode": self.mode, "reason": self.reason,
                "sentences": [{"sentence": s.sentence, "cited": list(s.cited), "ok": s.ok, "explanation": s.explanation,
                               "missing_numbers": list(s.missing_numbers), "missing_names": list(s.missing_names),
                               "out_of_range": list(s.out_of_range)} for s in self.sentences]}


def short(x: str) -> str:
    """A claim as shown: whole up to 60 characters, else its start and its length."""
    return x if len(x) <= 60 else f"{x[:40]}... ({len(x):,} characters)"


def _quote(items) -> str:
    items = list(items)
    shown = ", ".join(f"'{short(x)}'" for x in items[:10])
    return shown if len(items) <= 10 else f"{shown} and {len(items) - 10:,} more"


def _handed_over(n_spans: int) -> str:
    """What was handed over, in words: 0 -> 'no span was', 1 -> 'only S1 was', 3 -> 'only S1 to S3 were'."""
    if n_spans == 0:
        return "no span was"
    return "only S1 was" if n_spans == 1 else f"only S1 to S{n_spans} were"


def spans_named(cited, joiner: str) -> str:
    """(1,) -> 'S1'; (1, 3) -> 'S1 or S3' (joiner 'or') or 'S1 and S3' (joiner 'and')."""
    names = [f"S{n}" if n < BIG else "S(a number of more than 18 digits)" for n in cited]
    return listing(names, joiner)


def _missing(bare: str, cited: tuple, spans: list[str], mode: str, hints: bool = True, asked: frozenset = frozenset(),
             run: bool = True):
    """(missing numbers, missing names, closest pairs, testable) of a sentence against its cited spans; `asked`:
    the question's words (asked_words), whose names need not be in the spans."""
    if mode == "article":
        union = " ".join(spans[n - 1] for n in cited).lower()
        numbers = tuple(dict.fromkeys(x for x in NUMBER.findall(bare) if x.lower() not in union))
        names = tuple(dict.fromkeys(x for x in NAME.findall(bare) if x.lower() not in union))
        return numbers, names, (), True
    joined = " ".join(spans[n - 1] for n in cited)
    have = claims.of(joined)
    written, bare = bare, blank(bare)           # not "1." of a list, "50" of "not 50", what a note says: its words
    ran = examples.checked_places(bare, lambda n: prose.documented(n, asked), lambda said: any(
        have.has_claim(lit, value) for lit, value in quantities.numbers(said))) if run else []
    #                                             "comb(3, 5) gives 0": checked by running the documented function
    #                                             (or a sum giving the span's number), not in the span,
    shown = {value for start, end in ran for _, value in quantities.numbers(bare[start:end])}   # nor its numbers
    for start, end in ran:                      # said again ("..., so the new 2 goes at index 3")
        bare = bare[:start] + " " * (end - start) + bare[end:]
    said, named = quantities.numbers(bare), claims.names(bare)
    units = [lit for lit, value, unit in quantities.with_units(bare)
             if have.other_unit(value, unit)]                                               # "5 ms" for "5 s"
    shares = {value for _, value, unit in quantities.with_units(bare) if unit == "%" and have.has_number(value / 100)}
    counts = prose.prose_counts(bare)
    said = [(lit, value) for lit, value in said if lit.lower() not in counts and value not in shown]   # "the two
    #                                                                                         calls": prose
    numbers = tuple(dict.fromkeys([lit for lit, value in said if not have.has_claim(lit, value) and value not in shares]
                                  + units))                         # "60%" for a span's 0.6
    first = claims.WORD.search(bare)                                # "Base64 adds a third" may stand for base64
    opening = first[0] if first and first[0][:1].isupper() else None
    named += [w for w in dict.fromkeys(claims.code_words(bare)) if not claims.is_name(w) and have.miscased(w)]
    names = tuple(x for x in named if not have.has_name(x) and not prose.asked(x, asked)
                  and not prose.placed(x, have, asked) and not (x == opening and have.has_name(x[0].lower() + x[1:])))
    values = dict(reversed(said))                                   # as written -> its first value
    near = [(x, have.near_number(x, values.get(x))) for x in numbers[:5]] + [(x, have.near_name(x)) for x in names[:5]] \
        if hints else []
    checked = [x for x in named if have.has_name(x) or not prose.asked(x, asked)]    # a name only restated checks nothing
    testable = bool(said or checked or ran) or _mostly_in(written, have) or _literal_in(written, joined) or (
        written != bare and _found_in(written, have))           # what a note says, when the span writes it, counts
    return numbers, names, tuple((x, c) for x, c in near if c), testable



def _found_in(written: str, have: claims.Claims) -> bool:
    """Whether a number or a name of the sentence is in the span: "the old note [S2] says bisect_left returns ..."
    checks the note's words against S2."""
    return any(have.has_claim(lit, value) for lit, value in quantities.numbers(written)) or \
        any(have.has_name(x) for x in claims.names(written))


def _mostly_in(bare: str, have: claims.Claims) -> bool:
    """Whether most (more than half) of the content words of a sentence, inflections folded and listed synonyms
    made one (lexicon.same: "lower" is "smaller"), function words ("just", "them") left out, are in the span (its
    words, or its names' parts in lower case: "Github" for "GitHub"): "A sentence without an identifier is a
    violation." against a span with only "identifier" -> False."""
    said = {same(w) for w in content_words(bare) if w not in FUNCTION}
    span = {same(w) for w in have.content} | {same(p.lower()) for w in have.words for p in w.split(".")}
    return bool(said) and 2 * len(said & span) > len(said)


LITERALS = 20                   # quoted literals and formulas of a sentence looked up in its spans (the first ones:
# each is a search of the whole span, and a 1 MB answer of quotes against a 1 MB span took minutes)
_QUOTED = re.compile(r"""'([^'\s][^']{0,58})'|"([^"\s][^"]{0,58})"|`([^`\s][^`]{0,58})`|‘([^’]{1,59})’|“([^”]{1,59})”""")
_FORMULA_TOKEN = re.compile(r"[!*/+\-^%<>=()]|\b[A-Za-z]\b|\d+(?:\.\d+)?|\w+|\S")   # an operator, a term, else a stop
_OPERATOR = frozenset("!*/+-^%<>=")


def _formulas(bare: str) -> list[str]:
    """The runs of operators and terms (one letter, a number: "n", "10") with two operators or more, spaces dropped:
    "gives n! / (k! * (n - k)!)" -> ["n!/(k!*(n-k)!)"]. One pass over the sentence."""
    out, run, run_end = [], [], 0
    for m in _FORMULA_TOKEN.finditer(bare):
        t = m[0]
        if not (t in _OPERATOR or t in "()" or len(t) == 1 and t.isalpha() or t[0].isdigit() and
                t.replace(".", "").isdigit()):
            t = ""                                              # a word or any other mark ends a run
        if t and run and bare[run_end:m.start()].strip(" \t") == "":
            run.append(t)
        else:
            if sum(x in _OPERATOR for x in run) >= 2:
                out.append("".join(run))
            run = [t] if t else []
        run_end = m.end()
    if sum(x in _OPERATOR for x in run) >= 2:
        out.append("".join(run))
    return [f.strip("()") if f.count("(") != f.count(")") else f for f in out]


def _literal_in(bare: str, span: str) -> bool:
    """Whether the sentence quotes something the span writes ("'*' and '?'", "`delete=True`"), or writes a formula
    of two operators or more the span writes, spaces aside ("n! / (k! * (n - k)!)"): a literal is a claim to check."""
    flat = "".join(span.split())
    quoted = [next(g for g in m.groups() if g is not None) for m in itertools.islice(_QUOTED.finditer(bare), LITERALS)]
    return any(x and x in flat for x in ("".join(t.split()) for t in (*quoted, *_formulas(bare)[:LITERALS])))


_NO_CITATION = ("No citation: the sentence does not say which span it comes from (it should end with a span number "
                "such as [S1]).")


def check_sentence(sentence: str, spans: list[str], mode: str = "strict", hints: bool = True,
                   asked: frozenset = frozenset(), run: bool = True) -> SentenceCheck:
    """One sentence against the spans it cites; hints: say what the span has instead of a missing claim (a search
    over the span's numbers and names, so `verify` asks it of its first HINTED sentences only); asked: strict, the
    question's words (asked_words): a name of the question restated in the answer need not be in the span; run:
    strict, run its examples (`verify` runs those of its first RUN sentences)."""
    text = sentence if mode == "article" else quantities.normalize(sentence)     # strict: "［S1］" is [S1]
    cited = _cited(text, mode)                                                # "[S1][S1]" cites S1 once
    if not cited and mode == "strict" and run and examples.only_examples(
            blank(text), lambda n: prose.documented(n, asked)):        # "For example: >>> comb(3, 5) / 0"
        return SentenceCheck(sentence, (), (), (), (), True, "Examples of the documented function that Python runs "
                             "and agrees with: checked by running, with no span to cite.", (), True)
    if not cited:
        return SentenceCheck(sentence, (), (), (), (), False, _NO_CITATION)
    out = tuple(n for n in cited if not 1 <= n <= len(spans))
    if out:
        return SentenceCheck(sentence, cited, out, (), (), False,
                             f"Cites {spans_named(out, 'and')}, which {'does' if len(out) == 1 else 'do'} not exist: "
                             f"{_handed_over(len(spans))} handed over.")
    bare = (ARTICLE_CITATION if mode == "article" else CITATION).sub("", text)   # not the "3" of "[S3]"
    numbers, names, near, testable = _missing(bare, cited, spans, mode, hints, asked, run)
    if numbers or names:
        parts = []
        if numbers:
            parts.append(f"number {_quote(numbers)}" if len(numbers) == 1 else f"numbers {_quote(numbers)}")
        if names:
            parts.append(f"name {_quote(names)}" if len(names) == 1 else f"names {_quote(names)}")
        where = f"{'do' if len(numbers) + len(names) > 1 else 'does'} not appear in {spans_named(cited, 'or')}"
        instead = ""
        if near:
            says = "the span says" if len(cited) == 1 else "the spans say"
            instead = f": {says} " + "; ".join(f"{short(c)}, not {short(x)}" for x, c in near)
        return SentenceCheck(sentence, cited, (), numbers, names, False,
                             f"The {' and the '.join(parts)} {where}{instead}.", near, testable)
    if not testable:
        return SentenceCheck(sentence, cited, (), (), (), True, _nothing(cited, "this sentence") +
                             ": every sentence must carry something to check against the span it cites.", (), False)
    return SentenceCheck(sentence, cited, (), (), (), True,
                         f"Every number and technical name appears in {spans_named(cited, 'or')}.")


def nothing_to_check(v: Verdict) -> str:
    """What is unchecked ("sentence 2 has no number, no technical name and not most of its words in S1") when a strict refusal has no fault but "nothing to check" (every sentence cites spans that exist,
    no number or name is missing, and some sentence has nothing of its span in it), else "". Judgement makes such
    an answer not confirmed instead of refused: a right paraphrase ("After them [S1].") is not a grounding fault."""
    bad = [c for c in v.sentences if not c.ok]
    if v.mode != "strict" or v.verdict != "refused" or not bad or any(
            c.testable or not c.cited or c.out_of_range or c.missing_numbers or c.missing_names
            or not c.explanation.startswith(_NOTHING) for c in bad):
        return ""
    which = "the answer" if len(bad) == len(v.sentences) else f"sentence {v.sentences.index(bad[0]) + 1}"
    cited = tuple(dict.fromkeys(n for c in bad for n in c.cited))
    return f"{which} has no number, no technical name and not most of its words in {spans_named(cited, 'or')}"


_NOTHING = "Nothing to check"


def _nothing(cited: tuple, what: str) -> str:
    """'Nothing to check: <what> has no number, no technical name and not most of its words in S3'."""
    return (f"{_NOTHING}: {what} has no number, no technical name and not most of its words in "
            f"{spans_named(cited, 'or')}")


def _claimed_abstention(checks: tuple, i: int) -> Verdict:
    """Refuse an answer whose sentence i says NOT IN THE CONTEXT and cites a span."""
    why = (f"It says NOT IN THE CONTEXT and cites {spans_named(checks[i].cited, 'and')}: {CITED_ABSTENTION} "
           f"(an abstention cites nothing, and a citation must support a claim).")
    checks = checks[:i] + (checks[i]._replace(ok=False, explanation=why),) + checks[i + 1:]
    return Verdict("refused", checks, f"Sentence {i + 1}: {why}", "strict")


def _titled(sentence: str, placed: list) -> frozenset:
    """The title words of the spans a sentence cites, of every span when it cites none (an example run needs no
    citation), empty when no titles were given."""
    if not placed:
        return frozenset()
    cited = _cited(quantities.normalize(sentence)) or range(1, len(placed) + 1)
    return frozenset().union(*(placed[n - 1] for n in cited if 1 <= n <= len(placed)))


def too_long(answer: str) -> str:
    """What to do with an answer longer than MAX_ANSWER_CHARS."""
    return (f"The answer has {len(answer):,} characters, and at most {MAX_ANSWER_CHARS:,} are checked (a model's answer "
            "is cut there too): check a shorter answer, or its part that answers the question.")


def verify(answer: str, spans: list[str], mode: str = "strict", question: str | None = None,
           titles: list[str] | None = None) -> Verdict:
    """The verdict of checker `mode` ("strict" or "article") with a per-sentence explanation. Strict only: question,
    the question answered, and titles, per span where it sits (data.sections.section_title: its document and
    section): names they hold need not be in the spans a sentence cites (see the module)."""
    if mode not in MODES:
        raise ValueError(f"Unknown verifier mode {mode!r}: use one of {', '.join(MODES)}.")
    if not isinstance(answer, str):
        raise ValueError(f"The answer must be text, got {type(answer).__name__}.")
    if len(answer) > MAX_ANSWER_CHARS:
        raise ValueError(too_long(answer))
    if isinstance(spans, (str, bytes)) or not isinstance(spans, (list, tuple)) or not all(isinstance(x, str)
                                                                                       for x in spans):
        raise ValueError("spans must be a list of texts, one per [Sn] handed to the model: spans=['a chunk', ...].")
    if question is not None and not isinstance(question, str):
        raise ValueError(f"question must be text or None, not {type(question).__name__}.")
    if titles is not None and (isinstance(titles, (str, bytes)) or not isinstance(titles, (list, tuple)) or
                               not all(isinstance(t, str) for t in titles)):
        raise ValueError("titles must be a list of texts, one per span (where it sits: 'difflib', ...), or None.")
    strict = mode == "strict"
    answer = body(canonical_citations(visible(answer)), question) if strict else answer     # "0\u200f.6" is 0.6, as it
    #                                                                      shows; a letter's greeting and sign-off out
    norm = quantities.normalize(answer) if strict else answer
    abstains = ABSTENTION.fullmatch(norm) if strict else answer.strip().startswith(ABSTAIN)
    if abstains:
        return Verdict("abstained", (), "The answer says the spans do not contain it.", mode)
    sentences = strict_sentences(answer) if strict else \
        [f.strip() for f in ARTICLE_SENTENCE_END.split(answer) if f.strip()]
    if not sentences:
        return Verdict("refused", (), "The answer is empty.", mode)
    asked = asked_words(question) if strict else frozenset()
    placed = [titled_words(t) for t in titles] if strict and titles else []
    checks = tuple(check_sentence(s, spans, mode, hints=i < HINTED, asked=asked | _titled(s, placed), run=i < RUN)
                   for i, s in enumerate(sentences))
    if strict and not any(c.cited for c in checks):            # examples run alone are no source of the answer
        checks = tuple(c._replace(ok=False, explanation=_NO_CITATION) for c in checks)
    if strict and ABSTENTION.fullmatch(CITATION.sub("", norm)):                       # "NOT IN THE CONTEXT [S1]."
        return _claimed_abstention(checks, next((i for i, c in enumerate(checks) if c.cited), 0))
    if strict and STARTS_ABSTAINING.match(norm):
        checks = (checks[0]._replace(ok=False, explanation="It says NOT IN THE CONTEXT, yet the answer goes on."),) \
            + checks[1:]
        return Verdict("refused", checks, "The answer says NOT IN THE CONTEXT and then goes on: an abstention "
                                          "must be the whole answer, and claims after it are not one.", mode)
    if strict:
        for i, c in enumerate(checks):
            if c.cited and _CLAIMS_ABSTAINING.search(CITATION.sub("", quantities.normalize(c.sentence))):
                return _claimed_abstention(checks, i)
    checks = tuple(c._replace(explanation=f"It only points at {spans_named(c.cited, 'and')} and claims nothing: nothing "
                                          "to check.") if strict and c.ok and not c.testable and source_talk(c.sentence)
                   else c for c in checks)              # the page's table says why the sentence stays
    bad = [c for c in checks if not c.ok]
    if bad:
        return Verdict("refused", checks, f"Sentence {checks.index(bad[0]) + 1}: {bad[0].explanation}", mode)
    if strict and not any(c.testable for c in checks):
        cited = tuple(dict.fromkeys(n for c in checks for n in c.cited))
        checks = tuple(c._replace(ok=False, explanation=_nothing(c.cited, "the sentence") + ".") for c in checks)
        return Verdict("refused", checks, _nothing(cited, "the answer") + (
            ", so nothing in it can be looked for in the span it cites: a citation alone is not an answer."
            if len(cited) == 1 else
            ", so nothing in it can be looked for in the spans it cites: citations alone are not an answer."), mode)
    idle = [i for i, c in enumerate(checks) if strict and not c.testable and not _YES_NO.fullmatch(
        CITATION.sub("", quantities.normalize(c.sentence))) and not source_talk(c.sentence)]   # "Yes [S1]." answers
    #                                     the question, "[S1] covers the duplicate case." points at a span: they stay
    if idle:
        i = idle[0]
        checks = checks[:i] + (checks[i]._replace(ok=False),) + checks[i + 1:]
        return Verdict("refused", checks, f"Sentence {i + 1}: {checks[i].explanation}", mode)
    return Verdict("anchored", checks, "Every sentence cites a span that contains its numbers and names.", mode)


def verify_grounding(answer: str, spans: list[str]) -> str:
    """Only the verdict string, as the article's function returns it (mode article)."""
    return verify(answer, spans, "article").verdict
