"""The Judge page's parts: the rule's (and a model's) confusion against people's marks, the disagreements one click
from Ask, the bundled examples, and the list of marks filtered and exported.

The figures are rag_core.evaluation.judges' over the marks exported as cases (store.labels.as_cases): exactly
what `python -m rag_core judge --cases` prints for the same marks, the spans found in the active dataset's
documents. Marks on questions of your own (no golden anchor) are listed but not counted: with nothing to compare
with, the rule can never say green of them (nor are marks of an answer given no span, which no case can hold).

Left out on purpose: the counting (rag_core), the mark buttons (ui.marks), and any chart (five numbers read best
as a table).
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import streamlit as st

from rag_core.evaluation.cases import SpanSources, read_cases
from rag_core.evaluation.confusion import kappa_sentence
from rag_core.evaluation.judges import JudgeReport, holds, holds_sentence, judge_cases, own_answers
from rag_core.evaluation.labelled_sets import bundled_holds, bundled_summary
from rag_core.data.golden import load_golden
from ui import active, export, saved, settings, widgets

EXAMPLES = Path(__file__).resolve().parents[1] / "rag_core" / "data" / "labelled_answers.jsonl"
EXAMPLE_DATASETS = {"article": "bundled", "user": "bundled-user"}     # the examples' golden set -> dataset key
CELLS = (("right", "green", "right_green"), ("right", "not green", "right_not_green"),
         ("wrong", "green", "wrong_green"), ("wrong", "not green (not confirmed)", "wrong_not_green"),
         ("wrong", "called wrong (red)", "wrong_called_wrong"))


def load_examples() -> None:
    """Button on_click: the bundled examples (217 answers to the golden questions, marked by a person who did not
    read the rule) kept as marks of the bundled datasets, article and user questions each in their own."""
    docs = {r.question: r.doc for r in load_golden("article") + load_golden("user")}
    rows = []
    for line in EXAMPLES.read_text(encoding="utf-8").splitlines():
        e = json.loads(line)
        rows.append((EXAMPLE_DATASETS[e["golden"]], e["question"], e["answer"], e["spans"], e["label"], e["anchor"],
                     docs.get(e["question"]), "bundled example"))
    try:
        saved.store().labels.set_many(rows)
        st.session_state["judge_loaded"] = len(rows)
    except ValueError as e:
        st.session_state["judge_problem"] = str(e)


def report_of(wb, labels, model=None, on_case=None) -> JudgeReport:
    """The rule's (and the model's) judgement of the counted marks, as `judge --cases` computes it."""
    cases, _ = read_cases(saved.store().labels.as_cases(labels))
    sources = SpanSources(wb.corpus.documents, wb.golden_check.valid)
    return judge_cases(cases, sources, model, wb.trusted, on_case)


def confusion_table(report: JudgeReport, who: str = "rule") -> pd.DataFrame:
    """The five cells as rows: what people say, what the judge says, how many answers."""
    c = report.rule if who == "rule" else report.model
    return pd.DataFrame([{"People say": p, f"The {who} says": j, "Answers": getattr(c, name)}
                         for p, j, name in CELLS])


def _share(x: float) -> str:
    """A share as a whole percent, with one decimal where rounding would say 0 % or 100 % of what is not."""
    return f"{x:.1%}" if 0 < x < 0.005 or 0.995 <= x < 1 else f"{x:.0%}"


def bundled_sets_table(sets) -> pd.DataFrame:
    """One row per bundled labelled set: its file, answers, the right and wrong ones the rule calls green, and the
    precision when green with its 95 % interval ("no green" when it calls nothing green)."""
    rows = []
    for s in sets:
        c = s.rule
        right = c.right_green + c.right_not_green
        low, high = c.precision_interval
        rows.append({"Set": f"{s.name}.jsonl", "Answers": c.total,
                     "Right answers green": f"{c.right_green} of {right}" + (f" ({_share(c.right_green / right)})"
                                                                             if right else ""),
                     "Wrong answers green": f"{c.wrong_green} of {c.total - right}",
                     "Precision when green": f"{_share(c.precision_when_green)} ({_share(low)} to {_share(high)})" if c.green
                     else "no green"})
    return pd.DataFrame(rows, columns=["Set", "Answers", "Right answers green", "Wrong answers green",
                                       "Precision when green"])


def holds_table(counted) -> pd.DataFrame:
    """What keeps right answers from green, a row each, most first: the reason, how many, their share."""
    total = sum(n for _, n in counted)
    return pd.DataFrame([{"Right answers": n, "Share": _share(n / total), "What holds it back": why}
                         for why, n in counted], columns=["Right answers", "Share", "What holds it back"])


def holds_section(counted, key: str) -> None:
    """One sentence on what holds most right answers back, and the whole count in an expander."""
    st.markdown(widgets.plain(holds_sentence(counted)))
    if counted:
        with st.expander("What holds right answers back"):
            st.dataframe(holds_table(counted), hide_index=True, key=key, column_config={   # the numbers first: a
                "Right answers": st.column_config.NumberColumn(width=110),               # phone shows them
                "Share": st.column_config.TextColumn(width=60),
                "What holds it back": st.column_config.TextColumn(width=760)})


def marks_holds_section(report: JudgeReport) -> None:
    """What holds back the right answers of the marks the rule does not call green."""
    holds_section(holds(report.rows), "judge_marks_holds")


def bundled_sets_section(sets) -> None:
    """The rule on the bundled sets: one sentence, what holds right answers back, and the table in an expander."""
    st.markdown(widgets.plain(bundled_summary(sets)))
    holds_section(bundled_holds(sets), "judge_bundled_holds")
    with st.expander("The rule on each bundled set"):
        st.dataframe(bundled_sets_table(sets), hide_index=True, key="judge_bundled_sets", height="content")
        st.caption("The rule was changed after reading these sets (the newest may be the exception), so most of "
                   "these figures are on answers it was written from. On answers it had not read, fewer right "
                   "answers were green: the README's held-out table has each set's first judgement.")


def precision_line(c, who: str) -> str:
    if not c.green:
        return f"The {who} said green of no answer here: nothing to measure its precision on."
    low, high = c.precision_interval
    return (f"Precision when green: {c.right_green} of the {c.green} answers the {who} calls green are right by "
            f"people's marks ({c.precision_when_green:.0%}; 95 % interval {low:.0%} to {high:.0%}).")


def open_in_ask(question: str, answer: str) -> None:
    """Button on_click: Ask with this question and this answer in 'Your answer' (the page switches at once)."""
    settings.set_value("ask_question", question)
    golden = {r.question for r in active.workbench().golden_check.valid}
    st.session_state["ask_golden"] = question if question in golden else None
    st.session_state["ask_preset"] = None
    st.session_state["ask_answer"] = answer
    st.session_state["_ask_answer_for"] = question              # written for this question: Ask keeps it
    st.session_state["judge_open_ask"] = True


def disagreements(report: JudgeReport) -> None:
    """Each case where the rule contradicts people, with the rule's sentence and a button to Ask."""
    wrong = [r for r in report.rows if r.rule_disagrees]
    st.subheader(f"Where the rule and people disagree: {len(wrong)}")
    if not wrong:
        st.caption("None: on every counted answer the rule says green exactly when people say right.")
        return
    for i, r in enumerate(wrong):
        with st.container(border=True):
            st.caption(f"People: {widgets.plain(r.case.label)} · the rule: {r.rule_outcome}")
            st.text(f"Q: {r.case.question}\nA: {r.case.answer}")
            st.caption(widgets.plain(r.rule_sentence))
            st.button("Open in Ask", key=f"judge_open_{i}", icon=":material/open_in_new:", on_click=open_in_ask,
                      args=(r.case.question, r.case.answer))


def model_section(report: JudgeReport, writers, model: str) -> None:
    """The model's cells, precision, kappa with the rule and its biases (writers: who wrote each counted answer)."""
    st.dataframe(confusion_table(report, "model"), hide_index=True)
    st.caption(precision_line(report.model, "model"))
    none = sum(r.model_verdict is None for r in report.rows)
    if none:
        st.caption(f"{none} answers got no verdict from the model (counted as not green).")
    st.markdown(widgets.plain(kappa_sentence(report.kappa)))
    st.markdown(widgets.plain(report.length.sentence()))
    st.markdown(widgets.plain(own_answers(report.rows, writers, model).sentence(model)))
    st.caption("The first of two (a judge shown two answers preferring the first) cannot show here: every answer is "
               "judged alone.")


def labels_list(labels) -> None:
    """Every mark of this dataset, filtered by label and by words of the question, and the downloads."""
    st.subheader("Your marks")
    left, right = st.columns([1, 2])
    which = left.selectbox("Marked", ["right or wrong", "right", "wrong"], key="judge_filter_label")
    words = right.text_input("Question holds", key="judge_filter_question", max_chars=200)
    shown = [x for x in labels if (which == "right or wrong" or x.label == which)
             and words.strip().lower() in x.question.lower()]
    frame = pd.DataFrame([{"Question": x.question, "Answer": x.answer, "Marked": x.label, "From": x.source,
                           "When": x.created_at, "Spans": json.dumps(list(x.spans), ensure_ascii=False)}
                          for x in shown], columns=["Question", "Answer", "Marked", "From", "When", "Spans"])
    st.caption(f"{len(shown)} of {len(labels)} marks.")
    st.dataframe(frame.drop(columns="Spans"), hide_index=True, key="judge_marks")
    one, two = st.columns(2)
    widgets.download(one, "Download these marks (CSV)", lambda: export.safe_csv(frame), "open-book-marks.csv",
                     "text/csv", key="judge_csv", icon=":material/download:")
    widgets.download(two, "Download as cases for `judge --cases` (JSONL)",
                     lambda: saved.store().labels.as_cases([x for x in shown if x.anchor]).encode("utf-8"),
                     "open-book-cases.jsonl", "application/jsonl", key="judge_jsonl", icon=":material/download:")
