"""The command line against hostile input and broken surroundings: devices, FIFOs, endless streams and deep JSON
as input files, closed standard streams, empty or huge option values, setup names with control characters, a
store that cannot keep a comparison, and credentials in URLs. Each case ran out of memory, hung, printed a
traceback, lost work or showed a password before; now each is one line on stderr and a known exit code."""
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rag_core.__main__ import main
from rag_core.cli.output import visible
from rag_core.evaluation.setup import Setup, parse_setup
from rag_core.generation.llm import LLMConfig, LLMError, generate
from rag_core.retrieval.engines.pgwire import readable
from rag_core.text.credentials import mask_secrets

ROOT = Path(__file__).resolve().parents[1]
TWO = ["--setup", "filter:", "--setup", "no filter: statuses=all"]


def run(*args, prefix=(), **kw) -> subprocess.CompletedProcess:
    """python -m rag_core ARGS in a subprocess with a timeout (a hang fails the test instead of the suite)."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([*prefix, sys.executable, "-m", "rag_core", *args], text=True, timeout=60, cwd=str(ROOT),
                          **kw)


@pytest.fixture
def spans(tmp_path) -> str:
    p = tmp_path / "spans.json"
    p.write_text(json.dumps(["Optional arg cutoff (default 0.6) is a float in [0, 1]."]))
    return str(p)


def one_error_line(out: subprocess.CompletedProcess, *words) -> None:
    assert out.returncode == 2 and out.stdout == "", out
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    for w in words:
        assert w in out.stderr, out.stderr


# ---- files the CLI reads itself: bounded, and only regular files or - ----------------------------------

MEMORY = ("prlimit", "--as=2000000000")     # these used to read until the machine's memory was gone


@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero", "/dev/urandom"])
def test_a_device_as_spans_or_answer_file_is_refused(spans, device):
    one_error_line(run("verify", "--spans", device, "--answer", "x", prefix=MEMORY),
                   f"cannot read the spans file '{device}': it is a device, not a regular file")
    one_error_line(run("verify", "--spans", spans, "--answer-file", device, prefix=MEMORY),
                   f"cannot read the answer file '{device}': it is a device")


@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero", "/dev/urandom"])
def test_stdin_from_an_endless_device_stops_at_the_limit(spans, device):
    with open(device, "rb") as endless:
        out = run("verify", "--spans", spans, "--answer-file", "-", stdin=endless, prefix=MEMORY,
                  env={**os.environ, "OPENBOOK_MAX_FILE_MB": "1"})
    one_error_line(out, "cannot read the answer file from standard input: it is over the 1 MB limit for one file")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, spans):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    one_error_line(run("verify", "--spans", str(fifo), "--answer", "x"), "it is a FIFO (named pipe)")
    one_error_line(run("verify", "--spans", spans, "--answer-file", str(fifo)), "it is a FIFO (named pipe)")


def test_a_file_over_the_limit_is_refused(tmp_path, spans, monkeypatch, capsys):
    monkeypatch.setenv("OPENBOOK_MAX_FILE_MB", "0.00001")          # 10 bytes
    (tmp_path / "a.txt").write_text("The cutoff is 0.6 [S1].")
    assert main(["verify", "--spans", spans, "--answer-file", str(tmp_path / "a.txt")]) == 2
    assert capsys.readouterr().err == (f"error: cannot read the spans file {spans!r}: it is over the 10 bytes limit "
                                       "for one file (OPENBOOK_MAX_FILE_MB sets it).\n")


def test_deeply_nested_spans_are_one_line(tmp_path, capsys):
    (tmp_path / "deep.json").write_text("[" * 100_000)
    assert main(["verify", "--spans", str(tmp_path / "deep.json"), "--answer", "x"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: the spans file") and "nested too deeply" in err and err.count("\n") == 1


def test_spans_and_answer_may_not_both_come_from_stdin(capsys):
    assert main(["verify", "--spans", "-", "--answer-file", "-"]) == 2
    assert "standard input can hold the spans or the answer, not both" in capsys.readouterr().err


# ---- closed standard streams ------------------------------------------------------------------------

def test_closed_stdout_is_one_line_and_2():
    out = run("report", "--tables", "verifier_cases", stdout=None, preexec_fn=lambda: os.close(1))
    assert (out.returncode, out.stderr) == (2, "error: cannot write the report: standard output is closed.\n")


@pytest.mark.parametrize("command", [["report"], ["compare", "--setup", "a:", "--setup", "b: k=5"]])
def test_closed_stdout_is_said_before_any_work(tmp_path, command):
    """Nothing is read or computed for a result with nowhere to go: the documents' problem is never reached."""
    out = run(*command, "--docs", str(tmp_path / "missing"), stdout=None, preexec_fn=lambda: os.close(1))
    assert (out.returncode, out.stderr) == (2, "error: cannot write the report: standard output is closed.\n")


def test_closed_stdin_is_one_line_and_2(spans):
    out = run("verify", "--spans", spans, "--answer-file", "-", preexec_fn=lambda: os.close(0))
    one_error_line(out, "cannot read the answer file from standard input: it is closed")


def test_closed_stderr_does_not_fail_a_valid_command():
    out = run("report", "--tables", "ceiling", stderr=None, preexec_fn=lambda: os.close(2))
    assert out.returncode == 0 and out.stdout.startswith("# Open Book report")


def test_closed_stderr_keeps_the_exit_code_of_an_error():
    out = run("report", "--tables", "nope", stderr=None, preexec_fn=lambda: os.close(2))
    assert (out.returncode, out.stdout) == (2, "")


# ---- option values -------------------------------------------------------------------------------

@pytest.mark.parametrize("command, args, words", [
    ("report", ["--docs", ""], "--docs is empty: give a folder, a file or a zip"),
    ("report", ["--docs", "  "], "--docs is empty"),
    ("compare", [*TWO, "--docs", "", "--golden", "g.csv"], "--docs is empty"),
    ("report", ["--generator", "ollama", "--llm-url", "", "--model", "m"], "--llm-url is empty"),
    ("compare", ["--setup", "a: size=99999999999999999999999", "--setup", "b:"],
     "Setup 'a': size must be at most 1,000,000,000, got 99999999999999999999999."),
    ("compare", ["--setup", "a: candidates=99999999999999999999999", "--setup", "b:"], "candidates must be at most"),
    ("compare", [*TWO, "--timeout", "1e9"], "--timeout must be a number of seconds above 0 and at most 3600"),
    ("compare", [*TWO, "--timeout", "nan"], "--timeout must be"),
    ("report", ["--nope"], "unrecognized arguments: --nope"),
    ("report", ["--format", "yaml"], "argument --format: invalid choice: 'yaml'"),
    ("report", ["--timeout", "soon"], "argument --timeout: invalid float value: 'soon'"),
])
def test_bad_values_are_one_line(capsys, command, args, words):
    assert main([command, *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1 and words in err, err


def test_usage_errors_are_one_line_in_a_subprocess():
    for args in (["report", "--nope"], ["compare", "--nope"], ["verify", "--nope"], ["bogus"], []):
        out = run(*args)
        assert out.returncode == 2 and out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, (args, out)


# ---- setup names and text from data on a terminal ---------------------------------------------------

@pytest.mark.parametrize("name", ["two\nlines", "red\x1b[31m", "tab\there", "bell\x07", "rtl\u202eeman", "c1\x9b2J"])
def test_setup_names_refuse_control_characters(name):
    with pytest.raises(ValueError, match="one line of visible characters"):
        Setup(name)
    with pytest.raises(ValueError, match="one line of visible characters"):
        parse_setup(f"{name}: size=80")


def test_a_control_character_in_a_setup_name_is_one_line_on_the_command_line(capsys):
    assert main(["compare", "--setup", "a\x1b]0;pwned\x07: size=80", "--setup", "b:"]) == 2
    out, err = capsys.readouterr()
    assert "\x1b" not in err and "\x07" not in err and err.count("\n") == 1 and "visible characters" in err


def test_visible_escapes_control_characters_only():
    assert visible("a\x1b[2Jb\tc\nd\x9be\x7f") == "a\\x1b[2Jb\tc\nd\\x9be\\x7f"
    assert visible("plain, ünïcode — fine") == "plain, ünïcode — fine"


def test_an_answer_with_escape_sequences_reaches_the_terminal_escaped(capsys, spans):
    answer = "\x1b[2J\x1b]0;pwned\x07The cutoff is 0.6 [S1].\x9b31m"
    assert main(["verify", "--spans", spans, "--answer", answer]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b") and "\\x1b[2J" in out
    assert main(["verify", "--spans", spans, "--answer", answer, "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b")
    assert json.loads(out)["sentences"][0]["sentence"].endswith("\x9b31m")       # the JSON keeps the text


def test_a_document_with_escape_sequences_is_escaped_in_the_markdown_report(tmp_path):
    (tmp_path / "d.txt").write_text("The code is 7741.\x1b[2J")
    (tmp_path / "g.csv").write_text("question,doc,anchor\nWhat is the code\x1b[31m?,d.txt,code is 7741\n")
    out = run("compare", "--docs", str(tmp_path / "d.txt"), "--golden", str(tmp_path / "g.csv"),
              "--setup", "a:", "--setup", "b: size=4 overlap=0", "--k", "1")
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout + out.stderr and ("\\x1b[31m" in out.stdout or "\\x1b\\[31m" in out.stdout)


# ---- compare --save when the store cannot keep the runs ---------------------------------------------

def damaged(d: Path) -> None:
    (d / "openbook.sqlite3").write_bytes(b"this is no database" * 100)


def foreign(d: Path) -> None:
    with sqlite3.connect(d / "openbook.sqlite3") as con:
        con.execute("CREATE TABLE runs (x TEXT)")                    # another program's table of the same name


def newer(d: Path) -> None:
    with sqlite3.connect(d / "openbook.sqlite3") as con:
        con.execute("CREATE TABLE openbook_schema (version INTEGER NOT NULL)")
        con.execute("INSERT INTO openbook_schema VALUES (99)")


def not_a_folder(d: Path) -> Path:
    (d / "file").write_text("x")
    return d / "file"


@pytest.mark.parametrize("spoil", [damaged, foreign, newer, not_a_folder])
def test_a_failed_save_prints_the_result_first_then_one_line_and_2(tmp_path, capsys, monkeypatch, spoil):
    data = spoil(tmp_path) or tmp_path
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(data))
    assert main(["compare", *TWO, "--k", "1", "--format", "json", "--save"]) == 2
    out, err = capsys.readouterr()
    assert [s["name"] for s in json.loads(out)["setups"]] == ["filter", "no filter"]      # nothing computed is lost
    assert err.startswith("error: the comparison above was printed but not saved: ") and err.count("\n") == 1, err


def test_an_unreachable_postgres_store_keeps_the_result(capsys, monkeypatch):
    monkeypatch.setenv("OPENBOOK_STORE", "postgres")
    monkeypatch.setenv("OPENBOOK_DATABASE_URL", "postgresql://ann:hunter2@127.0.0.1:1/nowhere?connect_timeout=2")
    code = main(["compare", *TWO, "--k", "1", "--save"])
    out, err = capsys.readouterr()
    assert code == 2 and out.startswith("# Open Book comparison")
    assert err.startswith("error: the comparison above was printed but not saved: ") and "hunter2" not in err, err


# ---- credentials never shown ----------------------------------------------------------------------

@pytest.mark.parametrize("text, shown", [
    ("no server at http://ann:s3cret@db:5432/x", "no server at http://ann:***@db:5432/x"),
    ("The server URL 'http://user:pw@host:1' has port 0", "The server URL 'http://user:***@host:1' has port 0"),
    ("postgresql://u:hunter2%ZZSECRET@127.0.0.1:1/db failed: invalid percent-encoded token: \"hunter2%ZZSECRET\"",
     "postgresql://u:***@127.0.0.1:1/db failed: invalid percent-encoded token: ***"),
    ("postgresql://ann@db/ob?password=s3cret&sslmode=require", "postgresql://ann@db/ob?password=***&sslmode=require"),
    ("https://h/v1?api_key=sk-123&x=1", "https://h/v1?api_key=***&x=***"),
    ("host=db password='s3 cret' dbname=ob", "host=db password=*** dbname=ob"),
    ("http://user:p@ss@host/x", "http://user:***@host/x"),
    ("write it as postgresql://user:password@host:5432/database", "write it as postgresql://user:password@host:5432/database"),
    ("no credentials in http://host:8080/x or postgresql://ann@/ob?host=/tmp/x",
     "no credentials in http://host:8080/x or postgresql://ann@/ob?host=/tmp/x"),
])
def test_mask_secrets(text, shown):
    assert mask_secrets(text) == shown


def test_mask_secrets_finds_a_known_password_anywhere():
    url = "postgresql://u:hunter2%ZZSECRET@127.0.0.1:1/db"
    assert mask_secrets('the driver says "hunter2%ZZSECRET" is bad', url) == 'the driver says "***" is bad'
    assert mask_secrets("decoded p@ss/w here", "postgresql://ann:p%40ss%2Fw@db/ob") == "decoded *** here"


def test_a_malformed_database_password_never_appears(capsys):
    url = "postgresql://u:hunter2%ZZSECRET@127.0.0.1:1/db"
    assert main(["report", "--tables", "ceiling", "--engine", "postgres", "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert "ZZSECRET" not in err and "hunter2" not in err and "postgresql://u:***@127.0.0.1:1/db" in err
    assert "hunter2" not in str(readable(ValueError('invalid percent-encoded token: "hunter2%ZZSECRET"'), url))


def test_a_model_url_with_credentials_is_masked_everywhere(capsys):
    with pytest.raises(ValueError) as e:
        LLMConfig("ollama", "http://user:pw@127.0.0.1:0", "m")
    assert "user:***@" in str(e.value) and ":pw@" not in str(e.value)
    with pytest.raises(LLMError) as e:
        generate("x", LLMConfig("ollama", "http://user:pw@127.0.0.1:9", "m", timeout_s=5))
    assert "http://user:***@127.0.0.1:9" in str(e.value) and ":pw@" not in str(e.value)
    assert main(["report", "--tables", "ceiling", "--generator", "ollama", "--llm-url", "http://user:pw@127.0.0.1:9",
                 "--model", "m", "--timeout", "5"]) == 2
    err = capsys.readouterr().err
    assert "http://user:***@127.0.0.1:9" in err and ":pw@" not in err and err.count("\n") == 1
