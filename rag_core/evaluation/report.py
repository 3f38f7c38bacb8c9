"""The article's tables as one report: a JSON object or Markdown text, computed live.

    report(wb, ["ceiling", "filter"]) -> {"corpus": {...sizes...}, "tables": {"ceiling": [{"k": 1, "recall": 0.389}, ...]}}

Tables measured over golden questions need at least one valid question; without any, `computable`
leaves them out (the verifier's fixed cases remain) and `compute` refuses them with a sentence saying why.

JSON schema: {"corpus": {name, documents, current, not_current, total_words, median_words, max_words,
questions, valid_questions, excluded_questions, trusted: [statuses], trust_note (null, or why nothing is trusted),
excluded: [{row, question, reason}]},
"setup": {retriever, reranker, rrf_k (hybrid only)}, "tables": {NAME: [row objects]}}; column names are those
of `tables` (snake_case of the article's headers).

Markdown carries no Markdown or HTML from the data: every text from a file, a name or a question goes through
`rag_core.text.markdown.plain` on one line (special characters escaped, addresses and e-mails as code), so `<img onerror=...>` or `![x](http://...)` in a
dataset name or a question is shown as written, never rendered.

Left out on purpose: rounding in JSON (values are full floats; Markdown shows three decimals) and
charts (the dashboard draws them).
"""
from __future__ import annotations

import json
import math

import pandas as pd

from rag_core.evaluation import tables as T
from rag_core.evaluation.workbench import Workbench
from rag_core.retrieval.retrievers import RRF_K
from rag_core.text.markdown import plain
from rag_core.text.messages import shorten

TABLE_NAMES = tuple(T.TABLES)
MODEL_TABLES = ("pipeline_model",)   # computed with a real model only (the command line's `model_tables`)
# tables measured over the valid golden questions: without any, they have nothing to count
NEEDS_QUESTIONS = tuple(n for n in TABLE_NAMES if n != "verifier_cases")


def parse_tables(spec: str | None) -> list[str]:
    """'ceiling,filter,ceiling' -> ['ceiling', 'filter']; None -> every table; ValueError naming the valid ones.

    A spec that names no table ('', ',,,') is an error, not an empty report. 'pipeline_model' (MODEL_TABLES) is
    accepted: the caller computes it with a real model, or refuses it without one.
    """
    if spec is None:
        return list(TABLE_NAMES)
    names = list(dict.fromkeys(n.strip() for n in spec.split(",") if n.strip()))
    if not names:
        raise ValueError(f"No table named in {spec!r}: give one or more of {', '.join(TABLE_NAMES)}, "
                         "separated by commas (or leave out --tables for all of them).")
    unknown = [n for n in names if n not in T.TABLES and n not in MODEL_TABLES]
    if unknown:
        raise ValueError(f"Unknown table {', '.join(map(repr, unknown))}: choose among {', '.join(TABLE_NAMES)} "
                         f"(and {', '.join(MODEL_TABLES)} with a real model).")
    return names


def computable(wb: Workbench, names) -> tuple[list[str], list[str]]:
    """(tables that can be computed, tables left out): without a valid golden question, only verifier_cases.

    ['ceiling', 'verifier_cases'] -> (both, []) with questions; (['verifier_cases'], ['ceiling']) without.
    """
    if wb.golden_check.valid:
        return list(names), []
    return [n for n in names if n not in NEEDS_QUESTIONS], [n for n in names if n in NEEDS_QUESTIONS]


def no_questions(wb: Workbench, names) -> str:
    """'ceiling, rerank need golden questions: <why, and the fix>.'"""
    if not wb.golden_check.rows:
        why = "add a golden set, a CSV with the columns question,doc,anchor (--golden FILE on the command line)"
    else:
        n, first = len(wb.golden_check.rows), wb.golden_check.problems[0]
        who = "the one golden question cannot" if n == 1 else f"none of the {n} golden questions can"
        why = (f"{who} be checked against this corpus ({'' if n == 1 else 'the first: '}{shorten(first.question)!r}: "
               f"{first.reason.rstrip('.')})")
    return f"{', '.join(names)} need{'s' if len(names) == 1 else ''} golden questions: {why}."


def corpus_summary(wb: Workbench) -> dict:
    row = T.corpus_sizes(wb).iloc[0].to_dict()
    return {"name": wb.corpus.name, **{k: _plain(v) for k, v in row.items()},
            "trusted": list(wb.trusted), "trust_note": wb.trust_note(),
            "excluded": [{"row": p.row, "question": p.question, "reason": p.reason} for p in wb.golden_check.problems]}


def _plain(v):
    """numpy scalars -> Python; NaN -> None (JSON has no NaN)."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def compute(wb: Workbench, names=TABLE_NAMES, extra: dict | None = None) -> dict[str, pd.DataFrame]:
    """name -> DataFrame for each requested table; `extra` adds tables computed elsewhere (a real model's).

    ValueError when a requested table needs golden questions and `wb` has none valid (see `computable`).
    """
    left_out = computable(wb, names)[1]
    if left_out:
        raise ValueError(no_questions(wb, left_out))
    wb.prepare(dict.fromkeys(c for name in names for c in T.chunkers_of(name)))   # one pass, one count of what is new
    out = {}
    for name in names:
        if name == "cut_summary" and "cut_anchors" in out:
            out[name] = T.cut_summary(wb, cuts=out["cut_anchors"])
        else:
            out[name] = T.TABLES[name](wb)
    out.update(extra or {})
    return out


def setup_summary(wb: Workbench) -> dict:
    """The retrieval options the tables were computed with: {"retriever": "hybrid", "reranker": "lexical", "rrf_k": 60}."""
    out = {"retriever": wb.retriever, "reranker": wb.reranker}
    if wb.retriever == "hybrid":
        out["rrf_k"] = RRF_K
    return out


def to_json(wb: Workbench, frames: dict[str, pd.DataFrame]) -> str:
    doc = {"corpus": corpus_summary(wb), "setup": setup_summary(wb),
           "tables": {name: [{k: _plain(v) for k, v in row.items()} for row in df.to_dict("records")]
                      for name, df in frames.items()}}
    return json.dumps(doc, indent=1, ensure_ascii=False)


def markdown_table(df: pd.DataFrame) -> str:
    """A DataFrame as a Markdown table; floats with three decimals, every text cell and header plain, on one line."""
    def cell(v):
        v = _plain(v)
        if v is None:
            return ""
        if isinstance(v, float):
            return f"{v:.3f}"
        return plain(v, one_line=True)
    lines = ["| " + " | ".join(plain(c, one_line=True) for c in df.columns) + " |", "|" + "---|" * len(df.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def to_markdown(wb: Workbench, frames: dict[str, pd.DataFrame]) -> str:
    c = corpus_summary(wb)
    head = [f"# Open Book report: {plain(c['name'], one_line=True)}", "",
            f"{c['documents']} document{'s' if c['documents'] != 1 else ''} ({c['current']} current, {c['not_current']} with another status), "
            f"{c['total_words']} words (median {c['median_words']} per document, max {c['max_words']}); "
            f"{c['valid_questions']} of {c['questions']} golden questions valid, {c['excluded_questions']} excluded."]
    if (wb.retriever, wb.reranker) != ("hashing", "lexical"):       # the article's setup goes without saying
        rrf = f" (reciprocal rank fusion of bm25 and minilm, constant {RRF_K})" if wb.retriever == "hybrid" else ""
        head.append(f"Retriever: {wb.retriever}{rrf}; reranker: {wb.reranker}.")
    if c["trust_note"]:
        head.append(plain(c["trust_note"], one_line=True))
    elif wb.trust_chosen:
        head.append(f"Trusted statuses: {plain(', '.join(c['trusted']), one_line=True)}.")
    for p in c["excluded"]:
        head.append(f"- excluded: {plain(repr(p['question']), one_line=True)}: {plain(p['reason'], one_line=True)}")
    parts = ["\n".join(head)]
    for name, df in frames.items():
        parts.append(f"## {name}\n\n{markdown_table(df)}")
    return "\n\n".join(parts) + "\n"
