"""Real browser, Your data: a zip of long PDFs is read under a line naming the file and page, with a Cancel button;
Cancel stops the reading at once, nothing of it is used, and "Read these files again" starts over.

Every action is followed by an `expect` on the state it leads to, never by a sleep.
"""
import pytest
from playwright.sync_api import expect

from browser import MAIN, SLOW_MS, page_path, upload, wait_idle
from hostile_zips import hostile_zip


@pytest.fixture
def page(new_page):
    return new_page(1280, 1600)


def test_cancel_stops_the_reading_and_keeps_nothing(server, page):
    page.goto(server.url + page_path("Your data"))
    expect(page.locator(MAIN)).to_contain_text("Active dataset: Bundled corpus")
    wait_idle(page)
    upload(page, "Documents", [{"name": "long.zip", "mimeType": "application/zip", "buffer": hostile_zip(10, 2000)}],
           settle=False)                                                  # Cancel comes during the run it starts
    reading = page.locator(MAIN).get_by_text("Reading long")
    expect(reading).to_contain_text("(in long.zip): page", timeout=SLOW_MS)     # pages are being read
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator(MAIN)).to_contain_text("Reading your files was stopped before it finished", timeout=SLOW_MS)
    expect(reading).to_have_count(0)
    expect(page.get_by_role("button", name="Cancel")).to_have_count(0)
    expect(page.locator(MAIN)).not_to_contain_text("document(s) read")          # nothing half-made is shown
    expect(page.get_by_role("button", name="Use these documents")).to_have_count(0)

    page.get_by_role("button", name="Read these files again").click()
    expect(reading).to_contain_text("page", timeout=SLOW_MS)                    # reading again, from the start
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator(MAIN)).to_contain_text("Reading your files was stopped before it finished", timeout=SLOW_MS)
