"""Real browser: the Model page holds its own form (it was folded in the sidebar), offers the server's models as a
list once a check has listed them (they were text to retype), and on a 482 px screen shows an answer of the golden
run on screen (the answer column of the per-question table lay off screen). The sidebar names the model in use.
"""
import pytest

from browser import MAIN, SLOW_MS, choose, page_path, rerun, wait_idle
from fake_llm_server import start_server, stop_server

from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.browser
PHONE = 482


@pytest.fixture(scope="module")
def fake_llm():
    srv, url = start_server()
    yield url
    stop_server(srv)


def test_the_model_page_sets_up_a_model_from_the_server_s_list_and_shows_an_answer_on_a_phone(server, new_page,
                                                                                                fake_llm):
    page = new_page(PHONE, 900)
    page.goto(server.url + page_path("Model"))
    main = page.locator(MAIN)
    expect(main).to_contain_text("No model is set up")
    wait_idle(page)
    main.get_by_role("textbox", name="Server URL").fill(fake_llm)
    model = main.get_by_role("textbox", name="Model", exact=True)
    model.fill("echo")
    with rerun(page):
        main.get_by_role("button", name="Check connection").click()
    expect(main).to_contain_text("Connected: the server lists")
    choose(page, "Choose one of the server's models", "echo-cite", within=main, typed=True)
    expect(model).to_have_value("echo-cite")                 # the choice fills the field: nothing retyped
    with rerun(page):
        main.get_by_role("button", name="Use this model").click()
    expect(main).to_contain_text("Model: echo-cite via ollama")

    main.get_by_role("button", name="Run").click()
    expect(main).to_contain_text("Operating metrics", timeout=SLOW_MS)
    wait_idle(page)
    answer = main.locator('[data-testid="stCode"]').first       # the reader's answer, below the first table
    answer.scroll_into_view_if_needed()
    expect(answer).to_be_visible()
    box = answer.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE, box     # whole on a 482 px screen
    assert answer.inner_text().strip(), "the answer is empty"
    page.set_viewport_size({"width": 1280, "height": 900})       # the sidebar, open on a wide screen, names it
    expect(page.get_by_test_id("stSidebar").get_by_text("Model: echo-cite")).to_be_visible()
