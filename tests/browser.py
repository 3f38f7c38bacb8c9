"""Real-browser helpers shared by tests/test_e2e.py and benchmarks/bench_browser.py.

- `StreamlitServer`: `streamlit run app.py` on a free 127.0.0.1 port, polled on /_stcore/health until it
  answers, stopped (whole process group) on exit, also when the block raises.
- `launch_chromium(p)`: Debian's /usr/bin/chromium through Playwright's sync API (never `playwright install`).
- `chromium_problem()`: why the browser tests cannot run here, or None.
- Page helpers that wait on what the page says, never sleep: `wait_idle` (no script run going on),
  `rerun` (the run an action triggered is over), `wait_loaded`, `wait_charts`; `upload`, `choose` (an option of a
  selectbox), `click_label`, `screenshot`; `page_path` (a page's URL path, from ui.navigation). They poll in the
  page every POLL_MS; assertions stay `expect(...)` in the tests.

On a busy machine a click's rerun may start hundreds of milliseconds after the click, so "the app is idle"
right after a click proves nothing (it is still idle from before). After an action, wait for the STATE that
proves it happened (a text, an element count, a URL) with `expect(...)`; `rerun` only keeps the next action
from racing the current run. Every wait has a generous timeout (WAIT_MS): a pass takes a fraction of it.

Left out on purpose: pytest. Fixtures live in the test file; this module is plain Python so the
benchmark can use it too.
"""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def chromium_problem() -> str | None:
    """None when /usr/bin/chromium is usable, else a sentence saying how to get it."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return (f"The browser tests need Debian's chromium at {CHROMIUM}: run 'apt-get install -y chromium' "
                "(or 'make browser'). Never 'playwright install': browser downloads are blocked.")
    return None


def chromium_missing() -> bool:
    """For a benchmark's main: True, with chromium_problem's sentence on stderr, when Chromium cannot be used."""
    problem = chromium_problem()
    if problem:
        print(problem, file=sys.stderr)
    return bool(problem)


def launch_chromium(p, **kwargs):
    """A headless Chromium from the sync_playwright() handle `p`."""
    return p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, **kwargs)


# ---------------------------------------------------------------- the server

def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """True when nothing listens on host:port (a stale server would still answer /_stcore/health)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.2)
        if s.connect_ex((host, port)) == 0:
            return False
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
        if port_is_free(port, host):
            return port
    raise RuntimeError("No free TCP port found on 127.0.0.1.")


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as r:
            return r.status == 200 and r.read().strip() == b"ok"
    except (urllib.error.URLError, OSError):
        return False


class StreamlitServer:
    """`with StreamlitServer() as srv: page.goto(srv.url + "/ask")` — a fresh process, cold caches."""

    def __init__(self, app: Path = ROOT / "app.py", port: int | None = None, timeout: float = 120.0,
                 options: dict | None = None):
        self.app, self.timeout = Path(app), timeout
        self.options = dict(options or {})       # more `streamlit run` options: {"server.disconnectedSessionTTL": 5}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log_path: Path | None = None

    def start(self) -> "StreamlitServer":
        """Launch and wait until /_stcore/health answers."""
        return self.launch().wait_ready()

    def launch(self) -> "StreamlitServer":
        """Start the process without waiting for it (call wait_ready before use)."""
        if not port_is_free(self.port):
            raise RuntimeError(f"Port {self.port} is already in use (a stale streamlit?): pick another port.")
        fd, log = tempfile.mkstemp(prefix="streamlit-", suffix=".log")
        self.log_path = Path(log)
        cmd = [sys.executable, "-m", "streamlit", "run", str(self.app),
               "--server.port", str(self.port), "--server.address", "127.0.0.1",
               "--server.headless", "true", "--browser.gatherUsageStats", "false",
               # other people edit the sources while the tests run: no "source changed" banner, no rerun
               "--server.fileWatcherType", "none", "--server.runOnSave", "false"]
        cmd += [arg for name, value in self.options.items() for arg in (f"--{name}", str(value))]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(cmd, cwd=self.app.parent, stdout=fd, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        os.close(fd)
        return self

    def wait_ready(self) -> "StreamlitServer":
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                log_tail = self.log()
                self.stop()
                raise RuntimeError(f"streamlit exited with code {self.proc.returncode}:\n{log_tail}")
            if _healthy(self.url):
                return self
            time.sleep(0.05)          # polling a subprocess, not waiting on the page
        log_tail = self.log()
        self.stop()
        raise RuntimeError(f"streamlit did not answer {self.url}/_stcore/health within {self.timeout:.0f} s:\n{log_tail}")

    def log(self, chars: int = 4000) -> str:
        if self.log_path and self.log_path.exists():
            return self.log_path.read_text(errors="replace")[-chars:]
        return ""

    def stop(self) -> None:
        """Terminate the process group we started (streamlit and anything it spawned)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        if self.log_path:
            self.log_path.unlink(missing_ok=True)
            self.log_path = None

    def __enter__(self) -> "StreamlitServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# ---------------------------------------------------------------- page helpers

APP_ROOT = '[data-testid="stApp"]'
MAIN = '[data-testid="stMain"]'
POLL_MS = 40          # page-side polling interval of the waits below (expect's own backoff grows to 500 ms)
WAIT_MS = 60_000      # default timeout of every wait: generous for a 2-core machine kept busy by other work
OPEN_MS = 10_000      # how long a selectbox list may take to open before choose() opens it again
SLOW_MS = 120_000     # for what computes a lot at once (a model run over the golden set, indexing an upload)

# Streamlit's own flag on its root element: "initial", "running", "notRunning", ...
_IDLE = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.dataset.testScriptState === 'notRunning'
        && !document.querySelector('[data-testid="stStatusWidget"]');
}"""
# counts the script runs that END from now on: a MutationObserver on Streamlit's flag, reading each record's
# old value (a run can start and end before the observer's callback, so the current value is not enough);
# it watches the whole document, so a re-mounted app root is still seen
_TRACK = """() => {
    if (window.__stRuns === undefined) {
        window.__stRuns = 0;
        new MutationObserver(records => {
            for (const r of records) if (r.oldValue === 'running') window.__stRuns += 1;
        }).observe(document.documentElement, {subtree: true, attributes: true, attributeOldValue: true,
                                              attributeFilter: ['data-test-script-state']});
    }
    return window.__stRuns;
}"""
_RAN_SINCE = """(before) => {
    const app = document.querySelector('[data-testid="stApp"]');
    return window.__stRuns > before && !!app && app.dataset.testScriptState === 'notRunning'
        && !document.querySelector('[data-testid="stStatusWidget"]');
}"""


_LOADED = """() => !document.querySelector('[data-testid="stSkeleton"]')"""
# every chart of the page drawn: vega's <svg class="marks"> with mark groups, or its canvas; n = null: as many
# as the finished script run made (the run is over, so every chart element is there)
_CHARTS_DRAWN = """(n) => {
    const charts = document.querySelectorAll('[data-testid="stVegaLiteChart"]');
    const app = document.querySelector('[data-testid="stApp"]');
    const counted = n === null ? charts.length > 0 && !!app && app.dataset.testScriptState === 'notRunning'
                                 && !document.querySelector('[data-testid="stStatusWidget"]')
                               : charts.length === n;
    return counted && [...charts].every(c => c.querySelector(':scope > svg.marks g.role-mark, :scope > canvas'));
}"""


def wait_loaded(page, timeout: float = WAIT_MS) -> None:
    """Wait until every element has its code loaded (Streamlit shows skeletons while widgets' code loads)."""
    page.wait_for_function(_LOADED, polling=POLL_MS, timeout=timeout)


def wait_charts(page, n: int | None = None, timeout: float = WAIT_MS) -> None:
    """Wait until the page has n Vega-Lite charts, all drawn; n=None: every chart of the finished run (call it
    once the page shows it is the right one, e.g. its title: the page before may have charts too)."""
    page.wait_for_function(_CHARTS_DRAWN, arg=n, polling=POLL_MS, timeout=timeout)


def wait_idle(page, timeout: float = WAIT_MS) -> None:
    """Wait until no script run is going on. Polls every POLL_MS (Playwright's expect backs off to 500 ms
    between polls, which adds up over a suite). Use it after a page load, or once `expect` has seen the
    state an action leads to: right after a click the rerun may not have started yet, and the app is still
    idle from before."""
    page.wait_for_function(_IDLE, polling=POLL_MS, timeout=timeout)


class rerun:
    """`with rerun(page): button.click()` returns once the run that the action triggered is over.

    It counts the runs that END after the block starts (Streamlit's own flag, watched by a MutationObserver),
    so it never mistakes the idle app of before the click for the end of the rerun. It keeps the next action
    from racing the current run; it proves nothing about the result: follow it with an `expect(...)` on
    the state the action leads to."""

    def __init__(self, page, timeout: float = WAIT_MS):
        self.page, self.timeout = page, timeout

    def __enter__(self):
        self.before = self.page.evaluate(_TRACK)
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            from playwright.sync_api import TimeoutError as PlaywrightTimeout
            try:
                self.page.wait_for_function(_RAN_SINCE, arg=self.before, polling=POLL_MS, timeout=self.timeout)
            except PlaywrightTimeout:     # a run too quick for the observer to see: settle for an idle app
                wait_idle(self.page, self.timeout)


def page_path(title: str) -> str:
    """The URL path of the page titled `title` in ui.navigation's list: 'Your data' -> '/your_data'
    (the file's name); the entry page is '/'."""
    from ui import navigation
    specs = list(navigation.PAGES)
    spec = next(p for p in specs if p.title == title)
    return "/" if spec == specs[0] else "/" + Path(spec.script).stem


def upload(page, label: str, files, settle: bool = True) -> None:
    """Put files (paths, or Playwright payloads {name, mimeType, buffer}) into the file uploader labelled
    `label`, and wait until the uploader lists every one of them (the browser has sent them). What the page
    does with them is for the caller to `expect`.

    With `settle` (the default) it returns once the run the upload triggers is over: a page may put something
    new above its next uploader in that run (Your data shows the documents' table above the golden set's), and
    files set into an uploader while that run replaces it are lost. `settle=False` is for a test that acts
    during that run (Cancel while the files are read)."""
    from playwright.sync_api import expect
    files = list(files)
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text=label)
    payload = [f if isinstance(f, dict) else str(f) for f in files]
    wait_idle(page)
    if settle:
        with rerun(page):
            box.locator('input[type="file"]').set_input_files(payload)
    else:
        box.locator('input[type="file"]').set_input_files(payload)
    for name in [f["name"] if isinstance(f, dict) else Path(f).name for f in files]:
        # a file's chip offers "Cancel upload of NAME" while it uploads, "Remove NAME" once the server has it
        expect(box.get_by_role("button", name=f"Remove {name}", exact=True)).to_be_attached(timeout=WAIT_MS)


def choose(page, label: str, option: str, within=None, typed: bool = False, exact: bool = True,
           timeout: float = WAIT_MS) -> None:
    """Choose `option` in the selectbox labelled exactly `label` (inside `within`, a locator such as the sidebar or
    the main area, else anywhere on the page), wait for the run the choice starts, then for the box to show it.

    typed: type `option` into the box first (it filters the list; a click alone has left a list shut on a busy
    machine). exact: click the option named `option` exactly; else the first one holding it."""
    from playwright.sync_api import expect
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    box = (within or page).get_by_role("combobox", name=label, exact=True)
    found = page.get_by_role("option", name=option, exact=True) if exact else \
        page.get_by_role("option").filter(has_text=option).first
    deadline = time.monotonic() + timeout / 1000
    while True:
        # a run that ends just after the click redraws the box and shuts its list (seen in CI on the Ablations
        # page): open it again once the app is idle, until the option shows or the time is up
        wait_idle(page, timeout=timeout)
        box.scroll_into_view_if_needed()          # at the window's bottom edge a list did not open
        box.click()
        if typed:
            box.fill(option)
        try:
            found.wait_for(state="visible", timeout=min(OPEN_MS, max(1, (deadline - time.monotonic()) * 1000)))
            break
        except PlaywrightTimeout:
            if time.monotonic() >= deadline:
                raise
            page.keyboard.press("Escape")
    with rerun(page, timeout=timeout):
        found.click()
    expect(box).to_have_value(re.compile(re.escape(option)), timeout=timeout)


def click_label(page, text: str) -> None:
    """Click a checkbox/toggle by its label text, the whole text ('Rerank' is not the sidebar's 'Reranker');
    the toolbar intercepts clicks on the input itself."""
    whole = re.compile(rf"^\s*{re.escape(text)}\s*$")
    page.locator('[data-testid="stWidgetLabel"], label').filter(has_text=whole).first.click()


def screenshot(page, name: str) -> Path:
    """A full-height PNG in artifacts/screenshots/ (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# true once the Ask page shows the results of a question: the labels of its spans (S1 first), its prompt, an
# outcome badge, and nothing stale (a page function for page.wait_for_function, arg [question, labels])
RESULTS_SHOWN = """([question, labels]) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.dataset.testScriptState !== 'notRunning') return false;
    const main = document.querySelector('[data-testid="stMain"]');
    if (main.querySelector('[data-stale="true"], [data-testid="stSkeleton"]')) return false;
    const rows = [...main.querySelectorAll('[data-testid="stMarkdownContainer"] p')]
        .map(p => p.innerText.trim()).filter(t => /^\\S+ · chunk \\d+$/.test(t));
    if (rows.join('|') !== labels.join('|')) return false;
    const prompt = [...main.querySelectorAll('[data-testid="stCode"]')].some(c => c.innerText.includes('QUESTION: ' + question));
    const verdict = [...main.querySelectorAll('.stMarkdownBadge')]
        .some(b => /^(answered|wrong answer|not confirmed|grounded|wrong source|refused|abstained)$/.test(b.innerText.trim()));
    return prompt && verdict;
}"""
