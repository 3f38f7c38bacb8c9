"""Documents: the bundled corpus, the article's notes, and a corpus built from this interpreter's stdlib.

A document is an id, a text and a status (a label: the article uses current, draft and outdated).
`Document` refuses an id or a status holding a control character (NUL, a line break, an escape: PostgreSQL
refuses NUL, a terminal obeys escapes), a status holding '|' or ',' (links and Compare's setups list
statuses separated by them) and a status named `all` or `none` in any case (the words a setup's
`statuses=all|none` and `--trusted none` mean every status and no status by); `label_problem` says why, for
readers that skip one bad row instead.
`Corpus` checks the documents once (ids unique, text not empty) and is what every later stage takes.

Left out on purpose: file formats and uploads (see `ingest`), and any per-document metadata beyond
the status, which is the only field the article filters on.
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from rag_core.text.messages import shorten

DATA = Path(__file__).resolve().parent          # the JSON files live beside this module
BUNDLED_FILE = DATA / "stdlib-py314-corpus.json"
NOTES_FILE = DATA / "notes.json"

# The article's 18 modules, in the article's order (the order decides which module keeps a re-export).
ARTICLE_MODULES = ("statistics", "bisect", "heapq", "itertools", "functools", "difflib",
                   "textwrap", "tempfile", "uuid", "base64", "secrets", "gzip", "math",
                   "glob", "zlib", "operator", "fractions", "fnmatch")
# standard-library modules whose import does something besides defining names: never imported here
SIDE_EFFECTS = {"this": "prints the Zen of Python", "antigravity": "opens a web browser",
                "idlelib.idle": "starts the IDLE editor"}


STATUS_SEPARATORS = "|,"     # what links and Compare's setups separate statuses with: never inside one
RESERVED_STATUSES = ("all", "none")   # statuses=all|none in a setup, --trusted none: never a status's name
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")   # C0, DEL, C1, and Unicode's line separators


@dataclass(frozen=True)
class Document:
    id: str                     # unique within a corpus; no control character
    text: str                   # the whole document; chunkers cut it
    status: str = "current"     # a label the metadata filter allows a set of; no control character, no | or ,

    def __post_init__(self):
        for what, value in (("id", self.id), ("status", self.status)):
            problem = label_problem(value, what)
            if problem:
                raise ValueError(f"Document {shorten(self.id)!r}: {problem}")


MAX_LABEL_CHARS = {"status": 200, "id": 1000}   # labels: longer is a mistake (a text pasted into the field)


def label_problem(value, what: str = "status") -> str | None:
    """Why `value` cannot be a document's id or status (`what`), or None; types are left to `check_documents`.

    'draft' -> None;  'a,b' -> "the status 'a,b' holds ',' ...: write it without | and , (e.g. 'a-b').";
    'x\x00' -> "the status 'x\\x00' holds a control character (\\x00 at position 2): remove it."
    """
    if not isinstance(value, str):
        return None
    most = MAX_LABEL_CHARS.get(what, MAX_LABEL_CHARS["id"])
    if len(value) > most:
        return (f"the {what} {shorten(value, 40)!r} is {len(value):,} characters long: keep it under {most:,} "
                "(a label, shown on every page and in every link).")
    bad = _CONTROL.search(value)
    if bad:
        return (f"the {what} {shorten(value)!r} holds a control character ({bad.group()!r} at position {bad.start() + 1}): "
                "remove it.")
    if what == "status" and value.strip().lower() in RESERVED_STATUSES:
        return (f"the status {value!r} is a word setups use ('statuses={value.strip().lower()}' means "
                f"{'every status' if value.strip().lower() == 'all' else 'no status'}): rename it, "
                f"e.g. {value.strip() + '-docs'!r}.")
    if what == "status":
        seps = [c for c in STATUS_SEPARATORS if c in value]
        if seps:
            fixed = re.sub(r"\s*[|,]\s*", "-", value.strip())
            return (f"the status {shorten(value)!r} holds {' and '.join(repr(c) for c in seps)}, which links and Compare's "
                    f"setups use to separate statuses: write it without | and , (e.g. {shorten(fixed)!r}).")
    return None


@dataclass(frozen=True)
class Corpus:
    documents: tuple[Document, ...]   # in order: modules first, then notes, as the article appends them
    name: str = "corpus"              # shown in reports

    def __post_init__(self):
        check_documents(self.documents)

    @property
    def by_id(self) -> dict[str, Document]:
        return {d.id: d for d in self.documents}

    @property
    def statuses(self) -> tuple[str, ...]:
        """Statuses in first-seen order: ('current', 'draft', 'outdated') for the bundled corpus."""
        return tuple(dict.fromkeys(d.status for d in self.documents))

    def sizes(self) -> dict:
        """The article's corpus figures: documents, words (total, median, max)."""
        words = [len(d.text.split()) for d in self.documents]
        notes = sum(d.status != "current" for d in self.documents)
        return {"documents": len(self.documents), "current": len(self.documents) - notes,
                "not_current": notes, "total_words": sum(words),
                "median_words": int(statistics.median(words)), "max_words": max(words)}


def check_documents(documents) -> None:
    """Raise ValueError naming the first problem: no documents, a duplicate id, an empty text."""
    if not documents:
        raise ValueError("The corpus has no documents: add at least one document with some text.")
    seen = set()
    for d in documents:
        if not isinstance(d, Document):
            raise ValueError(f"Expected Document objects, got {type(d).__name__}: build them with Document(id, text, status).")
        if not isinstance(d.id, str) or not d.id.strip():
            raise ValueError("A document has an empty id: give every document a name.")
        if d.id in seen:
            raise ValueError(f"Duplicate document id {shorten(d.id)!r}: ids must be unique, rename one of them.")
        seen.add(d.id)
        if not isinstance(d.text, str) or not d.text.split():
            raise ValueError(f"Document {shorten(d.id)!r} has no text: remove it or give it some words.")
        if not isinstance(d.status, str) or not d.status.strip():
            raise ValueError(f"Document {shorten(d.id)!r} has an empty status: use a label such as 'current'.")


def load_notes() -> list[Document]:
    """The article's ten hand-written notes that contradict the library (drafts and outdated versions)."""
    rows = json.loads(NOTES_FILE.read_text(encoding="utf-8"))["notes"]
    return [Document(r["id"], r["text"], r["status"]) for r in rows]


BUNDLED_NAME = "bundled (CPython 3.14 snapshot)"
STDLIB_NAME = "stdlib of this Python"
BUILT_HERE = (BUNDLED_NAME, STDLIB_NAME)     # corpora the project builds (the pack holds their chunks), not uploads


def bundled_corpus(with_notes: bool = True) -> Corpus:
    """The 18 module documents built under CPython 3.14 (vendored snapshot), plus the 10 notes."""
    rows = json.loads(BUNDLED_FILE.read_text(encoding="utf-8"))["documents"]
    docs = [Document(r["id"], r["text"], r.get("status", "current")) for r in rows]
    return Corpus(tuple(docs + (load_notes() if with_notes else [])), name=BUNDLED_NAME)


def stdlib_documents(modules=ARTICLE_MODULES) -> list[Document]:
    """Build one document per module from THIS interpreter, with the article's rules.

    Module docstring, then each public function or class with a docstring of 20 words or more,
    kept only by the module that defines it when that module is also in the list, each object once.
    `modules` is a list of names or one string "math, bisect"; None means the article's 18; a name
    given twice is built once.
    """
    if modules is None:
        modules = ARTICLE_MODULES
    if isinstance(modules, str):           # "math, bisect": one string, not a sequence of letters
        modules = modules.replace(",", " ").split()
    if any(not isinstance(m, str) for m in modules):
        raise ValueError("Module names must be text, e.g. ['math', 'bisect'].")
    modules = list(dict.fromkeys(m.strip() for m in modules if m.strip()))   # each module once
    if not modules:
        raise ValueError("No module names given: pass at least one, e.g. ['math', 'bisect'].")
    imported, refused = {}, []
    for name in modules:
        m = _import_quietly(name)
        if isinstance(m, str):
            refused.append(f"Module {name!r} {m}")
        else:
            imported[name] = m
    if refused:
        raise ValueError(" ".join(refused))
    documents, seen = [], set()
    for name, m in imported.items():
        parts = [f"MODULE {name}"]
        if inspect.getdoc(m):
            parts.append(inspect.getdoc(m).strip())
        for attr, obj in sorted(vars(m).items()):
            if attr.startswith("_"):
                continue
            if not (inspect.isfunction(obj) or inspect.isclass(obj) or inspect.isbuiltin(obj)):
                continue
            doc = inspect.getdoc(obj)
            if not doc or len(doc.split()) < 20:
                continue
            home = (getattr(obj, "__module__", None) or name).lstrip("_")
            if home != name and home in modules:       # its own module, later in the list, keeps it
                continue
            fingerprint = (obj.__module__, obj.__qualname__)
            if fingerprint in seen:
                continue
            seen.add(fingerprint)
            parts.append(f"## {name}.{attr}\n\n{doc.strip()}")
        documents.append(Document(name, "\n\n".join(parts), "current"))
    return documents


def _import_quietly(name: str):
    """The module, or why not: 'this' -> 'is refused: importing it prints the Zen of Python; leave it out.'.

    Only standard-library modules are imported ('os.path' counts: its top package is), never a program's
    entry point (a `__main__` module) or a module imported for its side effect (SIDE_EFFECTS). Whatever an
    import prints goes nowhere: the report on stdout stays a report.
    """
    if name in SIDE_EFFECTS or "__main__" in name.split("."):
        return f"is refused: importing it {SIDE_EFFECTS.get(name, 'runs a program')}; leave it out."
    if name.split(".")[0] not in sys.stdlib_module_names:
        return "cannot be imported here (it is not a standard-library module): check the name."
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            return importlib.import_module(name)
        except (Exception, SystemExit) as e:   # a module may fail in any way on this platform
            return f"cannot be imported here ({type(e).__name__}: {e}): check the name."


def stdlib_corpus(modules=ARTICLE_MODULES, with_notes: bool = True) -> Corpus:
    """The article's procedure run on this interpreter's standard library (numbers differ by version)."""
    docs = stdlib_documents(modules)
    return Corpus(tuple(docs + (load_notes() if with_notes else [])), name=STDLIB_NAME)
