"""The Model page never shows the password of a model server URL (http://user:password@host): not in the
'Model: ... at URL' line, not in the error a failed run shows. The page runs in AppTest against a real local
server (tests/fake_llm_server.py), nothing mocked."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fake_llm_server import start_server, stop_server
from rag_core.generation.llm import LLMConfig

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def model_page(cfg: LLMConfig) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["llm_config"] = cfg
    at.run()
    at.switch_page("pages/model.py").run()
    assert not at.exception
    return at


def everything(at: AppTest) -> str:
    """What the page shows, the sidebar's form fields aside (they hold what the user typed, to edit it)."""
    return " ".join(str(getattr(e, "value", "")) for e in [*at.main, *at.sidebar] if type(e).__name__ != "TextInput")


def test_the_model_line_and_errors_mask_the_password():
    srv, url = start_server()
    try:
        with_password = url.replace("http://", "http://ann:hunter2pw@")
        at = model_page(LLMConfig("ollama", with_password, "abstain", timeout_s=10))
        assert "ann:\\*\\*\\*@" in everything(at) or "ann:***@" in everything(at)   # plain() may escape *
        assert "hunter2pw" not in everything(at)
    finally:
        stop_server(srv)
    down = model_page(LLMConfig("ollama", "http://ann:hunter2pw@127.0.0.1:9", "abstain", timeout_s=5))
    down.button(key="model_run").click().run()
    assert not down.exception and down.error and "hunter2pw" not in everything(down)
