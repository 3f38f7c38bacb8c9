"""The Compare page in Chromium: setups drawn with their intervals, the test's sentence follows the chosen k, and a
grid cell's link opens Ask on that question with that setup (the same spans the grid counts)."""
from __future__ import annotations

from urllib.parse import urlencode

from browser import MAIN, WAIT_MS, wait_charts, wait_idle, wait_loaded
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.setup import Setup
from rag_core.retrieval.chunkers import ChunkerConfig

from playwright.sync_api import expect  # noqa: E402

ARTICLE = ChunkerConfig("fixed", 160, 32)


def test_walk_the_compare_page_and_open_a_grid_cell_in_ask(new_page, server, wb):
    setups = [Setup("as in Ask", ARTICLE, 20, 3, frozenset({"current"}), True), Setup("filter off", ARTICLE, 20, 3, None, True),
              Setup("rerank off", ARTICLE, 20, 3, frozenset({"current"}), False)]
    want = compare_setups(wb, setups)
    page = new_page()
    page.goto(server.url + "/compare")
    main = page.locator(MAIN)
    expect(main.get_by_role("heading", name="2 · Leaderboard")).to_be_visible(timeout=2 * WAIT_MS)
    wait_charts(page, 2)                                            # the leaderboard and the loss account
    sentence = want.pair("as in Ask", "filter off", 1)["sentence"]
    expect(main.get_by_text(sentence)).to_be_visible()
    main.locator('[data-testid="stRadio"]').get_by_text("3", exact=True).click()    # k = 3
    expect(main.get_by_text(want.pair("as in Ask", "filter off", 3)["sentence"])).to_be_visible()
    wait_idle(page)
    # the grid's link for the first question and the setup 'filter off' (the same URL the cell holds: see
    # test_compare_page.test_every_grid_cell_links_to_ask_with_its_setup_and_ask_agrees_on_the_rank)
    question = want.questions[0]
    link = "ask?" + urlencode({**setups[1].link_params(question, list(wb.corpus.statuses)), "data": "bundled"})
    page.goto(f"{server.url}/{link}")
    expect(main.get_by_role("heading", name="The 3 chunk(s) handed to the model")).to_be_visible(timeout=2 * WAIT_MS)
    wait_loaded(page)
    rank = want.results["filter off"][0].first_rank
    expect(main.get_by_text(f"The anchor is in span S{rank}")).to_be_visible()   # a draft outranks it, as the grid says
    expect(main.get_by_text("wrong source", exact=True).first).to_be_visible()
