"""The model server's settings for this browser session, and its finished golden-set runs (never in a link).

    llm_config() -> LLMConfig or None     # set in the sidebar form, else from the environment or secrets.toml

Left out on purpose: the form itself (ui.model_form) and any request to the server.
"""
from __future__ import annotations

import streamlit as st

from rag_core.generation.llm import config_from_env


def _secrets() -> dict:
    try:
        return dict(st.secrets)
    except Exception:           # no secrets.toml: the environment alone configures the model
        return {}


def llm_config():
    """This session's model settings (set on the Model page), else those of the environment or secrets.toml."""
    if "llm_config" not in st.session_state:
        try:
            st.session_state["llm_config"] = config_from_env(secrets=_secrets())
        except ValueError:
            st.session_state["llm_config"] = None
    return st.session_state["llm_config"]


def model_runs() -> dict:
    """Finished golden-set runs of this session, by their settings: a rerun with the same settings is free."""
    return st.session_state.setdefault("model_runs", {})
