"""The model server's settings for this browser session, and its finished golden-set runs (never in a link).

    llm_config() -> LLMConfig or None     # set in the sidebar form, else from the environment or secrets.toml
    setting_problem() -> str or None       # why the environment's model settings cannot be used, naming the variable

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
        except ValueError as e:            # a bad setting is said (setting_problem), never read as "no model"
            st.session_state["llm_config"] = None
            st.session_state["llm_config_problem"] = str(e)
    return st.session_state["llm_config"]


def setting_problem() -> str | None:
    """Why the server's model settings (OPENBOOK_LLM_* or secrets.toml) cannot be used, or None; a model set up in
    the sidebar since then makes it moot."""
    llm_config()
    return None if st.session_state.get("llm_config") else st.session_state.get("llm_config_problem")


def model_runs() -> dict:
    """Finished golden-set runs of this session, by their settings: a rerun with the same settings is free."""
    return st.session_state.setdefault("model_runs", {})
