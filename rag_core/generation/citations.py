"""How the strict checker reads an answer's citations and sentences, as people and models write them.

    cited("0.6 [s1, S3] (S2)") -> (1, 3, 2)
    canonical_citations("48 km/h [Source 1]") -> "48 km/h [S1]"
    strict_sentences("Yes. It is deleted on close [S1].") -> ["Yes. It is deleted on close [S1]."]

A citation is [S1], [s1], [S1, S2], [S1; S3], [S1][S2] or (S1); canonical_citations also turns [Source 1],
[source: S2], (see S2), a sentence's or a clause's last [1] and a line's last ", S1" into [Sn]. An abbreviation
(i.e., e.g., etc., approx., vs., cf., resp.) does not end a sentence; a piece of citations only joins the sentence
before it; a sentence without a citation is covered by the next citation of its paragraph, or of the answer for an
opening paragraph with none (a headline); the items of a list after "[S1]:" are read with it. The article's checker
reads [S1] only and splits after every full stop (ARTICLE_CITATION, ARTICLE_SENTENCE_END).

Left out on purpose: what a sentence claims (verifier, claims) and which of its words are no claim (prose).
"""
from __future__ import annotations

import re

from rag_core.generation import quantities
from rag_core.text.arguments import text_argument

CITATION = re.compile(r"[\[(][ \t]*([Ss]\d+(?:[ \t]*[,;][ \t]*[Ss]?\d+)*)[ \t]*[\])]")
ARTICLE_CITATION = re.compile(r"\[S(\d+)\]")
_CITED_NUMBER = re.compile(r"\d+")
# other ways people and models mark a source, read as [Sn] by the strict checker: "[Source 1]", "[source: S2]",
# "(source 1)", "(see S2)", "[1]" at a sentence's or a clause's end (not "a[1]", not "[0, 1]"), and a last ", S1" of a
# line
_SOURCE_WORD = re.compile(r"[\[(][ \t]*(?:sources?|see)[ \t]*:?[ \t]*[Ss]?(\d{1,9})[ \t]*[\])]", re.I)
_BARE_NUMBER = re.compile(r"(?<![\w\])])\[(\d{1,2})\](?=[ \t]*(?:[.!?]+(?:\s|$)|[,;]\s|$))", re.M)
_TRAILING_S = re.compile(r"(?:[,;]|(?<![ \t])[ \t]|[^\S \t])[ \t]*(S\d{1,9})[ \t]*[.!?]?[ \t]*$", re.M)
#                         a run of spaces is tried once, from its first space (from each, it took minutes on 1 MB)
ARTICLE_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")    # the article's split
# strict: an abbreviation does not end a sentence ("i.e.", "e.g.", "etc.", "approx.", "vs.", "cf.", "resp.")
# and a quotation that ends a sentence ('... "the smaller of the two middle values is returned." [S1] The note'),
# when a citation or a capital follows (not "returns 'Hello world!' for width 12")
STRICT_SENTENCE_END = re.compile(r"(?<!\b[iI]\.e\.)(?<!\b[eE]\.g\.)(?<!\b[eE]tc\.)(?<!\bapprox\.)(?<!\bvs\.)"
                                  r"(?<!\bcf\.)(?<!\bresp\.)(?<=[.!?])\s+"
                                  r"|(?<=[.!?][\"'\u201d\u2019])\s+(?=[\[(][ \t]*[Ss]\d|[A-Z])"
                                  # and a line that ends with a citation, an emoji or a mark after it ("no [S1] 🙈")
                                  r"|(?:(?<=[\[(][Ss]\d[\])])|(?<=[\[(][Ss]\d\d[\])]))(?:[ \t]*[^\x00-\x7f\w\s]{1,4})?[ \t]*\n\s*")
BIG = 10 ** 18                 # a span number of more than 18 digits: out of range, shown by its first digits
_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")


def span_number(digits: str) -> int:
    """The number of a citation's digits: "3" -> 3, "007" -> 7; more than 18 digits -> BIG (no such span)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else BIG


def cited(text: str, mode: str = "strict") -> tuple:
    """Span numbers cited by `text`, in order, without repeats: "[S1][S1][S3]" -> (1, 3); strict also reads
    "[s1, S3]" and "(S2)" -> (1, 3, 2)."""
    if mode == "article":
        return tuple(dict.fromkeys(span_number(c) for c in ARTICLE_CITATION.findall(text)))
    return tuple(dict.fromkeys(span_number(n) for c in CITATION.findall(text) for n in _CITED_NUMBER.findall(c)))


def canonical_citations(text: str) -> str:
    """The answer with the other ways of marking a source written [Sn] (see _SOURCE_WORD): "48 km/h [source: S1]" ->
    "48 km/h [S1]"; "right of the rightmost, S1" -> "right of the rightmost [S1]"."""
    text = _SOURCE_WORD.sub(lambda m: f"[S{m[1]}]", text)
    text = _BARE_NUMBER.sub(lambda m: f"[S{m[1]}]", text)
    return _TRAILING_S.sub(lambda m: f" [{m[1]}]", text)


def cited_numbers(text: str) -> tuple:
    """The span numbers a text cites, as the strict checker reads citations: "0.6 [S1, S3]." -> (1, 3)."""
    return cited(quantities.normalize(text))


def strip_citations(text: str) -> str:
    """The text without its citations: "0.6 [S1], (S2)." -> "0.6 , ."."""
    return CITATION.sub(" ", text)


def _citations_join_their_sentence(sentences: list[str]) -> list[str]:
    """A piece that holds only citations belongs to the sentence before it, as models often write:
    ["The cutoff is 0.6.", "[S1]"] -> ["The cutoff is 0.6. [S1]"] (or "Source: [S1]"); so do the citations that open a piece before a
    new sentence, after a sentence without one: ['It says "x is returned."', '[S1] For example, ...'] ->
    ['It says "x is returned." [S1]', 'For example, ...'] ("[S2] says 0.9" keeps its citation: it is its subject)."""
    out: list[str] = []
    for s in sentences:
        norm = quantities.normalize(s)
        lead = LEADING_CITATIONS.match(s)
        if out and CITATION.search(norm) and not _SOURCE_LABEL.sub("", CITATION.sub("", norm)).strip(" .!?;:,"):
            out[-1] = f"{out[-1]} {s}"
        elif out and lead and not CITATION.search(quantities.normalize(out[-1])):
            out[-1] = f"{out[-1]} {lead[1].rstrip()}"
            out.append(s[lead.end():])
        else:
            out.append(s)
    return out


_SOURCE_LABEL = re.compile(r"^[\s*_(]*(?:sources?|references?|citations?|cited|see)[\s*_]*:?[\s*_)]*$", re.I)  # "Source: [S1]"
LEADING_CITATIONS = re.compile(r"((?:" + CITATION.pattern + r"[ \t]*)+)\s*(?=[A-Z])")


def strict_sentences(answer: str) -> list[str]:
    """The sentences of an answer as a person reads their citations: a piece of citations only belongs to the
    sentence before it, and a sentence without one is covered by the next citation of its paragraph ("Yes. The
    file is deleted on close [S1]." is one claim on S1, checked whole), or, in an opening paragraph with no
    citation (a headline: "48 km/h.", a blank line, "harmonic_mean([40, 60]) is 48.0 [S1]."), by the first citation
    after it; the items after a citation that ends in a colon ("Two effects [S1]:", "1. ...", "2. ...") are read
    with it; a paragraph's last uncited sentence stays uncited, but one that ends in a colon ("For example:") opens
    the next paragraph (a code block): they are one sentence; a fenced code block is one piece, never cut."""
    text_argument(answer, "answer")
    out: list[list[str]] = []                   # each sentence as its pieces, joined at the end
    waiting: list[str] = []                     # uncited pieces waiting for the next citation
    listing = False                             # the last cited piece opens a list: "Two effects [S1]:"
    lead_in = ""                                # "For example:" ending a paragraph, before its code block
    blocks: list[str] = []                      # a fenced block is never cut: it is read as a mark, then put back

    def mark(m: re.Match) -> str:
        blocks.append(m[0])
        return f"\x00{len(blocks) - 1}\x00"

    marked = answer if "\x00" in answer else _FENCED.sub(mark, answer)
    for p, paragraph in enumerate(_PARAGRAPH.split(marked)):
        pieces = _citations_join_their_sentence([f.strip() for f in STRICT_SENTENCE_END.split(paragraph)
                                                 if f.strip()])
        if blocks:
            pieces = [_MARK.sub(lambda m: blocks[int(m[1])], piece) for piece in pieces]
        joined = ""
        if lead_in and pieces:
            pieces[0], lead_in = f"{lead_in}\n{pieces[0]}", ""
            joined = pieces[0]                  # carried once: "For example:" after "For example:" opens nothing
        for s in pieces:
            if CITATION.search(quantities.normalize(s)):
                out.append(waiting + [s])
                waiting, listing = [], _opens_list(s)
            elif listing:
                out[-1].append(s)
            else:
                waiting.append(s)
        if p > 0 or out:                        # only a headline waits for the next paragraph's citation
            if waiting and waiting[-1].endswith(":") and waiting[-1] is not joined:
                lead_in = waiting.pop()
            out += [[w] for w in waiting]
            waiting = []
    return [" ".join(x) for x in out + [[w] for w in waiting + ([lead_in] if lead_in else [])]]




_FENCED = re.compile(r"```.*?```", re.S)
_MARK = re.compile(r"\x00(\d+)\x00")


def _opens_list(piece: str) -> bool:
    """Whether a cited piece's last citation opens a list: a colon, then a new line or an item ("Two effects
    [S1]:", "Two defaults [S1]:\n- delete defaults to True."), not "0.6 [S1]: the default"."""
    last = None
    for last in CITATION.finditer(quantities.normalize(piece)):
        pass
    return last is not None and bool(_LIST_AFTER.match(last.string, last.end()))


_LIST_AFTER = re.compile(r"[ \t]*:[ \t]*(?:\n|\(?\d{1,2}[.)][ \t]|[-*\u2022][ \t]|$)")   # ":" then a line or an item
