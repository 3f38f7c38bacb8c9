"""A setup: everything that decides an answer, with a name, as one line of text and as a dashboard link.

    s = parse_setup("small: size=80 overlap=16 rerank=off", base=default_setup(wb))
    s.to_text()       -> "small: chunker=fixed size=80 overlap=16 candidates=20 k=3 statuses=current rerank=off
                          generator=scripted trusted=current" (one line)
    s.link_params()   -> {"chunker": "fixed", "size": "80", "overlap": "16", "ask_candidates": "20", "ask_k": "3",
                          "ask_statuses": "current", "ask_rerank": "0", "trusted": "current"}

Keys: chunker (fixed | structure | sentence), size, overlap, candidates, k, statuses (`all`, `none`, or names
joined by `|`), rerank (on | off), generator (scripted | model), trusted (the statuses a green answer may come
from: names joined by `|`, or `none`; left out: the workbench's), and every retrieval option that
`Workbench.using(**options)` takes (a retriever, a reranker...): they are read from its signature, so a new
option needs no change here. A new chunker kind without its size and overlap takes that kind's defaults
(fixed 160/32, structure 160/0, sentence 4/1), as the sidebar does.

Left out on purpose: checking statuses and option values against a corpus (the workbench does, when the setup
runs) and the model's own settings (URL, name: one configured model per run, never in a link).
"""
from __future__ import annotations

import inspect
import numbers
import re
import shlex
from dataclasses import dataclass, field, replace

from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.retrieval.chunkers import KINDS, STRATEGY_DEFAULTS, ChunkerConfig
from rag_core.text.messages import shorten

GENERATORS = ("scripted", "model")
CORE_KEYS = ("chunker", "size", "overlap", "candidates", "k", "statuses", "rerank", "generator", "trusted")
MAX_NAME = 40
_ON, _OFF = ("on", "1", "true", "yes"), ("off", "0", "false", "no")


def _using_parameters(using=None) -> list:
    """The parameters of a workbench's bound `using`, or of Workbench.using (without self)."""
    if using is not None:
        return list(inspect.signature(using).parameters.values())
    using = getattr(Workbench, "using", None)
    return list(inspect.signature(using).parameters.values())[1:] if using is not None else []


def retrieval_options():
    """Names of the retrieval options `Workbench.using(**options)` takes, callbacks (on_...) left out:
    () when this version has none."""
    return tuple(p.name for p in _using_parameters()
                 if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and not p.name.startswith("on_"))


def typed_options(options: dict, using=None) -> dict:
    """Option values (text in a setup) as the type of using's default for them (`using`: a workbench's bound
    method, default Workbench.using): '1.2' -> 1.2 for a float default, 'off' -> False for a bool one; text
    otherwise. ValueError naming the option when it does not fit."""
    defaults = {p.name: p.default for p in _using_parameters(using) if p.default is not inspect.Parameter.empty}
    out = {}
    for key, value in options.items():
        kind = type(defaults.get(key))
        try:
            if kind is bool:
                if value.lower() not in _ON + _OFF:
                    raise ValueError
                out[key] = value.lower() in _ON
            elif kind in (int, float):
                out[key] = kind(value)
            else:
                out[key] = value
        except ValueError:
            raise ValueError(f"{key} must be {'on or off' if kind is bool else f'a {kind.__name__} number'}, "
                             f"got {value!r}.") from None
    return out


@dataclass(frozen=True)
class Setup:
    name: str = "default"                           # short, unique among the setups compared; no ':' or '='
    chunker: ChunkerConfig = ARTICLE_CHUNKER        # how documents are cut
    candidates: int = 20                            # chunks the first search returns (what the reranker sees)
    k: int = 3                                      # chunks kept and handed to the generator as [S1]..[Sk]
    statuses: frozenset | None = None               # statuses the filter allows; None: every status (no filter)
    rerank: bool = True                             # rerank the candidates before keeping k
    generator: str = "scripted"                     # "scripted" (offline, repeatable) or "model" (the configured one)
    retrieval: tuple = field(default=())            # ((option, value), ...) for Workbench.using, sorted by option
    trusted: frozenset | None = None                # statuses a green answer may come from; None: the workbench's

    def __post_init__(self):
        name = self.name.strip() if isinstance(self.name, str) else self.name
        if not isinstance(name, str) or not name or ":" in name or "=" in name or len(name) > MAX_NAME:
            raise ValueError(f"A setup's name is a short label without ':' or '=' (at most {MAX_NAME} characters), "
                             f"got {shorten(self.name)!r}: e.g. 'small chunks'.")
        if not name.isprintable():      # a newline breaks a Markdown table, an escape sequence reaches a terminal
            raise ValueError(f"A setup's name is one line of visible characters, got {shorten(self.name)!r} (it holds a "
                             "control character: a line break, a tab or an escape): e.g. 'small chunks'.")
        object.__setattr__(self, "name", name)
        for what, v in (("candidates", self.candidates), ("k", self.k)):
            if not isinstance(v, numbers.Integral) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"Setup {shorten(name)!r}: {what} must be a whole number above 0, got {v!r}.")
            object.__setattr__(self, what, int(v))
        if self.k > self.candidates:
            raise ValueError(f"Setup {shorten(name)!r}: cannot keep k={self.k} chunks out of {self.candidates} candidates: "
                             f"set candidates={self.k} or more, or a smaller k.")
        for what in ("statuses", "trusted"):
            value = getattr(self, what)
            if value is not None:
                object.__setattr__(self, what, frozenset([value] if isinstance(value, str) else value))
        if self.generator not in GENERATORS:
            raise ValueError(f"Setup {shorten(name)!r}: generator must be scripted or model, got {self.generator!r}.")
        options = self.retrieval.items() if isinstance(self.retrieval, dict) else self.retrieval
        object.__setattr__(self, "retrieval", tuple(sorted((str(o), str(v)) for o, v in options)))
        object.__setattr__(self, "rerank", bool(self.rerank))

    @property
    def options(self) -> dict:
        """The retrieval options as keyword arguments for Workbench.using."""
        return dict(self.retrieval)

    def to_text(self) -> str:
        """One line that parse_setup reads back into this very setup, whatever the base."""
        c = self.chunker
        statuses = "all" if self.statuses is None else ("|".join(sorted(self.statuses)) or "none")
        pairs = [("chunker", c.kind), ("size", c.size), ("overlap", c.overlap), ("candidates", self.candidates),
                 ("k", self.k), ("statuses", statuses), ("rerank", "on" if self.rerank else "off"),
                 ("generator", self.generator), *self.retrieval]
        if self.trusted is not None:
            pairs.append(("trusted", "|".join(sorted(self.trusted)) or "none"))
        return f"{self.name}: " + " ".join(f"{key}={shlex.quote(str(v))}" for key, v in pairs)

    def link_params(self, question: str | None = None, corpus_statuses=()) -> dict:
        """The dashboard's URL parameters that open Ask with this setup (and `question`, when given).

        A setup without a filter lists every status of the corpus (`corpus_statuses`), as Ask's widget has no
        "all"; the trusted statuses go in `trusted` (the sidebar's choice); the generator stays out of links (the
        model is configured per session).
        """
        statuses = sorted(self.statuses) if self.statuses is not None else list(corpus_statuses)
        params = {"chunker": self.chunker.kind, "size": str(self.chunker.size), "overlap": str(self.chunker.overlap),
                  "ask_candidates": str(self.candidates), "ask_k": str(self.k),
                  "ask_statuses": ",".join(statuses) or "-", "ask_rerank": "1" if self.rerank else "0",
                  **dict(self.retrieval)}
        if self.trusted is not None:
            params["trusted"] = ",".join(sorted(self.trusted)) or "-"
        if question is not None:
            params["ask_question"] = question
        return params


def default_setup(wb: Workbench | None = None, name: str = "default",
                  chunker: ChunkerConfig = ARTICLE_CHUNKER) -> Setup:
    """The article's pipeline: 20 candidates reranked, 3 kept, only wb's trusted statuses allowed (every
    status without a workbench), the scripted generator; the chunker fixed 160/32 unless given; and wb's own
    retrieval options (its retriever, reranker...) written out, so that the setup says all that decides."""
    if wb is None:
        return Setup(name, chunker, 20, 3, None, True, "scripted")
    names = retrieval_options()
    options = {o: getattr(wb, o) for o in names if isinstance(getattr(wb, o, None), str)}
    return Setup(name, chunker, 20, 3, frozenset(wb.trusted), True, "scripted", tuple(options.items()),
                 frozenset(wb.trusted))


_NAME = re.compile(r"\s*([^:=]+?)\s*:(.*)\Z", re.S)


def parse_setup(text: str, base: Setup = Setup(), options=None) -> Setup:
    """'NAME: key=value ...' -> the base setup with those keys changed; ValueError saying how to fix the text.

    options: the retrieval option names allowed (default: those of Workbench.using); "any" accepts every
    other key as a retrieval option (to read back a saved setup written by another version).
    """
    m = _NAME.match(text or "")
    if not m:
        raise ValueError(f"A setup starts with its name and a colon, then key=value pairs: e.g. "
                         f"'small: size=80 overlap=16'; got {shorten(text)!r}.")
    name, rest = m.group(1), m.group(2)
    try:
        words = shlex.split(rest)
    except ValueError as e:
        raise ValueError(f"Setup {shorten(name)!r}: {e} (close the quote around a value with spaces).") from None
    known = retrieval_options() if options is None else options
    given: dict[str, str] = {}
    for w in words:
        key, eq, value = w.partition("=")
        key = key.strip().lower()
        if not eq or not key or value == "":
            raise ValueError(f"Setup {shorten(name)!r}: {shorten(w)!r} is not key=value (no spaces around '='), e.g. size=80.")
        if key not in CORE_KEYS and (known != "any" and key not in known):
            valid = ", ".join(CORE_KEYS + tuple(known))
            raise ValueError(f"Setup {shorten(name)!r}: unknown key {key!r}: use {valid}.")
        if key in given:
            raise ValueError(f"Setup {shorten(name)!r}: {key} is given twice ({given[key]!r} and {value!r}): keep one.")
        given[key] = value
    return _apply(base, name, given)


MAX_WHOLE = 10 ** 9      # a size, k or number of candidates above this is a typo (and overflows numpy's integers)


def _whole(name: str, key: str, value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"Setup {shorten(name)!r}: {key} must be a whole number, got {value!r}.") from None
    if number > MAX_WHOLE:
        raise ValueError(f"Setup {shorten(name)!r}: {key} must be at most {MAX_WHOLE:,}, got {value}.")
    return number


def _apply(base: Setup, name: str, given: dict) -> Setup:
    kind = given.get("chunker", base.chunker.kind)
    if kind not in KINDS:
        raise ValueError(f"Setup {shorten(name)!r}: chunker must be one of {', '.join(KINDS)}, got {kind!r}.")
    size, overlap = (base.chunker.size, base.chunker.overlap) if kind == base.chunker.kind else STRATEGY_DEFAULTS[kind]
    size = _whole(name, "size", given["size"]) if "size" in given else size
    overlap = _whole(name, "overlap", given["overlap"]) if "overlap" in given else overlap
    if kind == "structure" and "overlap" not in given:
        overlap = 0
    try:
        chunker = ChunkerConfig(kind, size, overlap)
    except ValueError as e:
        raise ValueError(f"Setup {shorten(name)!r}: {e}") from None
    changes = {"name": name, "chunker": chunker}
    for key in ("candidates", "k"):
        if key in given:
            changes[key] = _whole(name, key, given[key])
    if "statuses" in given:
        s = given["statuses"]
        names = [x.strip() for x in s.split("|") if x.strip()]
        changes["statuses"] = (None if s.lower() == "all" else frozenset() if s.lower() == "none" else frozenset(names))
    if "trusted" in given:
        s = given["trusted"]
        names = [x.strip() for x in s.split("|") if x.strip()]
        changes["trusted"] = frozenset() if s.lower() == "none" else frozenset(names)
    if "rerank" in given:
        r = given["rerank"].lower()
        if r not in _ON + _OFF:
            raise ValueError(f"Setup {shorten(name)!r}: rerank is on or off, got {given['rerank']!r}.")
        changes["rerank"] = r in _ON
    if "generator" in given:
        changes["generator"] = given["generator"].lower()
    options = dict(base.retrieval)
    options.update({k: v for k, v in given.items() if k not in CORE_KEYS})
    changes["retrieval"] = tuple(sorted(options.items()))
    return replace(base, **changes)


_NULL_TEXT = ("nan", "none", "<na>", "null")        # what an editor's text column makes of a missing value


def _empty(v, null_text: bool = True) -> bool:
    """A table cell left empty: None, NaN, pd.NA, '' (a new row of an editor, a cleared cell), and with null_text
    the text an editor writes for a missing value ('nan', 'None', '<NA>')."""
    if v is None:
        return True
    if isinstance(v, str):
        return not v.strip() or (null_text and v.strip().lower() in _NULL_TEXT)
    if isinstance(v, (list, tuple, set, frozenset)):
        return False
    try:
        return bool(v != v)                     # NaN, pd.NA
    except (TypeError, ValueError):
        return False


def from_fields(fields: dict, base: Setup, corpus_statuses=()) -> Setup:
    """A setup from one row of a table (the Compare page's editor): every empty cell takes `base`'s value.

    fields: name, chunker, size, overlap, candidates, k, statuses, rerank, generator and retrieval options; statuses
    as a list of names (every status of the corpus: no filter; none: nothing allowed) or as setup text ('all',
    'none', 'a|b'). A status the corpus lacks is a ValueError naming it and the corpus's statuses.

        from_fields({"name": "small", "size": 80, "overlap": None}, default_setup(wb)).chunker -> fixed 80/32
    """
    given = {key: value for key, value in fields.items() if not _empty(value, null_text=key != "name")}
    name = str(given.get("name", "")).strip() or base.name
    statuses = given.pop("statuses", None)
    text = {}
    for key, value in given.items():
        if key == "name":
            continue
        if key == "rerank":
            text[key] = "on" if (value if isinstance(value, bool) else str(value).lower() in _ON) else "off"
        elif isinstance(value, float) and value.is_integer():
            text[key] = str(int(value))
        else:
            text[key] = str(value).strip()
    if "chunker" in text and "size" not in text:          # a kind without its numbers takes that kind's defaults
        text.pop("overlap", None)
    setup = _apply(base, name, text)
    if statuses is not None:
        if isinstance(statuses, str):
            s = statuses.strip()
            chosen = None if s.lower() == "all" else frozenset() if s.lower() == "none" else \
                frozenset(x.strip() for x in s.split("|") if x.strip())
        else:
            chosen = frozenset(str(x) for x in statuses)
            if corpus_statuses and chosen == frozenset(corpus_statuses):
                chosen = None                              # every status allowed: no filter
        unknown = sorted((chosen or set()) - set(corpus_statuses)) if corpus_statuses else []
        if unknown:
            raise ValueError(f"status {', '.join(unknown)} is not in this dataset (it has "
                             f"{', '.join(corpus_statuses)}).")
        setup = replace(setup, statuses=chosen)
    return setup


def distinct_names(setups) -> None:
    """A ValueError naming the first name two setups share: runs and links are keyed by name."""
    names = [s.name for s in setups]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise ValueError(f"Two setups are named {shorten(dup)!r}: give each setup its own name.")


def setups_from_rows(rows, base: Setup, corpus_statuses=()) -> tuple[list[Setup], list[str]]:
    """The setups of a table's rows (dicts of fields, `from_fields`) and what keeps them from running, one sentence
    each: a row that cannot be a setup ("Row 2 (fast): ..."; the first row is every other row's default, so its
    problem is the only one said), then fewer than two or more than four setups, or two of one name."""
    rows = list(rows)
    try:
        first = from_fields(rows[0], base, corpus_statuses) if rows else base
    except (ValueError, TypeError, KeyError) as e:
        return [], [f"Row 1 ({shorten(str(rows[0].get('name', '')))}): {e}"]
    setups, problems = [], []
    for i, row in enumerate(rows, 1):
        try:
            setups.append(from_fields(row, first, corpus_statuses))
        except (ValueError, TypeError, KeyError) as e:
            problems.append(f"Row {i} ({shorten(str(row.get('name', '')))}): {e}")
    if not problems and not 2 <= len(setups) <= 4:
        problems.append("Keep two to four setups, each with its own name.")
    if not problems:
        try:
            distinct_names(setups)
        except ValueError as e:
            problems.append(str(e))
    return setups, problems
