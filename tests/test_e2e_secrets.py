"""Real browser: a model server URL with secrets (user:password@, query values) typed into the Model page's form. Once
*Use this model* is pressed, no secret is on screen or in any field's value, on this page or the next one, and
the Streamlit server's log holds none either (the field kept the URL typed, in clear, until a reload)."""
import re

import pytest

from browser import MAIN, page_path, wait_idle
from fake_llm_server import start_server, stop_server

from playwright.sync_api import expect  # noqa: E402

MARK = "Zq9"

pytestmark = pytest.mark.browser


@pytest.fixture
def fake_llm():
    srv, url = start_server()
    yield url
    stop_server(srv)


def shown_anywhere(page) -> str:
    """The page's text and the value of every field (a password field's too)."""
    values = page.evaluate("() => Array.from(document.querySelectorAll('input, textarea')).map(e => e.value)")
    return page.locator("body").inner_text() + "\n" + "\n".join(values)


def test_a_model_url_s_secrets_leave_the_screen_once_used(server, page, fake_llm):
    url = fake_llm.replace("http://", f"http://ann:{MARK}pw@") + f"/?key={MARK}k&token={MARK}t"
    masked = fake_llm.replace("http://", "http://ann:***@") + "/?key=***&token=***"
    page.goto(server.url + page_path("Model"))
    main = page.locator(MAIN)
    expect(main).to_contain_text("No model is set up")
    wait_idle(page)
    side = page.locator('[data-testid="stSidebar"]')
    field = main.get_by_role("textbox", name="Server URL")
    field.fill(url)
    main.get_by_role("textbox", name="Model", exact=True).fill("echo-cite")
    main.get_by_role("button", name="Use this model").click()
    expect(main).to_contain_text("Model: echo-cite")
    expect(field).to_have_value(masked)
    expect(main).to_contain_text(masked)
    wait_idle(page)
    assert MARK not in shown_anywhere(page)
    side.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=re.compile("Ask$")).click()
    expect(main.locator("h1").first).to_contain_text("Ask")
    wait_idle(page)
    assert MARK not in shown_anywhere(page)
    side.get_by_text("Model: echo-cite").click()             # the sidebar's link to the Model page
    expect(main.locator("h1").first).to_contain_text("A real model")
    wait_idle(page)
    if not field.is_visible():
        main.get_by_text("Model server", exact=True).click()
    expect(field).to_have_value(masked)
    assert MARK not in shown_anywhere(page)
    assert MARK not in server.log(chars=10 ** 7)
