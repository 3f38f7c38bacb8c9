"""The Overview's 'Reading' sentence, from the filter table: a pure function of the DataFrame, no Streamlit, under
the promises of ui.captions (figures at the precision shown, compared at it, "n/a" compared with nothing).

Left out on purpose: the Overview's metrics and chart (pages/overview.py, ui/charts.py).
"""
from __future__ import annotations

import pandas as pd

from ui.captions import LOW_RANKING_GAP
from ui.figures import count, share, shown


def reading(df: pd.DataFrame, quote=str) -> str:
    """The Overview's 'Reading' sentence, from the filter table: row 0 without the filter, row 1 with it."""
    if df.empty:
        return "Reading: nothing to read, the filter table is empty."
    base = df.iloc[0]
    r1, r3, label = shown(base.recall_at_1), shown(base.recall_at_3), quote(base["filter"])
    if pd.isna(r1) or pd.isna(r3) or r1 > r3:
        text = f"Reading: with {label} the ceiling is **{share(r3)}** at k = 3 and **{share(r1)}** at k = 1."
    elif r1 == r3:
        text = (f"Reading: with {label} the ceiling is **{share(r1)}** at k = 1 and at k = 3: the best chunk already "
                "holds every anchor the three best hold.")
    else:
        text = (f"Reading: with {label} the ceiling is **{share(r3)}** at k = 3 but only **{share(r1)}** at k = 1"
                + (" — the retriever finds the answer but ranks it low, which sends you to the filter and the "
                   "reranker, not to the prompt." if round(r3 - r1, 3) >= LOW_RANKING_GAP else "."))
    if len(df) < 2:
        return text
    on, n = df.iloc[1], df.attrs.get("questions")
    c_off, c_on, of = base.contradicted_top_3, on.contradicted_top_3, f" of {int(n)}" if n else ""
    questions = "question" if not pd.isna(c_on) and int(c_on) == 1 and not n else "questions"
    sees = "sees" if not pd.isna(c_on) and int(c_on) == 1 else "see"
    if pd.isna(c_on) or pd.isna(c_off):
        text += (f" With {quote(on['filter'])}, **{count(c_on)}**{of} {questions} {sees} a contradicting chunk among the "
                 f"three best (against {count(c_off)} with {label}).")
    elif c_on == 0 and c_off == 0:
        text += f" No question sees a contradicting chunk among the three best, with {label} or with {quote(on['filter'])}."
    elif c_on == 0:
        text += (f" With {quote(on['filter'])}, no question sees a contradicting chunk among the three best "
                 f"(against **{count(c_off)}**{of} with {label}).")
    else:
        still = " still" if c_on <= c_off else ""
        text += (f" With {quote(on['filter'])}, **{count(c_on)}**{of} {questions}{still} {sees} a contradicting chunk "
                 f"among the three best (against {count(c_off)} with {label}).")
    return text
