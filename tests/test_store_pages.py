"""The Compare page's kept runs, as sessions of one server meet them: runs on an upload are seen (and deleted) only
where that upload is open, runs on the built-in datasets by everyone; a data folder that cannot be written still
lists what was saved and says why nothing can be kept.

Each test keeps its runs in a data folder of its own (OPENBOOK_DATA_DIR): the page's store follows that setting.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rag_core.data.corpus import bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation.setup import Setup
from rag_core.store import FILE_NAME, Store, golden_key
from ui import datasets

ROOT = Path(__file__).resolve().parents[1]
COMPARE = "pages/compare.py"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBOOK_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("OPENBOOK_STORE", raising=False)
    return tmp_path


def compare_page(session: dict | None = None, query: dict | None = None) -> AppTest:
    """A new browser session on the Compare page."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query or {})
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.switch_page(COMPARE).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def kept(at: AppTest) -> list:
    """The names of the runs the page lists under "Runs kept for later" (none: no table)."""
    history = [d.value for d in at.main.dataframe if "dataset name" in d.value.columns]
    return sorted(history[0]["name"]) if history else []


def deletable(at: AppTest) -> list:
    picks = [s for s in at.main.selectbox if s.key == "compare_delete_pick"]
    return [o for o in picks[0].options if o != "—"] if picks else []


def an_upload(name: str) -> datasets.Dataset:
    """The bundled documents and golden set uploaded under another name: its own key, the bundled golden set's
    key (so the page's list of runs on these questions would include the bundled corpus's)."""
    return datasets.make_dataset(name, bundled_corpus().documents, load_golden())


def test_runs_on_an_upload_are_seen_only_where_that_upload_is_open(folder):
    setups = ["as in Ask", "filter off", "rerank off"]
    ann, bob = an_upload("Ann's notes"), an_upload("Bob's notes")
    a = compare_page({"dataset": ann})
    a.button(key="compare_save").click().run()
    assert kept(a) == sorted(setups)
    b = compare_page({"dataset": bob})                           # another session, another upload: nothing of Ann's
    assert kept(b) == [] and deletable(b) == []
    on_bundled = compare_page()
    assert kept(on_bundled) == []
    on_bundled.button(key="compare_save").click().run()          # runs on a built-in dataset are everyone's
    b = compare_page({"dataset": bob})
    assert kept(b) == sorted(setups)
    assert len(deletable(b)) == 3 and not set(deletable(b)) & {r.id for r in Store(folder / FILE_NAME).list_runs()
                                                               if r.dataset_key == ann.key}
    by_link = compare_page(query={"data": ann.key})              # Ann's upload opened through a link: kept with its runs
    assert by_link.session_state["dataset"].key == ann.key
    assert kept(by_link) == sorted(setups * 2)
    a.run()
    assert kept(a) == sorted(setups * 2)


READ_ONLY = """
import json
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("app.py", default_timeout=120)
at.switch_page("pages/compare.py").run()
history = [d.value for d in at.main.dataframe if "dataset name" in d.value.columns]
print(json.dumps({"exceptions": [e.message for e in at.exception], "errors": [e.value for e in at.main.error],
                  "warnings": [w.value for w in at.main.warning], "buttons": [b.key for b in at.main.button],
                  "kept": sorted(history[0]["name"]) if history else [],
                  "delete": [s.key for s in at.main.selectbox if s.key == "compare_delete_pick"]}))
"""


def test_a_read_only_data_folder_lists_the_kept_runs_and_says_why_nothing_can_be_kept(folder, wb):
    store = Store(folder / FILE_NAME)
    golden = golden_key(wb.golden_check.valid)                         # the bundled corpus's: the page lists runs on it
    for name in ("kept before", "and another"):
        store.save_run(Setup(name), [], "bundled", "Bundled", golden)
    shell = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'      # read-only for root too (a mount of its own)
    done = subprocess.run(["unshare", "-rm", "sh", "-c", shell, "sh", str(folder), sys.executable, "-c", READ_ONLY],
                          cwd=str(ROOT), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout.strip().splitlines()[-1])
    assert page["exceptions"] == [] and page["errors"] == []
    assert page["kept"] == ["and another", "kept before"]
    said = " ".join(page["warnings"]).replace("\\", "")
    assert "Nothing new can be saved" in said and "read-only" in said and "OPENBOOK_DATA_DIR" in said, said
    assert "compare_save" not in page["buttons"] and page["delete"] == []
