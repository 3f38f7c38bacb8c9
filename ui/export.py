"""Downloads: charts as PNG or SVG (offline, with vl-convert), a whole report as HTML or Markdown, a dataset back,
and every table as a CSV a spreadsheet opens without running anything (`safe_csv`).

Left out on purpose: PDF (print the HTML report from the browser) and any upload to a server.
"""
from __future__ import annotations

import base64
import html

import pandas as pd
import vl_convert as vlc

from rag_core.data.golden_csv import golden_records
from rag_core.evaluation import report
from rag_core.text.spreadsheet import guard
from ui import charts


PNG_WIDTH = 720        # px of the plot area: about the width of a report page
PNG_SCALE = 2          # image pixels per px: 720 px -> about 1,500 pixels wide, sharp when printed
PNG_FONT = 13          # px of axis and legend text (Vega-Lite's 10-11 px is small on paper)


def safe_csv(df: pd.DataFrame) -> bytes:
    """The table as UTF-8 CSV bytes for a download, every text cell (and column name) made safe by `guard`.

    Lines end with CRLF (RFC 4180), so that a cell holding a lone CR is quoted instead of starting a new row.
    """
    out = df.rename(columns=lambda c: guard(str(c))).map(guard)
    return out.to_csv(index=False, lineterminator="\r\n").encode("utf-8")


def golden_frame(rows, answer_column: bool = False) -> pd.DataFrame:
    """Golden rows as their CSV is written: question, doc, anchor, and answer when a row has an answer key (or
    always, with `answer_column`), and reply when a row has one."""
    columns, records = golden_records(rows, answer_column)
    return pd.DataFrame(records, columns=list(columns))


def chart_png(chart) -> bytes:
    """The chart as a PNG at a readable size: an explicit width, larger text, scale 2."""
    sized = chart.properties(width=PNG_WIDTH).configure_axis(labelFontSize=PNG_FONT, titleFontSize=PNG_FONT + 1) \
        .configure_legend(labelFontSize=PNG_FONT, titleFontSize=PNG_FONT + 1)
    return vlc.vegalite_to_png(sized.to_json(), scale=PNG_SCALE)


def chart_svg(chart) -> str:
    return vlc.vegalite_to_svg(chart.to_json())


def report_html(wb, frames: dict[str, pd.DataFrame]) -> str:
    """A standalone HTML page: the corpus summary, then each table with its chart (PNG inline) and caption."""
    c = report.corpus_summary(wb)
    drawn = charts.for_tables(frames)
    parts = [f"<h1>Open Book report: {html.escape(str(c['name']))}</h1>",
             f"<p>{c['documents']} documents, {c['total_words']} words; {c['valid_questions']} of {c['questions']} "
             f"golden questions valid, {c['excluded_questions']} excluded.</p>"]
    parts += [f"<p>Excluded: {html.escape(p['question'])} — {html.escape(p['reason'])}</p>" for p in c["excluded"]]
    for name, df in frames.items():
        parts.append(f"<h2>{html.escape(name)}</h2>")
        if name in drawn:
            chart, caption = drawn[name]
            png = base64.b64encode(chart_png(chart)).decode()
            parts.append(f'<img alt="{html.escape(name)} chart" src="data:image/png;base64,{png}" style="max-width:100%">')
            parts.append(f"<p>{html.escape(caption)}</p>")
        parts.append(df.to_html(index=False, escape=True, float_format=lambda v: f"{v:.3f}", border=0))
    style = ("<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}"
             "table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left}</style>")
    return f"<!doctype html><html><head><meta charset='utf-8'><title>Open Book report</title>{style}</head><body>" \
           + "\n".join(parts) + "</body></html>"
