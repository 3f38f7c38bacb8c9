"""Text primitives shared by every stage: whitespace normalisation, the tokenizer, the word hash, the question
check (`check_question`: what every search and the golden set ask of a question), `plain` (user text made Markdown
that shows it as written: the one escaper of the pages and the exports), `shorten` (a long name cut for a message),
`listing` (items joined as English writes them), and `mask_secrets`, which takes every credential out of a text before anyone shows it (`mask_logs`: out of a
library's log lines).

They are the article's, to the letter, because the rankings depend on them:
    normalize("a\\n  b") -> "a b"
    words("How does getCloseMatches work?") -> ["get", "close", "matches", "work"]

`Tokenizer` adds one thing the article does not have: a table from each distinct whitespace token to
its word ids, so that a corpus is tokenized once and every chunking of it reuses the result, and the
regex runs once per distinct token instead of once per occurrence. It is exact because no word of
`words()` ever spans whitespace. Its cost grows with the number of distinct tokens: a corpus that
rarely repeats a token makes a large table whose look-ups miss the CPU cache (see the cold variant
of benchmarks/bench_scale.py).

Left out on purpose: stemming, synonyms, any language other than the article's English stopwords.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import logging
import re
import unicodedata

import numpy as np

STOP = frozenset("a an and are as at be by for from if in into is it its of on or that the this to when with "
                 "what which who how does do not can than then there their was were will".split())

_CAMEL = re.compile(r"([a-z])([A-Z])")
_WORD = re.compile(r"[a-z0-9]+")
_WORD_OR_BREAK = re.compile(r"[a-z0-9]+|\n")


MAX_QUESTION_CHARS = 20_000


def normalize(s: str) -> str:
    """Collapse every run of whitespace to one space: "a\\n  b " -> "a b"."""
    return " ".join(s.split())


def words(text: str) -> list[str]:
    """The article's tokenizer: split camelCase, lowercase, keep [a-z0-9]+ runs, drop stopwords."""
    return list(cached_words(text))


def check_question(question: str) -> str:
    """The question, stripped, or a ValueError saying how to fix it."""
    if not isinstance(question, str) or not question.strip():
        raise ValueError("The question is empty: type a question.")
    if len(question) > MAX_QUESTION_CHARS:
        raise ValueError(f"The question is {len(question):,} characters long; keep it under "
                         f"{MAX_QUESTION_CHARS:,} characters (a question, not a document).")
    if not words(question):
        raise ValueError("The question has no searchable words (only stopwords like 'what', 'the', 'is', "
                         "or only punctuation and symbols): add a content word, e.g. a function name.")
    return question.strip()



@functools.lru_cache(maxsize=65536)
def cached_words(text: str) -> tuple[str, ...]:
    """words(text) as a tuple, remembered: for the short texts (tokens, sentences) seen again and again."""
    text = _CAMEL.sub(r"\1 \2", text)
    return tuple(w for w in _WORD.findall(text.lower()) if w not in STOP)


@functools.lru_cache(maxsize=65536)
def word_hash(w: str) -> int:
    """64-bit blake2b of the word: bucket = h % dim, sign = +1 if bit 40 is set else -1."""
    return int.from_bytes(hashlib.blake2b(w.encode(), digest_size=8).digest(), "big")


def concat_ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The integer ranges [starts[i], starts[i] + lengths[i]) end to end, as one int64 array.

    starts [10, 20], lengths [2, 3] -> [10, 11, 20, 21, 22]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    first = np.cumsum(lengths) - lengths                         # (n,) where each range begins in the output
    out = np.repeat(np.asarray(starts, dtype=np.int64) - first, lengths)
    out += np.arange(len(out), dtype=np.int64)
    return out


def index_dtype(n: int):
    """int32 for positions or ids below n when they fit, else int64: half the memory for big arrays."""
    return np.int32 if n < 2 ** 31 else np.int64


class _TokenIndex(dict):
    """Whitespace token -> dense token id; an unseen token gets the next id (and is listed in `strings`)."""

    def __init__(self):
        super().__init__()
        self.strings: list[str] = []                            # token id -> token

    def __missing__(self, token: str) -> int:
        i = self[token] = len(self.strings)
        self.strings.append(token)
        return i


class _WordIndex(dict):
    """Word -> word id for the batch tokenizer: a stopword is -1, the token break "\n" is -2, a new word is registered."""

    def __init__(self, register):
        super().__init__(dict.fromkeys(STOP, -1))
        self["\n"] = -2
        self._register = register

    def __missing__(self, w: str) -> int:
        i = self[w] = self._register(w)
        return i


class Tokenizer:
    """Maps words to dense ids and whitespace tokens to the ids of their words, with caches.

    vocab:  word -> id         e.g. {"bisect": 0, "left": 1}
    hashes: id -> blake2b hash  (grown with the vocabulary)

    Texts are read in two steps, so that the per-token Python work is one dict look-up:
    `token_ids` turns whitespace tokens into token ids (a new token is only registered), and
    `token_words` runs the article's tokenizer once per distinct token, in one regex pass, giving the
    word ids of every token as a CSR table that numpy gathers from.
    """

    def __init__(self):
        self.vocab: dict[str, int] = {}
        self.hashes: list[int] = []
        self._tokens = _TokenIndex()                            # whitespace token -> token id
        self._words_of = _WordIndex(self.word_id)               # word -> id, for token_words
        self._ptr = np.zeros(1, dtype=np.int64)                 # token id -> its words: _words[_ptr[t]:_ptr[t+1]]
        self._words = np.zeros(0, dtype=np.int32)

    def word_id(self, w: str) -> int:
        i = self.vocab.get(w)
        if i is None:
            i = self.vocab[w] = len(self.hashes)
            self.hashes.append(word_hash(w))
        return i

    def token_ids(self, tokens: list[str]) -> np.ndarray:
        """(len(tokens),) int32 token ids; unseen tokens are registered, not yet tokenized."""
        return np.fromiter(map(self._tokens.__getitem__, tokens), dtype=np.int32, count=len(tokens))

    @property
    def token_strings(self) -> list[str]:
        """Token id -> whitespace token."""
        return self._tokens.strings

    def token_words(self, batch: int = 1 << 16) -> tuple[np.ndarray, np.ndarray]:
        """(ptr, words): token id t owns the word ids words[ptr[t]:ptr[t+1]] (stopwords dropped).

        Tokens registered since the last call are tokenized `batch` at a time, each batch in one regex pass.
        """
        done = len(self._ptr) - 1
        new_ptr, new_words = [self._ptr], [self._words]
        for a in range(done, len(self._tokens.strings), batch):
            counts, ids = self._tokenize(self._tokens.strings[a:a + batch])
            new_ptr.append(new_ptr[-1][-1] + np.cumsum(counts))
            new_words.append(ids)
        if len(new_ptr) > 1:
            self._ptr, self._words = np.concatenate(new_ptr), np.concatenate(new_words)
        return self._ptr, self._words

    def _tokenize(self, tokens: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(words per token, word ids end to end) of tokens, in one regex pass with "\n" between them."""
        items = _WORD_OR_BREAK.findall(_CAMEL.sub(r"\1 \2", "\n".join(tokens)).lower())   # words and breaks
        ids = np.fromiter(map(self._words_of.__getitem__, items), dtype=np.int64, count=len(items))
        token_of = np.cumsum(ids == -2)                              # (n_items,) which token an item is in
        keep = ids >= 0                                              # words that are not stopwords
        return np.bincount(token_of[keep], minlength=len(tokens)), ids[keep].astype(index_dtype(len(self.hashes)))

    def ids_of_tokens(self, token_ids: np.ndarray, block: int = 1 << 20) -> tuple[np.ndarray, np.ndarray]:
        """Word ids of a sequence of token ids, and offsets: token t owns ids[offsets[t]:offsets[t+1]].

        Both are int32 when they fit (see index_dtype).
        """
        ptr, table = self.token_words()
        n_words = np.diff(ptr).astype(np.int32)[token_ids]                    # (n_tokens,) words per token
        dtype = index_dtype(int(n_words.sum(dtype=np.int64)) + 1)
        offsets = np.zeros(len(token_ids) + 1, dtype=dtype)
        np.cumsum(n_words, dtype=dtype, out=offsets[1:])
        ids = np.empty(int(offsets[-1]), dtype=index_dtype(len(self.hashes)))
        for a in range(0, len(token_ids), block):                             # in blocks: small temporaries
            b = min(a + block, len(token_ids))
            ids[offsets[a]:offsets[b]] = table[concat_ranges(ptr[token_ids[a:b]], n_words[a:b])]
        return ids, offsets

    def hash_array(self) -> np.ndarray:
        """The hashes of every known word as uint64, indexed by word id."""
        return np.array(self.hashes, dtype=np.uint64)


# ---- text shown as text ------------------------------------------------------------------------------
# Streamlit's Markdown (1.67: remark-gfm, remark-math, remark-directive, remark-emoji, KaTeX and its own plugins) acts
# on two kinds of things. What the parser reads (emphasis, links, images, HTML, entities, $math$, :red[...]
# directives, headings, lists, tables, footnotes) is undone by a backslash before its special character. But some
# plugins rewrite the TEXT once parsed, where the escapes are gone: an address or an e-mail becomes a link, :smile:
# an emoji, :material_x: and :streamlit: images, " -> " an arrow; and ":material/" is rewritten in the source. Those
# runs go in code spans, which no plugin rewrites (GitHub, for the Markdown exports, links the same runs).
_ACTIVE = re.compile(
    r"(?P<address>(?i:(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*+://|https?://|www\.)\S*+)"   # an address
    r"|(?<![-.+\w])[-.+\w]++@[-.\w]*+|@[-.\w]++"                          # an e-mail address, or half of one
    r"|(?a::(?=[0-9+-]*+[A-Za-z_])[\w+-]++:|:(?:[+-]1|100|1234):)")      # an emoji or icon code (10:30:45 is none)
_ARROW = re.compile(r"(?<![^\s\ufeff])(?:<->|->|<-|--|>=|<=|~=)(?![^\s\ufeff])")     # Streamlit's arrows, ≥, ≈...
_SPECIAL = re.compile(r"(?P<char>[\\`*\[\]<>&$|~:!]|(?<![^\W_])_|_(?![^\W_])|(?<=:material)/)"   # '_' but in a word
                      r"|(?<=[\r\n])(?P<lead>\s*+)(?P<mark>[-+=#]|[0-9]++[.)])")   # a block's mark at a line's start (after
                                                                       # any space: st.markdown strips the text)


def question_key(question: str) -> str:
    """What makes two golden questions the same: case, spacing and Unicode's compatible forms aside.

        question_key("Café  timeout？") == question_key("cafe\u0301 timeout?")  -> True
    """
    return normalize(unicodedata.normalize("NFKC", question)).casefold()


_INDENT = re.compile(r"^(?: {4,}|[ ]{0,3}\t)[ \t]*", re.M)      # a line indented as code (CommonMark)


def plain(text, *, one_line: bool = False) -> str:
    """Markdown that shows `text` as the characters it holds, in Streamlit and in the Markdown exports: every
    special character escaped, and what a plugin would rewrite after parsing (addresses, e-mails, :codes:, arrows)
    as code. one_line: line breaks as spaces, and '|' escaped in code too, for a table cell or a heading.

        plain("a*b [x](y) &lt;")            -> "a\\*b \\[x\\](y) \\&lt;"
        plain("mail ann@x.org, see x.org")  -> "mail `ann@x.org`, see x.org"
        plain(":red[x] $y$ -> :smile:")     -> "\\:red\\[x\\] \\$y\\$ `->` `:smile:`"
    """
    text = str(text)
    if one_line:
        text = " ".join(text.splitlines())
    text = _INDENT.sub(lambda m: "\u00a0" * len(m.group().expandtabs(4)), text)  # no indented code block: the
    runs = []                                                                    # indent as no-break spaces                                    # [start, end] of each code span, touching runs as one
    for start, end in _code_runs(text):
        if runs and runs[-1][1] == start:
            runs[-1][1] = end
        else:
            runs.append([start, end])
    out, at = [], 0
    for start, end in runs:
        out += [_escape(text[at:start], at == 0 or text[at - 1] in "\r\n"), _code(text[start:end], one_line)]
        at = end
    return "".join(out + [_escape(text[at:], at == 0 or text[at - 1] in "\r\n")])


def _code_runs(text: str):
    """(start, end) of each run that goes in a code span, in order: the active runs, then the arrows left between
    them (each piece of text between two code spans is a text of its own to the plugins: its ends count as spaces)."""
    at = 0
    for m in [*_ACTIVE.finditer(text), None]:
        start = m.start() if m else len(text)
        yield from ((at + a.start(), at + a.end()) for a in _ARROW.finditer(text[at:start]))
        if m:
            at = m.end() - (len(m["address"]) - len(m["address"].rstrip(".,:;!?")) if m["address"] else 0)
            yield start, at                                      # an address without the full stop after it


def _escape(text: str, line_start: bool) -> str:
    def one(m):
        if m["char"]:
            return "\\" + m["char"]
        mark = m["mark"]
        return m["lead"] + (mark[:-1] + "\\" + mark[-1] if mark[-1] in ".)" else "\\" + mark)
    return _SPECIAL.sub(one, ("\n" if line_start else "\0") + text)[1:]     # "\0": not a line's start, not a letter


def _code(run: str, one_line: bool) -> str:
    """run as code spans: a fence longer than any backtick run in it; the '/' of ':material/' escaped between two
    spans (Streamlit rewrites it even in code)."""
    def span(s: str) -> str:
        s = s.replace("|", "\\|") if one_line else s
        fence = "`" * (max(map(len, re.findall(r"`+", s)), default=0) + 1)
        pad = " " if s[:1] == "`" or s[-1:] == "`" else ""
        return f"{fence}{pad}{s}{pad}{fence}" if s else ""
    parts = run.split(":material/")
    return "\\/".join(span(p) for p in [p + ":material" for p in parts[:-1]] + parts[-1:])


def listing(items, last: str = "and") -> str:
    """Items joined as English writes them: ['a'] -> 'a'; ['a', 'b', 'c'] -> 'a, b and c'; with last="or",
    'a, b or c'; [] -> ''."""
    items = [str(x) for x in items]
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else "".join(items)


def shorten(name, limit: int = 80) -> str:
    """A user-given name (a file, a zip member, a document id, a status...) as a message repeats it: past `limit`
    characters, its start, an ellipsis, its end and its length, `limit` characters in all (at least 30). Line breaks
    and control characters are left to the message (repr shows them, the command line's one_line escapes them).

        shorten("notes.txt") -> "notes.txt";  shorten("a" * 65_000 + ".txt") -> "aaaa…aaa.txt (65,004 characters)"
    """
    name = str(name)
    if len(name) <= limit:
        return name
    length = f" ({len(name):,} characters)"
    keep = max(limit - len(length) - 1, 8)                      # characters of the name kept, start and end
    return f"{name[:keep - keep // 3]}…{name[len(name) - keep // 3:]}{length}"


# ---- credentials never shown -------------------------------------------------------------------------
# A URL's secrets are found by its shape, not by the names of its parameters: the password of user:password@ (in
# http(s) also a user with no password, where tokens are put), every query value but those of HARMLESS_PARAMS (a
# query item with no "=" whole), every ;parameter's value and the fragment. A URL in a text runs to the next space
# or the next scheme://, less the quotes and punctuation that close a sentence; a URL given whole (`urls`) may hold
# spaces, and its secrets are masked wherever they appear, as written, decoded or encoded. Left out on purpose: a
# secret written into a URL's path (/key/s3cret looks like any path) or its host name.

HARMLESS_PARAMS = frozenset({"sslmode", "host", "port", "dbname", "user", "connect_timeout"})  # values shown
_SCHEME = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://")
_CLOSING = "'\")]}>.,:!"           # after a URL in a sentence, never part of it
_PLACEHOLDER = "user:password"      # as written in a hint: "postgresql://user:password@host/database"
_AUTHORITY_END = re.compile(r"[:/?#@]")
_PATH_START = re.compile(r"[/?#]")
_SECRET_PARAM = re.compile(r"(?P<head>\b[\w-]*(?:password|passwd|pwd|api[_-]?key|apikey|token|secret)\s*=\s*)"
                           r"(?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^\s&;,]+)", re.I)
_AUTHORIZATION = re.compile(r"(?P<head>\b(?:authorization\s*[:=]\s*(?:(?:bearer|basic|token)\s+)?|bearer\s+|basic\s+(?=[A-Za-z0-9+/]{8,}=*\b)))"
                            r"(?P<value>[^\s'\",;\[*][^\s'\",;]*)", re.I)   # not "[key hidden]" nor "***"
_ENCODED_TOKEN = re.compile(r"(?P<head>percent-encod\w*[^:\n]{0,40}:\s*)(?P<value>\"[^\"]*\"|'[^']*'|\S+?(?=[.,;]?(?:\s|$)))", re.I)


def url_secrets(url: str) -> list[tuple[int, int]]:
    """(start, end) of each secret of the one URL that starts `url` and runs to its end, in order:

        url_secrets("postgresql://ann:pw@h/v1;k=x?key=abc&sslmode=require#top") -> [(17, 19), (27, 28), (33, 36), (53, 56)]

    A database URL's harmless settings (HARMLESS_PARAMS: sslmode, host, port...) stay; in any other URL every query
    value is a secret (a model server's `?user=` may well be one).
    """
    m = _SCHEME.search(url)
    if not m:
        return []
    spans, start, end = [], m.end(), len(url)
    cut = _first(_AUTHORITY_END, url, start)
    if cut < end and url[cut] == ":":                # user:password@host, the password up to the last @ before a host
        at = url.rfind("@", cut, end)
        while at != -1 and not (at + 1 == end or not (url[at + 1].isspace() or url[at + 1] in "@'\"<>")):  # a host
            at = url.rfind("@", cut, at)
        if at != -1:
            if url[start:at] != _PLACEHOLDER:
                spans.append((cut + 1, at))
            start = at + 1
    elif cut < end and url[cut] == "@" and cut > start:
        if m.group().lower() in ("http://", "https://"):      # https://TOKEN@host
            spans.append((start, cut))
        start = cut + 1
    path = _first(_PATH_START, url, start)
    fragment = url.find("#", path, end)
    query = url.find("?", path, end if fragment == -1 else fragment)
    path_end = min(x for x in (query, fragment, end) if x != -1)
    for p in re.finditer(r";[^;/=]*=([^;/]*)", url[path:path_end]):                     # /v1;key=value
        if p.group(1):
            spans.append((path + p.start(1), path + p.end(1)))
    if query != -1:
        q_end = fragment if fragment != -1 else end
        for item in re.finditer(r"[^&;]+", url[query + 1:q_end]):
            name, eq, value = item.group().partition("=")
            a = query + 1 + item.start() + (len(name) + 1 if eq else 0)
            b = query + 1 + item.end()
            if a < b and not (eq and name.lower() in HARMLESS_PARAMS and m.group().lower().startswith("postgres")):
                spans.append((a, b))
    if fragment != -1 and fragment + 1 < end:
        spans.append((fragment + 1, end))
    return spans


def _first(pattern: re.Pattern, text: str, start: int) -> int:
    """Where pattern first matches text from start on, else len(text)."""
    m = pattern.search(text, start)
    return m.start() if m else len(text)


def _masked(url: str) -> str:
    out, last = [], 0
    for a, b in url_secrets(url):
        out += [url[last:a], "***"]
        last = b
    return "".join(out) + url[last:]


def _mask_run(run: str) -> str:
    """One run of non-space characters, each URL in it masked (a URL ends where the next scheme:// starts)."""
    if "://" not in run:
        return run
    body = run.rstrip(_CLOSING)
    starts = [m.start() for m in _SCHEME.finditer(body)]
    if not starts:
        return run
    pieces = [body[:starts[0]]] + [_masked(body[a:b]) for a, b in zip(starts, starts[1:] + [len(body)])]
    return "".join(pieces) + run[len(body):]


def _known_secrets(url: str) -> set[str]:
    """The secrets of a URL (or key=value settings) given whole, spaces and all, each as written; a URL without a
    scheme ("ann:pw@host:6379?key=k", a Ray address) is read as if it had one."""
    whole = url.strip()
    if not _SCHEME.match(whole) and not re.match(r"\w+\s*=", whole):       # nor key=value settings
        whole = "x://" + whole
    found = {whole[a:b] for a, b in url_secrets(whole)}
    return found | {m.group("value").strip("'\"") for m in _SECRET_PARAM.finditer(url)}


def mask_secrets(text: str, *urls: str) -> str:
    """text with every credential it may carry replaced by ***: the secrets of any URL in it (url_secrets),
    password=, api_key=, token-like parameters, an Authorization header or Bearer token, the token a driver quotes
    when a percent-encoding is malformed, and wherever else the secrets of `urls` appear (as written, decoded or
    encoded), e.g. in a driver's message:

        mask_secrets("no server at http://ann:s3cret@db:5432/x")        -> "no server at http://ann:***@db:5432/x"
        mask_secrets("at 'postgresql://h:9/x?key=abc&sslmode=require'.") -> "at 'postgresql://h:9/x?key=***&sslmode=require'."
        mask_secrets("bad URL host=db password=s3cret")                 -> "bad URL host=db password=***"
        mask_secrets('invalid token: "p%ZZs"', "postgresql://u:p%ZZs@h") -> 'invalid token: "***"'
    """
    from urllib.parse import quote, quote_plus, unquote, unquote_plus
    text = str(text)
    secrets = {s for u in urls if u for s in _known_secrets(str(u))}
    forms = {f for s in secrets for f in (s, unquote(s), unquote_plus(s), quote(unquote(s), safe=""),
                                          quote(unquote(s)), quote_plus(unquote_plus(s)))}
    forms |= {base64.b64encode(c.encode()).decode() for u in urls if u for c in _basic_credentials(str(u))}
    for form in sorted(forms, key=len, reverse=True):
        if len(form) >= 3:               # a one- or two-letter secret would blot out ordinary words
            text = text.replace(form, "***")
    if "://" in text:
        text = re.sub(r"\S+", lambda m: _mask_run(m.group()), text)
    text = _SECRET_PARAM.sub(lambda m: m.group("head") + "***", text)
    text = _AUTHORIZATION.sub(lambda m: m.group("head") + "***", text)
    return _ENCODED_TOKEN.sub(lambda m: m.group("head") + "***", text)


def _basic_credentials(url: str) -> list[str]:
    """'user:password' of a URL, as HTTP Basic authentication sends it (base64 of it in a header a server may echo)."""
    from urllib.parse import unquote, urlsplit
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return []
    return [f"{unquote(parts.username)}:{unquote(parts.password)}"] if parts.username and parts.password else []


class MaskSecrets(logging.Filter):
    """A logging filter that passes every record with mask_secrets run over its message (httpx logs each request's
    URL whole, query and password included)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = mask_secrets(record.getMessage()), None
        return True


def mask_logs(*names: str) -> None:
    """Put a MaskSecrets filter on the loggers named (once): mask_logs("httpx")."""
    for logger in map(logging.getLogger, names):
        if not any(isinstance(f, MaskSecrets) for f in logger.filters):
            logger.addFilter(MaskSecrets())
