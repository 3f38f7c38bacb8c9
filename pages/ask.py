"""Ask: one question through the whole pipeline — ranked chunks, the prompt, the answer, the verdict."""
import streamlit as st

from rag_core.evaluation.judgement import anchor_note, anchor_place
from rag_core.evaluation.pipeline import ask
from rag_core.generation.prompt import prompt_size
from rag_core.retrieval.retrievers import WITHOUT_SHARED_WORDS
from rag_core.text.tokens import words
from ui import active, ask_view, frame, marks, settings, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here


st.title("Ask")
st.caption("Type a question, or pick one of the golden questions, and follow it through retrieval, the prompt, "
           "the answer and the citation check.")
wb = active.workbench()
statuses = list(wb.corpus.statuses)
golden = {r.question: (q, r) for q, r in enumerate(wb.golden_check.valid)}


def pick_golden():
    choice = st.session_state.get("ask_golden")
    if choice:
        settings.set_value("ask_question", choice)


def type_question():
    settings.remember("ask_question")
    if st.session_state.get("ask_golden") != st.session_state["ask_question"]:
        st.session_state["ask_golden"] = None          # your own question is not the golden one any more


# ---- the question and the settings (drawn before anything can stop the page, so they never lose their values)
pick, typed = st.columns(2)
pick.selectbox("Golden questions", list(golden), index=None, key="ask_golden", on_change=pick_golden,
               placeholder="Pick a golden question (its answer sentence is known)…",
               help="Questions with a known anchor: for these the page also tells whether the answer was retrieved.")
typed.text_input("Your question", key="ask_question", value=settings.now("ask_question"),
                 on_change=type_question, max_chars=20000,
                 placeholder="e.g. What does lru_cache do when maxsize is None?")
EXAMPLE = "Why shouldn't I check two secret tokens against each other with a plain equality test?"


def try_example():
    """A question in a user's words (no function name): the article's encoder ranks its answer 28th, MiniLM first
    (and the lexical reranker would push it down again: the example reranks by MiniLM too)."""
    before = (st.session_state["retriever"], st.session_state["reranker"])
    if before != ("minilm", "dense"):
        st.session_state["_ask_example_from"] = before          # said below the button, with the way back
    settings.set_value("ask_question", EXAMPLE)
    settings.set_value("retriever", "minilm")
    settings.set_value("reranker", "dense")
    st.session_state["ask_golden"] = None


st.button("Example: a question in your own words, with the trained encoder", key="ask_example", on_click=try_example,
          icon=":material/lightbulb:", help="Sets the retriever and the reranker to MiniLM; the comparison below shows "
                                             "what the article's encoder would have handed over instead.")
ask_view.example_note()
ask_view.settings_form(statuses, wb.trusted)

question = st.session_state["ask_question"]
k, candidates = int(st.session_state["ask_k"]), int(st.session_state["ask_candidates"])
allowed = set(st.session_state["ask_statuses"])
rerank = bool(st.session_state["ask_rerank"])
chunker = settings.chunker_or_stop()
active.prepare([chunker])             # the trained encoder's chunks, under a bar (nothing when cached or lexical)
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

# ---- the ranked chunks, and beside them the scripted answer judged: question, chunks and verdict on one screen
q_pos, row = golden.get(question.strip(), (None, None))
holders = wb.holders(chunker)[q_pos] if q_pos is not None else set()
terms = set(words(question))
chunks_side, verdict_side = st.columns([3, 2], gap="medium")        # one above the other on a phone
with chunks_side:
    st.subheader(f"The {len(a.spans)} chunk(s) handed to the model")
    if q_pos is not None:
        tone, sentence = anchor_note(bool(holders), anchor_place(a.retrieved.ids, holders, ix, wb.trusted),
                                     len(a.spans))
        {"error": widgets.error, "warning": widgets.warn, "success": widgets.success}[tone](sentence)
    elif a.spans and not any(terms & set(words(t)) for t in a.spans):
        st.info(f"None of these chunks shares a word with the question: nothing relevant was found. Their "
                f"similarity is not a match: {WITHOUT_SHARED_WORDS[wb.retriever]}. The answer beside can only "
                "abstain or be refused.")
    ask_view.chunk_cards(a, ix, holders, q_pos is not None, terms, statuses, rerank)
judge = ask_view.judge_for(a, ix, row, wb.trusted)
with verdict_side:
    st.subheader("The scripted generator's answer, checked")
    st.caption("The scripted generator is not a model: it copies the sentence of the spans sharing the most words "
               "with the question, and cites it.")
    st.code(a.answer, language=None, wrap_lines=True)
    widgets.judgement(judge(a.answer, a.verdict))
    marks.mark(a.answer, a.spans, a.question, "scripted", key="scripted")

# ---- the prompt, folded: 600 words that pushed the verdict 3,400 px down
size = prompt_size(a.prompt, len(a.spans))
with st.expander(f"The prompt handed to the model: {size.words} words, {size.characters:,} characters"):
    st.code(a.prompt, language=None, wrap_lines=True)

st.subheader("What changes if you flip a switch")
ask_view.flips_table(wb, ix, chunker, a, question, candidates, k, rerank, allowed, holders, statuses)

st.subheader("A real model's answer, checked")
ask_view.model_answer(a, judge)

st.subheader("Try your own answer")
st.caption("Write any answer, with citations like [S1], and see whether the checker accepts it against the same "
           "spans, and whether it states the golden answer.")
ask_view.own_answer(question, a, row.anchor if row else None, [ix.status(int(c)) for c in a.retrieved.ids], judge)
