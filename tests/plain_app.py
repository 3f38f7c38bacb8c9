"""A Streamlit script for tests/test_e2e_markdown_escaper.py: every text of tests/plain_cases.py (the hand-made
cases, then 150 generated ones) made plain and drawn three ways, a warning, a caption and a paragraph, each text in
a container keyed case_<i>. Not a page of the app."""
import streamlit as st

from plain_cases import CASES, generated
from rag_core.text.markdown import plain

for i, text in enumerate(CASES + generated(150, seed=11)):
    with st.container(key=f"case_{i}"):
        st.warning(plain(text))
        st.caption(plain(text))
        st.markdown(plain(text))
