"""The sidebar's line on MiniLM's forward pass, under the retriever when MiniLM is used: which one computes the
active dataset's vectors and how close it is to the numpy reference; and, when the fast path was asked for but
cannot run (onnxruntime missing, an unknown OPENBOOK_ENCODER), a warning saying why and what runs instead.

Left out on purpose: choosing the path here (OPENBOOK_ENCODER is the server's, as the data folder; see README).
"""
import streamlit as st

from rag_core.retrieval import encoder_path
from ui import datasets
from ui.widgets import plain, warn


def render() -> None:
    uses_model = (st.session_state.get("retriever") in ("minilm", "hybrid")
                  or st.session_state.get("reranker") == "dense")
    if not uses_model:
        return
    runs = encoder_path.resolve(encoder_path.chosen(bundled=not datasets.dataset().uploaded))
    st.caption(plain(encoder_path.describe(runs.path)))
    if runs.note:
        warn(runs.note)
