"""Every caption is true for any table: checked against hundreds of generated tables per caption function.

The tables are generated hypothesis-style with plain `random` and fixed seeds (no extra dependency): random row
counts (0 rows, 1 row, several), values drawn from a small pool so that ties are frequent, tables where every value
is equal, NaN cells, names with Markdown and HTML in them and digits inside them.

Each caption is checked in two ways:
- traceability: every number it quotes is a cell of its table at the precision the pages show (share 0.389,
  count 18, percent 21.3), or a derived count the test allows by name (the questions in df.attrs); and within a
  sentence, every number belongs to a row that the sentence names (by its label, "k = 3" or "At 40 words");
- meaning: best and lowest are the real extremes, ties are said as ties with the tie-break named, one row is
  never best, all-equal tables say so, claims ("the gap", "still") appear only when the numbers support them.

Then the charts: they never fail on those tables, every group has a labelled legend or axis, counts sit on
integer axes, the overlap legend draws its dashes, exported PNGs are large enough to read. And the pages: the
Ablations and Overview pages show exactly these captions, and the notes under the titles name the settings used.
"""
from __future__ import annotations

import inspect
import math
import numbers
import random
import re
import struct
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from rag_core.evaluation import tables
from rag_core.evaluation.losses import STAGES
from ui import captions, charts, export, overview_reading, table_notes
from rag_core.text.messages import listing
from ui.figures import count, share, shown
from ui.widgets import plain, readable

N_TABLES = 300          # generated tables per caption function
N_CHARTED = 40          # of which the first ones are also drawn (an Altair chart costs ~40 ms to build)
COUNTS = {"k", "chunks", "size", "ovl", "trials", "sizes", "cut_without_overlap", "cut_with_overlap",
          "chunks_without_overlap", "chunks_with_overlap", "example_size", "contradicted_top_3", "chunks_excluded",
          "runs", "repetitions", "anchored_right_source", "anchored_wrong_source", "refused", "abstained",
          "cut_without_ovl", "cut_with_20_percent", "chunks_without_ovl", "chunks_with_20_percent",
          "answered", "wrong_source", "wrong_answer", "not_confirmed"}
PERCENTS = {"overlap_cost_percent"}                     # shown with one decimal, e.g. 21.3%
# names with Markdown, HTML and digits in them, none of them a phrase of the captions' own (a name inside another
# name is fine: the longer one is read first)
NAMES = ["fixed window 160, overlap 32", "fixed window 160, overlap 0", "by structure (paragraphs, max 160)",
         "by sentence (4 sentences, 1 overlap)", "my *bold* chunker", "[link](http://x.y/2)", "<b>html</b> 2.5",
         "under_score_7", "naïve ünïcode 中文", "pipe|table 10%", "`code` #1", "dash - 3.14", "status = current",
         "status = current, draft", "no filter", "bi-encoder only", "with reranking", "$x^2$ route"]


# ---------------------------------------------------------------- generated tables

def pool(rng: random.Random, n: int) -> list[float]:
    """A few shares k/n: drawing from it gives frequent ties (and with one value, a table of equal values)."""
    return [rng.randint(0, n) / n for _ in range(rng.choice([1, 1, 2, 3, 5]))]


def maybe_nan(rng, x, p=0.08):
    return math.nan if rng.random() < p else x


def n_rows(rng, most=6) -> int:
    return rng.choice([0, 1, 1, 2, 2, 3, 4, most])


def framed(rows, rng, n, columns) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=columns)
    if rng.random() < 0.85:
        df.attrs.update(questions=n, excluded=rng.randint(0, 3))
    return df


def gen_ceiling(rng):
    n = rng.randint(1, 40)
    ks = sorted(rng.sample([1, 2, 3, 5, 10, 20, 50], n_rows(rng, 7)))
    vals = pool(rng, n)
    rows = [{"k": k, "recall": maybe_nan(rng, rng.choice(vals))} for k in ks]
    if rng.random() < 0.5:                                       # a real ceiling never falls as k grows
        best = 0.0
        for r in rows:
            best = r["recall"] = r["recall"] if pd.isna(r["recall"]) else max(best, r["recall"])
    return framed(rows, rng, n, ["k", "recall"])


def gen_strategies(rng):
    n, names = rng.randint(1, 40), rng.sample(NAMES, n_rows(rng))
    vals, chunk_pool = pool(rng, n), [rng.randint(1, 400) for _ in range(rng.choice([1, 2, 4]))]
    rows = [{"strategy": s, "chunks": maybe_nan(rng, rng.choice(chunk_pool)), "words_per_chunk": rng.uniform(5, 200),
             "recall_at_1": maybe_nan(rng, rng.choice(vals)), "recall_at_3": maybe_nan(rng, rng.choice(vals))} for s in names]
    return framed(rows, rng, n, ["strategy", "chunks", "words_per_chunk", "recall_at_1", "recall_at_3"])


def gen_size_overlap(rng):
    n = rng.randint(1, 40)
    vals = pool(rng, n)
    rows = []
    for size in sorted(rng.sample([20, 40, 80, 160, 320], rng.choice([0, 1, 1, 2, 4]))):
        for ovl in rng.choice([[0], [size // 5], [0, size // 5], [0, size // 4, size // 5]]):
            rows.append({"size": size, "ovl": ovl, "chunks": maybe_nan(rng, rng.randint(10, 500)),
                         **{f"recall_at_{k}": maybe_nan(rng, rng.choice(vals)) for k in (1, 3, 5, 50)}})
    return framed(rows, rng, n, ["size", "ovl", "chunks", "recall_at_1", "recall_at_3", "recall_at_5", "recall_at_50"])


def gen_cut(rng):
    n = rng.randint(1, 40)
    sizes = [s for s in range(20, 401, 20) if rng.random() < 0.5]
    cuts = framed([{"size": s, "cut_without_ovl": rng.randint(0, n), "cut_with_20_percent": rng.randint(0, n),
                    "chunks_without_ovl": rng.randint(1, 500), "chunks_with_20_percent": rng.randint(1, 600)}
                   for s in sizes], rng, n, ["size", "cut_without_ovl", "cut_with_20_percent", "chunks_without_ovl",
                                             "chunks_with_20_percent"])
    c0 = rng.choice([1, 100, 2621, 3000])
    c1 = rng.choice([c0, c0 + 1, c0 * 2, max(1, c0 - 7), 3180])
    example = rng.random() < 0.6
    rows = [] if rng.random() < 0.1 else [{
        "trials": maybe_nan(rng, len(sizes) * n), "sizes": len(sizes), "cut_without_overlap": maybe_nan(rng, rng.randint(0, 9)),
        "cut_with_overlap": rng.randint(0, 9), "chunks_without_overlap": c0, "chunks_with_overlap": c1,
        "overlap_cost_percent": maybe_nan(rng, 100 * (c1 - c0) / c0),
        "example_size": rng.choice(sizes or [60]) if example else None,
        "example_doc": rng.choice(NAMES) if example else None, "example_anchor": "x",
        "example_tail": rng.choice(NAMES) if example else "", "example_head": rng.choice(NAMES) if example else ""}]
    summary = framed(rows, rng, n, ["trials", "sizes", "cut_without_overlap", "cut_with_overlap", "chunks_without_overlap",
                                    "chunks_with_overlap", "overlap_cost_percent", "example_size", "example_doc",
                                    "example_anchor", "example_tail", "example_head"])
    return cuts, summary


def gen_filter(rng):
    n, names = rng.randint(1, 40), rng.sample(NAMES, rng.choice([0, 1, 2, 2, 2, 3]))
    vals, chunks = pool(rng, n), rng.randint(1, 300)
    rows = [{"filter": f, "recall_at_1": maybe_nan(rng, rng.choice(vals)), "recall_at_3": maybe_nan(rng, rng.choice(vals)),
             "contradicted_top_3": maybe_nan(rng, rng.choice([0, 0, 1, rng.randint(0, n)])),
             "chunks_excluded": 0 if i == 0 else rng.randint(0, chunks), "chunks": chunks} for i, f in enumerate(names)]
    return framed(rows, rng, n, ["filter", "recall_at_1", "recall_at_3", "contradicted_top_3", "chunks_excluded", "chunks"])


def gen_rerank(rng):
    n = rng.randint(1, 40)
    vals = pool(rng, n)
    pairs = rng.sample([(40, 8), (80, 16), (160, 32), (320, 64), (60, 0)], rng.choice([0, 1, 2, 3, 5]))
    rows = [{"chunk": f"{s}/{o}", "size": s, "ovl": o,
             **{c: maybe_nan(rng, rng.choice(vals)) for c in ("recall_at_50", "recall_at_1_bi", "recall_at_1_rerank",
                                                              "recall_at_3_bi", "recall_at_3_rerank")}} for s, o in pairs]
    return framed(rows, rng, n, ["chunk", "size", "ovl", "recall_at_50", "recall_at_1_bi", "recall_at_1_rerank", "recall_at_3_bi",
                                 "recall_at_3_rerank"])


def gen_latency(rng):
    runs, reps = rng.choice([1, 3]), rng.choice([1, 5, 20])
    rows = []
    for route in rng.sample(NAMES, rng.choice([0, 1, 2, 2, 3])):
        lo = rng.choice([0.1234, 0.5, rng.uniform(0.01, 30)])
        rows.append({"route": route, "min_ms": maybe_nan(rng, lo), "max_ms": rng.choice([lo, lo + rng.uniform(0, 5)]),
                     "runs": runs, "repetitions": reps})
    return framed(rows, rng, 18, ["route", "min_ms", "max_ms", "runs", "repetitions"])


def gen_pipeline(rng):
    """The article's columns, or (one table in three) the judgements a user reads; attrs say, for some settings,
    how many wrong-source answers cite an untrusted status (none, some, all: the filter-on case cites trusted ones)."""
    n = rng.randint(1, 40)
    strict = rng.random() < 0.33
    right, wrong_col = ("answered", "wrong_source") if strict else ("anchored_right_source", "anchored_wrong_source")
    rows, untrusted = [], {}
    for f in rng.sample(NAMES, rng.choice([0, 1, 2, 2, 3])):
        wrong = maybe_nan(rng, rng.choice([0, 0, 1, rng.randint(0, n)]))
        rows.append({"filter": f, right: rng.randint(0, n), wrong_col: wrong,
                     "refused": rng.randint(0, 3), "abstained": rng.randint(0, 3)})
        if not pd.isna(wrong) and rng.random() < 0.8:
            untrusted[f] = rng.choice([0, int(wrong), rng.randint(0, int(wrong))])
    df = framed(rows, rng, n, ["filter", right, wrong_col, "refused", "abstained"])
    df.attrs["wrong_source_untrusted"] = untrusted
    return df


def generated(gen, n=N_TABLES):
    """(seed, quote, table) for n seeds: odd seeds quote names with ui.widgets.plain, as the Ablations page does."""
    for seed in range(n):
        yield seed, (plain if seed % 2 else str), gen(random.Random(seed))


def first_table(t):
    return t[1] if isinstance(t, tuple) else t         # cut anchors: the one-row summary carries the caption


def value_columns(df) -> list[str]:
    return [c for c in df.select_dtypes("number").columns if c not in COUNTS]


@pytest.mark.parametrize("gen", [gen_ceiling, gen_strategies, gen_size_overlap, gen_filter, gen_rerank, gen_pipeline,
                                 gen_latency, gen_cut], ids=lambda g: g.__name__)
def test_the_generated_tables_hold_every_edge_case(gen):
    seen = set()
    for _, _, t in generated(gen):
        df = first_table(t)
        seen.add("empty" if df.empty else "one row" if len(df) == 1 else "rows")
        if df.isna().to_numpy().any():
            seen.add("NaN")
        for c in value_columns(df) or [c for c in df.select_dtypes("number").columns]:
            v = df[c].dropna().round(3)
            if len(v) > 1 and v.nunique() == 1:
                seen.add("all equal")
            if len(v) > 2 and (v == v.max()).sum() > 1 and v.nunique() > 1:
                seen.add("tie")
    want = {"empty", "one row", "NaN"} if gen is gen_cut else {"empty", "one row", "rows", "NaN", "all equal", "tie"}
    assert want <= seen, want - seen


# ---------------------------------------------------------------- reading a caption

def fmt(col: str, x) -> str:
    """A cell as the pages show it."""
    if col in COUNTS:
        return count(x)
    if col in PERCENTS:
        return f"{abs(x):.1f}"
    return share(x)


def row_numbers(df: pd.DataFrame, i: int) -> set:
    """The numbers of row i as the pages show them (object columns too: example_size is a number or None)."""
    cells = ((c, df[c].iloc[i]) for c in df.columns)
    return {fmt(c, v) for c, v in cells if isinstance(v, numbers.Real) and not isinstance(v, bool) and pd.notna(v)}


def placeholders(caption: str, df: pd.DataFrame, text_cols, quote) -> tuple[str, dict]:
    """The caption with each name from the table replaced by ⟦letter⟧ -> rows it names (longest names first)."""
    names = {}
    for col in text_cols:
        for i, v in enumerate(df[col]):
            if isinstance(v, str) and v.strip():
                names.setdefault(quote(v), set()).add(i)
    rows = {}
    for j, (name, idx) in enumerate(sorted(names.items(), key=lambda kv: -len(kv[0]))):
        mark = f"⟦{chr(ord('a') + j)}⟧"
        if name in caption:
            caption, rows[mark] = caption.replace(name, mark), idx
    return caption, rows


def check_traceable(caption: str, df: pd.DataFrame, quote=str, text_cols=(), fixed=(), markers=(), allowed=()):
    """Every number of the caption is a cell of the row(s) its sentence names (any row when it names none).

    fixed: regexes of wording that carries a number of its own ("recall@3", "top 3"); markers: (regex, column)
    pairs that name rows by a value ("k = 3" names the row with k == 3); allowed: derived counts, named by the test.
    """
    text, rows = placeholders(caption, df, text_cols, quote)
    for pattern in fixed:
        text = re.sub(pattern, " ", text)
    everything = set().union(*(row_numbers(df, i) for i in range(len(df)))) if len(df) else set()
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        named = set().union(*(idx for mark, idx in rows.items() if mark in sentence)) if rows else set()
        for pattern, col in markers:
            for m in re.finditer(pattern, sentence):
                named |= {i for i in range(len(df)) if fmt(col, df[col].iloc[i]) == m[1]}
                sentence = sentence.replace(m[0], " ", 1)
        if re.search(r"\b(All|Both) (\d+ )?strategies", sentence):     # "All 4 strategies ..." names them all
            named |= set(range(len(df)))
        pool_ = set().union(*(row_numbers(df, i) for i in named)) if named else everything
        for number in re.findall(r"\d+(?:\.\d+)?", sentence):
            assert number in pool_ | {str(a) for a in allowed}, (
                f"{number!r} in {sentence!r} is not a cell of the rows it names {sorted(named)}:\n{df}\n{caption}")


def check_escaped(caption: str, df: pd.DataFrame, text_cols, quote) -> None:
    """Names from the data appear only escaped when the caption is Markdown."""
    if quote is not plain:
        return
    for col in text_cols:
        for v in df[col]:
            if isinstance(v, str) and plain(v) != v:
                assert v not in caption.replace(plain(v), ""), (v, caption)


def sentence_with(caption: str, start: str) -> str:
    i = caption.index(start)
    m = re.search(r"\.(\s|$)", caption[i:])
    return caption[i:i + m.start() + 1]


def questions(df) -> list:
    return [df.attrs["questions"]] if df.attrs.get("questions") else []


# ---------------------------------------------------------------- the captions, one test each

@pytest.mark.parametrize("seed,quote,df", list(generated(gen_ceiling)))
def test_ceiling_caption(seed, quote, df):
    cap = captions.ceiling(df)
    if df.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    check_traceable(cap, df, markers=[(r"k = (\d+)\b", "k")])
    at = dict(zip(df.k, df.recall))
    pairs = re.findall(r"k = (\d+)(?: the ceiling is)? (n/a|\d\.\d{3})", cap)
    assert pairs and all(share(at[int(k)]) == v for k, v in pairs), (pairs, df)
    values = df.recall.map(shown)
    first, last = df.k.iloc[0], df.k.iloc[-1]
    far = 3 if 3 in at and first < 3 else last
    gap = round(shown(at[far]) - shown(at[first]), 3)
    claims = {"ranks it low": "ranks it low" in cap, "close": "are close" in cap, "same": "the same at every k" in cap}
    if len(df) == 1:
        assert "nothing to compare" in cap and not any(claims.values()), cap
    elif values.notna().all() and values.nunique() == 1:
        assert claims == {"ranks it low": False, "close": False, "same": True}, cap
    else:
        assert not claims["same"]
        assert claims["ranks it low"] == (gap >= 0.2), (gap, cap)
        assert claims["close"] == (0 <= gap < 0.2), (gap, cap)


@pytest.mark.parametrize("seed,quote,df", list(generated(gen_strategies)))
def test_strategies_caption(seed, quote, df):
    cap = captions.strategies(df, quote)
    if df.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    r3 = df.recall_at_3.map(shown)
    known = df[r3.notna()]
    check_traceable(cap, df, quote, ["strategy"], fixed=[r"recall@\d+", r"\b1/(?=\d)"],
                    allowed=questions(df) + [len(known)])
    check_escaped(cap, df, ["strategy"], quote)
    name = lambda rows: [quote(s) for s in rows.strategy]                    # noqa: E731
    if df.attrs.get("questions") and len(known) > 1:
        assert f"1/{df.attrs['questions']} of the scale" in cap
    if len(known) <= 1:
        assert "Best" not in cap and "Lowest" not in cap and " tie" not in cap, cap
    elif r3.dropna().nunique() == 1:
        assert ("Both strategies" if len(known) == 2 else f"All {len(known)} strategies") in cap, cap
        assert "the same recall@3" in cap, cap
        assert "Best" not in cap and "Lowest" not in cap, cap
        check_tie_break(cap, known, quote)
    else:
        top, bottom = known[r3[r3.notna()] == r3.max()], known[r3[r3.notna()] == r3.min()]
        for word, rows in (("Best recall@3: ", top), ("Lowest: ", bottom)):
            said = sentence_with(cap, word)
            v = share(rows.recall_at_3.iloc[0])
            if len(rows) == 1:
                assert said.startswith(f"{word}{name(rows)[0]} ({v}, {count(rows.chunks.iloc[0])} chunks)"), said
            else:
                assert said.startswith(f"{word}{listing(name(rows))} tie at {v}"), said
                if word.startswith("Best"):
                    check_tie_break(said, rows, quote)
        assert cap.count(" tie at ") == (len(top) > 1) + (len(bottom) > 1), cap
    for s in df.strategy[r3.isna()]:
        assert quote(s) in sentence_with(cap, "No recall@3"), cap


def check_tie_break(text: str, tied: pd.DataFrame, quote) -> None:
    """Fewer chunks breaks a tie, and the caption names the row(s) with the fewest."""
    chunks = tied.chunks.dropna()
    if chunks.empty:
        assert "no chunk count breaks the tie" in text, text
        return
    fewest = listing(quote(s) for s in tied.strategy[tied.chunks == chunks.min()])
    if chunks.nunique() == 1 and len(chunks) > 1:
        assert f"{fewest} use the same number of chunks ({count(chunks.min())})" in text, text
    elif chunks.nunique() == 1:
        assert f"{fewest} uses {count(chunks.min())} chunks" in text, text
    else:
        assert re.search(re.escape(fewest) + r" uses? (fewer|the fewest) chunks \(" + count(chunks.min()), text), text


@pytest.mark.parametrize("seed,quote,df", list(generated(gen_size_overlap)))
def test_size_overlap_caption(seed, quote, df):
    cap = captions.size_overlap(df)
    if df.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    check_traceable(cap, df, markers=[(r"At (\d+) words", "size")], fixed=[r"recall@50", r"50 best"])
    for size in {df["size"].min(), df["size"].max()}:
        rows = df[df["size"] == size]
        said = sentence_with(cap, f"At {size} words")
        pairs = re.findall(r"(n/a|\d\.\d{3}) (without overlap|with overlap (\d+))", said)
        assert len(pairs) == len(rows), f"every row of {size} words is quoted: {said}\n{rows}"
        for (value, _, ovl), r in zip(pairs, rows.itertuples()):
            assert int(ovl or 0) == r.ovl and value == share(r.recall_at_50), (said, rows)
        known = rows.recall_at_50.map(shown).dropna()
        assert ("stops at" in said) == (len(known) > 0 and known.min() < 1), said
    assert cap.count("some anchors are not among the 50 best") == ("stops at" in cap), "the reason, said once"
    chunks = df.chunks.dropna()
    assert ("range from" in cap) == (chunks.nunique() > 1), cap


@pytest.mark.parametrize("seed,quote,frames", list(generated(gen_cut)))
def test_cut_anchors_caption(seed, quote, frames):
    _, summary = frames
    cap = captions.cut_anchors(summary, quote)
    if summary.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    cols = ["example_doc", "example_tail", "example_head"]
    check_traceable(cap, summary, quote, cols, fixed=[r"20 %"])
    check_escaped(cap, summary, cols, quote)
    s = summary.iloc[0]
    assert cap.startswith(f"Out of {count(s.trials)} trials, {count(s.cut_without_overlap)} anchor"), cap
    cost = f"{s.overlap_cost_percent:.1f}"
    assert ("more chunks" in cap) == (not pd.isna(s.overlap_cost_percent) and (cost == "-0.0" or not cost.startswith("-")))
    assert ("fewer chunks" in cap) == (not pd.isna(s.overlap_cost_percent) and cost.startswith("-") and cost != "-0.0")
    assert ("Example at" in cap) == (not pd.isna(s.example_size)), cap


@pytest.mark.parametrize("seed,quote,df", list(generated(gen_filter)))
def test_filter_caption(seed, quote, df):
    cap = captions.filter_effect(df, quote)
    if df.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    check_traceable(cap, df, quote, ["filter"], fixed=[r"recall@\d", r"top 3"], allowed=questions(df))
    check_escaped(cap, df, ["filter"], quote)
    n, base = "".join(f"/{q}" for q in questions(df)), df.iloc[0]
    for _, on in df.iloc[1:].iterrows():
        assert (f"{count(base.contradicted_top_3)}{n} with {quote(base['filter'])}, {count(on.contradicted_top_3)}{n} "
                f"with {quote(on['filter'])}") in cap, cap
        a, b = share(base.recall_at_1), share(on.recall_at_1)
        assert (f"recall@1 stays at {a}" if a == b else f"recall@1 goes from {a} to {b}") in cap, cap


@pytest.mark.parametrize("seed,quote,df", list(generated(gen_rerank)))
def test_rerank_caption(seed, quote, df):
    cap = captions.rerank_effect(df, quote)
    if df.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    check_traceable(cap, df, quote, ["chunk"], fixed=[r"recall@\d+"])
    first = df.iloc[0]
    a, b = share(first.recall_at_1_bi), share(first.recall_at_1_rerank)
    assert (f"leaves recall@1 at {a}" if a == b else f"moves recall@1 from {a} to {b}") in cap, cap
    assert f"the candidates' recall@50 there is {share(first.recall_at_50)}" in cap, cap
    reach = all(shown(first[c]) <= shown(first.recall_at_50) for c in ("recall_at_1_bi", "recall_at_1_rerank"))
    assert ("the most any reranking can reach" in cap) == reach, cap
    for r in df.iloc[1:].itertuples():
        assert f"{quote(r.chunk)}: {share(r.recall_at_1_bi)} → {share(r.recall_at_1_rerank)}." in cap


@pytest.mark.parametrize("seed,quote,df", list(generated(gen_latency)))
def test_latency_caption(seed, quote, df):
    cap = captions.latency(df, quote)
    if df.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    check_traceable(cap, df, quote, ["route"])
    for r in df.itertuples():
        lo, hi = share(r.min_ms), share(r.max_ms)
        said = "n/a" if "n/a" in (lo, hi) else lo if lo == hi else f"{lo}–{hi}"
        assert re.search(re.escape(f"{quote(r.route)} {said}") + r"[;.]", cap), cap


@pytest.mark.parametrize("seed,quote,df", list(generated(gen_pipeline)))
def test_pipeline_caption(seed, quote, df):
    cap = captions.pipeline(df, quote)
    if df.empty:
        assert cap.startswith("Nothing to show"), cap
        return
    wrong_of = dict(zip(df["filter"], df["anchored_wrong_source"] if "anchored_wrong_source" in df else df["wrong_source"]))
    derived = [v for f, u in df.attrs["wrong_source_untrusted"].items() for v in (u, int(wrong_of[f]) - u)]
    check_traceable(cap, df, quote, ["filter"], allowed=derived)
    check_escaped(cap, df, ["filter"], quote)
    wrong = df["anchored_wrong_source"] if "anchored_wrong_source" in df else df["wrong_source"]
    none = wrong.notna().all() and (wrong == 0).all()
    assert cap.startswith("No answer is grounded on the WRONG source") == none, cap
    if not none:
        assert all(f"{count(w)} with {quote(f)}" in cap for f, w in zip(df["filter"], wrong)), cap
        for f, w in zip(df["filter"], wrong):           # what the wrong sources cite, only as the attrs say
            u = df.attrs["wrong_source_untrusted"].get(f)
            said = cap.split(f"{count(w)} with {quote(f)}", 1)[1][:120]
            if u is None or pd.isna(w) or w == 0:
                assert not said.startswith(" ("), (cap, f)
            elif u == w:
                assert said.startswith((" (each cites a note of an untrusted", " (it cites a note of an untrusted")), cap
            elif u == 0:
                assert said.startswith((" (each cites a trusted document", " (it cites a trusted document")), cap
            else:
                assert said.startswith(f" ({u} cite an untrusted note, {int(w) - u} a trusted document"), cap
        assert "cites faithfully a note that should not be there" not in cap


@pytest.mark.parametrize("seed,quote,df", list(generated(gen_filter)))
def test_overview_reading(seed, quote, df):
    cap = overview_reading.reading(df, quote)
    if df.empty:
        assert "nothing to read" in cap, cap
        return
    check_traceable(cap, df.iloc[:2], quote, ["filter"], fixed=[r"k = [13]\b"], allowed=questions(df))
    check_escaped(cap, df, ["filter"], quote)
    assert "%" not in cap.replace(quote("pipe|table 10%"), ""), "shares are written 0.389 on the Overview, never as %"
    assert not re.search(r"\bbest (strategy|setting)\b", cap)
    base = df.iloc[0]
    r1, r3 = shown(base.recall_at_1), shown(base.recall_at_3)
    lower = not (pd.isna(r1) or pd.isna(r3)) and r1 < r3
    assert ("but only" in cap) == lower, cap
    assert ("ranks it low" in cap) == (lower and round(r3 - r1, 3) >= 0.2), cap
    assert f"**{share(r3)}** at k = 3" in cap or f"**{share(r1)}** at k = 1 and at k = 3" in cap, cap
    if len(df) > 1:
        c_off, c_on = base.contradicted_top_3, df.contradicted_top_3.iloc[1]
        known = not (pd.isna(c_off) or pd.isna(c_on))
        assert (" still " in cap) == (known and 0 < c_on <= c_off), cap
        assert ("no question sees" in cap) == (known and c_on == 0 and c_off > 0), cap


# ---------------------------------------------------------------- the charts on those tables

def encodings(spec: dict):
    """Every (encoding dict) of a spec, layers included."""
    for part in [spec] + spec.get("layer", []):
        if "encoding" in part:
            yield part["encoding"]


CHARTED = [("ceiling", gen_ceiling, lambda df, q: charts.ceiling(df)),
           ("strategies", gen_strategies, charts.strategies),
           ("size_overlap", gen_size_overlap, lambda df, q: charts.size_overlap(df)),
           ("cut_anchors", gen_cut, lambda f, q: charts.cut_anchors(f[0], f[1], q)),
           ("filter", gen_filter, charts.filter_effect), ("rerank", gen_rerank, charts.rerank_effect),
           ("latency", gen_latency, charts.latency), ("pipeline", gen_pipeline, charts.pipeline)]


@pytest.mark.parametrize("name,gen,draw", CHARTED, ids=[c[0] for c in CHARTED])
def test_charts_never_fail_and_label_every_group(name, gen, draw):
    for seed, quote, df in generated(gen, N_CHARTED):
        chart, caption = draw(df, quote)
        spec = chart.to_dict()                                     # validates against the Vega-Lite schema
        for enc in encodings(spec):
            for offset in ("xOffset", "yOffset"):
                if offset in enc:                                  # grouped bars: the colour legend names each bar
                    assert enc.get("color", {}).get("field") == enc[offset]["field"], (name, enc)
            for channel in ("color", "strokeDash"):
                if channel in enc:
                    assert enc[channel].get("title"), f"{name}: the {channel} legend has no title"
                    assert enc[channel].get("legend", {}) is not None, f"{name}: the {channel} legend is hidden"


def test_counts_sit_on_integer_axes(wb):
    for chart, channel in ((charts.cut_anchors(tables.cut_anchors(wb), tables.cut_summary(wb))[0], "y"),
                           (charts.pipeline(tables.pipeline(wb))[0], "x")):
        axis = chart.to_dict()["encoding"][channel]["axis"]
        assert axis["format"] == "d" and axis["tickMinStep"] == 1, axis


def test_the_overlap_legend_draws_its_dashes(wb):
    import vl_convert as vlc
    svg = vlc.vegalite_to_svg(charts.size_overlap(tables.size_overlap(wb))[0].to_json())
    symbols = re.findall(r'<path[^>]*d="M-\d+,0L\d+,0"[^>]*>', svg)      # legend symbols drawn as strokes
    assert len(symbols) == 2, symbols
    assert all('stroke="#' in s for s in symbols), symbols                # visible: a stroke colour, not transparent
    assert len({re.search(r'stroke-dasharray="([^"]+)"', s)[1] for s in symbols}) == 2, symbols


def test_exported_pngs_are_large_enough_to_read(wb):
    frames = {n: tables.TABLES[n](wb) for n in ("ceiling", "strategies", "cut_anchors", "cut_summary", "pipeline")}
    for name, (chart, _) in charts.for_tables(frames).items():
        png = export.chart_png(chart)
        width, height = struct.unpack(">II", png[16:24])               # the IHDR chunk of a PNG
        assert width >= export.PNG_WIDTH * export.PNG_SCALE and height >= 250, (name, width, height)
    assert export.PNG_FONT >= 12


# ---------------------------------------------------------------- the cases of the issue, on real tables

def test_one_strategy_is_neither_best_nor_lowest():
    df = pd.DataFrame([{"strategy": "fixed window 160, overlap 0", "chunks": 4, "words_per_chunk": 100.0,
                        "recall_at_1": 1.0, "recall_at_3": 1.0}])
    cap = captions.strategies(df)
    assert "Best" not in cap and "Lowest" not in cap and cap.count("fixed window 160, overlap 0") == 1, cap


def test_the_bundled_tie_names_its_tie_break(wb):
    df = tables.strategies(wb)
    top = df[df.recall_at_3.map(shown) == df.recall_at_3.map(shown).max()]
    assert len(top) > 1, "the bundled corpus has a tie at the top (fixed 160/32 and by structure)"
    fewest = top.loc[top.chunks.idxmin()]
    others = top[top.strategy != fewest.strategy]
    cap = captions.strategies(df)
    assert (f"{listing(top.strategy)} tie at {share(top.recall_at_3.iloc[0])}; {fewest.strategy} uses fewer chunks "
            f"({fewest.chunks} against {listing(str(c) for c in others.chunks)})") in cap, cap


def test_the_smallest_size_quotes_both_of_its_rows(wb):
    df = tables.size_overlap(wb)
    small = df[df["size"] == df["size"].min()]
    said = sentence_with(captions.size_overlap(df), f"At {small['size'].iloc[0]} words")
    for r in small.itertuples():
        assert f"{share(r.recall_at_50)} {'without overlap' if r.ovl == 0 else f'with overlap {r.ovl}'}" in said, said


# ---------------------------------------------------------------- the pages show these captions

APP = Path(__file__).resolve().parent.parent / "app.py"
ARTICLE = inspect.signature(tables.ceiling).parameters["chunker"].default    # the chunker the ceiling table uses

def page(script: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    if script:
        at.switch_page(script)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_ablations_captions_and_notes_are_the_ones_computed_here(wb):
    at = page("pages/ablations.py")
    shown_md = [m.value for m in at.main.markdown]
    frames = {n: tables.TABLES[n](wb) for n in ("ceiling", "strategies", "size_overlap", "cut_anchors", "cut_summary",
                                                "filter", "rerank", "pipeline")}
    frames["latency"] = at.dataframe[6].value.rename(columns={"min (ms)": "min_ms", "max (ms)": "max_ms"})                  # timed anew on every run: the table shown beside it
    drawn = charts.for_tables(frames, quote=plain)
    assert len(drawn) == 8
    for name, (_, caption) in drawn.items():
        assert caption in shown_md, f"{name}: {caption}\nnot among\n{shown_md}"
    recall_1 = [share(v) for v in list(frames["filter"].recall_at_1) + list(frames["rerank"].recall_at_1_bi)
                + list(frames["rerank"].recall_at_1_rerank)]          # the ordering advice quotes these tables
    check_traceable(drawn["ceiling"][1], frames["ceiling"], markers=[(r"k = (\d+)\b", "k")],
                    fixed=[r"recall@\d", r"\d+/\d+"], allowed=recall_1)
    check_traceable(drawn["strategies"][1], frames["strategies"], plain, ["strategy"], fixed=[r"recall@\d+", r"\b1/(?=\d)"],
                    allowed=questions(frames["strategies"]))
    check_traceable(drawn["size_overlap"][1], frames["size_overlap"], markers=[(r"At (\d+) words", "size")],
                    fixed=[r"recall@50", r"50 best"])
    check_traceable(drawn["cut_anchors"][1], frames["cut_summary"], plain, ["example_doc", "example_tail", "example_head"],
                    fixed=[r"20 %"])
    check_traceable(drawn["filter"][1], frames["filter"], plain, ["filter"], fixed=[r"recall@\d", r"top 3"],
                    allowed=questions(frames["filter"]))
    check_traceable(drawn["rerank"][1], frames["rerank"], plain, ["chunk"], fixed=[r"recall@\d+"])
    check_traceable(drawn["latency"][1], frames["latency"], plain, ["route"])
    check_traceable(drawn["pipeline"][1], frames["pipeline"], plain, ["filter"])
    notes = table_notes.notes()
    assert all(note in [c.value for c in at.caption] for note in notes.values())
    # the notes name the settings the shown tables are computed with
    article = ARTICLE
    assert article.label in notes["ceiling"] and article.label in notes["filter"] and article.label in notes["pipeline"]
    pd.testing.assert_frame_equal(at.dataframe[0].value, readable(tables.ceiling(wb, article)), check_dtype=False)
    assert all(s in notes["strategies"] for s in frames["strategies"].strategy)
    assert all(f"{s} (" in notes["size_overlap"] and f"{o}" in notes["size_overlap"]
               for s, o in zip(frames["size_overlap"]["size"], frames["size_overlap"].ovl))
    cuts = frames["cut_anchors"]["size"]
    assert f"{len(cuts)} window sizes from {cuts.min()} to {cuts.max()} words" in notes["cut_anchors"]
    assert all(c in notes["rerank"] for c in frames["rerank"].chunk)


def test_ablations_say_the_sidebar_s_chunker_is_not_theirs():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params.update({"chunker": "fixed", "size": "120", "overlap": "24"})
    at.switch_page("pages/ablations.py")
    at.run()
    said = " ".join(i.value for i in at.info)
    assert "the sidebar's (fixed window 120, overlap 24) is not used here" in said, said


def test_the_rerank_note_names_the_reranker_it_is_given():
    assert "reranked by the lexical surrogate" in table_notes.notes()["rerank"]
    dense = table_notes.notes("the MiniLM similarity (bi-encoder) reranker")["rerank"]
    assert "reranked by the MiniLM similarity (bi-encoder) reranker" in dense and "surrogate" not in dense


def test_overview_reading_is_the_one_computed_here_and_writes_shares_one_way(wb):
    at = page("")
    f = tables.filter_effect(wb, ARTICLE)
    texts = [m.value for m in at.main.markdown]
    assert overview_reading.reading(f, quote=plain) in texts, texts
    on_page = texts + [m.value for m in at.metric] + [c.value for c in at.caption]
    assert not [t for t in on_page if re.search(r"\d\s?%", t)], "the Overview writes shares as 0.389, never as %"
    assert all(re.fullmatch(r"\d\.\d{3}|\d+/\d+", m.value) for m in at.metric), [m.value for m in at.metric]


@pytest.mark.parametrize("seed", range(200))
def test_the_ceilings_advice_names_only_what_helps_on_this_data(seed):
    """A ranking gap sends the reader to ordering; with the filter and rerank tables the caption says what each
    does to recall@1 here (a rerank that lowers it, a filter that changes nothing), never a blanket '(filter,
    rerank)'."""
    rng = random.Random(seed)
    df = pd.DataFrame({"k": [1, 3, 5], "recall": [0.3, 0.9, 1.0]})
    f, r = gen_filter(rng), gen_rerank(rng)
    quote = plain if seed % 2 else str
    cap = captions.ceiling(df, f, r, quote)
    assert "(filter, rerank)" not in cap and "work on ordering, not on the prompt" in cap
    if len(f) > 1:
        a, b = shown(f.recall_at_1.iloc[0]), shown(f.recall_at_1.iloc[1])
        verb = "gives" if pd.isna(a) or pd.isna(b) else "leaves" if a == b else "raises" if b > a else "lowers"
        assert f"the filter ({quote(f['filter'].iloc[1])}) {verb} recall@1" in cap, cap
    else:
        assert "the filter" not in cap
    if len(r):
        row = r[r.chunk == "160/32"].iloc[0] if (r.chunk == "160/32").any() else r.iloc[0]
        a, b = shown(row.recall_at_1_bi), shown(row.recall_at_1_rerank)
        verb = "gives" if pd.isna(a) or pd.isna(b) else "leaves" if a == b else "raises" if b > a else "lowers"
        assert f"reranking at {quote(row.chunk)} (filter on) {verb} recall@1" in cap, cap


# ---------------------------------------------------------------- the loss-account caption

def _account(rng: random.Random) -> pd.DataFrame:
    shape = rng.choice(["empty", "zeros", "one", "many"])
    if shape == "empty":
        return pd.DataFrame(columns=["stage", "questions"])
    counts = {s: 0 for s in STAGES}
    if shape == "one":
        counts[rng.choice(STAGES)] = rng.randint(1, 40)
    elif shape == "many":
        for s in rng.sample(STAGES, rng.randint(2, len(STAGES))):
            counts[s] = rng.randint(0, 30)
    return pd.DataFrame({"stage": list(counts), "questions": list(counts.values())})


@pytest.mark.parametrize("seed", range(300))
def test_the_loss_caption_quotes_only_the_table(seed):
    df = _account(random.Random(seed))
    text = captions.losses(df)
    if df.empty or df.questions.sum() == 0:
        assert text.startswith("Nothing to show")
        return
    n = int(df.questions.sum())
    assert text.startswith(f"Of {n} golden questions, {int(df.set_index('stage').questions.get('answered', 0))} ")
    quoted = re.findall(r"(\d+) (?:is|are) lost at ([a-z ]+?)(?:,| and|\.)", text)
    lost = {s: int(c) for s, c in zip(df.stage, df.questions) if s != "answered" and c > 0}
    assert {s: int(c) for c, s in quoted} == lost
    assert [s for _, s in quoted] == [s for s in STAGES if s in lost]          # pipeline order
    assert ("none is lost" in text) == (not lost)


@pytest.mark.parametrize("seed", range(300))
def test_the_loss_caption_says_why_the_ceiling_is_above_the_answered_count(seed):
    """'7 of 18 answered' under 'ceiling 1.000' needs its reason: how many reach the spans (the ceiling's count)
    and how many of those the answer misses, counted from the table's retrieval and answer stages."""
    df = _account(random.Random(seed))
    text = captions.losses(df)
    if df.empty or df.questions.sum() == 0:
        return
    kept = df.set_index("stage").questions
    n, answered = int(kept.sum()), int(kept.get("answered", 0))
    reached = n - sum(int(kept.get(s, 0)) for s in STAGES[:5])
    said = re.search(r"(\d+) of (\d+) reach the spans handed over \(what the ceiling counts\); an answer must also "
                     r"state the anchor, and (\d+) of them (?:does|do) not\.", text)
    if reached > answered:
        assert said and tuple(map(int, said.groups())) == (reached, n, reached - answered)
    else:
        assert said is None


# ---------------------------------------------------------------- the trap-3 caption

def _trap3_table(rng: random.Random) -> pd.DataFrame:
    names = rng.sample(["hashing", "bm25", "minilm", "hybrid"], rng.randint(0, 4))
    ks = rng.choice([(1, 3, 5), (1, 5), (3,)])
    pick = lambda: rng.choice([0.0, 0.5, 1.0, 1 / 3, 2 / 3, rng.random()])   # noqa: E731  (ties and all-equal too)
    return pd.DataFrame([{"k": k, "retriever": r, "article_questions": pick(), "user_questions": pick()}
                         for r in names for k in ks], columns=["k", "retriever", "article_questions", "user_questions"])


@pytest.mark.parametrize("seed", range(50))
def test_the_trap3_caption_of_an_upload_quotes_its_own_questions_and_no_nan(seed):
    """An upload's golden set has no user-phrased questions (NaN): the caption quotes its ceilings only."""
    df = _trap3_table(random.Random(seed)).assign(user_questions=math.nan)
    text = captions.trap3(df)
    assert "nan" not in text.lower() and "against" not in text
    for r in df[df.k == 3].itertuples():
        assert f"{r.retriever} {share(r.article_questions)}" in text


@pytest.mark.parametrize("seed", range(300))
def test_the_trap3_caption_quotes_the_rows_it_names_and_names_every_tied_loser(seed):
    df = _trap3_table(random.Random(seed))
    text = captions.trap3(df)
    at = df[df.k == 3]
    if at.empty:
        assert text.startswith("Nothing to show")
        return
    for r in at.itertuples():
        assert f"{r.retriever} {share(r.article_questions)} against {share(r.user_questions)}" in text
    drops = {r.retriever: round(r.article_questions, 3) - round(r.user_questions, 3) for r in at.itertuples()}
    worst = max(drops.values())
    if worst > 0:
        losers = [r for r, d in drops.items() if d == worst]
        assert f"{worst:.3f}" in text and all(r in text.split("drop")[-1] or r in text.split("biggest")[-1] for r in losers)
        assert ("flatters lexical retrieval" in text) == (set(losers) <= {"hashing", "bm25"})
    else:
        assert "No retriever drops" in text


def test_trap3_draws_the_golden_set_s_questions_solid_and_the_user_s_dashed():
    """Vega gives line styles in alphabetical order: 'phrased as a user would' came out solid, against the caption."""
    df = pd.DataFrame([{"k": k, "retriever": "bm25", "article_questions": 1.0, "user_questions": 0.5} for k in (1, 3)])
    dash = next(e["strokeDash"] for e in encodings(charts.trap3(df).to_dict()) if "strokeDash" in e)
    styles = dict(zip(dash["scale"]["domain"], dash["scale"]["range"]))
    assert styles == {"the article's (library words)": [1, 0], "phrased as a user would": [6, 4]}
    upload = df.assign(user_questions=float("nan"))           # an upload: its own questions only, solid
    dash = next(e["strokeDash"] for e in encodings(charts.trap3(upload).to_dict()) if "strokeDash" in e)
    assert dash["scale"] == {"domain": ["the article's (library words)"], "range": [[1, 0]]}
