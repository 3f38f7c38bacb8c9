"""The tour: the article's story in nine live steps, one at a time, for a presenter in front of a room."""
import streamlit as st

from rag_core.evaluation import tour
from ui import active, datasets, frame, settings, tour_keys, tour_view, widgets

frame.ensure(__file__)          # a first request that runs this page without app.py draws the frame here

# the frame gave tour_step its value: the link's when Back or Forward opened one (settings.SETTINGS' always)
STEPS = len(tour.TITLES)
number = int(st.session_state["tour_step"])

st.title("The tour")
back, where, forward = st.columns([1, 4, 1], vertical_alignment="center")
back.button("Back", key="tour_back", icon=":material/arrow_back:", disabled=number == 1, width="stretch",
            on_click=settings.set_value, args=("tour_step", number - 1))
forward.button("Next", key="tour_next", icon=":material/arrow_forward:", icon_position="right", type="primary",
               disabled=number == STEPS, width="stretch", on_click=settings.set_value, args=("tour_step", number + 1))
where.markdown(f"### Step {number} of {STEPS} · {tour.TITLES[number - 1]}")
tour_keys.keys()
st.caption(tour.CLAIMS[number - 1])
if number == 1:
    st.caption(tour_keys.HELP)

wb = active.workbench()
chunker = settings.chunker_or_stop()
controls = tour_view.control(number, wb, chunker)
if controls.needs_encoder:                      # the trained encoder encodes once, under a progress bar
    active.prepare([chunker], wb.using(retriever="minilm"))
step = active.tour_step(number, chunker, controls)
tour_view.draw(step, wb, chunker)

links = {k: st.session_state[k] for k in settings.SHARED}
params = {**{k: settings.SETTINGS[k].dump(v) for k, v in links.items()}, "data": datasets.dataset().key, **step.params}
st.page_link(tour_view.STEP_PAGES[number - 1], label="See it in full", icon=":material/open_in_new:",
             query_params=params)

st.divider()
widgets.download(st, "Download the whole tour (one HTML file, for those who were not in the room)",
                 lambda: tour_view.presenter_html(tour.tour(wb, chunker), datasets.dataset().name,
                                                  f"chunker {chunker.label}; retriever {wb.retriever}, reranker "
                                                  f"{wb.reranker}"),
                 "open-book-tour.html", "text/html", key="tour_download", icon=":material/download:")

if number < STEPS:      # the next step, prepared while the presenter talks: Next then only draws it
    active.tour_step(number + 1, chunker, tour.Controls())
