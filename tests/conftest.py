"""Shared fixtures: the bundled workbench is built once per test session (it is read-only).

The tests keep their saved runs and cached vectors in a data folder of their own (OPENBOOK_DATA_DIR, set before
anything reads it, and inherited by the Streamlit servers they start), never in the user's.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile

import pytest

os.environ.setdefault("OPENBOOK_DATA_DIR", tempfile.mkdtemp(prefix="openbook-tests-"))

from hypothesis import HealthCheck, settings  # noqa: E402

from rag_core import Workbench  # noqa: E402
from browser import WAIT_MS, StreamlitServer, chromium_problem, launch_chromium  # noqa: E402

TIMEOUT = WAIT_MS     # ms; generous for a 2-core machine kept busy by other work (a pass takes a fraction)

# Property tests (tests/test_properties_*.py): the same examples on every run and machine (derandomize: a seed drawn
# from each test's name), a fixed number of them, no deadline (a busy machine is slow, not wrong) and no example
# database written next to the code. A test asks for more or fewer with @settings(max_examples=...).
settings.register_profile("openbook", max_examples=100, derandomize=True, deadline=None, database=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
# OPENBOOK_HYPOTHESIS=explore: new random examples on each run (OPENBOOK_EXAMPLES of them), to hunt for bugs by hand.
settings.register_profile("explore", max_examples=int(os.environ.get("OPENBOOK_EXAMPLES", "1500")), deadline=None,
                          database=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("OPENBOOK_HYPOTHESIS", "openbook"))


def pytest_collection_modifyitems(config, items):
    """Markers for the fast subset (`make test-fast` = -m "not browser and not postgres"): every test of a
    tests/test_e2e*.py file is a browser test; every test using the `pg` fixture is a PostgreSQL one."""
    for item in items:
        if item.fspath.basename.startswith("test_e2e"):
            item.add_marker(pytest.mark.browser)
        if "pg" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session")
def wb():
    return Workbench.bundled()


@pytest.fixture(scope="session")
def ray_session():
    """One real local Ray for the test session (two CPUs), started on first use; commands run in this process
    join it instead of starting one."""
    from rag_core.retrieval.ray_encoder import RayCompute
    with RayCompute(num_cpus=2) as compute:
        yield compute


@pytest.fixture
def ray_local(ray_session):
    """The session's Ray, its actors stopped after each test (so that the next one, or a command, has the CPUs)."""
    yield ray_session
    ray_session.release()


@pytest.fixture
def own_head():
    """A Ray head of its own, started as a user would (`ray start --head`, two CPUs, its files in a short folder),
    and a function that kills every process of it (those naming its folder, and their children). `ray start` is
    run by this interpreter (the console script's first line may name another copy of the environment)."""
    import psutil
    folder = tempfile.mkdtemp(prefix="rayhead-", dir="/tmp")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ray_cli = "import sys; from ray.scripts.scripts import main; sys.exit(main())"
    started = subprocess.run([sys.executable, "-c", ray_cli, "start", "--head", "--port", str(port),
                              "--num-cpus", "2", "--temp-dir", folder, "--include-dashboard=false",
                              "--disable-usage-stats"], capture_output=True, text=True, timeout=180,
                             env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})
    assert started.returncode == 0, started.stderr

    def kill():
        own = [p for p in psutil.process_iter(["cmdline"]) if folder in " ".join(p.info["cmdline"] or [])]
        for p in own + [c for p in own for c in p.children(recursive=True)]:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass
    yield f"127.0.0.1:{port}", kill
    kill()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg():
    """A real PostgreSQL with pgvector (tests/pg_server.py) for the whole session, started on first use. A test that
    stops it starts it again before it ends."""
    from pg_server import PgServer
    with PgServer() as server:
        yield server


# ---- the real browser: one server and one Chromium for the whole session, shared by every e2e module

def _require_chromium():
    """Browser tests never skip: without Chromium they fail, saying how to install it (`make test` does, as root)."""
    problem = chromium_problem()
    if problem:
        pytest.fail(problem, pytrace=False)


@pytest.fixture(scope="session")
def server(request):
    """The shared server. When the fresh-server test is selected, its server is launched now too, so that
    its start-up overlaps with the other tests instead of adding to them (nobody visits it before that test)."""
    _require_chromium()
    srv = StreamlitServer()
    fresh = StreamlitServer() if any("fresh_server" in item.fixturenames for item in request.session.items) else None
    try:
        srv.launch()
        if fresh:
            _UNVISITED.append(fresh.launch())
        yield srv.wait_ready()
    finally:
        srv.stop()
        if fresh:
            fresh.stop()


_UNVISITED: list = []     # launched by `server`, handed to `fresh_server`


@pytest.fixture
def fresh_server(server):
    """A server process that nobody has visited yet."""
    srv = _UNVISITED.pop() if _UNVISITED else StreamlitServer().launch()
    if srv.proc.poll() is not None:      # the one launched early has gone (stopped from outside): start another
        print(f"the early fresh server had exited ({srv.proc.returncode}):\n{srv.log()}")
        srv.stop()
        srv = StreamlitServer().launch()
    try:
        yield srv.wait_ready()
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def context(server):
    """One browser and one context for the session: pages share the HTTP cache (Streamlit's scripts load once),
    while each page is its own websocket, hence its own Streamlit session."""
    from playwright.sync_api import expect, sync_playwright
    with sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
            ctx.set_default_timeout(TIMEOUT)
            # a first visit, so that the caches are warm for every test
            page = ctx.new_page()
            page.goto(server.url + "/")
            expect(page.get_by_text("Headline figures, computed now")).to_be_visible(timeout=2 * WAIT_MS)
            page.close()
            yield ctx
        finally:
            browser.close()


@pytest.fixture
def new_page(context):
    """new_page(width, height) -> a new page (a new Streamlit session); its JavaScript errors fail the test."""
    pages, errors = [], []

    def make(width=1280, height=1000):
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
        return page

    yield make
    for page in pages:
        page.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def page(new_page):
    return new_page()


