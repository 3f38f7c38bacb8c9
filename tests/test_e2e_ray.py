"""The sidebar's compute choice in Chromium, on a real local Ray started by the dashboard's server.

A user uploads documents no cache holds, picks MiniLM and "Ray cluster": the sidebar says what computes (Ray's
version, one node, its CPUs) and, once a question is asked, how many texts were encoded on Ray (every chunk of
the upload); the Ask page shows the chunks the process finds. An address where no Ray answers is one sentence
in the sidebar, the field stays a password field emptied on Enter, and nothing of it reaches the URL.
"""
from __future__ import annotations

import re
import uuid

from browser import MAIN, WAIT_MS, choose, rerun, screenshot, upload, wait_idle
from e2e_helpers import ask_question, expect_chunks, expected_labels, no_exception
from rag_core import ARTICLE_CHUNKER, Corpus, Workbench
from rag_core.data.ingest import read_files
from rag_core.retrieval import encoder_path
from rag_core.retrieval.vectors import Embedder, VectorStore

from playwright.sync_api import expect  # noqa: E402

# made-up notes, new at every run: no vector cache (the server's data folder is kept between runs) or pack holds them
RUN = uuid.uuid4().hex
NOTES = {
    "kiln.md": f"# Kiln schedule {RUN}\n\n" + " ".join(
        f"Firing {RUN[:8]}-{i} of the glaze kiln ramps to cone {i % 7 + 4} over {i + 3} hours and soaks for {i % 5 + 10} "
        f"minutes before a slow cooling that protects the celadon tiles." for i in range(60)),
    "loom.md": f"# Loom maintenance {RUN}\n\n" + " ".join(
        f"Heddle frame {RUN[:8]}-{i} is oiled every {i % 9 + 2} weeks; the warp beam tension is checked with a spring "
        f"gauge reading {i * 3 + 40} newtons." for i in range(50)),
}
QUESTION = "How long does the glaze kiln soak before cooling?"


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def actors_left(server, within_s: float = 30.0) -> int:
    """The encoder actors still alive under the dashboard's server, once they stop going away (Ray stops a
    released actor's process a moment after the call)."""
    import time
    import psutil
    deadline = time.monotonic() + within_s
    while True:
        left = [p for p in psutil.Process(server.proc.pid).children(recursive=True)
                if p.name().startswith("ray::_Worker")]
        if not left or time.monotonic() > deadline:
            return len(left)
        time.sleep(0.1)                # polling the process table, not the page


def test_encoding_an_upload_on_a_local_ray_chosen_in_the_sidebar(new_page, server, tmp_path):
    paths = []
    for name, text in NOTES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(tmp_path / name)
    docs = read_files([(p.name, p.read_bytes()) for p in paths]).documents
    own = Embedder(VectorStore(None), path=encoder_path.chosen())   # the server's forward pass for an upload, memory
                                                                     # only: the server's data folder keeps its own
    mine = Workbench(Corpus(tuple(docs), name="My documents"), [], retriever="minilm", embedder=own)
    n_chunks = len(mine.index(ARTICLE_CHUNKER))

    page = new_page(1280, 2400)
    page.goto(server.url + "/your_data")
    wait_idle(page)
    # Ray first (it starts in a few seconds): Your data draws trap 3 per retriever for the active dataset,
    choose(page, "Compute", "Ray cluster", within=sidebar(page), timeout=4 * WAIT_MS)
    said = sidebar(page).get_by_text(re.compile(r"^Computing on Ray 2\.\d+\.\d+, local: 1 node, \d+ CPUs?\."))
    expect(said).to_be_visible(timeout=4 * WAIT_MS)      # MiniLM's encoding of the upload included
    upload(page, "Documents", paths)
    page.get_by_role("button", name="Use these documents").click()
    expect(page.locator(MAIN)).to_contain_text("Active dataset: My documents", timeout=2 * WAIT_MS)
    wait_idle(page)
    # what this page shows is encoded on Ray now
    choose(page, "Retriever", "MiniLM (trained encoder)", within=sidebar(page), timeout=4 * WAIT_MS)

    sidebar(page).get_by_role("link", name="Ask").click()
    wait_idle(page)
    ask_question(page, QUESTION)
    expect_chunks(page, expected_labels(mine, QUESTION, allowed=("current",)))     # the process's ranking
    count = sidebar(page).get_by_text(re.compile(r"^This session: [\d,]+ texts? encoded on Ray\.$"))
    expect(count).to_have_text(f"This session: {n_chunks:,} texts encoded on Ray.")
    no_exception(page)
    screenshot(page, "ray-ask")
    assert actors_left(server) == 0        # the run over, its actors gave their CPUs and memory back

    field = sidebar(page).get_by_role("textbox", name="Ray address")
    expect(field).to_have_attribute("type", "password")
    with rerun(page, timeout=4 * WAIT_MS):
        field.fill("127.0.0.1:1")
        field.press("Enter")
    expect(field).to_have_value("")                         # kept on the server, never given back
    problem = sidebar(page).get_by_text(re.compile(r"^No Ray cluster answers at 127\.0\.0\.1:1 .*Until it is fixed, "
                                                   r"everything runs in this process\.$"))
    expect(problem).to_be_visible()
    assert "127.0.0.1:1" not in page.url and "compute" not in page.url
    ask_question(page, QUESTION + " ")                      # still answered, in process
    expect_chunks(page, expected_labels(mine, QUESTION + " ", allowed=("current",)))
    no_exception(page)
