"""Glossary: every term the dashboard shows, in plain language."""
import streamlit as st

from ui import widgets

st.title("Glossary")
for term, meaning in widgets.GLOSSARY.items():
    st.markdown(f"#### {term}\n{meaning}")
