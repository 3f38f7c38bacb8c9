"""Credentials never shown: `mask_secrets` takes every credential out of a text before anyone shows it (`url_secrets`:
where a URL's secrets are; `mask_logs`: out of a library's log lines).

Left out on purpose: a secret written into a URL's path (/key/s3cret looks like any path) or its host name.
"""
from __future__ import annotations

import base64
import logging
import re

# A URL's secrets are found by its shape, not by the names of its parameters: the password of user:password@ (in
# http(s) also a user with no password, where tokens are put), every query value but those of HARMLESS_PARAMS (a
# query item with no "=" whole), every ;parameter's value and the fragment. A URL in a text runs to the next space
# or the next scheme://, less the quotes and punctuation that close a sentence; a URL given whole (`urls`) may hold
# spaces, and its secrets are masked wherever they appear, as written, decoded or encoded.

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
