"""What an answer means for the person reading it: one function, `judge_answer`, used by every page and loop.

The checker says whether an answer is *grounded*: every number and name of a sentence is in the span it cites.
Grounded is not right: a faithful quote of a draft note is grounded, and so is a sentence of the right document
that says something else. `judge_answer` runs the strict checker once, adds where the cited spans come from and,
for a golden question, whether the answer states its answer key or contradicts it (generation.answer_key), and
says it in one sentence a non-programmer can read.

    judge_answer("The default cutoff is 1 [S1].", spans, span_ids=[12, 40, 3], index=ix, expected_doc="difflib",
                 anchor="Optional arg cutoff (default 0.6)", key="0.6")
    -> Judgement(outcome="wrong answer", sentence="Grounded in S1, from difflib, the document that holds the answer,
       but it contradicts the golden answer: it says 1 where the golden answer says 0.6. ...", ...)

Outcomes (vocabulary.OUTCOMES), each with one colour on every page (TONES for badges, COLOURS for charts):
    answered       green   grounded on the key's document, of a trusted status; states the key, contradicts nothing
    wrong answer   red     grounded and from the right source, but it contradicts the key (which word or number)
    not confirmed  gray    from the right source; neither states nor contradicts the key, or the rule has a doubt
                           (KeyCheck.doubt), or a sentence has nothing to check (verifier.nothing_to_check) and
                           the answer does not state the key, or states it beside a "but", an "every", an "also"
                           (generation.claim_words), or the answer ends with sentences that cite no span (the
                           rest is judged, and never green, unless they are advice, a question to the reader, a
                           note set aside, a summary of what it said or examples Python runs and agrees with:
                           generation.advice, generation.restatement, generation.examples), or an
                           example in it gives another result when run: it may be right in other words; the page
                           says why and shows the key
    grounded       gray    a question with no golden anchor: grounded on trusted spans, nothing to compare with
    wrong source   orange  grounded on a draft, outdated or other document (a faithful quote of the wrong page)
    refused        red     the checker refused it
    abstained      gray    the answer says the spans do not contain it
Green means right: only an answer that states its golden answer key, from the document that holds it, and
contradicts none of it, is green.
`Judgement.hold` says in a few countable words what keeps an answer from green (HOLDS; for "not confirmed" one of
UNCITED_END, NOTHING_TO_CHECK, DOUBT, NOT_STATED): the Judge page and `judge --cases` count it.

`anchor_place` tells where a golden question's anchor sits among the spans handed over, and which chunks of a
non-trusted status outrank it.

Left out on purpose: meaning beyond the answer key's rule (see generation.answer_key: a synonym is not
confirmed, a wrong claim about something other than the key is not seen); the article's own labels ("anchored /
right source"), which its tables keep (evaluation.outcomes).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from rag_core.generation.advice import advice, asks, for_another_case
from rag_core.generation.answer_key import KeyCheck, check_again, check_key, key_words, read_accepted, read_reply
from rag_core.generation.bounds import restricted_reply, unsupported_bound, unsupported_restriction
from rag_core.generation.examples import fails_unsaid, few_words, outside, run as run_examples
from rag_core.generation.dismissal import NAMES_NOTE, called_right, dismissed, sets_aside
from rag_core.generation.hedge import hedged
from rag_core.generation.negation import has_negation
from rag_core.generation.letter import framed
from rag_core.generation.passage import elsewhere
from rag_core.generation.quotation import misquote
from rag_core.generation.restatement import restates
from rag_core.generation.usage import shows_usage
from rag_core.generation.citations import canonical_citations, strip_citations
from rag_core.generation.claim_words import added_claim, claim_word, contrary_contrast, contrast_word, either_or, \
    may_or, widens_only, uncited_tail, undoes_key, unwritten_always
from rag_core.generation.two_checkers import disagreement_of
from rag_core.generation.verifier import MAX_ANSWER_CHARS, Verdict, check_sentence, nothing_to_check, too_long, \
    verify
from rag_core.generation.prose import asked_words, documented as is_documented, titled_words
from rag_core.generation.yes_no import bare_reply
from rag_core.text.invisible import visible
from rag_core.text.messages import listing

TONES = {"answered": "green", "wrong answer": "red", "not confirmed": "gray", "grounded": "gray",
         "wrong source": "orange", "refused": "red", "abstained": "gray"}
COLOURS = {"answered": "#1b7f3b", "wrong answer": "#e0533d", "not confirmed": "#9aa5b1", "grounded": "#5f6b7a",
           "wrong source": "#b85c00", "refused": "#b3261e", "abstained": "#888888"}
MEANING = {
    "answered": "Grounded in the cited spans, from the document that holds the answer, and it states the golden "
                "answer key (or, to a yes/no question, opens with its golden reply) and contradicts none of it. The "
                "only green outcome.",
    "wrong answer": "Grounded, and from the right document, but it contradicts the golden answer: another value, "
                    "a negation, the opposite word, both alternatives, a retraction, or the other reply to a yes/no "
                    "question.",
    "not confirmed": "From the right document, but it neither states the golden answer key nor contradicts it, "
                     "or the rule cannot be sure, or a sentence has nothing in it to check against its span, or "
                     "its last sentences cite no span and are more than advice, a question to the reader, a summary "
                     "of what it said or an example Python agrees with: it may be right in other words; compare it "
                     "with the key.",
    "grounded": "Grounded on trusted documents; the question has no golden answer to compare with, so nobody can "
                "say whether it is right.",
    "wrong source": "Grounded, but on a draft, an outdated note or another document: a faithful quote of the wrong "
                    "page.",
    "refused": "The checker refused it: a sentence without a citation (before a cited one; uncited last "
               "sentences leave the rest to be judged), a citation to a span that does not exist, or a number or "
               "name the cited span lacks.",
    "abstained": "The answer says NOT IN THE CONTEXT: nothing was claimed.",
}


# what keeps an answer from green, in a few words a page can count: a "not confirmed" answer says which of the
# first four (Judgement.hold), any other outcome is its own
UNCITED_END = "a sentence at its end cites no span (a tip, a caveat, a reason)"
NOTHING_TO_CHECK = "a sentence has nothing to check against its span"
DOUBT = "something beside the golden answer may change it (a hedge, an added claim, a condition, an example)"
NOT_STATED = "it neither states the golden answer nor contradicts it"
HOLDS = {"refused": "the checker refused a sentence (no citation, or a number or name its span lacks)",
         "wrong source": "it cites a draft, an outdated note or another document",
         "wrong answer": "it contradicts the golden answer",
         "abstained": "it says the spans do not hold the answer",
         "grounded": "the question has no golden answer"}


class Judgement(NamedTuple):
    outcome: str                    # one of vocabulary.OUTCOMES
    sentence: str                   # one plain sentence for the reader
    verdict: Verdict                # the strict checker's verdict
    article: Verdict | None = None  # the article's checker's verdict when it differs from the strict one
    why_they_differ: str | None = None   # why the two checkers disagree, in one sentence
    key: KeyCheck | None = None     # for a golden question: does the answer state its answer key, or contradict it
    sources: tuple = ()             # (span number, document id, status) of every cited span
    not_confirmed_by: str = ""      # "not confirmed" only: UNCITED_END, NOTHING_TO_CHECK, DOUBT or NOT_STATED

    @property
    def tone(self) -> str:
        """The colour of the outcome: green only for 'answered'."""
        return TONES[self.outcome]

    @property
    def hold(self) -> str:
        """What keeps it from green, in words a page counts ("" when green): see HOLDS."""
        return "" if self.outcome == "answered" else self.not_confirmed_by or HOLDS.get(self.outcome, self.outcome)


class AnchorPlace(NamedTuple):
    rank: int | None            # 1-based span number of the first span holding the anchor, None if none does
    outranked_by: tuple         # (span number, status) of non-trusted spans ranked above it (or above k)


def _spans(numbers) -> str:
    names = [f"S{n}" for n in numbers]
    return listing(names)


def _quoted(items, most: int = 6) -> str:
    items = list(items)
    shown = ", ".join(f"'{x}'" for x in items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def judge_answer(answer: str, spans: list, span_ids, index, expected_doc: str | None = None,
                 anchor: str | None = None, trusted=("current",), with_article: bool = True,
                 verdict: Verdict | None = None, key: str | None = None, question: str | None = None,
                 reply: str | None = None, accept=()) -> Judgement:
    """The judgement of `answer` against the spans handed over as [S1].. (chunk ids `span_ids` of `index`).

    expected_doc, anchor, key: the golden question's document, anchor and answer key (GoldenRow.key; None: the
    anchor is the key); None for a question of your own. question: the golden question (its numbers and calls
    are not rival values). reply: a yes/no question's golden reply ("yes" or "no", GoldenRow.reply): an answer
    that opens with the other one is a wrong answer; one that opens with it, with no contradiction or doubt of the
    key, is answered. accept: other wordings of the key a marker accepts (GoldenRow.accept), read when the answer
    neither states nor contradicts the key itself.
    with_article: also run the article's checker and keep its verdict when it differs (the Ask page shows both).
    verdict: the strict verdict of this very answer when the caller already has it (pipeline.ask checks once).
    """
    _check_call(answer, spans, span_ids, index, accept, reply, trusted, question, key, anchor, expected_doc, verdict)
    answer = canonical_citations(visible(answer))     # "[1]": [S1]; "0\u200f.6": 0.6, for every rule below
    inside, left = framed(answer, question)         # "Hi Sam, ... Best regards, Dana": the answer, without its frame
    got = _judged(inside, spans, span_ids, index, expected_doc, anchor, trusted, with_article, verdict, key, question,
                  reply, accept)
    return got if not left else got._replace(sentence=f"{got.sentence} What frames it ({listing(left, 'and')}) was "
                                                      "not read.")


def _judged(answer: str, spans: list, span_ids, index, expected_doc, anchor, trusted, with_article, verdict, key,
            question, reply, accept) -> Judgement:
    """judge_answer on an answer already in canonical form, without a letter's frame."""
    trusted = (trusted,) if isinstance(trusted, str) else tuple(trusted)
    titles = [index.title(int(i)) for i in span_ids] if hasattr(index, "title") else None   # an index without
    # places (a test's or the article's two spans) gives none
    strict = verdict if verdict is not None else verify(answer, spans, "strict", question, titles)
    article = verify(answer, spans, "article") if with_article else None
    differs = article is not None and article.verdict != strict.verdict
    extra = dict(article=article if differs else None,
                 why_they_differ=disagreement_of(answer, spans, strict, article) if differs else None)
    unchecked = nothing_to_check(strict)         # a paraphrase ("After them [S1].") is not a grounding fault
    last = _uncited_last(strict) if strict.verdict == "refused" and not unchecked else ()
    if last:                                    # "... [S1]. Tip: pass delete=False to keep it.": the rest, to the
        head = _before(answer, last)                            # end of its last cited sentence, judged; green only
        #                                                         beside advice, a question or an example (_read_on)
        inner = _judged(head, spans, span_ids, index, expected_doc, anchor, trusted, with_article, None, key,
                        question, reply, accept)
        said = (f"Its last sentence{'s' if len(last) > 1 else ''} ('{_short(' '.join(last), 60)}') "
                f"cite{'' if len(last) > 1 else 's'} no span: a claim the rule cannot check")
        read = _read_on(last, strict, spans, question, titles, inner, anchor) if inner.outcome == "answered" else ""
        if read:
            return inner._replace(sentence=f"{inner.sentence} Its last sentence{'s' if len(last) > 1 else ''} "
                                           f"('{_short(' '.join(last), 60)}') cite{'' if len(last) > 1 else 's'} no "
                                           f"span; {read}.", verdict=strict)
        if inner.outcome == "answered":
            doubt = f"{said[0].lower()}{said[1:]}"
            return Judgement("not confirmed", f"{said}. The rest: {inner.sentence} So it is not confirmed.", strict,
                             inner.article, inner.why_they_differ, inner.key._replace(right=None, doubt=doubt),
                             inner.sources, UNCITED_END)
        return inner._replace(sentence=f"{said}. The rest: {inner.sentence}", verdict=strict)
    if strict.verdict == "refused" and not unchecked:
        unchecked = _refused_only_aside(answer, strict, spans, question, titles)
        if unchecked is None:
            return Judgement("refused", f"The checker refused this answer. {strict.reason}", strict, **extra)
    if strict.verdict == "abstained":
        return Judgement("abstained", "The answer says the spans do not contain it: nothing was claimed.", strict,
                         **extra)
    cited = strict.cited_spans
    sources = tuple((n, index.doc_id(int(span_ids[n - 1])), index.status(int(span_ids[n - 1]))) for n in cited)
    aside, rest = dismissed(answer)                                 # "the 0.9 in [S1] is only a draft note"
    aside, rest = (aside, rest) if len(aside) < len(cited) else (set(), answer)
    kept = [spans[n - 1] for n in cited if n not in aside]         # the cited spans it relies on
    if unchecked and aside:                     # a clause set aside need not be checked against its draft
        again = verify(rest, spans, "strict", question, titles)
        unchecked = nothing_to_check(again) if again.verdict == "refused" else ""
    wrong = [(n, doc, status) for n, doc, status in sources          # never green from an untrusted status, even
             if n not in aside and (status not in trusted or (expected_doc is not None and doc != expected_doc))]
    if wrong:
        where = "; ".join(f"S{n} comes from {doc} ({status})" for n, doc, status in wrong)
        other_doc = expected_doc is not None and any(doc != expected_doc for _, doc, _ in wrong)
        want = (f"the document that holds the answer is {expected_doc}" if other_doc
                else f"only {', '.join(trusted)} documents are trusted" if trusted else "no status is trusted")
        return Judgement("wrong source", f"The answer is grounded, but {where}, and {want}: it faithfully quotes "
                                         "the wrong page.", strict, sources=sources, **extra)
    if expected_doc is None or (anchor is None and key is None):
        docs = ", ".join(dict.fromkeys(f"{doc} ({status})" for _, doc, status in sources))
        return Judgement("grounded", f"Every claim is in {_spans(cited)}, from {docs}. This question has no golden "
                                     "answer to compare with: the checker proves where the words come from, not "
                                     "that they answer it.", strict, sources=sources, **extra)
    source = " ".join(spans[n - 1] for n in cited if 1 <= n <= len(spans))       # what the cited spans write
    check = read_accepted(rest, accept, check_key(rest, key if key else anchor, anchor, question, source), question,
                          source)
    replied = read_reply(answer, reply, check)
    if replied is not check and replied.right is False:         # "No" where the golden reply is Yes
        return Judgement("wrong answer", f"{'It cites' if unchecked else 'Grounded in'} {_spans(cited)}, from "
                                         f"{expected_doc}, the document that holds the answer, but "
                                         f"{replied.contradiction} ('{_short(check.key)}').", strict, key=replied,
                         sources=sources, **extra)
    by_reply = replied is not check and replied.right is True and (check.right is None or bool(unchecked))
    restricted = restricted_reply(answer, [spans[n - 1] for n in cited]) if by_reply else ""
    if restricted:                              # "Yes, but only on Windows [S1]."
        by_reply, check = False, check._replace(right=None, doubt=f"it answers {replied.decided_by[0]}, the golden "
                                                f"reply, but with {restricted}: the rule cannot tell whether that "
                                                "holds")
    if by_reply:                                # "Yes [S1]." to a question whose golden reply is Yes; a later
        unchecked = "" if all(i == 0 or NAMES_NOTE.search(c.sentence) or check_again(   # sentence of its own with
            c.sentence, check, anchor, question, source).right            # nothing to check stays unchecked
            for i, c in enumerate(strict.sentences) if not c.ok) else unchecked
        check = replied
    other = elsewhere(answer, check.key, anchor, kept) if check.right and anchor else ""   # not a draft's words
    if other:                                   # the key in the words of another sentence of the span
        check = check._replace(right=None, doubt=f"it states the golden answer in the words of another sentence "
                                                 f"of the span, '{_short(other)}', not the golden answer's")
    bound = unsupported_bound(answer, check.key, [spans[n - 1] for n in cited]) if check.right else ""
    if bound:                                   # "above 0.6" where the span says "at least"
        check = check._replace(right=None, doubt=f"it says '{bound}' next to the golden answer's value, which no "
                                                 "cited span says: the rule cannot tell whether it means the same")
    wrong_example = next((e for e in run_examples(rest) if not e.agrees), None) if check.right else None
    if wrong_example:                           # "median_low([1, 3, 5, 7]) gives 5"
        check = check._replace(right=None, doubt=f"its example '{_short(wrong_example.call, 60)}' gives "
                                                 f"{_short(wrong_example.got, 60)} when Python runs it, not "
                                                 f"{_short(wrong_example.said, 60)}")
    failing = fails_unsaid(rest) if check.right else None
    if failing:                                 # "Floats work too, e.g. Fraction(8.0, 6.0)"
        check = check._replace(right=None, doubt=f"its example '{_short(failing.call, 60)}' raises {failing.got} "
                                                 "when Python runs it, and the answer shows it as working")
    limit = unsupported_restriction(answer, check.key, [spans[n - 1] for n in cited]) if check.right else ""
    if limit:                                   # "only more efficient for small heaps"
        check = check._replace(right=None, doubt=f"it limits the golden answer with '{_short(limit, 60)}', a "
                                                 "condition no cited span writes, so the rule cannot tell whether "
                                                 "it holds")
    if unchecked and check.right is not None and all(
            (bare_reply(c.sentence) or not key_words(check.key) and check.right) and
            check_again(c.sentence, check, anchor, question, source).right is check.right
            for c in strict.sentences if not c.ok):
        unchecked = ""      # each unchecked sentence states the key on its own: a key of symbols ("'-' instead of
        #                     '+'"), or a bare "Yes [S1]." that says the question's statement
    advised = [c.sentence for c in strict.sentences if not c.ok] if unchecked and check.right is True else []
    if advised and all(_plain_advice(a, check, anchor, question) for a in advised):
        unchecked = ""                          # "You can pass mtime to set one yourself [S1].": advice, not a claim
    else:
        advised = []
    own_words = claim = ""
    if unchecked and check.right is True and all(check_again(c.sentence, check, anchor, question, source).right
                                                 for c in strict.sentences if not c.ok):
        claim = claim_word(rest)                # the key in words of its own: "After them, right of the rightmost"
        if not claim:                           # "..., but librarians reshuffle them": not checked, so not green
            own_words, unchecked = unchecked, ""
    if check.right is True and not unchecked:    # a word beside the key that may add a claim: grey, and named
        word, says = next(((w, says) for w, says in (
            (added_claim(rest, kept) if not own_words else "",  # "0.6, and it must also begin with the same letter"
             "adds a claim of its own that the rule cannot check"),
            (contrast_word(rest) if check.accepted_for else "",  # "it costs less typing, yet it runs slower"
             "may add a claim the rule cannot check beside a wording read without its context"),
            (unwritten_always(rest, check.key, kept),           # "It always raises ...", "even in mid-word"
             "claims a rule no cited span writes"),
            (contrary_contrast(rest, check.key),                # "not matched by '*', but '?' does"
             "may say the opposite of the golden answer about something else"),
            (either_or(rest, check.key),                        # "either shorter than n or padded out to n"
             "offers it as one of two alternatives"),
            (may_or(rest, check.key, kept),                     # "may be shorter than n, or get discarded"
             "offers another outcome beside it that no cited span writes"),
            (widens_only(rest, check.key, kept),                # "only the creating user and their group"
             "widens the golden answer's 'only' with what no cited span writes"),
            (undoes_key(rest, check.key),                       # "the uncollapsed text is returned"
             "denies a word of the golden answer"),
            (uncited_tail(rest, check.key, kept),               # "[S1], because it skips the heap invariant"
             "comes after the last citation of its sentence: a claim no span is cited for"),
            (called_right(answer) if aside else "",             # "[S2] is a draft, but it is correct for newer ..."
             "calls a source right beside the note it sets aside: the rule cannot tell which it endorses"),
            (misquote(rest, spans, question),                  # 'The docs say "... as soon as it is opened."'
             "is in quotation marks, yet no span writes these words: a misquote may change what the document says")
            ) if w), ("", ""))
        if word:
            check = check._replace(right=None, doubt=f"it states {_stated(check).rstrip(',')}, and its '{word}' {says}")
    where = (f"It cites {_spans(cited)}, from {expected_doc}, the document that holds the answer" if unchecked else
             f"Grounded in {_spans(cited)}, from {expected_doc}, the document that holds the answer")
    if check.right is False and not unchecked:
        holder = next((n for n in cited if anchor and " ".join(anchor.split()) in " ".join(spans[n - 1].split())), None)
        says = (f" S{holder} says: '{_short(anchor)}'." if holder else
                f" The document says: '{_short(anchor)}'." if anchor else "")
        return Judgement("wrong answer", f"{where}, but it contradicts the golden answer: {check.contradiction}."
                                         f"{says}", strict, key=check, sources=sources, **extra)
    if check.right is None or unchecked:
        lacks = f" (it lacks {_quoted(check.missing)})" if check.missing else ""
        said = (f"it states the golden answer in words of its own ({unchecked}), and its '{claim}' may add a claim "
                "the rule cannot check" if claim else
                f"nothing in it can be checked: {unchecked}" if unchecked else
                f"{check.doubt[0].lower()}{check.doubt[1:]}" if check.doubt else
                f"the answer neither states the golden answer '{_short(check.key)}' nor contradicts it{lacks}")
        return Judgement("not confirmed", f"{where}, but {said}: it may be right in other words; compare it with "
                                          f"the golden answer '{_short(check.golden)}'.", strict, key=check,
                         sources=sources, not_confirmed_by=DOUBT if claim or not unchecked and check.doubt else
                         NOTHING_TO_CHECK if unchecked else NOT_STATED, **extra)
    set_aside = (f" It cites {_spans(sorted(aside))} only to call it a draft or outdated." if aside else "") + (
        f" Its '{_short(' '.join(advised), 60)}' is advice to the reader, not a claim about the document." if advised
        else "") + (" Its examples without a citation give what Python gives when it runs them: checked by running, "
                     "not in a span." if any(c.ok and not c.cited for c in strict.sentences) else "")
    if own_words:
        return Judgement("answered", f"It cites {_spans(cited)}, from {expected_doc}, the document that holds the "
                                     f"answer, states {_stated(check)} and contradicts none "
                                     f"of it. The rest is in words of its own ({own_words}), with no 'but', 'every' "
                                     f"or 'also' that could add a claim the rule cannot check.{set_aside}", strict,
                         key=check, sources=sources, **extra)
    if by_reply:
        return Judgement("answered", f"It cites {_spans(cited)}, from {expected_doc}, the document that holds the "
                                     f"answer, and answers {check.decided_by[0]}, the golden reply to this yes/no "
                                     f"question ('{_short(check.key)}'), and contradicts none of it.{set_aside}",
                         strict, key=check, sources=sources, **extra)
    return Judgement("answered", f"Every claim is in {_spans(cited)}, from {expected_doc}, the document that holds "
                                 f"the answer, and the answer states {_stated(check)} and "
                                 f"contradicts none of it.{set_aside}", strict, key=check, sources=sources, **extra)


def _uncited_last(strict: Verdict) -> tuple:
    """The sentences that end the answer with no citation, when they are its checker's only fault and a sentence
    before them cites a span ("... [S1]. Keep == for values that aren't secret."), else ()."""
    bad = [i for i, c in enumerate(strict.sentences) if not c.ok]
    if not bad:
        return ()
    start = bad[0]                          # with the examples just before it, which need no citation when run
    while start > 0 and not strict.sentences[start - 1].cited:
        start -= 1
    if start == 0 or any(c.cited for c in strict.sentences[start:]):
        return ()
    return tuple(c.sentence for c in strict.sentences[start:])


TAIL = 5        # uncited last sentences read as advice, questions or examples (1,000 characters in all): more is
#                 more than a closing tip


def _read_on(last: tuple, strict: Verdict, spans: list, question, titles, inner: Judgement, anchor) -> str:
    """Why the uncited last sentences of an answer whose rest is answered leave it answered, else "": read with the
    spans its last cited sentence cites, they name nothing those spans lack, and they are advice or questions to
    the reader (generation.advice: "Tip: pass delete=False to keep it.", "Quick check: which argument keeps it?"),
    or examples Python runs and agrees with (generation.examples), with at most advice beside them; none
    contradicts, hedges or adds to the answer (a "but", an "also"). A sentence that
    says something of the document is not read so: "Note: it is cut mid-word at width." has most of its words in
    the span, and is false."""
    cited = strict.sentences[-len(last) - 1].cited
    tag = "".join(f"[S{n}]" for n in cited)
    whole = " ".join(last)                      # a session's code block is cut at its "...": read it whole
    if not tag or len(last) > TAIL or len(whole) > 200 * TAIL or fails_unsaid(whole) or \
            any(not e.agrees for e in run_examples(whole)):    # "Fraction(8.0, 6.0) gives Fraction(4, 3) too."
        return ""
    asked = asked_words(question).union(*(titled_words(titles[n - 1]) for n in cited if titles and n <= len(titles)))
    checks = [check_sentence(_tagged(t, tag), spans, "strict", hints=False, asked=asked) for t in last]  # as verify
    if any(not asks(t) and (c.out_of_range or c.missing_names or c.missing_numbers and not (   # would with the tag
            advice(t) and all(re.search(r"=\s*" + re.escape(x) + r"(?!\w)", t) for x in c.missing_numbers)))
            for t, c in zip(last, checks)):    # "try cutoff=0.8": a value to pass, suggested
        return ""
    beside = outside(whole, lambda name: is_documented(name, asked))   # "mean([40, 60]) gives 50" beside
    if beside is not None and few_words(beside):                       # harmonic_mean: not the documented one
        return (f"{'they are examples' if len(last) > 1 else 'it is an example'} of the documented function that "
                "Python runs and agrees with")
    before = " ".join(c.sentence for c in strict.sentences[:-len(last)])
    kinds = [_tail_kind(t, inner.key, anchor, question, before) for t in last]
    if all(kinds):
        kinds = list(dict.fromkeys(kinds))
    elif _plain_advice(beside or "", inner.key, anchor, question):
        kinds = ["an example Python agrees with", "advice to the reader"]
    else:
        return ""
    return (f"{'they are' if len(last) > 1 else 'it is'} {listing(kinds, 'and')}, naming nothing {_spans(cited)} "
            "lacks: not a claim about the document")


def _tail_kind(sentence: str, check: KeyCheck, anchor, question, before: str = "") -> str:
    """What an uncited last sentence is when it claims nothing of the document but what the cited sentences
    `before` it do, else ""."""
    return ("a question to the reader" if asks(sentence) else "a note set aside" if _note_aside(sentence) else
            "advice to the reader" if _plain_advice(sentence, check, anchor, question) else
            "a summary of what it said" if _summary(sentence, check, anchor, question, before) else
            "code showing a call" if shows_usage(sentence, before, question) else "")


def _summary(sentence: str, check: KeyCheck, anchor, question, before: str) -> bool:
    """Whether a sentence says again what the cited sentences said (generation.restatement) and states the key
    itself, with no hedge, no claim word and no negation they lack ("In summary, the answer is 48.0 km/hr."; "In summary, the overall
    speed is 40 km/hr." recombines the words before it into another claim)."""
    return bool(before) and restates(sentence, before, question) and not hedged(sentence) and \
        not claim_word(sentence) and check_again(sentence, check, anchor, question).right is True and \
        (has_negation(sentence) <= has_negation(before))    # "In short, the smaller one is not returned."


def _note_aside(sentence: str) -> bool:
    """Whether a sentence only sets a note aside ("ignore the 0.9 note, that's off", "the current-time note is
    outdated"): it speaks of a draft, not of the document. Each of its clauses names the note, says its status or
    is three words at most ("Ignore the old note, it evicts only after 128 entries" says more)."""
    return bool(NAMES_NOTE.search(sentence)) and sets_aside(sentence) and not claim_word(sentence) and all(
        NAMES_NOTE.search(c) or sets_aside(c) or len(c.split()) <= 3 for c in re.split(r"[,;:\u2014]", sentence))


def _plain_advice(sentence: str, check: KeyCheck, anchor, question) -> bool:
    """Whether a sentence is advice (generation.advice) with no hedge, no claim word ("but", "also"; "use X
    instead" is advice) and nothing that contradicts the key; advice for the other case is read by the values it
    passes, which must not be the key's ("Pass delete=False if you need the file to persist." is advice; "Pass
    mtime=0 if you want the current time stored." is not)."""
    word = claim_word(sentence)                 # "use X instead" and "Never compare secrets with ==" are advice
    if not (advice(strip_citations(sentence)) and not hedged(sentence) and not added_claim(sentence) and (
            word in ("", "instead") or word == "never" and sentence.lower().lstrip(" *_`\"'").startswith("never"))):
        return False
    passed = for_another_case(sentence)         # "Pass delete=False if you need it to persist": the other case, by
    if passed:                                  # a value that is not the key's ("Pass delete=True if ...": grey)
        return not any(re.search(r"(?<![\w.])" + re.escape(v) + r"(?![\w.])", check.key, re.I) for v in passed)
    return check_again(sentence, check, anchor, question).right is not False


def _tagged(sentence: str, tag: str) -> str:
    """The sentence with a citation before its closing punctuation: "Pass mtime." -> "Pass mtime [S1]."."""
    body = sentence.rstrip()
    stop = len(body.rstrip(".!?"))
    return f"{body[:stop]} {tag}{body[stop:]}"


def _refused_only_aside(answer: str, strict: Verdict, spans: list, question, titles) -> str | None:
    """When the checker refused only words of clauses that set a draft aside ("[S2] says before the leftmost, but
    that's how insort_left behaves": insort_left is not in S2), what is unchecked in the rest ("" for nothing), as
    judged without those clauses; else None: the refusal stands."""
    aside, rest = dismissed(answer)
    if not aside or len(aside) >= len(strict.cited_spans):
        return None
    again = verify(rest, spans, "strict", question, titles)
    return "" if again.verdict == "anchored" else (nothing_to_check(again) or None)


def _before(answer: str, last: tuple) -> str:
    """The answer before its last uncited sentences (each a piece of it, found from the end, in order; one joined
    from parts of it, "For example:" and its code block, by its first line, which starts at least its length before
    the end: a joined piece is never longer than the text it was joined from)."""
    end = len(answer)
    for piece in reversed(last):
        window = max(0, end - 2 * len(piece) - 1000)    # each search near the end: linear on 70,000 tail pieces
        at = answer.rfind(piece, window, end)
        if at < 0:
            first = piece.split("\n", 1)[0]
            at = answer.rfind(first, window, max(window, end - len(piece) + len(first)))
        end = at if at >= 0 else max(0, end - len(piece))
    return answer[:end].rstrip()


def _check_call(answer, spans, span_ids, index, accept, reply, trusted=("current",), question=None, key=None,
                anchor=None, expected_doc=None, verdict=None) -> None:
    """ValueError, saying how to call judge_answer, for arguments of the wrong kind."""
    if not isinstance(answer, str):
        raise ValueError(f"answer must be text (str), not {type(answer).__name__}: pass the model's reply as a string.")
    if len(answer) > MAX_ANSWER_CHARS:
        raise ValueError(too_long(answer))
    if isinstance(spans, (str, bytes)) or not isinstance(spans, (list, tuple)) or \
            not all(isinstance(x, str) for x in spans):
        raise ValueError("spans must be a list of texts, one per [Sn] handed to the model: spans=['a chunk', ...].")
    if isinstance(span_ids, (str, bytes)) or not hasattr(span_ids, "__len__") or \
            len(span_ids) < len(spans) or not all(str(i).strip().isdigit() for i in span_ids):   # a list, an array
        raise ValueError(f"span_ids must give the chunk number of each of the {len(spans)} spans, in their order: "
                         "span_ids=[7, 3, 9].")
    if not (hasattr(index, "doc_id") and hasattr(index, "status")):
        raise ValueError("index must answer doc_id(i) and status(i) for a chunk number i (an Index or a SpanSources).")
    if isinstance(accept, (str, bytes)) or not isinstance(accept, (list, tuple, type(None))) or \
            not all(isinstance(w, str) for w in accept or ()):
        raise ValueError("accept must be a list of wordings, accept=['no size limit'], not one string or a number.")
    if not isinstance(trusted, str) and (not isinstance(trusted, (list, tuple, set, frozenset)) or
                                         not all(isinstance(t, str) for t in trusted)):
        raise ValueError("trusted must be a status or a list of them: trusted=['current'].")
    for name, value in (("question", question), ("key", key), ("anchor", anchor), ("expected_doc", expected_doc)):
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{name} must be text or None, not {type(value).__name__}: pass {name}='...'.")
    if reply is not None and not isinstance(reply, str):
        raise ValueError("reply must be 'yes', 'no' or None.")
    if verdict is not None and not isinstance(verdict, Verdict):
        raise ValueError(f"verdict must be the Verdict verify() gave for this answer, or None, not "
                         f"{type(verdict).__name__}.")


def _stated(check: KeyCheck) -> str:
    """What an answer was found to state: "the golden answer '0.6'", or an accepted wording and the key it stands
    for."""
    if check.accepted_for:
        return (f"'{_short(check.key, 60)}', a wording the golden set accepts for the golden answer "
                f"'{_short(check.accepted_for)}',")
    return f"the golden answer '{_short(check.key)}'"


def _short(text: str, most: int = 120) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def anchor_place(span_ids, holders, index, trusted=("current",)) -> AnchorPlace:
    """Where the anchor is among the spans, and the non-trusted spans above it (all of them when it is absent).

    span_ids [7, 3, 9], holders {3}, chunk 7 a draft -> AnchorPlace(rank=2, outranked_by=((1, "draft"),))
    """
    trusted = (trusted,) if isinstance(trusted, str) else tuple(trusted)
    ids = [int(c) for c in span_ids]
    rank = next((r for r, c in enumerate(ids, 1) if c in holders), None)
    above = ids[:rank - 1] if rank else ids
    return AnchorPlace(rank, tuple((r, index.status(c)) for r, c in enumerate(above, 1)
                                   if index.status(c) not in trusted))


def _outrank(outranked_by) -> str:
    """((1, "draft"),) -> 'S1 (draft) outranks it'; two -> 'S1 (draft) and S2 (outdated) outrank it'."""
    names = [f"S{n} ({status})" for n, status in outranked_by]
    return names[0] + " outranks it" if len(names) == 1 else listing(names) + " outrank it"


def anchor_note(held: bool, place: AnchorPlace, n_spans: int) -> tuple[str, str]:
    """(tone, sentence) on where a golden question's anchor is among the spans: tone is "error" when the model
    cannot answer from them, "warning" when an untrusted chunk is read first, "success" otherwise.

    (True, AnchorPlace(2, ((1, "draft"),)), 3) -> ("warning", "The anchor is in span S2, but S1 (draft) outranks
    it: the model reads a contradicting source first. Turn the filter on to keep such chunks out.")
    """
    if not held:
        return "error", ("The anchor is not whole in any chunk of this chunker (a boundary cuts it): no setting of "
                         "the search can retrieve it. Change the chunk size or overlap in the sidebar.")
    if place.rank is None:
        untrusted = ", ".join(f"S{n} ({status})" for n, status in place.outranked_by)
        return "error", (f"The anchor is not in these {n_spans} spans: the model cannot answer from the context, "
                         "whatever the prompt. Try more spans, the filter or the reranker."
                         + (f" Spans of an untrusted status took places: {untrusted}." if untrusted else ""))
    if place.outranked_by:
        return "warning", (f"The anchor is in span S{place.rank}, but {_outrank(place.outranked_by)}: the model "
                           "reads a contradicting source first. Turn the filter on to keep such chunks out.")
    return "success", (f"The anchor of this golden question is in span S{place.rank}, and no chunk of an untrusted "
                       "status outranks it.")
