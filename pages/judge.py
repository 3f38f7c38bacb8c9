"""Judge: how far the rule (and a model) can be trusted on this dataset, against people's marks of answers."""
import streamlit as st

from rag_core.evaluation.judges import model_judge
from rag_core.generation.llm import LLMError
from ui import active, cache, datasets, figures, frame, judge_view, model_config, saved, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

if st.session_state.pop("judge_open_ask", False):          # "Open in Ask" was clicked
    st.switch_page("pages/ask.py")

st.title("Judge")
st.caption("People mark answers right or wrong; here the rule's verdicts are counted against their marks: how often "
           "green is right, and where the two disagree. A model, when one is connected, is a second judge beside "
           "the rule, never instead of it.")
judge_view.bundled_sets_section(cache.labelled_sets())
wb, ds, store = active.workbench(), datasets.dataset(), saved.store()
if problem := st.session_state.pop("judge_problem", None):
    widgets.error(problem)
if loaded := st.session_state.pop("judge_loaded", None):
    widgets.success(f"Loaded {loaded} bundled examples as marks of the two bundled datasets.")
if not store.enabled:
    st.info("Marks are kept in the data folder, which is off here: nothing to count.")
    st.stop()
try:
    labels = store.labels.list(ds.key)
except ValueError as e:
    widgets.error(str(e))
    st.stop()

counted = [x for x in labels if x.anchor and x.spans]
if not counted:
    st.info("No answer to a golden question of this dataset is marked yet. On **Ask**, pick a golden question and "
            "press **Right** or **Wrong** under an answer (the scripted one, a preset, your own or the model's): "
            "every mark is kept and counted here. Or load the bundled examples: 217 answers to the bundled golden "
            "questions, marked by a person who did not read the rule.")
    st.button("Load the bundled examples", key="judge_load", icon=":material/library_add:",
              on_click=judge_view.load_examples)
    if ds.key not in judge_view.EXAMPLE_DATASETS.values():
        st.caption("The examples are marks of the bundled datasets: choose one of them in the sidebar to see them.")
    if labels:
        judge_view.labels_list(labels)
    st.stop()

report = judge_view.report_of(wb, counted)
mine = len(labels) - len(counted)
st.subheader(f"The rule against people: {figures.plural(len(counted), 'marked answer', 'marked answers')}")
if mine:
    st.caption(f"{mine} marks are listed below but not counted: answers to questions of your own (without a golden "
               "answer the rule cannot say green of them) or given no span.")
st.dataframe(judge_view.confusion_table(report), hide_index=True, key="judge_rule_table")
st.markdown(judge_view.precision_line(report.rule, "rule"))
judge_view.marks_holds_section(report)
judge_view.disagreements(report)

st.subheader("A model as second judge")
cfg = model_config.llm_config()
if cfg is None:
    st.caption("No model is set up: set one up on the Model page to let a model judge these answers too (RIGHT or "
               "WRONG and one line of why, at temperature 0).")
else:
    ids = tuple(x.id for x in counted)
    if st.button(f"Let {widgets.plain(cfg.model)} judge these {len(counted)} answers", key="judge_model",
                 icon=":material/smart_toy:"):
        bar = st.progress(0.0, text="The model is judging...")

        def tell(done: int, total: int) -> None:
            bar.progress(done / total, text=f"Judged {done} of {total}")
        try:
            got = judge_view.report_of(wb, counted, model_judge(cfg), on_case=tell)
            st.session_state["judge_model_report"] = (ids, cfg, got)
        except LLMError as e:
            widgets.error(str(e))
        bar.empty()
    ids_then, cfg_then, got = st.session_state.get("judge_model_report", (None, None, None))
    if got is not None and ids_then == ids and cfg_then == cfg:
        failed = [r.model_error for r in got.rows if r.model_error]
        if failed:
            widgets.warn(f"{len(failed)} answers got no verdict because the call failed: {failed[0]}")
        judge_view.model_section(got, [x.source for x in counted], cfg.model)

judge_view.labels_list(labels)
