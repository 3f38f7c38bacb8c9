"""The run store: datasets by content hash, runs round-trip, nothing kept when off, writers at once lose nothing,
and a damaged or foreign file is a clear ValueError naming it, never a crash and never overwritten. The round trips
marked BOTH_BACKENDS run on PostgreSQL too (tests/stores.py)."""
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest

from rag_core.evaluation.compare import compare_setups, compare_runs
from rag_core.evaluation.setup import Setup, default_setup, parse_setup
from rag_core.store import FILE_NAME, SCHEMA, Store, dataset_key, golden_key
from stores import BOTH_BACKENDS, DOCS, GOLDEN, RESULT, ROOT, open_store


@pytest.fixture
def store(request, tmp_path):
    """A SQLite store; on PostgreSQL too for the round trips marked BOTH_BACKENDS (tests/stores.py)."""
    return open_store(request, tmp_path)


@BOTH_BACKENDS
def test_a_dataset_is_kept_by_its_content_hash(store):
    key = store.save_dataset("rockets", DOCS, GOLDEN)
    assert key == dataset_key("rockets", DOCS, GOLDEN) and key.startswith("user-")
    assert store.save_dataset("rockets", DOCS, GOLDEN) == key              # the same content is kept once
    assert [(d.key, d.documents, d.questions, d.words) for d in store.list_datasets()] == [(key, 2, 1, 8 + 2)]
    got = store.load_dataset(key)
    assert (got.name, got.documents, got.golden) == ("rockets", DOCS, GOLDEN)
    assert store.load_dataset("user-0000000000000000") is None
    assert dataset_key("rockets", DOCS[:1], GOLDEN) != key


@BOTH_BACKENDS
def test_a_run_round_trips(store):
    setup = parse_setup("filter: statuses=current k=1 candidates=4", Setup())
    run = store.save_run(setup, [RESULT, RESULT._replace(stage="ranked out", first_rank=3)], "bundled", "Bundled",
                         "g-1", "qwen2.5:7b", chunks=114)
    (info,) = store.list_runs()
    assert (info.id, info.name, info.model, info.questions, info.answered, info.found, info.chunks) == \
           (run, "filter", "qwen2.5:7b", 2, 1, 1, 114)
    loaded = store.load_run(run)
    assert loaded.setup == setup and loaded.results == [RESULT, RESULT._replace(stage="ranked out", first_rank=3)]
    assert loaded.info == info


@BOTH_BACKENDS
def test_runs_are_listed_newest_first_and_by_dataset(store):
    ids = [store.save_run(Setup(f"s{i}"), [RESULT], key, key, "g-1") for i, key in enumerate(["x", "y", "x"])]
    assert [r.id for r in store.list_runs()] == ids[::-1]
    assert [r.id for r in store.list_runs("x")] == [ids[2], ids[0]]
    assert store.list_runs(golden="g-2") == []


@BOTH_BACKENDS
def test_deleting(store):
    key = store.save_dataset("rockets", DOCS, GOLDEN)
    keep = store.save_run(Setup("a"), [RESULT], "bundled", "Bundled", "g-1")
    gone = store.save_run(Setup("b"), [RESULT], key, "rockets", "g-1")
    store.delete_run(keep)
    with pytest.raises(ValueError, match=f"There is no saved run {keep}"):
        store.load_run(keep)
    store.delete_dataset(key)                      # its runs go with it
    assert store.list_runs() == [] and store.load_dataset(key) is None and gone
    store.save_run(Setup("c"), [RESULT], "bundled", "Bundled", "g-1")
    store.save_dataset("rockets", DOCS, GOLDEN)
    store.delete_all()
    assert store.list_runs() == [] and store.list_datasets() == []


@BOTH_BACKENDS
def test_a_session_sees_runs_on_built_in_datasets_and_on_the_upload_it_holds_only(store):
    """The rule of Store's docstring: runs on built-in datasets are everyone's; a run on an upload only where that
    upload is open. Without `holding` (the command line) every run is seen."""
    mine, theirs = dataset_key("mine", DOCS, GOLDEN), dataset_key("theirs", DOCS, GOLDEN)
    shared = store.save_run(Setup("shared"), [RESULT], "bundled", "Bundled", "g-1")
    a = store.save_run(Setup("a"), [RESULT], mine, "mine", "g-1")
    b = store.save_run(Setup("b"), [RESULT], theirs, "theirs", "g-1")
    assert [r.name for r in store.list_runs(golden="g-1", holding=mine)] == ["a", "shared"]
    assert [r.name for r in store.list_runs(golden="g-1", holding="bundled")] == ["shared"]
    assert [r.name for r in store.list_runs(golden="g-1")] == ["b", "a", "shared"]
    assert store.load_run(a, holding=mine).info.name == "a" and store.load_run(shared, holding=theirs)
    with pytest.raises(ValueError, match=f"There is no saved run {b}"):
        store.load_run(b, holding=mine)
    store.delete_run(b, holding=mine)                        # not seen: not deleted
    store.delete_run(shared, holding="bundled-user")
    assert [r.name for r in store.list_runs()] == ["b", "a"]
    store.delete_run(b, holding=theirs)
    assert [r.name for r in store.list_runs()] == ["a"]


@BOTH_BACKENDS
def test_saved_runs_compare_as_the_live_ones(store, wb):
    live = compare_setups(wb, [default_setup(wb, "filter"), parse_setup("no filter: statuses=all", default_setup(wb))])
    g = golden_key(wb.golden_check.valid)
    ids = [store.save_run(s, live.results[s.name], "bundled", "Bundled", g, chunks=live.chunks[s.name])
           for s in live.setups]
    again = compare_runs([store.load_run(i) for i in ids])
    assert again.pairs.drop(columns="power_sentence").equals(live.pairs.drop(columns="power_sentence"))
    assert again.grid.equals(live.grid) and again.losses.equals(live.losses)


@pytest.mark.parametrize("env", [{"OPENBOOK_DATA_DIR": "off"}, {"OPENBOOK_DATA_DIR": ""}])
def test_switched_off_nothing_is_kept_and_it_says_so(env):
    store = Store.default(env)
    assert not store.enabled
    assert store.save_dataset("rockets", DOCS, GOLDEN) is None and store.load_dataset("x") is None
    assert store.save_run(Setup(), [RESULT], "bundled", "Bundled", "g-1") is None
    assert store.list_runs() == [] and store.list_datasets() == []
    store.delete_all()
    assert "Nothing is kept on disk (OPENBOOK_DATA_DIR is off)" in store.describe()
    with pytest.raises(ValueError, match="no saved run 1 .OPENBOOK_DATA_DIR is off"):
        store.load_run(1)


def test_the_default_store_lives_in_the_data_folder(tmp_path):
    store = Store.default({"OPENBOOK_DATA_DIR": str(tmp_path / "data")})
    assert store.path == tmp_path / "data" / FILE_NAME
    text = store.describe()
    assert str(store.path) in text and "delete that file" in text and "OPENBOOK_DATA_DIR=off" in text


# ---- writers at once ------------------------------------------------------------------------------

@BOTH_BACKENDS
def test_eight_threads_writing_at_once_lose_nothing(store):
    store.check()
    errors, ids = [], []

    def write(t):
        try:
            for i in range(25):
                ids.append(store.save_run(Setup(f"t{t}-{i}"), [RESULT], "bundled", "Bundled", "g-1"))
        except Exception as e:           # noqa: BLE001  (reported below)
            errors.append(e)

    threads = [threading.Thread(target=write, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == [] and len(set(ids)) == 200
    assert sorted(r.name for r in store.list_runs()) == sorted(f"t{t}-{i}" for t in range(8) for i in range(25))


WRITER = """
import sys
from rag_core.evaluation.losses import QuestionResult
from rag_core.evaluation.setup import Setup
from rag_core.store import Store
store, tag = Store(sys.argv[1]), sys.argv[2]
r = QuestionResult("q", "d", 1, 1, "answered", False, "answered", "a", "r", 0.0)
print("ready", flush=True)
sys.stdin.readline()                                  # all writers start together
for i in range(40):
    store.save_run(Setup(f"{tag}-{i}"), [r], "bundled", "Bundled", "g-1")
"""


def test_two_processes_and_threads_writing_at_once_lose_nothing(tmp_path):
    path = tmp_path / FILE_NAME            # not created yet: the writers race to create it too
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"p{n}"], cwd=str(ROOT), text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for n in range(2)]
    try:
        for p in procs:
            assert p.stdout.readline() == "ready\n"
        here = Store(path)
        threads = [threading.Thread(target=lambda t=t: [here.save_run(Setup(f"t{t}-{i}"), [RESULT], "b", "B", "g-1")
                                                        for i in range(20)]) for t in range(4)]
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        for p in procs:
            assert p.wait(timeout=120) == 0, p.stderr.read()
    finally:
        for p in procs:
            p.kill() if p.poll() is None else None
            for f in (p.stdin, p.stdout, p.stderr):
                f.close()
    names = sorted(r.name for r in Store(path).list_runs())
    assert names == sorted([f"p{n}-{i}" for n in range(2) for i in range(40)] + [f"t{t}-{i}" for t in range(4) for i in range(20)])


# ---- files that are not ours ---------------------------------------------------------------------

def expect_clear_error(path, *words):
    store = Store(path)
    before = path.read_bytes()
    for call in (store.list_runs, lambda: store.save_run(Setup(), [RESULT], "b", "B", "g-1")):
        with pytest.raises(ValueError) as e:
            call()
        message = str(e.value)
        assert str(path) in message and "Move it away or delete it" in message, message
        for w in words:
            assert w in message, message
    assert path.read_bytes() == before                   # never overwritten


def test_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / FILE_NAME
    path.write_bytes(b"these are my notes, not a database\n" * 10)
    expect_clear_error(path, "is not a SQLite database")


def test_a_damaged_database(tmp_path, store):
    store.save_run(Setup(), [RESULT], "b", "B", "g-1")
    data = bytearray(store.path.read_bytes())
    for f in store.path.parent.glob(FILE_NAME + "-*"):      # the WAL is folded in when the last reader closes
        f.unlink()
    data[100:len(data)] = b"\xff" * (len(data) - 100)         # the header survives, the pages do not
    store.path.write_bytes(bytes(data))
    expect_clear_error(store.path, "damaged")


@pytest.mark.parametrize("version, words", [(0, "an older version of Open Book (format 0"),
                                            (SCHEMA + 1, "a newer version of Open Book")])
def test_a_database_of_another_format(tmp_path, version, words):
    path = tmp_path / FILE_NAME
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE openbook_schema (version INTEGER NOT NULL)")
        con.execute("INSERT INTO openbook_schema VALUES (?)", (version,))
        con.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, setup TEXT)")
    con.close()
    expect_clear_error(path, words, f"this one reads format {SCHEMA}")


def test_a_database_someone_else_wrote(tmp_path):
    path = tmp_path / FILE_NAME
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, setup TEXT)")
    con.close()
    expect_clear_error(path, "not one Open Book wrote")


def test_an_empty_file_becomes_a_store(tmp_path):
    path = tmp_path / FILE_NAME
    path.write_bytes(b"")
    store = Store(path)
    assert store.save_run(Setup(), [RESULT], "b", "B", "g-1") == 1


def test_a_folder_that_cannot_be_written(tmp_path):
    (tmp_path / "file").write_text("x")
    store = Store(tmp_path / "file" / FILE_NAME)           # its folder is a file
    with pytest.raises(ValueError, match="cannot be opened: .*Set OPENBOOK_DATA_DIR to a writable folder"):
        store.list_runs()


def test_deleting_the_file_by_hand_starts_an_empty_store(store):
    store.save_run(Setup(), [RESULT], "b", "B", "g-1")
    for f in store.path.parent.glob(FILE_NAME + "*"):
        f.unlink()
    assert store.list_runs() == []
    assert store.save_run(Setup(), [RESULT], "b", "B", "g-1") == 1


@pytest.mark.parametrize("table", ["runs", "datasets"])
def test_a_dropped_table_says_the_file_is_damaged_and_what_to_do(store, table):
    """Not "another program may hold it": what is wrong (a table is missing), and the fix."""
    store.save_run(Setup(), [RESULT], "b", "B", "g-1")
    with closing(sqlite3.connect(store.path)) as con:
        con.execute(f"DROP TABLE {table}")
    again = Store(store.path)                               # a new process: it checks the file first
    for call in (again.list_runs, again.list_datasets, lambda: again.save_run(Setup(), [RESULT], "b", "B", "g-1"),
                 store.list_runs if table == "runs" else store.list_datasets):    # one that checked before the drop
        with pytest.raises(ValueError) as e:
            call()
        message = str(e.value)
        assert "another program may hold it" not in message, message
        assert f"table {table} is missing" in message and "damaged" in message, message
        assert "Move it away or delete it" in message, message


# ---- a data folder that cannot be written: what was saved is still listed -------------------------

READ_ONLY = """
import json, sys
from rag_core.evaluation.losses import QuestionResult
from rag_core.evaluation.setup import Setup
from rag_core.store import Store
store = Store(sys.argv[1])
out = {"runs": [r.name for r in store.list_runs()], "datasets": [d.name for d in store.list_datasets()],
       "loaded": store.load_run(store.list_runs()[-1].id).info.name if store.list_runs() else None,
       "read_only": store.read_only, "describe": store.describe()}
r = QuestionResult("q", "d", 1, 1, "answered", False, "answered", "a", "r", 0.0)
for name, call in (("save", lambda: store.save_run(Setup("new"), [r], "b", "B", "g-1")),
                   ("delete", lambda: store.delete_run(store.list_runs()[0].id))):
    try:
        call()
        out[name] = "done"
    except ValueError as e:
        out[name] = str(e)
print(json.dumps(out))
"""
MOUNTS = {   # how the data folder is made read-only (a private mount namespace: read-only even for root)
    "folder and file": 'mount --bind -o ro "$1" "$1"',
    "folder only (the file writable)": 'mount --bind -o ro "$1" "$1" && mount --bind "$1/$2" "$1/$2" && '
                                       'mount -o remount,bind,rw "$1/$2"',
    "file only": 'mount --bind -o ro "$1/$2" "$1/$2"',
}


def read_only_run(folder: Path, how: str, *argv) -> subprocess.CompletedProcess:
    """Run python argv with the data folder made read-only as `how` says, in a mount namespace of its own (as a
    folder of mode 0555 or a file of 0444 is to any user but root; root ignores those, not a read-only mount)."""
    shell = f'{MOUNTS[how]} && shift 2 && exec "$@"'
    return subprocess.run(["unshare", "-rm", "sh", "-c", shell, "sh", str(folder), FILE_NAME, sys.executable, *argv],
                          cwd=str(ROOT), capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("how", list(MOUNTS))
def test_a_read_only_data_folder_lists_what_was_saved_and_says_why_nothing_can_be_saved(tmp_path, how):
    import json
    store = Store(tmp_path / FILE_NAME)
    store.save_dataset("rockets", DOCS, GOLDEN)
    for name in ("first", "second"):
        store.save_run(Setup(name), [RESULT], "b", "B", "g-1")
    before = store.path.read_bytes()
    done = read_only_run(tmp_path, how, "-c", READ_ONLY, str(store.path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["runs"] == ["second", "first"] and out["datasets"] == ["rockets"] and out["loaded"] == "first"
    assert out["read_only"] and "read-only" in out["read_only"] and str(store.path) in out["read_only"]
    for said in (out["save"], out["delete"], out["describe"]):
        assert "cannot be saved" in said or "Nothing new can be saved" in said, said
        assert "writable" in said and "OPENBOOK_DATA_DIR" in said, said
    assert store.path.read_bytes() == before
    assert [r.name for r in store.list_runs()] == ["second", "first"] and store.read_only is None


EMPTY = """
import sys
from rag_core.store import Store
store = Store(sys.argv[1])
try:
    print(store.list_runs(), store.read_only)
except ValueError as e:
    print(e)
"""


def test_a_read_only_folder_with_an_empty_file_or_none(tmp_path):
    (tmp_path / FILE_NAME).touch()                     # nothing saved yet: nothing to list, and saving is not possible
    done = read_only_run(tmp_path, "folder and file", "-c", EMPTY, str(tmp_path / FILE_NAME))
    assert done.returncode == 0 and done.stdout.startswith("[] ") and "read-only" in done.stdout, done
    done = read_only_run(tmp_path, "folder and file", "-c", EMPTY, str(tmp_path / "inner" / FILE_NAME))
    assert "cannot be opened: Read-only file system. Set OPENBOOK_DATA_DIR to a writable folder" in done.stdout, done


WRITABLE_AGAIN = """
import subprocess, sys
from rag_core.evaluation.setup import Setup
from rag_core.store import Store
store = Store(sys.argv[1])
print(bool(store.read_only), [r.name for r in store.list_runs()])
subprocess.run(["umount", sys.argv[2]], check=True)          # the folder made writable while the store is open
store.save_run(Setup("after"), [], "b", "B", "g-1")
print(store.read_only, [r.name for r in store.list_runs()])
"""


def test_a_folder_made_writable_again_is_saved_to(tmp_path):
    Store(tmp_path / FILE_NAME).save_run(Setup("before"), [RESULT], "b", "B", "g-1")
    done = read_only_run(tmp_path, "folder and file", "-c", WRITABLE_AGAIN, str(tmp_path / FILE_NAME), str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["True ['before']", "None ['after', 'before']"]
