"""The model server settings, on the Model page: protocol, URL, model, timeout, window, citation grammar, CPU threads
(Ollama's num_thread: 1 at first on a machine with two cores), key; and, once a check has listed the server's models,
a list to choose the model from.

The settings live in this browser session only (never in the URL); the API key is a password field,
never echoed back: leaving it empty keeps the key already set. The server URL's secrets (user:password@, query
values, fragment) never come back either: once a button is pressed the field shows the URL masked
(text.mask_secrets), the URL typed is kept on the server, and the masked URL sent back unchanged stands for it.
"Check connection" asks the server for its models (one request, only when pressed) and says whether the model
typed is among them; the names listed are kept in this session (for that protocol and URL) and offered in a list whose
choice fills the Model field.
Everything a server sends (model names, error bodies) is shown as plain text, never as Markdown.

Left out on purpose: a list instead of the Model field (the name stays a text field, so a server that cannot list
its models still works) and checking at every rerun (it would cost a request each time).
"""
import difflib
import os

import streamlit as st

from rag_core.generation.citation_grammar import GRAMMARS
from rag_core.generation.llm import PROTOCOLS, LLMConfig, LLMError, list_models
from rag_core.text.credentials import mask_secrets
from ui import model_config
from ui.widgets import plain

LIST_TIMEOUT_S = 10.0    # a model list comes back at once: a check never waits as long as an answer may


def suggested_threads() -> int:
    """The form's first thread count: 1 on a machine with at most two cores, else 0 (the server's own choice)."""
    return 1 if (os.cpu_count() or 1) <= 2 else 0


def close_names(model: str, names: list[str], n: int = 5) -> list[str]:
    """The names that look like the one typed: those containing it, then difflib's closest.

    close_names("qwen2.5", ["llama3.2:3b", "qwen2.5:7b", "qwen2:1.5b"]) -> ["qwen2.5:7b", "qwen2:1.5b"]
    """
    containing = [name for name in names if model.lower() in name.lower()]
    similar = difflib.get_close_matches(model, names, n=n, cutoff=0.5)
    return list(dict.fromkeys(containing + similar))[:n]


def show_check(protocol: str, url: str, model: str, timeout_s: float, api_key: str | None) -> None:
    """The server's models as plain text, whether the model typed is among them, or why none came back."""
    try:
        names = list_models(url, protocol, min(timeout_s, LIST_TIMEOUT_S), api_key)
    except (ValueError, LLMError) as e:
        st.error(plain(e))
        return
    st.session_state["llm_form_listed"] = (protocol, url, tuple(names))     # offered by `pick` until the URL changes
    if not names:
        st.warning("The server answers but lists no model: download one first (for Ollama: ollama pull NAME).")
        return
    st.success(f"Connected: the server lists {len(names)} model{'s' if len(names) > 1 else ''}.")
    st.code("\n".join(names), language=None, height=min(40 + 22 * len(names), 240))
    if not model:
        st.info("Type one of these names under Model, then press Use this model.")
    elif model not in names:
        close = close_names(model, names)
        st.warning(plain(f"This server has no model named {model!r}. "
                         + (f"Close names: {', '.join(close)}." if close else "Copy a name from the list above.")))


def _take_picked() -> None:
    st.session_state["llm_form_model"] = st.session_state["llm_form_pick"]


def pick(protocol: str, url: str) -> None:
    """The models the last check listed for this protocol and URL, as a list whose choice fills the Model field."""
    listed_protocol, listed_url, names = st.session_state.get("llm_form_listed", (None, None, ()))
    if names and (listed_protocol, listed_url) == (protocol, url):
        typed = st.session_state.get("llm_form_model", "")
        st.selectbox("Choose one of the server's models", names, key="llm_form_pick", on_change=_take_picked,
                     index=names.index(typed) if typed in names else None, placeholder="the models it listed",
                     help="Fills the Model field above; then press Use this model.")


def hide_typed_secrets() -> None:
    """On either button, before the page runs: a URL typed with secrets is kept in this session and the field
    shows it masked, so the browser never gets the secrets back (as the database URL field empties on Enter)."""
    typed = st.session_state.get("llm_form_url", "").strip()
    shown = mask_secrets(typed, typed)
    if shown != typed:
        st.session_state["_llm_form_url_typed"] = typed
        st.session_state["llm_form_url"] = shown


def render() -> None:
    cfg = model_config.llm_config()
    with st.form("model_form", border=False):
        left, right = st.columns(2)          # on a phone, one above the other
        protocol = left.selectbox("Protocol", PROTOCOLS, index=PROTOCOLS.index(cfg.protocol) if cfg else 0,
                                  format_func={"ollama": "Ollama", "openai": "OpenAI-compatible"}.get,
                                  key="llm_form_protocol",
                                  help="Ollama's /api/generate, or /v1/chat/completions (llama.cpp server, vLLM, "
                                       "LM Studio…).")
        shown_url = mask_secrets(cfg.base_url, cfg.base_url) if cfg else "http://127.0.0.1:11434"  # no secret back
        url = left.text_input("Server URL", value=shown_url,
                              key="llm_form_url",
                              help="Where the server listens, e.g. http://127.0.0.1:11434 for Ollama.")
        model = left.text_input("Model", value=cfg.model if cfg else "", placeholder="e.g. qwen2.5:7b",
                                key="llm_form_model",
                                help="The model's name on that server (Check connection lists them).")
        timeout = right.number_input("Timeout (s)", min_value=1.0, max_value=3600.0,
                                     value=float(cfg.timeout_s) if cfg else 60.0, key="llm_form_timeout",
                                     help="The longest a whole answer may take, from connecting to its last word.")
        num_ctx = right.number_input("Context window (tokens)", min_value=256, max_value=1_000_000, step=1024,
                                     value=int(cfg.num_ctx) if cfg else 16384, key="llm_form_num_ctx",
                                     help="Declared to Ollama as num_ctx; the prompt plus the answer must fit in it.")
        grammar = right.selectbox("Citation grammar", GRAMMARS, index=GRAMMARS.index(cfg.grammar) if cfg else 0,
                                  format_func={"off": "Off", "cite": "Every sentence cites a span (llama.cpp)"}.get,
                                  key="llm_form_grammar",
                                  help="For small local models that do not cite on their own: llama.cpp's server then "
                                       "lets the model write only sentences ending in [Sn], or NOT IN THE CONTEXT. "
                                       "OpenAI-compatible protocol only; other servers may refuse the field.")
        threads = right.number_input("CPU threads (Ollama)", min_value=0, max_value=256, step=1,
                                     value=int(cfg.threads) if cfg else suggested_threads(), key="llm_form_threads",
                                     help="Sent to Ollama as num_thread; 0 lets it choose. On a machine with two "
                                          "cores that runs other work, 1 answered faster than Ollama's own choice. "
                                          "llama.cpp's server takes its threads when started (llama-server -t 1).")
        key = left.text_input("API key (optional)", type="password", placeholder="empty: keep the current one",
                              key="llm_form_api_key",
                              help="Sent as a Bearer token. It is never shown, logged or put in a link.")
        buttons = st.container(horizontal=True)          # side by side, wrapping on a phone
        use = buttons.form_submit_button("Use this model", type="primary", key="llm_form_use",
                                        on_click=hide_typed_secrets)
        check = buttons.form_submit_button("Check connection", key="llm_form_check", on_click=hide_typed_secrets,
                                          help="Ask the server which models it has (nothing is saved).")
    url, model, api_key = url.strip(), model.strip(), key.strip() or (cfg.api_key if cfg else None)
    for known in (st.session_state.get("_llm_form_url_typed"), cfg.base_url if cfg else None):
        if known and url == mask_secrets(known, known):    # the masked URL sent back unchanged: secrets and all
            url = known
            break
    if use:
        try:
            st.session_state["llm_config"] = LLMConfig(protocol, url, model, float(timeout), api_key,
                                                       num_ctx=int(num_ctx), grammar=grammar,
                                                       threads=int(threads) if protocol == "ollama" else 0)
            st.session_state.pop("llm_config_problem", None)
        except ValueError as e:
            st.error(plain(e))
    if check:
        show_check(protocol, url, model, float(timeout), api_key)
    pick(protocol, url)
