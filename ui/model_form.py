"""The model server settings, shown in the sidebar of every page: protocol, URL, model, timeout, key, window.

The settings live in this browser session only (never in the URL); the API key is a password field,
never echoed back: leaving it empty keeps the key already set.
Left out on purpose: listing the server's models (it would need a request at every rerun).
"""
import streamlit as st

from rag_core.llm import PROTOCOLS, LLMConfig
from ui import state


def render() -> None:
    cfg = state.llm_config()
    with st.form("model_form", border=False):
        protocol = st.selectbox("Protocol", PROTOCOLS, index=PROTOCOLS.index(cfg.protocol) if cfg else 0,
                                format_func={"ollama": "Ollama", "openai": "OpenAI-compatible"}.get,
                                help="Ollama's /api/generate, or /v1/chat/completions (llama.cpp server, vLLM, "
                                     "LM Studio…).")
        url = st.text_input("Server URL", value=cfg.base_url if cfg else "http://127.0.0.1:11434",
                            help="Where the server listens, e.g. http://127.0.0.1:11434 for Ollama.")
        model = st.text_input("Model", value=cfg.model if cfg else "", placeholder="e.g. qwen2.5:7b",
                              help="The model's name on that server (`ollama list` shows them).")
        timeout = st.number_input("Timeout (s)", min_value=1.0, max_value=3600.0,
                                  value=float(cfg.timeout_s) if cfg else 60.0,
                                  help="How long to wait for the server to answer, or for the next piece of an answer.")
        num_ctx = st.number_input("Context window (tokens)", min_value=256, max_value=1_000_000, step=1024,
                                  value=int(cfg.num_ctx) if cfg else 16384,
                                  help="Declared to Ollama as num_ctx; the prompt plus the answer must fit in it.")
        key = st.text_input("API key (optional)", type="password", placeholder="empty: keep the current one",
                            help="Sent as a Bearer token. It is never shown, logged or put in a link.")
        if st.form_submit_button("Use this model", type="primary"):
            try:
                st.session_state["llm_config"] = LLMConfig(protocol, url.strip(), model.strip(), float(timeout),
                                                           key.strip() or (cfg.api_key if cfg else None),
                                                           num_ctx=int(num_ctx))
            except ValueError as e:
                st.error(str(e))
