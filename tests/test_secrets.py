"""Secrets never shown: an attack pass of URL forms through text.mask_secrets, the command line (stdout, stderr,
--format json, saved runs), the Model page and sidebar, and the logs; and the stray lines libraries wrote on stderr
(pypdf's warnings, libpq's password-file warning) replaced by our own one line.

Every secret in ATTACKS holds the marker Zq9 (and the extra fragments listed), so a leak of any part is found."""
import json
import logging
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fake_llm_server import start_server, stop_server
from rag_core.__main__ import main
from rag_core.generation.llm import LLMConfig, generate
from rag_core.retrieval.engines.pgwire import passfile_settings, readable, refused_passfile
from rag_core.text.credentials import mask_secrets, url_secrets

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
MARK = "Zq9"
LONG = MARK + "x" * 5000

# (form, URL, further fragments that must not appear); every secret holds MARK
ATTACKS = [
    ("user:pass@", "http://ann:Zq9pw@127.0.0.1:9/v1", []),
    ("the word password as the password", "http://ann:password@127.0.0.1:9/v1?Zq9", ["ann:password"]),
    ("percent-encoded password", "http://ann:Zq9%40p%2Fw@127.0.0.1:9", ["p%2Fw", "p/w"]),
    ("raw @ in the password", "http://ann:Zq9@pw@127.0.0.1:9", ["@pw@"]),
    ("# in the password", "http://ann:Zq9#pw@127.0.0.1:9", ["#pw"]),
    ("/ and ? in the password", "http://ann:a/b?Zq9@127.0.0.1:9", ["a/b?"]),
    ("quote in the password", "http://ann:pa'Zq9@127.0.0.1:9", []),
    ("token as the user", "https://Zq9tokenabc@127.0.0.1:9/v1", []),
    ("?key=", "http://127.0.0.1:9/v1?key=Zq9k", []),
    ("&token=", "http://127.0.0.1:9/v1?a=1&token=Zq9t", []),
    ("#fragment", "http://127.0.0.1:9/v1#Zq9frag", []),
    (";param", "http://127.0.0.1:9/v1;key=Zq9semi", []),
    ("; between query items", "http://127.0.0.1:9/v1?a=1;sig=Zq9sig", []),
    ("query item without =", "http://127.0.0.1:9/v1?Zq9bare", []),
    ("IPv6 host, ?key=", "http://[::1]:9/v1?key=Zq9v6", []),
    ("IPv6 host, user:pass@", "http://ann:Zq9v6pw@[::1]:9/v1", []),
    ("unicode value", "http://127.0.0.1:9/v1?key=Zq9ünïcødé", ["ünïcødé"]),
    ("unicode host and password", "http://ann:Zq9ü@bücher.invalid:9/v1", []),
    ("very long value", "http://127.0.0.1:9/v1?key=" + LONG, ["x" * 100]),
    ("very long password", f"http://ann:{LONG}@127.0.0.1:9", ["x" * 100]),
    ("repeated keys", "http://127.0.0.1:9/v1?key=Zq9r1&key=Zq9r2", []),
    ("key in upper case", "http://127.0.0.1:9/v1?API_KEY=Zq9UP", []),
    ("Authorization-like name", "http://127.0.0.1:9/v1?Authorization=Bearer%20Zq9auth", []),
    ("x-api-key", "http://127.0.0.1:9/v1?x-api-key=Zq9xak", []),
    ("percent-encoded value", "http://127.0.0.1:9/v1?key=Zq9%2Fenc%3D", ["%2Fenc", "/enc="]),
    ("plus-encoded value", "http://127.0.0.1:9/v1?key=Zq9+plus+val", ["plus+val", "plus val"]),
    ("OAuth token in the fragment", "http://127.0.0.1:9/v1#access_token=Zq9oauth", []),
    ("nested URL in a value", "http://127.0.0.1:9/v1?next=http://ann:Zq9nest@h/", []),
    ("scheme in upper case", "HTTP://ann:Zq9UC@127.0.0.1:9", []),
    ("port out of range", "http://ann:Zq9mp@127.0.0.1:99999/v1?key=Zq9mp2", []),
    ("unclosed IPv6 bracket", "http://[::1?key=Zq9br", []),
    ("space in the password", "http://ann:pa ssZq9@127.0.0.1:9", ["pa ss"]),
    ("tab in a value", "http://127.0.0.1:9/v1?key=Zq9\tTabbed", []),
    ("database: password and sslmode", "postgresql://ann@127.0.0.1:1/db?sslmode=disable&password=Zq9pg", []),
    ("database: socket folder, no host", "postgresql://reader:Zq9pg2@/db?host=/tmp/x", []),
    ("database: malformed percent-encoding", "postgresql://u:Zq9%ZZ@127.0.0.1:1/db", ["%ZZ"]),
    ("database: key=value settings", "host=127.0.0.1 port=1 password=Zq9dsn dbname=x", []),
    ("database: quoted password with a space", "host=127.0.0.1 port=1 password='Zq9 dsn' dbname=x", []),
    ("Ray address with a password", "ray://ann:Zq9ray@127.0.0.1:1", []),
]
HTTP = [a for a in ATTACKS if a[1].lower().startswith("http")]
DATABASE = [a for a in ATTACKS if a[0].startswith("database")]
# where a URL is written in a message: as is, quoted (repr), in brackets, ending a sentence
WRAPPERS = ["{}", "The server URL {!r} is not a valid address.", "(see {})", "Could not reach {}: is it running?",
            "<{}>.", "connection to {} failed"]


def leaks(text: str, fragments=()) -> list[str]:
    """The parts of a secret found in text (markdown escapes undone)."""
    plain_text = text.replace("\\", "")
    return [f for f in (MARK, *fragments) if f in text or f in plain_text]


def ids(cases):
    return [c[0] for c in cases]


# ---- the mask itself ----------------------------------------------------------------------------

@pytest.mark.parametrize("form, url, fragments", ATTACKS, ids=ids(ATTACKS))
def test_no_secret_of_a_url_is_shown_where_the_url_is_known(form, url, fragments):
    for wrapper in WRAPPERS:
        said = mask_secrets(wrapper.format(url), url)
        assert not leaks(said, fragments), said[:300]
    for decoded in (url.replace("%40", "@").replace("%2F", "/"), url.replace("+", " ")):   # a driver's decoding
        assert not leaks(mask_secrets(f"it says {decoded} is bad", url), fragments)


FREE_TEXT = [a for a in ATTACKS if a[0] not in ("space in the password", "tab in a value",
                                                "database: quoted password with a space")]


@pytest.mark.parametrize("form, url, fragments", FREE_TEXT, ids=ids(FREE_TEXT))
def test_no_secret_of_a_url_is_shown_in_any_text(form, url, fragments):
    """Without being told the URL (a library's message, a log line): every form but a secret holding a space."""
    for wrapper in WRAPPERS:
        said = mask_secrets(wrapper.format(url))
        assert not leaks(said, fragments), said[:300]


@pytest.mark.parametrize("text, shown", [
    ("at 'postgresql://h:9/x?key=abc&sslmode=require'.", "at 'postgresql://h:9/x?key=***&sslmode=require'."),
    ("http://127.0.0.1:9/v1?key=hunter2&token=tok", "http://127.0.0.1:9/v1?key=***&token=***"),
    ("https://tok@github.com/x", "https://***@github.com/x"),
    ("postgresql://ann@db/ob", "postgresql://ann@db/ob"),
    ("http://[::1]:8080/v1#top", "http://[::1]:8080/v1#***"),
    ("Authorization: Bearer sk-abc and bearer xyz", "Authorization: Bearer *** and bearer ***"),
    ("(http://h/v1;k=v)", "(http://h/v1;k=***)"),
])
def test_what_stays_readable(text, shown):
    """The host, port, path, parameter names and harmless settings stay; only the secrets go."""
    assert mask_secrets(text) == shown


def test_url_secrets_docstring_example():
    url = "postgresql://ann:pw@h/v1;k=x?key=abc&sslmode=require#top"
    assert [url[a:b] for a, b in url_secrets(url)] == ["pw", "x", "abc", "top"]


def test_an_address_and_a_mail_address_are_left_readable():
    text = "no server at http://127.0.0.1:11434/api, write to ops@example.org"
    assert mask_secrets(text) == text
    hint = "postgresql://user:password@host:5432/database"       # the placeholder a message writes as an example
    assert mask_secrets(hint) == hint


# ---- the command line ---------------------------------------------------------------------------

@pytest.mark.parametrize("form, url, fragments", HTTP, ids=ids(HTTP))
def test_the_command_line_never_shows_a_model_url_secret(form, url, fragments, capsys):
    for fmt in ("markdown", "json"):
        code = main(["report", "--tables", "ceiling", "--format", fmt, "--generator", "openai", "--llm-url", url,
                     "--model", "m", "--timeout", "3"])
        out, err = capsys.readouterr()
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err[:300]
        assert not leaks(out + err, fragments), (out + err)[:300]


@pytest.mark.parametrize("form, url, fragments", DATABASE, ids=ids(DATABASE))
def test_the_command_line_never_shows_a_database_url_secret(form, url, fragments, capsys):
    code = main(["report", "--tables", "ceiling", "--engine", "postgres", "--database-url", url])
    out, err = capsys.readouterr()
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err[:300]
    assert not leaks(out + err, fragments), err[:300]


@pytest.mark.parametrize("form, url, fragments", ATTACKS, ids=ids(ATTACKS))
def test_a_usage_error_never_quotes_a_secret(form, url, fragments, capsys):
    """argparse quotes the value it refuses (an unknown option, a choice, a number) in its one error line."""
    for args in (["--bogus", url], ["--engine", url], ["--timeout", url], [f"--llm-url={url}", "--nope"]):
        assert main(["report", *args]) == 2
        out, err = capsys.readouterr()
        assert err.startswith("error: ") and err.count("\n") == 1 and not leaks(out + err, fragments), err[:300]


RAY = [("user:pass@", f"ann:{MARK}@127.0.0.1:1"), ("query", f"127.0.0.1:1?key={MARK}#{MARK}f"),
       ("ray:// with user and query", f"ray://ann:{MARK}@127.0.0.1:1/?key={MARK}"),
       ("parameter and fragment", f"127.0.0.1:1/x;k={MARK}#{MARK}"), ("query, no port", f"h?token={MARK}")]


@pytest.mark.parametrize("form, address", RAY, ids=[r[0] for r in RAY])
def test_a_ray_address_s_secrets_are_never_shown(form, address, capsys):
    assert main(["report", "--tables", "ceiling", "--compute", "ray", "--ray-address", address]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("error: ") and err.count("\n") == 1 and not leaks(out + err), err[:300]
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["compute"] = "ray"
    at.session_state["ray_address"] = address
    at.run()
    assert not at.exception and at.sidebar.error and not leaks(texts(at)), texts(at)[:500]


def test_a_model_url_with_a_query_is_used_and_never_shown(tmp_path, monkeypatch, caplog):
    """A server that answers: its query is sent (after the endpoint's path), and neither the printed tables, the
    JSON, the saved runs nor httpx's log line show it."""
    srv, base = start_server()
    try:
        url = base.replace("http://", "http://ann:Zq9pw@") + "/v1?key=Zq9key&token=Zq9tok#Zq9frag"
        monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
        caplog.set_level(logging.INFO, logger="httpx")
        args = ["--generator", "openai", "--llm-url", url, "--model", "echo-cite", "--timeout", "10"]
        done = subprocess.run([sys.executable, "-m", "rag_core", "compare", "--save", "--format", "json",
                               "--setup", "a: generator=model", "--setup", "b:", *args],
                              capture_output=True, text=True, timeout=300, cwd=ROOT,
                              env={**os.environ, "OPENBOOK_DATA_DIR": str(tmp_path)})
        assert done.returncode == 0, done.stderr[-500:]
        assert "saved runs" in done.stderr and not leaks(done.stdout + done.stderr)
        saved = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
        assert saved and MARK.encode() not in saved
        assert generate("q", LLMConfig("openai", url, "abstain", timeout_s=10)).text == "NOT IN THE CONTEXT"
        with urllib.request.urlopen(base + "/_last_request", timeout=10) as answer:      # the query went last
            assert json.load(answer)["path"] == f"/v1/chat/completions?key={MARK}key&token={MARK}tok"
        assert "HTTP Request: POST" in caplog.text and "/v1/chat/completions?key=***" in caplog.text
        assert not leaks(caplog.text)
    finally:
        stop_server(srv)


# ---- the pages ----------------------------------------------------------------------------------

def texts(at: AppTest) -> str:
    """Every text of the page and the sidebar: values, labels, captions, placeholders, help."""
    out = []
    for node in [*at.main, *at.sidebar]:
        for name in ("value", "label", "body", "placeholder", "help", "caption"):
            value = getattr(node, name, None)
            if value is not None and not callable(value):
                out.append(str(value))
        out.append(str(getattr(node, "proto", "")))
    return "\n".join(out)


PAGE_CASES = [a for a in HTTP if a[0] in ("user:pass@", "?key=", "&token=", "#fragment", ";param", "token as the user",
                                          "percent-encoded password", "repeated keys", "IPv6 host, ?key=",
                                          "Authorization-like name")]


@pytest.mark.parametrize("form, url, fragments", PAGE_CASES, ids=ids(PAGE_CASES))
def test_the_model_page_and_sidebar_never_show_a_secret(form, url, fragments):
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["llm_config"] = LLMConfig("openai", url, "m", timeout_s=3)
    at.run()
    at.switch_page("pages/model.py").run()
    assert not at.exception and at.success and not leaks(texts(at), fragments)
    at.button(key="model_run").click().run()                      # nothing answers: the error quotes the URL
    assert not at.exception and at.error and not leaks(texts(at), fragments), texts(at)[:500]


def test_the_server_url_field_shows_the_url_masked_after_use_this_model():
    """As the database URL field empties on Enter: once pressed, the field never holds the secrets again, on any
    page; sent back unchanged it still stands for the URL typed."""
    url = "http://ann:Zq9pw@127.0.0.1:9/v1?key=Zq9k&token=Zq9t"
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page("pages/model.py").run()
    at.selectbox(key="llm_form_protocol").set_value("openai")
    at.text_input(key="llm_form_url").set_value(url)
    at.text_input(key="llm_form_model").set_value("m")
    at.button(key="llm_form_use").click().run()
    assert not at.exception and at.session_state["llm_config"].base_url == url
    assert at.text_input(key="llm_form_url").value == "http://ann:***@127.0.0.1:9/v1?key=***&token=***"
    at.switch_page("pages/model.py").run()
    assert not leaks(texts(at)) and at.text_input(key="llm_form_url").value.startswith("http://ann:***@")
    at.text_input(key="llm_form_model").set_value("m2")
    at.button(key="llm_form_use").click().run()                   # the masked URL sent back: the one typed stands
    assert at.session_state["llm_config"].base_url == url and at.session_state["llm_config"].model == "m2"
    at.button(key="llm_form_check").click().run()                 # nothing answers there: the error is masked
    assert at.error and not leaks(texts(at))


def test_the_environment_s_api_key_and_url_secrets_never_show(monkeypatch):
    """OPENBOOK_LLM_API_KEY sent to a server that echoes it in its error, OPENBOOK_LLM_URL with a query: the Model
    page's line and its error show neither; an unusable OPENBOOK_LLM_URL is said on every page, masked."""
    srv, base = start_server()
    try:
        monkeypatch.setenv("OPENBOOK_LLM_URL", f"{base}/_mode/error-echo-key?key={MARK}q")
        monkeypatch.setenv("OPENBOOK_LLM_MODEL", "m")
        monkeypatch.setenv("OPENBOOK_LLM_API_KEY", f"{MARK}apikey")
        at = AppTest.from_file(APP, default_timeout=90)
        at.run()
        at.switch_page("pages/model.py").run()
        at.button(key="model_run").click().run()
        assert not at.exception and at.error and "HTTP 500" in texts(at) and not leaks(texts(at)), texts(at)[:500]
    finally:
        stop_server(srv)
    monkeypatch.setenv("OPENBOOK_LLM_URL", f"http://ann:{MARK}@[::1?key={MARK}b")
    at = AppTest.from_file(APP, default_timeout=90).run()
    assert not at.exception and "OPENBOOK_LLM_URL" in texts(at).replace("\\", "") and not leaks(texts(at))


# ---- stray lines on stderr ----------------------------------------------------------------------

def test_a_broken_pdf_gives_our_lines_only(tmp_path):
    """pypdf's own 'invalid pdf header' / 'EOF marker not found' warnings reached stderr beside our note."""
    for name, data in [("text.pdf", b"not a pdf at all"), ("cut.pdf", b"%PDF-1.4\n1 0 obj<<>>endobj\n")]:
        (tmp_path / name).write_bytes(data)
        done = subprocess.run([sys.executable, "-m", "rag_core", "report", "--docs", str(tmp_path / name),
                               "--tables", "ceiling"], capture_output=True, text=True, timeout=300, cwd=ROOT,
                              env={**os.environ, "OPENBOOK_DATA_DIR": "off"})
        lines = done.stderr.splitlines()
        assert done.returncode == 2 and any(name in line and "could not be read as a PDF" in line for line in lines)
        assert all(line.startswith(("note: ", "error: ")) for line in lines), done.stderr


def test_a_password_file_libpq_would_refuse_is_not_read(tmp_path, monkeypatch):
    pw = tmp_path / "pw"
    pw.write_text("*:*:*:reader:s3cret\n")
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(pw))
    url = "postgresql://reader@127.0.0.1:1/db"
    pw.chmod(0o600)
    assert refused_passfile(url) is None and passfile_settings(url) == {}
    pw.chmod(0o644)
    assert refused_passfile(url) == (str(pw), f"others may read it (mode 644): chmod 600 {pw}")
    assert passfile_settings(url) and refused_passfile("postgresql://reader:pw@127.0.0.1:1/db") is None
    monkeypatch.setenv("PGPASSFILE", str(tmp_path))
    assert refused_passfile(url) == (str(tmp_path), "it is not a plain file")
    said = str(readable(RuntimeError("fe_sendauth: no password supplied"), url))
    assert f"The password file {tmp_path} was not read: it is not a plain file." in said


def test_libpq_s_password_file_warning_is_one_line_of_ours(tmp_path, pg):
    """PGPASSFILE with mode 644 and a role that needs a password: libpq wrote 'WARNING: password file ...' itself."""
    pg.add_user("passfile_reader", "s3cret")
    pw = tmp_path / "pw"
    pw.write_text("*:*:*:passfile_reader:s3cret\n")
    pw.chmod(0o644)
    url = pg.url("passfile_reader")
    env = {k: v for k, v in os.environ.items() if k != "PGPASSWORD"}
    done = subprocess.run([sys.executable, "-m", "rag_core", "report", "--tables", "ceiling", "--engine", "postgres",
                           "--database-url", url], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**env, "PGPASSFILE": str(pw), "OPENBOOK_DATA_DIR": "off"})
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr
    assert "asks for a password" in done.stderr and f"The password file {pw} was not read" in done.stderr


# ---------------------------------------------------------------- found by the second attack pass

@pytest.mark.parametrize("url", ["http://ann:hunter2X@-h/v1", "postgresql://ann:hunter2X@-h/x",
                                 "postgresql://ann:hunter2X@.h/x", "http://ann:hunter2X@~h/v1"])
def test_a_password_before_a_host_that_starts_oddly_is_masked(url):
    assert "hunter2X" not in mask_secrets(f"error: Could not reach the model server at {url}")


@pytest.mark.parametrize("name", ["user", "sslmode", "host", "port"])
def test_a_harmless_name_is_harmless_only_in_a_database_url(name):
    assert "hunter2X" not in mask_secrets(f"check that http://127.0.0.1:1/v1?{name}=hunter2X is right")
    assert f"{name}=bob" in mask_secrets(f"at postgresql://h/x?{name}=bob")


def test_a_url_inside_a_query_value_is_masked_when_the_url_is_known():
    url = "http://127.0.0.1:1/v1?key=http://hunter2X"
    assert "hunter2X" not in mask_secrets(f"Model: m at {url}", url)


def test_basic_credentials_echoed_by_a_server_are_masked():
    import base64
    echoed = base64.b64encode(b"ann:hunter2X").decode()
    assert echoed not in mask_secrets(f'It said: "bad Basic {echoed}"')
    assert echoed not in mask_secrets(f'It said: "{echoed}"', "http://ann:hunter2X@127.0.0.1:1/v1")


def test_a_links_bad_value_is_said_masked():
    from apptest_helpers import open_page
    at = open_page("ask", query={"ask_k": "https://a:hunter2X@evil.example/?key=hunter2X"})
    said = " ".join(w.value for w in at.warning)
    assert "is not valid" in said and "hunter2X" not in said
