"""Ask: one question through the whole pipeline — ranked chunks, the prompt, the answer, the verdict."""
import pandas as pd
import streamlit as st

from rag_core.retrieval.flips import flips
from rag_core.evaluation.judgement import anchor_place
from rag_core.generation.llm import LLMError, fits_context, generate
from rag_core.evaluation.pipeline import ask
from rag_core.generation.presets import presets
from rag_core.generation.prompt import prompt_size
from rag_core.text import words
from ui import data, frame, model_config, settings, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

PAGE_KEYS = ("ask_question", "ask_candidates", "ask_k", "ask_statuses", "ask_rerank")
for w in settings.init(PAGE_KEYS):
    widgets.warn(w)

st.title("Ask")
st.caption("Type a question, or pick one of the golden questions, and follow it through retrieval, the prompt, "
           "the answer and the citation check.")
wb = data.workbench()
statuses = list(wb.corpus.statuses)
golden = {r.question: (q, r) for q, r in enumerate(wb.check.valid)}


def pick_golden():
    choice = st.session_state.get("ask_golden")
    if choice:
        settings.set_value("ask_question", choice)


def type_question():
    settings.remember("ask_question")
    if st.session_state.get("ask_golden") != st.session_state["ask_question"]:
        st.session_state["ask_golden"] = None          # your own question is not the golden one any more


# ---- the question and the settings (drawn before anything can stop the page, so they never lose their values)
st.selectbox("Golden questions", list(golden), index=None, key="ask_golden", on_change=pick_golden,
             placeholder="Pick a golden question (its answer sentence is known)…",
             help="Questions with a known anchor: for these the page also tells whether the answer was retrieved.")
st.text_input("Your question", key="ask_question", on_change=type_question, max_chars=20000,
              placeholder="e.g. What does lru_cache do when maxsize is None?")
EXAMPLE = "Why shouldn't I check two secret tokens against each other with a plain equality test?"


def try_example():
    """A question in a user's words (no function name): the article's encoder ranks its answer 28th, MiniLM first
    (and the lexical reranker would push it down again: the example reranks by MiniLM too)."""
    settings.set_value("ask_question", EXAMPLE)
    settings.set_value("retriever", "minilm")
    settings.set_value("reranker", "dense")
    st.session_state["ask_golden"] = None


st.button("Example: a question in your own words, with the trained encoder", key="ask_example", on_click=try_example,
          icon=":material/lightbulb:", help="Sets the retriever and the reranker to MiniLM; the comparison below shows "
                                             "what the article's encoder would have handed over instead.")
with st.expander("Retrieval settings", expanded=True):
    s = st.columns([1, 1, 2, 1])
    s[0].number_input("Candidates", min_value=1, max_value=500, key="ask_candidates", on_change=settings.remember,
                      args=("ask_candidates",),
                      help="How many chunks the first, fast search brings back for the reranker to reorder.")
    s[1].number_input("Spans handed over (k)", min_value=1, max_value=50, key="ask_k", on_change=settings.remember,
                      args=("ask_k",), help="How many chunks go into the prompt as [S1], [S2], …")
    st.session_state["ask_statuses"] = [x for x in st.session_state["ask_statuses"] if x in statuses]
    s[2].pills("Allowed statuses (filter)", statuses, selection_mode="multi", key="ask_statuses",
               on_change=settings.remember, args=("ask_statuses",), format_func=widgets.plain,
               help="Only chunks of documents with these statuses may be retrieved. The filter runs before "
                    "ranking, so excluded chunks never take a place. Select all statuses to turn it off.")
    s[3].toggle("Rerank", key="ask_rerank", on_change=settings.remember, args=("ask_rerank",),
                help="Re-read each (question, chunk) pair and reorder the candidates by how many question "
                     "words they share, in order and close together.")

question = st.session_state["ask_question"]
k, candidates = int(st.session_state["ask_k"]), int(st.session_state["ask_candidates"])
allowed = set(st.session_state["ask_statuses"])
rerank = bool(st.session_state["ask_rerank"])
settings.sync_url(settings.SHARED + PAGE_KEYS)
chunker = settings.chunker_or_stop()
data.prepare([chunker])             # the trained encoder's chunks, under a bar (nothing when cached or lexical)
ix = wb.index(chunker)
if not question.strip():
    st.info("Type a question above, or pick a golden question, to see the pipeline at work.")
    st.stop()

try:
    a = ask(ix, question, candidates, k, rerank, allowed)
except ValueError as e:
    widgets.error(str(e))
    st.stop()
for note in a.retrieved.notes:
    widgets.warn(note)

# ---- the ranked chunks
q_pos, row = golden.get(question.strip(), (None, None))
holders = wb.holders(chunker)[q_pos] if q_pos is not None else set()
terms = set(words(question))
st.subheader(f"The {len(a.spans)} chunk(s) handed to the model")
if q_pos is not None:
    place = anchor_place(a.retrieved.ids, holders, ix, wb.trusted)
    above = ", ".join(f"S{n} ({status})" for n, status in place.outranked_by)
    if not holders:
        st.error("The anchor is not whole in any chunk of this chunker (a boundary cuts it): no setting of the "
                 "search can retrieve it. Change the chunk size or overlap in the sidebar.")
    elif place.rank is None:
        st.error(f"The anchor is not in these {len(a.spans)} spans: the model cannot answer from the context, "
                 "whatever the prompt. Try more spans, the filter or the reranker."
                 + (f" Spans of an untrusted status took places: {widgets.plain(above)}." if above else ""))
    elif place.outranked_by:
        st.warning(f"The anchor is in span S{place.rank}, but {widgets.plain(above)} outrank it: the model reads a "
                   "contradicting source first. Turn the filter on to keep such chunks out.")
    else:
        st.success(f"The anchor of this golden question is in span S{place.rank}, and no chunk of an untrusted "
                   "status outranks it.")
elif a.spans and not any(terms & set(words(t)) for t in a.spans):
    st.info("None of these chunks shares a word with the question: nothing relevant was found. The search "
            "still returns its closest chunks; the answer below can only abstain or be refused.")
for i, (c, sim, rr, was) in enumerate(zip(a.retrieved.ids, a.retrieved.similarity, a.retrieved.rerank_score,
                                          a.retrieved.bi_rank), 1):
    c = int(c)
    with st.container(border=True):
        h = st.columns([1, 3, 2, 2, 2, 2], vertical_alignment="center")
        h[0].markdown(f"**S{i}**")
        h[1].markdown(f"**{widgets.plain(ix.doc_id(c))}** · chunk {ix.chunk_number(c)}")
        with h[2]:
            widgets.badge(ix.status(c), statuses)
        h[3].markdown(f"similarity **{sim:.3f}**")
        h[4].markdown(f"rerank **{rr:.3f}**" + (f" (was #{was})" if was != i else "") if rerank else "rerank off")
        h[5].markdown((":green[**✓ holds the anchor**]" if c in holders else "no anchor") if q_pos is not None else "")
        st.html(widgets.marked(ix.texts[c], terms))

# ---- what changes with the other settings
st.subheader("What changes if you flip a switch")
other = "minilm" if wb.retriever != "minilm" else "hashing"          # the retriever to flip to
flipped = wb.using(retriever=other)
data.prepare([chunker], flipped)     # drawn below the spans: they need no new vectors
variants = flips(ix, question, candidates, k, rerank, allowed, wb.trusted, now=a.retrieved.ids,
                 others={f"retriever: {other}": flipped.index(chunker)})


def cell(ids, r):
    if r >= len(ids):
        return ""
    c = int(ids[r])
    return (f"{widgets.status_label(ix.status(c))} · {ix.doc_id(c)} · chunk {ix.chunk_number(c)}"
            + (" · ✓ anchor" if c in holders else ""))


compare = pd.DataFrame({name: [cell(ids, r) for r in range(k)]
                        for name, ids in [("now", a.retrieved.ids)] + [(f.name, f.ids) for f in variants]},
                       index=[f"S{r + 1}" for r in range(k)])
st.dataframe(widgets.styled(compare, list(compare.columns), statuses), width="stretch")
for f in variants:
    st.markdown(f"- **{widgets.plain(f.name)}**: {widgets.plain(f.summary)}")

# ---- the prompt
size = prompt_size(a.prompt, len(a.spans))
with st.expander(f"The prompt handed to the model: {size.words} words, {size.characters:,} characters",
                 expanded=not widgets.is_phone()):
    st.code(a.prompt, language=None, wrap_lines=True)

# ---- the answer and its verdict
st.subheader("The scripted generator's answer, checked")
st.caption("The scripted generator is not a model: it copies the sentence of the spans sharing the most words "
           "with the question, and cites it.")
expected = row.doc if row else None
st.code(a.answer, language=None, wrap_lines=True)
widgets.verdict(a.answer, a.spans, a.retrieved.ids, ix, expected, wb.trusted)

st.subheader("A real model's answer, checked")
cfg = model_config.llm_config()
if cfg is None:
    st.caption("No model is set up: open Model server in the sidebar to send this prompt to one.")
else:
    fits, tokens = fits_context(a.prompt, cfg.num_ctx, cfg.num_predict)
    st.caption(f"Model {widgets.plain(cfg.model)} ({cfg.protocol}). The prompt is about {tokens:,} tokens (a rough "
               f"estimate) plus up to {cfg.num_predict} for the answer, against a context window of {cfg.num_ctx:,}.")
    if not fits:
        st.warning("The prompt may not fit in the model's context window: hand over fewer spans, use smaller "
                   "chunks, or raise the context window under Model server in the sidebar.")
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
        widgets.verdict(gen.text, a.spans, a.retrieved.ids, ix, expected, wb.trusted)

st.subheader("Try your own answer")
st.caption("Write any answer, with citations like [S1], and see whether the checker accepts it against the same "
           "spans. The answers to try are made from these spans.")
tries = {p.kind: p.answer for p in presets(question, a.spans)}


def use_preset():
    if st.session_state.get("ask_preset"):
        st.session_state["ask_answer"] = tries[st.session_state["ask_preset"]]


if st.session_state.get("ask_preset") not in tries:
    st.session_state["ask_preset"] = None
st.pills("Answers to try", list(tries), key="ask_preset", on_change=use_preset,
         help="Built from the spans above: the generator's sentence without a citation, with a changed number, "
              "with another span's number, with the right citation, citing a span that does not exist, and "
              "an abstention.")
mine = st.text_area("Your answer", key="ask_answer", placeholder="The default cutoff is 0.6 [S1].", max_chars=5000)
if mine.strip():
    widgets.verdict(mine, a.spans, a.retrieved.ids, ix, expected, wb.trusted)
