"""Golden questions suggested from the documents themselves: from their structure (offline) or by a model.

    from_structure(documents)            -> [Suggestion(question, doc, anchor, answer, why, source="structure")]
    from_model(documents, passages, ask) -> ([Suggestion(..., source="model: NAME")], [Refusal(..., reason)])

From the structure (`outline.blocks`, code never read): a heading that asks a question (ends with '?'), its anchor
the first sentence of the first prose paragraph below it; a line in bold that asks one (`**How do I ...?**`), as FAQ
pages write them; a Q:/A: pair; a definition list's term (reST: a term, its definition indented on the next line;
Markdown Extra: a `: definition` line), asked as "What is TERM?". A question with no prose before the next heading
(an empty section, or only code) gives nothing.

Every suggestion is checked as an uploaded row is (`golden.golden_problems`): the question searchable, the anchor
literal in its document and standing alone, a question asked twice kept once (its first place). A structural
candidate that fails is left out: a suggestion is an offer, not a problem in the user's file.

From a model: the prompt asks for questions in a user's everyday words, not the passage's (the article's trap 3: a
question that repeats the document's words is an easy hit and flatters the ceiling), each with an anchor copied
from the passage; the lines `Q:`, `A:` and `K:` (answer key) of the reply are read. A suggestion whose anchor is not
literally in its passage, or that is not a valid row for the documents, is refused with its reason (a `Refusal`,
never a `Suggestion`); a key that is not in its anchor is left out (the anchor is then the key) and `why` says so.

from_structure reads the first MAX_SUGGESTIONS candidates (1,000), in document order: each is checked against its
whole document, so a file of 100,000 question headings would take minutes; a golden set that long is not one a
person reviews.

Left out on purpose: calling a model (`ask` is any callable, prompt -> reply: the command line and the pages wire
`generation.llm`), choosing the passages, and answer keys from the structure (the anchor is the key).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rag_core.data.corpus import Document
from rag_core.data.golden import GoldenRow, golden_problems
from rag_core.data.outline import BULLET, Block, blocks, indent, is_markdown, prose, sentences
from rag_core.text.tokens import normalize

MAX_PER_PASSAGE = 10       # questions asked of a model for one passage: more is a typo
MAX_ANCHOR_WORDS = 50      # an anchor is cut here: a whole paragraph as an anchor would span chunks
MAX_TERM_WORDS = 8         # a longer "term" is a line of prose wrapped under a deeper indent
SHORT_ANCHOR_WORDS = 6     # an anchor shorter than this must be found once in all the documents, not only its own
MAX_SUGGESTIONS = 1000     # from the structure, the first ones only: each is checked against its whole document


@dataclass(frozen=True)
class Suggestion:
    question: str   # as a user would type it
    doc: str        # id of the document that answers
    anchor: str     # literal text of that document (whitespace collapsed) that holds the answer
    answer: str     # the answer key, words of the anchor; "" = the anchor is the key
    why: str        # where it comes from, in a sentence: "a heading that asks a question (line 12)"
    source: str     # "structure" or "model: NAME"

    @property
    def row(self) -> GoldenRow:
        return GoldenRow(self.question, self.doc, self.anchor, self.answer)


@dataclass(frozen=True)
class Refusal:
    question: str   # as the model wrote it (whitespace collapsed)
    doc: str        # id of the document its passage was taken from
    anchor: str     # as the model wrote it (whitespace collapsed): not offered as an anchor
    reason: str     # plain sentence: why it is not offered


# :role:`x` ``x`` **x** *x* `x`; a role is at most four parts of 40 characters (":py:func:"), so the pattern's time
# stays linear in the text (":a" repeated 50,000 times was quadratic)
_MARKUP = re.compile(r"(?<![\w:]):(?:[\w.-]{1,40}:){1,4}(?=`)|``|\*\*|(?<!\w)[*`]|[*`](?!\w)")
_LINK_TARGET = re.compile(r"\s*<[^<>\s]*>`_{1,2}|`_{1,2}(?!\w)")            # reST `text <url>`_ and `text`_
_BOLD_QUESTION = re.compile(r"^[ \t]*(\*\*|__)(\S.*\?)\1[ \t]*$")
_QA = re.compile(r"^[ \t]*(?:\*\*)?(Q|Question|A|Answer)[ \t]*:(?:\*\*)?[ \t]*", re.I)
_TERM = re.compile(r"^[^\s:.].{0,78}$")                                 # one short line, not ':' 'or '.' first
_CLASSIFIER = re.compile(r"[ \t]+:[ \t]+.*$")                           # reST 'term : classifier'


def _plain(text: str) -> str:
    """A heading or term without inline markup, for a question a user would type: "Is ``x`` *fast*?" -> "Is x fast?";
    "`pip <https://pip.pypa.io>`_" -> "pip"."""
    return " ".join(_MARKUP.sub("", _LINK_TARGET.sub("`", text)).split())


def anchor_of(text: str, found_in) -> str:
    """The anchor a paragraph's text offers: its first sentence, or its first sentences until found_in(anchor), how
    often the documents hold it, is 1 ("Yes." is all over an FAQ), at most MAX_ANCHOR_WORDS words.

    "Yes. Try pdb.", "... Yes. ... Yes. Try pdb. ...".count -> "Yes. Try pdb."
    """
    found = sentences(text)
    for n in range(1, len(found) + 1):
        anchor = " ".join(" ".join(found[:n]).split()[:MAX_ANCHOR_WORDS])
        if len(anchor.split()) >= MAX_ANCHOR_WORDS or found_in(anchor) <= 1:
            return anchor
    return " ".join(found[0].split()[:MAX_ANCHOR_WORDS]) if found else ""


def _counter(documents: list[Document]):
    """anchor -> how often the documents hold it (whitespace collapsed): its own document's count for an anchor of
    SHORT_ANCHOR_WORDS words or more, every document's below (a short sentence is the one repeated elsewhere)."""
    texts = {d.id: " ".join(d.text.split()) for d in documents}
    everything = "\n".join(texts.values())

    def found_in(doc_id: str, anchor: str) -> int:
        return (texts[doc_id] if len(anchor.split()) >= SHORT_ANCHOR_WORDS else everything).count(anchor)
    return found_in


def _answer_below(found: list[Block], k: int, stop, lines: list[str]) -> str:
    """The text of the first prose paragraph after block k, before the next heading or a block `stop` accepts, and
    of the prose paragraphs right after it (only blank lines between: the text stays literal, whitespace aside)."""
    text, end = "", 0
    for block in found[k + 1:]:
        if block.kind == "heading" or stop(block):
            break
        more = prose(block)
        if text and (any(line.strip() for line in lines[end:block.line - 1])
                     or more != " ".join(" ".join(block.lines).split())):
            break                                      # code between, or a list's marker left out: not literal
        if more.strip("*_`:. "):
            text, end = f"{text} {more}".strip(), block.line - 1 + len(block.lines)
        elif text:
            break
    return text


def _qa_pairs(block: Block) -> list[tuple[str, str, int]]:
    """(question, answer text, line offset of the Q) for each Q:/A: pair inside a paragraph.

    ("Q: Can I?", "A: Yes, you", "can.") -> [("Can I?", "Yes, you can.", 0)]
    """
    pairs, question, answer, at = [], None, None, 0
    for n, line in enumerate(block.lines + ("Q:",)):              # a last Q: closes the last pair
        m = _QA.match(line)
        if m and m.group(1)[0].upper() == "Q":
            if question and answer:
                pairs.append((" ".join(" ".join(question).split()), " ".join(" ".join(answer).split()), at))
            question, answer, at = [line[m.end():]], None, n
        elif m and question is not None and answer is None:
            answer = [line[m.end():]]
        elif question is not None:
            (question if answer is None else answer).append(line)
    return pairs


def _terms(block: Block) -> list[tuple[str, str, int]]:
    """(term, its definition's text, line offset) for each definition-list item inside a paragraph.

    ("sequence", "  An iterable with ...") -> [("sequence", "An iterable with ...", 0)]
    """
    found, lines = [], block.lines
    for n in range(len(lines) - 1):
        term, nxt = lines[n], lines[n + 1]
        reST = indent(nxt) > indent(term) and not re.match(r"^[ \t]*:", nxt)
        extra = re.match(r"^[ \t]{0,3}:[ \t]+\S", nxt) is not None
        if (not (reST or extra) or not _TERM.match(term.strip()) or BULLET.match(term) or _QA.match(term)
                or term.rstrip().endswith((":", ".", ",", ";"))):
            continue
        if n > 0 and not extra and indent(lines[n - 1]) <= indent(term):    # inside a paragraph, not its start
            continue
        end = next((j for j in range(n + 2, len(lines)) if indent(lines[j]) <= indent(term)), len(lines))
        definition = (re.sub(r"^[ \t]*:", "", nxt),) if extra else lines[n + 1:end]
        text = prose(Block("paragraph", block.line + n + 1, tuple(definition)))     # "" for a table
        if text and len(term.split()) <= MAX_TERM_WORDS:
            found.append((_CLASSIFIER.sub("", term.strip()), text, n))
    return found


def _candidates(doc: Document, found_in, limit: int = MAX_SUGGESTIONS) -> list[Suggestion]:
    """The suggestions the structure of one document offers, its first `limit`, before any is checked (found_in:
    `_counter`'s)."""
    found, out, lines = blocks(doc.text, is_markdown(doc.id)), [], doc.text.splitlines()

    def add(question: str, answer_text: str, why: str) -> None:
        anchor = anchor_of(answer_text, lambda a: found_in(doc.id, a))
        if question and anchor:
            out.append(Suggestion(question, doc.id, anchor, "", why, "structure"))

    for k, block in enumerate(found):
        if len(out) >= limit:
            break
        bold = _BOLD_QUESTION.match(block.lines[0]) if block.kind == "paragraph" and len(block.lines) == 1 else None
        if block.kind == "heading" and _plain(block.lines[0]).endswith("?"):
            add(_plain(block.lines[0]), _answer_below(found, k, lambda b: False, lines),
                f"a heading that asks a question (line {block.line})")
        elif bold:
            add(_plain(bold.group(2)), _answer_below(found, k, lambda b: bool(_BOLD_QUESTION.match(b.lines[0])), lines),
                f"a line in bold that asks a question (line {block.line})")
        elif block.kind == "paragraph" and _QA.match(block.lines[0]):
            pairs = _qa_pairs(block)
            if not pairs and k + 1 < len(found) and found[k + 1].kind == "paragraph":   # the A: in the next paragraph
                pairs = _qa_pairs(Block("paragraph", block.line, block.lines + found[k + 1].lines))
            for q, a, at in pairs:
                add(_plain(q), a, f"a Q:/A: pair (line {block.line + at})")
        elif block.kind == "paragraph":
            for term, text, at in _terms(block):
                add(f"What is {_plain(term)}?", text, f"a term of a definition list (line {block.line + at})")
    return out[:limit]


def valid_only(suggestions: list[Suggestion], documents) -> tuple[list[Suggestion], list[Refusal]]:
    """(the suggestions that are valid golden rows for the documents, in order, the others with their reason): the
    project's own check (`golden.golden_problems`), a question asked again counting once."""
    suggestions = list(suggestions)
    bad = {p.row: p.reason for p in golden_problems([s.row for s in suggestions], documents)}
    for i, reason in bad.items():
        if reason.startswith("The same question as row "):
            bad[i] = f"The same question as suggestion {reason.removeprefix('The same question as row ')}"
    return ([s for i, s in enumerate(suggestions) if i not in bad],
            [Refusal(suggestions[i].question, suggestions[i].doc, suggestions[i].anchor, r) for i, r in bad.items()])


def _documents(documents) -> list[Document]:
    if isinstance(documents, (str, bytes)) or not hasattr(getattr(documents, "documents", documents), "__iter__"):
        raise ValueError("Expected Document objects (or a Corpus): build them with Document(id, text, status).")
    documents = list(getattr(documents, "documents", documents))
    if not all(isinstance(d, Document) for d in documents):
        raise ValueError("Expected Document objects (or a Corpus): build them with Document(id, text, status).")
    return documents


def from_structure(documents) -> list[Suggestion]:
    """Golden rows the documents' own structure offers (see the module's docstring), each valid for them."""
    documents = _documents(documents)
    found_in = _counter(documents)
    candidates: list[Suggestion] = []
    for d in documents:
        if len(candidates) >= MAX_SUGGESTIONS:
            break
        candidates += _candidates(d, found_in, MAX_SUGGESTIONS - len(candidates))
    return valid_only(candidates, documents)[0]


PROMPT = """You help build a test set for a search engine over a set of documents.
Read the passage below. Write {n} question(s) that a user might type into a search box, which the passage answers.
Write each question in a user's everyday words: a user does not know the passage's own terms and headings, so do
not copy its phrases into the question.
For each question, copy from the passage, word for word, the shortest sentence or phrase that holds the answer (the
anchor). Optionally give the few words of the anchor that are the answer itself (the key).
Reply with exactly these lines for each question, and nothing else:
Q: <the question>
A: <the anchor, copied exactly from the passage>
K: <the key, copied exactly from the anchor, or nothing>

Passage (from {doc}):
<<<
{text}
>>>
"""

_LINE = re.compile(r"^[ \t]*(?:\d{1,2}[.)][ \t]*)?(?:\*\*)?(Q|A|K|Question|Anchor|Key)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*"
                   r"(.*)$", re.I)                  # the text, its trailing blanks stripped in code (linear)
_QUOTES = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019"}


def parse_reply(reply: str) -> list[dict]:
    """The Q/A/K items of a model's reply, in order: [{"Q": question, "A": anchor, "K": key}], a field absent when the
    reply has none. "Q: Why?\\nA: Because.\\nK:" -> [{"Q": "Why?", "A": "Because.", "K": ""}]
    """
    if not isinstance(reply, str):
        raise ValueError(f"parse_reply takes the model's reply as text, got {type(reply).__name__}.")
    items = []
    for line in reply.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        field = m.group(1)[0].upper()
        if field == "Q" or not items:
            items.append({})
        items[-1].setdefault(field, m.group(2).rstrip(" \t"))
    return items


def _unquoted(anchor: str, passage: str) -> str:
    """The anchor without quotes the model put around it, when only the inside is in the passage."""
    a = anchor.strip()
    if len(a) > 2 and _QUOTES.get(a[0]) == a[-1] and " ".join(a.split()) not in passage:
        return a[1:-1].strip()
    return a


NOT_IN_PASSAGE = ("Its anchor is not in the passage the model was given, word for word (whitespace aside): an anchor "
                  "must be copied from the passage, never written.")


def _passage_problem(row: GoldenRow, text: str) -> str:
    """Why a model's row does not hold in its passage, or "": the anchor literal there first, then every check of
    an uploaded row (`golden.golden_problems`, the passage as its document)."""
    if normalize(row.anchor) and normalize(row.anchor) not in normalize(text):
        return NOT_IN_PASSAGE
    problems = golden_problems([row._replace(answer="")], [Document(row.doc, text)])
    return problems[0].reason if problems else ""


def from_model(documents, passages, ask, n_per_passage: int = 1,
               name: str | None = None) -> tuple[list[Suggestion], list[Refusal]]:
    """(the model's suggestions that hold, those it made that were refused, each with its reason) for the chosen
    passages.

    passages: (doc id, text) pairs, each text a piece of that document. ask: prompt -> the model's reply (a str).
    name: the model's name for `source` (default: ask.model, else "model"). A refused suggestion: no anchor, an
    anchor not in its passage (whitespace aside) or not standing alone there, a question that cannot be searched,
    one already asked. Questions beyond n_per_passage in one reply are not read.
    """
    documents = _documents(documents)
    if (isinstance(n_per_passage, bool) or not isinstance(n_per_passage, int)
            or not 1 <= n_per_passage <= MAX_PER_PASSAGE):
        raise ValueError(f"n_per_passage must be a whole number from 1 to {MAX_PER_PASSAGE}, got {n_per_passage!r}.")
    ids = {d.id for d in documents}
    name = name or getattr(ask, "model", None) or "model"
    made, refused = [], []
    if isinstance(passages, (str, bytes)) or not hasattr(passages, "__iter__"):
        raise ValueError("passages must be (doc id, text) pairs taken from the documents, e.g. [('faq.md', 'A refund "
                         "reaches your card within five days.')].")
    passages = list(passages)
    if not all(isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in passages):
        raise ValueError("passages must be (doc id, text) pairs of text taken from the documents, e.g. "
                         "[('faq.md', 'A refund reaches your card within five days.')].")
    for doc, text in passages:
        if doc not in ids:
            raise ValueError(f"The passage's document {doc!r} is not among the documents: pass (doc id, text) pairs "
                             "taken from them.")
        reply = ask(PROMPT.format(n=n_per_passage, doc=doc, text=text))
        if not isinstance(reply, str):
            raise ValueError(f"ask must return the model's reply as text, got {type(reply).__name__}.")
        passage = [Document(doc, text)]
        for item in parse_reply(reply)[:n_per_passage]:
            anchor = " ".join(_unquoted(item.get("A", ""), " ".join(text.split())).split())
            row = GoldenRow(" ".join(item.get("Q", "").split()), doc, anchor, " ".join(item.get("K", "").split()))
            problem = _passage_problem(row, text)
            if problem:
                refused.append(Refusal(row.question, doc, anchor, problem))
                continue
            dropped = bool(row.answer) and bool(golden_problems([row], passage))
            why = f"written by {name} for a passage of {doc}, its anchor copied from the passage"
            made.append(Suggestion(row.question, doc, anchor, "" if dropped else row.answer,
                                   why + ("; its answer key was not in the anchor and was left out" if dropped else ""),
                                   f"model: {name}"))
    kept, bad = valid_only(made, documents)
    return kept, refused + bad
