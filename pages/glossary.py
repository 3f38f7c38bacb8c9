"""Glossary: every term the dashboard shows, in plain language."""
import streamlit as st

from ui import frame, glossary

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("Glossary")
for term, meaning in glossary.GLOSSARY.items():
    st.markdown(f"#### {term}\n{meaning}")
