"""The Compare page's pieces: the setups editor's columns (choices in words), and the per-question grid with links.

Left out on purpose: running the setups (rag_core.evaluation.compare) and the run history (ui.data, the store).
"""
from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from rag_core.evaluation.losses import COLOURS
from rag_core.retrieval.chunkers import KINDS
from rag_core.retrieval.engines.registry import ENGINES
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS
from ui import widgets

KIND_NAMES = {"fixed": "Fixed window", "structure": "By structure", "sentence": "By sentence"}
GENERATOR_NAMES = {"scripted": "Scripted generator", "model": "The model (sidebar)"}
RETRIEVER_NAMES = {"hashing": "Hashing (the article's)", "bm25": "BM25", "minilm": "MiniLM (trained encoder)",
                   "hybrid": "Hybrid (BM25 + MiniLM)"}
RERANKER_NAMES = {"lexical": "Lexical (the article's)", "dense": "MiniLM similarity (bi-encoder)"}
ENGINE_NAMES = {"memory": "In-process index", "postgres": "PostgreSQL (exact)", "postgres-hnsw": "PostgreSQL, approximate (HNSW)"}
CHOICES = {"retriever": (RETRIEVERS, RETRIEVER_NAMES), "reranker": (RERANKERS, RERANKER_NAMES),
           "engine": (ENGINES, ENGINE_NAMES)}


def _default(v):
    """A cell's value as a column default (numpy scalars and NaN made plain)."""
    if isinstance(v, (list, tuple)):
        return list(v)
    if v is None or (isinstance(v, float) and v != v):
        return None
    return v.item() if hasattr(v, "item") else v


def editor_columns(first: pd.Series, statuses: list, options: list) -> dict:
    """Column settings of the setups editor: every choice from a list, named in words; a new row starts with the
    first row's values."""
    d = {c: _default(first.get(c)) for c in first.index}
    return {"name": st.column_config.TextColumn(required=True, max_chars=40, default="another setup"),
            "chunker": st.column_config.SelectboxColumn(options=list(KINDS), format_func=KIND_NAMES.get,
                                                        default=d.get("chunker")),
            "size": st.column_config.NumberColumn(min_value=1, max_value=2000, step=1, default=d.get("size")),
            "overlap": st.column_config.NumberColumn(min_value=0, max_value=1999, step=1, default=d.get("overlap"),
                                                     help="Not used by 'By structure'."),
            "candidates": st.column_config.NumberColumn(min_value=1, max_value=500, step=1, default=d.get("candidates")),
            "k": st.column_config.NumberColumn(min_value=1, max_value=50, step=1, default=d.get("k")),
            "statuses": st.column_config.MultiselectColumn("allowed statuses", options=statuses,
                                                           default=d.get("statuses"), format_func=str,
                                                           help="Every status selected: no filter."),
            "rerank": st.column_config.CheckboxColumn(default=bool(d.get("rerank"))),
            "generator": st.column_config.SelectboxColumn(options=["scripted", "model"], format_func=GENERATOR_NAMES.get,
                                                          default=d.get("generator")),
            **{o: st.column_config.SelectboxColumn(options=list(CHOICES[o][0]), format_func=CHOICES[o][1].get,
                                                   default=d.get(o) or None)
               for o in options if o in CHOICES}}


def grid_table(result, setups, statuses: list, dataset_key: str, keep_stages, needle: str):
    """The per-question grid: per setup 'rank · stage' (coloured by stage) and a link opening Ask with that setup."""
    grid = result.grid
    table = pd.DataFrame({"question": grid.question, "doc": grid.doc})
    for s in setups:
        ranks, stages = grid[f"{s.name} rank"], grid[f"{s.name} stage"]
        table[s.name] = [f"{'—' if pd.isna(r) else int(r)} · {st_}" + (" · untrusted above" if o else "")
                         for r, st_, o in zip(ranks, stages, grid[f"{s.name} outranked"])]
        table[f"open {s.name}"] = ["ask?" + urlencode({**s.link_params(q, statuses), "data": dataset_key})
                                   for q in grid.question]
    mask = pd.Series(True, index=table.index)
    if keep_stages:
        mask &= pd.concat([grid[f"{s.name} stage"].isin(keep_stages) for s in setups], axis=1).any(axis=1)
    if needle:
        mask &= table.question.str.contains(needle, case=False, regex=False)
    names = [s.name for s in setups]
    colour = {n: [COLOURS[str(x)] for x in grid[f"{n} stage"]] for n in names}     # row -> its stage's colour

    def style(col):           # by the stage itself, not by reading the cell's text back
        return [f"color: {colour[col.name][i]}; font-weight: 600" for i in col.index] if col.name in colour \
            else [""] * len(col)

    st.dataframe(table[mask].style.apply(style), hide_index=True, width="stretch",
                 column_config={f"open {n}": st.column_config.LinkColumn(f"open {n}", display_text="open in Ask")
                                for n in names})
