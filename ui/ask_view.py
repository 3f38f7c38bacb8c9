"""The Ask page's pieces: its settings, the chunk cards, the switch flips, a real model's answer, your own answer.

Each draws what rag_core computed (pipeline.ask, judgement.judge_answer, flips, presets); nothing here decides an
outcome. One judgement per answer: the scripted answer's strict verdict comes from `ask` and is not checked again.

Left out on purpose: caching (ui.cache) and the URL settings' bookkeeping (ui.settings).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from rag_core.evaluation.judgement import judge_answer
from rag_core.generation.llm import LLMError, fits_context, generate
from rag_core.generation.presets import presets
from rag_core.retrieval.flips import flips
from ui import active, marks, model_config, settings, widgets
from ui.widgets import RERANKER_NAMES, RETRIEVER_NAMES


def settings_form(statuses: list, trusted: tuple) -> None:
    """Candidates, k, the filter (an on/off switch, and which statuses), rerank: drawn before anything can stop
    the page, so the widgets never lose their values."""
    st.session_state["ask_statuses"] = [x for x in st.session_state["ask_statuses"] if x in statuses]
    on = set(st.session_state["ask_statuses"]) != set(statuses)
    st.session_state["ask_filter_switch"] = on

    def flip_filter():
        settings.set_value("ask_statuses", list(trusted) if st.session_state["ask_filter_switch"] else list(statuses))

    with st.expander("Retrieval settings", expanded=True):
        s = st.columns([1, 1, 1, 2, 1])
        s[0].number_input("Candidates", min_value=1, max_value=500, key="ask_candidates",
                          value=settings.now("ask_candidates"), on_change=settings.remember,
                          args=("ask_candidates",),
                          help="How many chunks the first, fast search brings back for the reranker to reorder.")
        s[1].number_input("Spans handed over (k)", min_value=1, max_value=50, key="ask_k",
                          value=settings.now("ask_k"), on_change=settings.remember,
                          args=("ask_k",), help="How many chunks go into the prompt as [S1], [S2], …")
        s[2].toggle("Status filter", key="ask_filter_switch", value=settings.now("ask_filter_switch"),
                    on_change=flip_filter,
                    help=(f"On: only {widgets.plain(', '.join(trusted))} chunks may be retrieved." if trusted else
                          "On: nothing is trusted, so no chunk may be retrieved.") + " Off: every status may.")
        s[3].pills("Allowed statuses", statuses, selection_mode="multi", key="ask_statuses",
                   default=settings.now("ask_statuses"),
                   on_change=settings.remember, args=("ask_statuses",), format_func=widgets.plain,
                   help="Only chunks of documents with these statuses may be retrieved. The filter runs before "
                        "ranking, so excluded chunks never take a place. All selected: no filter.")
        s[4].toggle("Rerank", key="ask_rerank", value=settings.now("ask_rerank"), on_change=settings.remember, args=("ask_rerank",),
                    help="Re-read each (question, chunk) pair and reorder the candidates.")


def chunk_cards(a, ix, holders: set, golden: bool, terms: set, statuses: list, rerank: bool) -> None:
    """One card per span: number, document and chunk, status badge, scores, whether it holds the anchor."""
    for i, (c, sim, rr, was) in enumerate(zip(a.retrieved.ids, a.retrieved.similarity, a.retrieved.rerank_score,
                                              a.retrieved.bi_rank), 1):
        c = int(c)
        with st.container(border=True):
            h = st.columns([1, 3, 2, 2, 3, 2], vertical_alignment="center")
            h[0].markdown(f"**S{i}**")
            h[1].markdown(f"**{widgets.plain(ix.doc_id(c))}** · chunk {ix.chunk_number(c)}")
            with h[2]:
                widgets.badge(ix.status(c), statuses)
            h[3].markdown(f"similarity **{sim:.3f}**", help="The retriever's score: compare it only with the "
                                                             "scores of the same search.")
            h[4].markdown((f"rerank **{rr:.3f}**" + (f" (#{was} before the rerank)" if was != i else "")) if rerank
                          else "rerank off")
            h[5].markdown((":green[**✓ holds the anchor**]" if c in holders else "no anchor") if golden else "")
            st.html('<div style="max-height:5em;overflow-y:auto">'          # 3 lines, the rest scrolls
                    f"{widgets.marked(ix.texts[c], terms)}</div>")


def flips_table(wb, ix, chunker, a, question: str, candidates: int, k: int, rerank: bool, allowed, holders: set,
                statuses: list) -> None:
    """The spans with each switch flipped (rerank, filter, the other retriever), side by side, and a sentence each."""
    other = "minilm" if wb.retriever != "minilm" else "hashing"
    flipped = wb.using(retriever=other)
    active.prepare([chunker], flipped)
    variants = flips(ix, question, candidates, k, rerank, allowed, wb.trusted, now=a.retrieved.ids,
                     others={f"retriever: {other}": flipped.index(chunker)})

    def cell(ids, r):
        if r >= len(ids):
            return ""
        c = int(ids[r])
        return (f"{widgets.status_label(ix.status(c))} · {ix.doc_id(c)} · chunk {ix.chunk_number(c)}"
                + (" · ✓ anchor" if c in holders else ""))

    columns = [("now", a.retrieved.ids)] + [(f.name, f.ids) for f in variants]
    table = pd.DataFrame({name: [cell(ids, r) for r in range(k)] for name, ids in columns},
                         index=[f"S{r + 1}" for r in range(k)])
    status_of = {name: [ix.status(int(ids[r])) if r < len(ids) else None for r in range(k)] for name, ids in columns}
    st.dataframe(widgets.styled(table, status_of, statuses), width="stretch")
    for f in variants:
        st.markdown(f"- **{widgets.plain(f.name)}**: {widgets.plain(f.summary)}")


def model_answer(a, judge) -> None:
    """A real model's answer to the same prompt, streamed, then judged with `judge(answer)`."""
    cfg = model_config.llm_config()
    if cfg is None:
        st.caption("No model is set up: set one up on the Model page to send this prompt to one.")
        return
    fits, tokens = fits_context(a.prompt, cfg.num_ctx, cfg.num_predict)
    st.caption(f"Model {widgets.plain(cfg.model)} ({cfg.protocol}). The prompt is about {tokens:,} tokens (a rough "
               f"estimate) plus up to {cfg.num_predict} for the answer, against a context window of {cfg.num_ctx:,}.")
    if not fits:
        st.warning("The prompt may not fit in the model's context window: hand over fewer spans, use smaller "
                   "chunks, or raise the context window on the Model page.")
    if st.button("Ask the model", key="ask_model", icon=":material/smart_toy:"):
        box = st.empty()
        try:
            st.session_state["ask_model_answer"] = (a.prompt, generate(
                a.prompt, cfg, on_text=lambda text: box.code(text, language=None, wrap_lines=True)))
            box.empty()
        except LLMError as e:
            st.session_state.pop("ask_model_answer", None)
            box.error(widgets.plain(str(e)))
    prompt_then, gen = st.session_state.get("ask_model_answer", (None, None))
    if gen is not None and prompt_then == a.prompt:
        st.code(gen.text, language=None, wrap_lines=True)
        st.caption(f"{gen.latency_s:.2f} s" + (f" · prompt {gen.prompt_tokens} tokens" if gen.prompt_tokens else "")
                   + (f" · answer {gen.completion_tokens} tokens" if gen.completion_tokens else ""))
        if gen.truncated:
            widgets.warn(gen.note)
        widgets.judgement(judge(gen.text))
        marks.mark(gen.text, a.spans, a.question, f"model:{gen.model}", key="model")


def example_note() -> None:
    """After the Example button: what it changed for every page, and the way back (while those settings hold)."""
    before = st.session_state.get("_ask_example_from")
    if not before or (st.session_state["retriever"], st.session_state["reranker"]) != ("minilm", "dense"):
        st.session_state.pop("_ask_example_from", None)
        return
    was = f"{RETRIEVER_NAMES[before[0]]} and {RERANKER_NAMES[before[1]]}"
    st.info(f"The example set the retriever to {RETRIEVER_NAMES['minilm']} and the reranker to "
            f"{RERANKER_NAMES['dense']} in the sidebar, for every page (they were {was}).",
            icon=":material/info:")

    def put_back():
        settings.set_value("retriever", before[0])
        settings.set_value("reranker", before[1])
        st.session_state.pop("_ask_example_from", None)

    st.button(f"Put back {was}", key="ask_example_undo", on_click=put_back, icon=":material/undo:")


def own_answer(question: str, a, anchor, statuses_of_spans: list, judge) -> None:
    """Answers to try (built from these spans, named for what they are) and a box for any answer, judged. An answer
    written for another question is cleared when the question changes (its verdict would be about the old one)."""
    if st.session_state.setdefault("_ask_answer_for", question) != question:
        st.session_state["ask_answer"], st.session_state["ask_preset"] = "", None
        st.session_state["_ask_answer_for"] = question
    tries = {p.kind: p.answer for p in presets(question, a.spans, anchor, statuses_of_spans)}

    def use_preset():
        if st.session_state.get("ask_preset"):
            st.session_state["ask_answer"] = tries[st.session_state["ask_preset"]]

    if st.session_state.get("ask_preset") not in tries:
        st.session_state["ask_preset"] = None
    st.pills("Answers to try", list(tries), key="ask_preset", on_change=use_preset,
             help="Built from the spans above and named for what they are: the golden anchor (or the generator's "
                  "sentence) cited, without a citation, with a number changed, with another span's number, citing "
                  "a span that was not handed over, and an abstention.")
    mine = st.text_area("Your answer", key="ask_answer", placeholder="The default cutoff is 0.6 [S1].",
                        max_chars=5000)
    if mine.strip():
        widgets.judgement(judge(mine))
        marks.mark(mine, a.spans, question, "preset" if mine in tries.values() else "yours", key="yours")


def judge_for(a, ix, row, trusted):
    """answer -> its Judgement against the spans of `a` (the golden row's document and anchor when there is one):
    the one call that judges every answer the Ask page shows (verdict: the checker's, when already computed)."""
    return lambda answer, verdict=None: judge_answer(answer, a.spans, a.retrieved.ids, ix, row.doc if row else None,
                                                     row.anchor if row else None, trusted, verdict=verdict,
                                                     key=row.key if row else None,
                                                     question=row.question if row else None,
                                                     reply=row.reply if row else None,
                                                     accept=row.accept if row else ())
