"""Model: connect a real model (Ollama or OpenAI-compatible) and run the golden set through it, every answer verified."""
import dataclasses

import pandas as pd
import streamlit as st

from rag_core.evaluation import outcomes
from rag_core.text.credentials import mask_secrets
from ui import active, answer_reader, datasets, export, frame, marks, model_config, model_form, model_run, settings, \
    widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

st.title("A real model")
st.caption("The scripted generator is not a model. Point Open Book at a local model server and measure what the "
           "article left open: how often a real model's answers are refused by the citation checker.")

# ---- connection (Ask, Compare and Judge use the model set up here; the sidebar says which)
cfg = model_config.llm_config()
open_at_first = st.session_state.setdefault("model_form_open", cfg is None)     # stable: a changing one refolds it
with st.expander("Model server", icon=":material/smart_toy:", expanded=open_at_first):
    model_form.render()
cfg = model_config.llm_config()                  # as the form left it
if cfg is None:
    st.info("No model is set up. Fill in the server URL and the model name above (Check connection lists the "
            "server's models to choose from) and press **Use this model**. The Ask page then offers an 'Ask the "
            "model' button too.")
    st.stop()
st.success(f"Model: **{widgets.plain(cfg.model)}** via {cfg.protocol} at "
           f"{widgets.plain(mask_secrets(cfg.base_url, cfg.base_url))}")

# ---- the golden set through the model
wb = active.workbench()
st.subheader("Run the golden set through the model")
widgets.stop_without_questions(wb, "there is no golden set to run")
chunker = settings.chunker_or_stop()
c = st.columns(3)
k = c[0].number_input("Spans handed over", 1, 20, 3, key="model_k")
candidates = c[1].number_input("Candidates (reranked)", 1, 200, 20, key="model_candidates")
order = c[2].radio("Span order", ["ranked", "ends"], key="model_order", horizontal=True,
                   format_func={"ranked": "as ranked", "ends": "best at both ends"}.get,
                   help="'Best at both ends' puts the best span first and the second best last: models read the "
                        "middle of a long context worst ('lost in the middle').")
if k > candidates:
    st.error("Keep at most as many spans as there are candidates.")
    st.stop()
run_key = (datasets.dataset().key, chunker, dataclasses.replace(cfg, api_key=None), int(k), int(candidates), order)
n, n_filters = len(wb.golden_check.valid), len(outcomes.filters(wb))

b = st.columns([1, 1, 4])
start = b[0].button("Run", type="primary", key="model_run", icon=":material/play_arrow:")
b[1].button("Cancel", key="model_cancel", icon=":material/stop:",
            help="Stops the run; the answers received so far are kept below.")
model_run.left_by_a_cancelled_run(show=not start, total=n_filters * n)
if start and run_key not in model_config.model_runs():
    model_run.run(wb, chunker, cfg, int(k), int(candidates), order, run_key)

done = model_config.model_runs().get(run_key)
if done is None:
    st.info(f"Press Run to send the {n} golden questions to {widgets.plain(cfg.model)}, with and without the "
            "status filter.")
    st.stop()

st.markdown("**Operating metrics.** Every answer is verified sentence by sentence, then judged against the golden "
            "answer key: *right* (green) only when it is grounded on the document that holds the answer, states the "
            "key and contradicts none of it. *Checker accepted* counts grounded answers, right or not: it is not "
            "the share of right answers. A false refusal is a refused answer although the anchor was inside the "
            "spans.")
metrics = pd.DataFrame([{"filter": label, **outcomes.operating_metrics(df)} for label, df in done.items()])
st.dataframe(widgets.readable(metrics), hide_index=True, width="stretch",
             column_config={c: st.column_config.NumberColumn(format="%.3f") for c in
                            ("right rate", "wrong answer rate", "wrong source rate", "not confirmed rate",
                             "refusal rate", "abstention rate", "checker accepted rate")})
cols = st.columns(len(done))
for i, (col, (label, df)) in enumerate(zip(cols, done.items())):
    with col:
        st.markdown(f"**{widgets.plain(label)}**")
        m = outcomes.operating_metrics(df)
        st.metric("Right answers", f"{round(m['right_rate'] * m['questions'])} of {m['questions']}",
                  help="Answered (green): grounded on the document that holds the answer, states the golden answer "
                       "key and contradicts none of it. What a stakeholder should read.")
        tiles = st.columns(5)
        tiles[0].metric("Wrong answers", f"{m['wrong_answer_rate']:.0%}", help="Grounded on the right document, but "
                        "it contradicts the answer key (red).")
        tiles[1].metric("Wrong source", f"{m['wrong_source_rate']:.0%}", help="Grounded on a draft, an outdated note "
                        "or another document: a faithful quote of the wrong page (orange).")
        tiles[2].metric("Not confirmed", f"{m['not_confirmed_rate']:.0%}", help="Grounded on the right document; "
                        "neither states nor contradicts the key: it may be right in other words (grey).")
        tiles[3].metric("Refused", f"{m['refusal_rate']:.0%}", help="The checker refused the answer.")
        tiles[4].metric("Abstained", f"{m['abstention_rate']:.0%}", help="The model said NOT IN THE CONTEXT.")
        st.caption(f"Checker accepted (grounded, right or not): {m['checker_accepted_rate']:.0%}. "
                   f"False refusals: {m['false_refusals']}.")
        st.dataframe(df.outcome.value_counts().rename_axis("outcome").reset_index(), hide_index=True, width="stretch")
        st.dataframe(df[["outcome", "answer", "question", "reason"]], hide_index=True, width="stretch",
                     column_config={"answer": st.column_config.TextColumn(width="medium")})   # on a phone's screen
        answer_reader.render(df, key=f"model_read_{label}")
        marks.mark_a_row(df, f"model:{cfg.model}", key=f"model_{i}")
        widgets.download(st, f"Download ({widgets.plain(label)}) CSV", export.safe_csv(df.drop(columns="spans",
                                                                                               errors="ignore")),
                         f"model-outcomes-{'filter' if 'status' in label else 'no-filter'}.csv", "text/csv",
                         key=f"model_dl_{label}")
