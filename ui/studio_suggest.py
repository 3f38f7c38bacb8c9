"""The golden set studio's suggestions: filled from the documents' own structure or by the connected model, each
shown as plain text with where it comes from, and added to the set in one click (or all at once) through the
studio's add path.

    from_structure()      # a button's callback: st.session_state[SUGGESTED] = rag_core's from_structure, and a note
    model_route(cfg)      # document, passages, "Suggest with the model" (off without a model server, and said so)
    suggestions(items)    # a note (how many, or why none), the model's refusals with their reasons, each suggestion
                          # with Accept, and Accept all (N)

Adding goes through `golden_edit.add_row` (the checks of a typed row) and `studio.commit`: one change, one Undo,
each row remembering its source. A suggestion is never used before a person accepts it.

The model is asked about the first prose paragraphs of one document (`outline.passages`), one request a passage,
each within the model's timeout; a suggestion whose anchor is not in its passage word for word is refused by
`suggest.from_model` and listed with its reason, never offered.

Left out on purpose: finding and checking suggestions (rag_core.data.suggest), connecting a model (the Model page)
and what a change does to the dataset (ui.studio).
"""
from __future__ import annotations

import streamlit as st

from rag_core.data.golden import GoldenRow
from rag_core.data.golden_edit import add_row
from rag_core.data.outline import PASSAGE_MIN_WORDS
from ui import studio, widgets
from ui.figures import plural

SUGGESTED = "studio_suggested"      # session: the suggestions offered (rag_core Suggestion), until replaced
REFUSED = "studio_refused"          # session: the model's suggestions refused (rag_core Refusal), with their reasons
SAID = "studio_suggest_note"        # session: (kind, sentence) about the suggestions: ("ok" | "info" | "error", text)
NONE_FOUND = ("None found in these documents. Suggestions come from headings that ask a question (a reST or "
              "Markdown heading ending with '?', or a line in bold that does), Q:/A: pairs and definition lists, "
              "each anchored on the first sentence of the prose below it. A question with only code or nothing "
              "under it gives none.")


def from_structure() -> None:
    """Offer the rows the active dataset's documents suggest by their own structure, and say how many."""
    from rag_core.data.suggest import MAX_SUGGESTIONS, from_structure as found_in
    found = found_in(studio.documents())
    st.session_state[SUGGESTED], st.session_state[REFUSED] = found, []
    first = f" (the first {MAX_SUGGESTIONS:,} the documents offer)" if len(found) >= MAX_SUGGESTIONS else ""
    count = plural(len(found), "suggestion", "suggestions")
    st.session_state[SAID] = (("ok", f"{count}{first} found in the documents' question headings, bold questions, "
                                     "Q:/A: pairs and definition lists: accept those that fit.")
                              if found else ("info", NONE_FOUND))


def model_route(cfg) -> None:
    """The model's controls: a document, how many of its passages, questions a passage, and the button; the button
    is off without a model server, and the caption says where to connect one."""
    if cfg is None:
        st.button("Suggest with the model", key="studio_suggest_model", disabled=True, icon=":material/smart_toy:")
        st.caption("No model server is connected: set one up on the Model page (server URL and model, then Use this "
                   "model), and this button asks it to write questions for passages of a document.")
        return
    doc, n, per = st.columns([4, 1, 1])
    doc_id = doc.selectbox("Document for the model", [d.id for d in studio.documents()], key="studio_model_doc")
    passages = n.number_input("Passages", 1, 10, 3, key="studio_model_passages",
                              help=f"The document's first prose paragraphs of {PASSAGE_MIN_WORDS} words or more, "
                                   "one request each: "
                                   "the model's timeout applies to each.")
    questions = per.number_input("Questions a passage", 1, 3, 1, key="studio_model_questions")
    st.button("Suggest with the model", key="studio_suggest_model", on_click=with_model,
              args=(cfg, doc_id, int(passages), int(questions)), icon=":material/smart_toy:")
    st.caption(widgets.plain(f"Asks {cfg.model} for questions in a user's words, each with an anchor copied from its "
                             "passage; an anchor not in the passage word for word is refused, with why."))


def with_model(cfg, doc_id: str, passages: int, questions: int) -> None:
    """Offer what the model writes for the first `passages` passages of document `doc_id`, and say how many were
    refused (listed with their reasons); a model that cannot be asked is said, the suggestions left as they were."""
    from rag_core.data.outline import is_markdown, passages as first_passages
    from rag_core.data.suggest import from_model
    from rag_core.generation.llm import LLMError, generate
    docs = studio.documents()
    text = next((d.text for d in docs if d.id == doc_id), "")
    chosen = [(doc_id, p) for p in first_passages(text, is_markdown(doc_id), passages)]
    if not chosen:
        st.session_state[SAID] = ("info", f"{doc_id} has no paragraph of prose of {PASSAGE_MIN_WORDS} words or more "
                                          "to ask the model about: choose another document.")
        return
    try:
        found, refused = from_model(docs, chosen, lambda prompt: generate(prompt, cfg, stream=False).text,
                                    questions, name=cfg.model)
    except LLMError as e:
        st.session_state[SAID] = ("error", f"The model could not be asked, no suggestion changed: {e}")
        return
    st.session_state[SUGGESTED], st.session_state[REFUSED] = found, refused
    st.session_state[SAID] = ("ok" if found else "info",
                              f"{plural(len(found), 'suggestion', 'suggestions')} written by {cfg.model} for "
                              f"{plural(len(chosen), 'passage', 'passages')} of "
                              f"{doc_id}" + (f"; {len(refused)} refused (listed below with why)." if refused else
                                             "; none refused."))


def accept(items, what: str) -> None:
    """Add the suggestions that would count, each with its source, as one change (one Undo); those that would not
    are said with their reason."""
    rows, refused = studio.rows(), []
    for s in items:
        try:
            rows = add_row(rows, GoldenRow(s.question, s.doc, s.anchor, s.answer or ""), studio.documents())
        except ValueError as e:
            refused.append(f"{s.question}: {e}")
            continue
        studio.set_source(rows[-1], s.source)
    if len(rows) > len(studio.rows()):
        studio.commit(rows, what)
    if refused:
        studio.say("error", f"{plural(len(refused), 'suggestion', 'suggestions')} not added: " + " · ".join(refused))


def _said() -> None:
    kind, text = st.session_state.get(SAID, (None, None))
    if kind == "ok":
        widgets.success(text)
    elif kind == "info":
        widgets.info(text)
    elif kind == "error":
        widgets.error(text)
    refused = st.session_state.get(REFUSED, [])
    if refused:
        with st.expander(f"Refused: {len(refused)} written by the model but not offered", icon=":material/block:"):
            for r in refused:
                st.text(f"{r.question}\n{r.doc} · anchor: {r.anchor}\nwhy refused: {r.reason}")


def suggestions(items, key: str = "studio_suggestion") -> None:
    """The suggestions not yet in the set (for the active documents), each with its question, anchor and source as
    plain text (they come from the user's files or a model) and Accept; Accept all (N) above them."""
    _said()
    have, docs = {tuple(r[:3]) for r in studio.rows()}, {d.id for d in studio.documents()}
    items = [s for s in items if s.doc in docs and (s.question, s.doc, " ".join(s.anchor.split())) not in have]
    if not items:
        st.caption("No suggestion waiting: press a button above to look for some.")
        return
    st.button(f"Accept all ({len(items)})", key=f"{key}_all", on_click=accept,
              args=(items, f"accept {plural(len(items), 'suggestion', 'suggestions')}"), icon=":material/done_all:")
    for n, s in enumerate(items):
        with st.container(border=True, key=f"{key}_card_{n}"):
            text, button = st.columns([6, 1], vertical_alignment="center")
            key_said = f"\nanswer key: {s.answer}" if s.answer else ""
            text.text(f"{s.question}\nanchor: {s.anchor}{key_said}")
            text.caption(widgets.plain(f"{s.doc} · {s.why} · {s.source}"))
            button.button("Accept", key=f"{key}_{n}", on_click=accept, args=([s], f"accept suggestion {n + 1}"),
                          icon=":material/add:")
