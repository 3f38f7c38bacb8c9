"""One caption per article table: pure functions of the DataFrame(s), no Streamlit.

Every sentence is true for any table, not only for the bundled corpus:
- a number is quoted at the precision the pages show it (a share 0.389, a count 18, a percent 21.3%), and it is
  read from the row the sentence names;
- rows are compared at that precision, so two rows that both show 1.000 tie, and a tie is said as a tie, with
  the tie-break named (fewer chunks): "A and B tie at 1.000; B uses fewer chunks (103 against 114)";
- one row is never called best or lowest; rows that are all equal are said to be equal;
- a missing value is written "n/a" and takes part in no comparison; an empty table says there is nothing to show.

Text read from the data (strategy, filter and route names, document excerpts) passes through `quote`: the
identity by default (plain text, e.g. the HTML report), `ui.widgets.plain` for st.markdown.

Figures are written by ui.figures. The Overview's reading keeps the same promises (ui.overview_reading); the notes
under each Ablations title say the settings, not the results (ui.table_notes).

Left out on purpose: the charts (ui/charts.py) and any formatting beyond words and numbers.
"""
from __future__ import annotations

import math

import pandas as pd

from rag_core.evaluation.losses import STAGES
from rag_core.retrieval.retrievers import LEXICAL
from rag_core.text.messages import listing
from ui.figures import count, nothing, plural, share, shown

RETRIEVAL_STAGES = STAGES[:5]           # cut ... lost by rerank: the question never reaches the spans handed over

LOW_RANKING_GAP = 0.2    # a ceiling rising by at least this much from k = 1 to k = 3: the answer is found, ranked low


def _questions(df) -> str:
    """'/18' when the table knows its number of questions (df.attrs), else ''."""
    n = df.attrs.get("questions")
    return f"/{int(n)}" if n else ""


# ---------------------------------------------------------------- the tables

def _ordering_tools(filter_df, rerank_df, quote) -> str:
    """What the filter and the reranker do to recall@1 on this data, when their tables are given: ' The filter
    moves recall@1 from 0.389 to 0.889; reranking leaves it at 0.889 at 160/32.' ('' without them)."""
    said = []
    if filter_df is not None and len(filter_df) > 1:
        said.append(f"the filter ({quote(filter_df['filter'].iloc[1])}) "
                    + _moves(filter_df.recall_at_1.iloc[0], filter_df.recall_at_1.iloc[1]))
    if rerank_df is not None and len(rerank_df):
        row = rerank_df[rerank_df.chunk == "160/32"].iloc[0] if (rerank_df.chunk == "160/32").any() else rerank_df.iloc[0]
        said.append(f"reranking at {quote(row.chunk)} (filter on) " + _moves(row.recall_at_1_bi, row.recall_at_1_rerank))
    return (" On this data " + "; ".join(said) + ".") if said else ""


def _moves(before, after) -> str:
    """'raises recall@1 from 0.389 to 0.889', 'lowers ...', 'leaves recall@1 at 0.389' (at the shown precision)."""
    a, b = shown(before), shown(after)
    if pd.isna(a) or pd.isna(b):
        return f"gives recall@1 {share(before)} then {share(after)}"
    if a == b:
        return f"leaves recall@1 at {share(before)}"
    return f"{'raises' if b > a else 'lowers'} recall@1 from {share(before)} to {share(after)}"


def ceiling(df: pd.DataFrame, filter_df: pd.DataFrame | None = None, rerank_df: pd.DataFrame | None = None,
            quote=str) -> str:
    """The ceiling table in words; with the filter and rerank tables, also what each does to recall@1 here, so
    that the advice to work on ordering names what helps on this data and what does not."""
    if df.empty:
        return nothing("ceiling")
    df = df.sort_values("k")
    at = {int(r.k): r.recall for r in df.itertuples()}           # k -> ceiling
    first, last = int(df.k.iloc[0]), int(df.k.iloc[-1])
    near, far = first, (3 if 3 in at and first < 3 else last)      # k = 1 against k = 3, the article's pair
    quoted = list(dict.fromkeys([near, far, last]))
    text = f"At k = {first} the ceiling is {share(at[first])}" + "".join(
        f"{' and' if k == quoted[-1] else ','} at k = {k} {share(at[k])}" for k in quoted[1:]) + "."
    values = df.recall.map(shown)
    if len(at) == 1:
        return text + " With one k there is nothing to compare."
    if values.notna().all() and values.nunique() == 1:
        return text + (f" The ceiling is the same at every k, from k = {first} to k = {last}: handing over more "
                       "chunks finds no further anchor.")
    if pd.isna(at[near]) or pd.isna(at[far]):
        return text + f" With a value missing, k = {near} and k = {far} cannot be compared."
    gap = round(shown(at[far]) - shown(at[near]), 3)
    if gap >= LOW_RANKING_GAP:
        return text + (f" The gap between k = {near} and k = {far} says the retriever finds the answer but ranks it "
                       "low: work on ordering, not on the prompt." + _ordering_tools(filter_df, rerank_df, quote))
    if gap >= 0:
        return text + f" k = {near} and k = {far} are close: ordering is not the main problem."
    return text + f" The ceiling is lower at k = {far} than at k = {near}, which a ceiling cannot be: check the table."


def _tie_break(rows, quote) -> str:
    """The tie-break among tied strategies, named: fewer chunks."""
    known = rows[rows.chunks.notna()]
    unknown = [quote(s) for s in rows.strategy[rows.chunks.isna()]]
    tail = f" (no chunk count for {listing(unknown)})" if unknown else ""
    if known.empty:
        return "no chunk count breaks the tie"
    fewest = known[known.chunks == known.chunks.min()]
    others = known[known.chunks != known.chunks.min()]
    names = listing(quote(s) for s in fewest.strategy)
    if others.empty:
        return (f"{names} use the same number of chunks ({count(fewest.chunks.iloc[0])})" if len(fewest) > 1
                else f"{names} uses {count(fewest.chunks.iloc[0])} chunks") + tail
    verb = "uses" if len(fewest) == 1 else "use"
    how = "fewer" if len(known) == 2 else "the fewest"
    each = "" if len(fewest) == 1 else " each"
    return (f"{names} {verb} {how} chunks ({count(fewest.chunks.iloc[0])}{each} against "
            f"{listing(count(c) for c in others.chunks)})" + tail)


def strategies(df: pd.DataFrame, quote=str) -> str:
    if df.empty:
        return nothing("strategies")
    r3 = df.recall_at_3.map(shown)
    known, missing = df[r3.notna()], df[r3.isna()]
    out = []
    if len(known) == 1:
        r = known.iloc[0]
        out.append((f"One strategy only, {quote(r.strategy)}: recall@3 {share(r.recall_at_3)} with {count(r.chunks)} "
                    "chunks, nothing to rank it against." if len(df) == 1 else
                    f"Only {quote(r.strategy)} has a recall@3 ({share(r.recall_at_3)}, {count(r.chunks)} chunks): "
                    "there is no other strategy to rank it against."))
    elif len(known) > 1:
        values = r3[r3.notna()]
        top, bottom = known[values == values.max()], known[values == values.min()]
        if len(top) == len(known):
            who = ("Both strategies" if len(known) == 2 else f"All {len(known)} strategies") + (
                " with a recall@3" if len(missing) else "")
            out.append(f"{who} reach the same recall@3, {share(values.max())}; "
                       f"{_tie_break(top, quote)}.")
        else:
            out.append("Best recall@3: " + (
                f"{quote(top.strategy.iloc[0])} ({share(values.max())}, {count(top.chunks.iloc[0])} chunks)."
                if len(top) == 1 else
                f"{listing(quote(s) for s in top.strategy)} tie at {share(values.max())}; {_tie_break(top, quote)}."))
            out.append("Lowest: " + (
                f"{quote(bottom.strategy.iloc[0])} ({share(values.min())}, {count(bottom.chunks.iloc[0])} chunks)."
                if len(bottom) == 1 else f"{listing(quote(s) for s in bottom.strategy)} tie at {share(values.min())}."))
        if df.attrs.get("questions"):
            out.append(f"A difference of one question is 1/{int(df.attrs['questions'])} of the scale: do not trust "
                       "rankings that differ by less.")
    if not missing.empty:
        out.append(f"No recall@3 (n/a) for {listing(quote(s) for s in missing.strategy)}.")
    return " ".join(out)


def _overlap(ovl) -> str:
    return "with overlap n/a" if pd.isna(ovl) else "without overlap" if int(ovl) == 0 else f"with overlap {count(ovl)}"


def _at_size(rows: pd.DataFrame, why: bool = True) -> str:
    """'At 40 words recall@50 stops at 0.889 without overlap and 0.944 with overlap 8: …' — every row of the size.

    why: say why recall@50 can stop below one (said once per caption).
    """
    values = rows.recall_at_50.map(shown)
    known = values.dropna()
    verb = "stops at" if len(known) and known.min() < 1 else "reaches" if len(known) == len(values) else "is"
    text = (f"At {count(rows['size'].iloc[0])} words recall@50 {verb} "
            + listing(f"{share(r.recall_at_50)} {_overlap(r.ovl)}" for r in rows.itertuples()))
    if verb == "stops at" and why:
        text += ": some anchors are not among the 50 best chunks (cut by a chunk boundary, or ranked lower)"
    return text + "."


def size_overlap(df: pd.DataFrame) -> str:
    if df.empty:
        return nothing("size × overlap")
    sizes = sorted(df["size"].dropna().unique())
    out = []
    for s in dict.fromkeys(sizes[:1] + sizes[-1:]):                  # the smallest and the largest size
        out.append(_at_size(df[df["size"] == s], why=not any("stops at" in o for o in out)))
    chunks = df.chunks.dropna()
    if len(chunks) == 1:
        out.append(f"{plural(chunks.iloc[0], 'chunk', 'chunks')} in all.")
    elif len(chunks) and chunks.min() == chunks.max():
        out.append(f"Every setting gives {count(chunks.min())} chunks.")
    elif len(chunks):
        out.append(f"Chunks range from {count(chunks.min())} to {count(chunks.max())}.")
    return " ".join(out)


def cut_anchors(summary: pd.DataFrame, quote=str) -> str:
    if summary.empty:
        return nothing("cut anchors")
    s = summary.iloc[0]
    text = (f"Out of {count(s.trials)} trials, {plural(s.cut_without_overlap, 'anchor is', 'anchors are')} cut "
            f"without overlap and {count(s.cut_with_overlap)} with 20 %")
    cost, chunks = s.overlap_cost_percent, f"({count(s.chunks_with_overlap)} against {count(s.chunks_without_overlap)})"
    if pd.isna(cost):
        text += f"; chunks with and without overlap: {chunks}."
    elif f"{cost:.1f}".startswith("-") and f"{cost:.1f}" != "-0.0":
        text += f"; the overlap gives {-cost:.1f}% fewer chunks {chunks}."
    else:
        text += f"; the overlap costs {abs(cost):.1f}% more chunks {chunks}."
    if not pd.isna(s.example_size):
        text += (f" Example at {count(s.example_size)} words, {quote(s.example_doc)}: "
                 f"“…{quote(s.example_tail)}” | “{quote(s.example_head)}…”.")
    return text


def _from_to(before, after) -> str:
    """(0.389, 0.889) -> 'goes from 0.389 to 0.889'; equal at the shown precision -> 'stays at 0.389'."""
    a, b = share(before), share(after)
    return f"stays at {a}" if a == b else f"goes from {a} to {b}"


def filter_effect(df: pd.DataFrame, quote=str) -> str:
    if df.empty:
        return nothing("filter")
    n, base = _questions(df), df.iloc[0]
    if len(df) == 1:
        return (f"One setting only, {quote(base['filter'])}: recall@1 {share(base.recall_at_1)}, recall@3 "
                f"{share(base.recall_at_3)}; {count(base.contradicted_top_3)}{n} questions with a contradicting chunk "
                "in the top 3.")
    out = []
    for _, on in df.iloc[1:].iterrows():
        out.append(f"With {quote(on['filter'])} the filter excludes {count(on.chunks_excluded)} of {count(on.chunks)} "
                   f"chunks. Questions with a contradicting chunk in the top 3: {count(base.contradicted_top_3)}{n} "
                   f"with {quote(base['filter'])}, {count(on.contradicted_top_3)}{n} with {quote(on['filter'])}; "
                   f"recall@1 {_from_to(base.recall_at_1, on.recall_at_1)}.")
    return " ".join(out)


def rerank_effect(df: pd.DataFrame, quote=str) -> str:
    if df.empty:
        return nothing("rerank")
    first = df.iloc[0]
    moves = ("leaves recall@1 at " + share(first.recall_at_1_bi) if share(first.recall_at_1_bi) == share(first.recall_at_1_rerank)
             else f"moves recall@1 from {share(first.recall_at_1_bi)} to {share(first.recall_at_1_rerank)}")
    ceiling_ok = all(shown(first[c]) <= shown(first.recall_at_50) for c in ("recall_at_1_bi", "recall_at_1_rerank"))
    text = (f"At {quote(first.chunk)} reranking {moves}; the candidates' recall@50 there is {share(first.recall_at_50)}"
            + (", the most any reranking can reach." if ceiling_ok else "."))
    return " ".join([text] + [f"{quote(r.chunk)}: {share(r.recall_at_1_bi)} → {share(r.recall_at_1_rerank)}."
                              for r in df.iloc[1:].itertuples()])


def _ms_range(lo, hi) -> str:
    return "n/a" if pd.isna(lo) or pd.isna(hi) else f"{lo:.3f}" if f"{lo:.3f}" == f"{hi:.3f}" else f"{lo:.3f}–{hi:.3f}"


def latency(df: pd.DataFrame, quote=str) -> str:
    if df.empty:
        return nothing("latency")
    runs, reps = df.runs.dropna().unique(), df.repetitions.dropna().unique()
    how = (f" ({plural(runs[0], 'run', 'runs')} of {plural(reps[0], 'pass', 'passes')} over the golden questions)"
           if len(runs) == 1 and len(reps) == 1 else "")
    return (f"Milliseconds per question, measured now{how}: "
            + "; ".join(f"{quote(r.route)} {_ms_range(r.min_ms, r.max_ms)}" for r in df.itertuples())
            + ". This figure changes from run to run; the others do not.")


def _wrong_kind(wrong, untrusted) -> str:
    """What the wrong-source answers of one setting cite, when the table says: ' (all cite an untrusted note)'."""
    if pd.isna(untrusted) or pd.isna(wrong) or int(wrong) == 0:
        return ""
    u, w = int(untrusted), int(wrong)
    if u == w:
        return " (each cites a note of an untrusted status)" if w > 1 else " (it cites a note of an untrusted status)"
    if u == 0:
        return (" (each cites a trusted document that is not the one holding the answer)" if w > 1 else
                " (it cites a trusted document that is not the one holding the answer)")
    return f" ({u} cite an untrusted note, {w - u} a trusted document that is not the one holding the answer)"


def pipeline(df: pd.DataFrame, quote=str) -> str:
    """The pipeline table in words: the answers grounded on the wrong source per setting, and what they cite
    (df.attrs["wrong_source_untrusted"]: per setting, those citing an untrusted status). Works on the article's
    columns (anchored_wrong_source) and on the judgements a user reads (wrong_source, answered)."""
    if df.empty:
        return nothing("pipeline")
    wrong = df["anchored_wrong_source"] if "anchored_wrong_source" in df else df["wrong_source"]
    untrusted = df.attrs.get("wrong_source_untrusted", {})
    labels = list(df["filter"])
    if (wrong.fillna(0) == 0).all() and wrong.notna().all():
        text = f"No answer is grounded on the WRONG source, {listing(f'with {quote(f)}' for f in labels)}."
    else:
        parts = [f"{count(w)} with {quote(f)}{_wrong_kind(w, untrusted.get(f, math.nan))}" for f, w in zip(labels, wrong)]
        text = f"Answers grounded on the WRONG source: {listing(parts)}. Each passes the checker: it quotes its span faithfully."
    if "anchored_right_source" in df:
        text += (" 'Right source' means the cited span comes from the document that holds the answer, not that the "
                 "sentence states it.")
    elif "answered" in df:
        text += " " + "; ".join(f"{count(a)} answered (the answer key stated, none of it contradicted) "
                                f"with {quote(f)}"
                                for f, a in zip(labels, df["answered"])) + "."
    return text + " The checker guarantees grounding, not truth."


def losses(df: pd.DataFrame, quote=str) -> str:
    """The loss account (stage, questions) in words: every stage that loses a question, in pipeline order, and how
    many are answered. Stages with no question are left out; an empty table says so.

    [answered 17, wrong source 1] -> 'Of 18 golden questions, 17 are answered; 1 is lost at wrong source. 18 of 18
    reach the spans handed over (what the ceiling counts); an answer must also state the anchor, and 1 of them does
    not.' (the last sentence only when retrieval keeps more than are answered)
    """
    if df.empty or df.questions.sum() == 0:
        return nothing("loss account")
    n = int(df.questions.sum())
    kept = df.set_index("stage").questions
    answered = int(kept.get("answered", 0))
    lost = [(s, int(c)) for s, c in kept.items() if s != "answered" and c > 0]
    text = f"Of {n} golden questions, {answered} {'is' if answered == 1 else 'are'} answered"
    if not lost:
        return text + ": none is lost."
    text += "; " + listing(f"{c} {'is' if c == 1 else 'are'} lost at {quote(s)}" for s, c in lost) + "."
    reached = n - sum(int(kept.get(s, 0)) for s in RETRIEVAL_STAGES)
    if reached > answered:          # the ceiling counts these: say why it is higher than the answered ones
        text += (f" {reached} of {n} reach the spans handed over (what the ceiling counts); an answer must also "
                 f"state the anchor, and {reached - answered} of them {'does' if reached - answered == 1 else 'do'} not.")
    return text


def trap3(df: pd.DataFrame, k: int = 3) -> str:
    """The article's claim, with the numbers of the table: at k, each retriever's ceiling for the article's
    questions and for the same anchors asked as a user would, and which retrievers lose the most.

    -> 'At k = 3: hashing 1.000 against 0.556 (a drop of 0.444), ...'
    """
    at = df[df.k == k] if not df.empty else df
    if at.empty:
        return nothing("trap 3 table")
    if at.user_questions.isna().all():              # an upload: its own questions only
        return f"At k = {k}, the ceiling of each retriever on this golden set: " + "; ".join(
            f"{r.retriever} {share(r.article_questions)}" for r in at.itertuples()) + "."
    parts = [f"{r.retriever} {share(r.article_questions)} against {share(r.user_questions)}" for r in at.itertuples()]
    drops = {r.retriever: shown(r.article_questions) - shown(r.user_questions) for r in at.itertuples()}
    worst = max(drops.values())
    text = f"At k = {k}, the article's questions against the same anchors asked as a user would: " + "; ".join(parts) + "."
    if worst > 0:
        losers = [r for r, d in drops.items() if d == worst]
        text += (f" The biggest drop, {worst:.3f}, is {listing(losers)}'s" if len(losers) == 1 else
                 f" {listing(losers)} drop the most, {worst:.3f} each")
        text += (": the article's golden set, written with the documents' words, flatters lexical retrieval."
                 if set(losers) <= set(LEXICAL) else ".")
    else:
        text += " No retriever drops: on these questions the phrasing does not matter."
    return text
