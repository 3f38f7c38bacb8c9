"""Open Book: draws the frame (menu, sidebar) and runs the page the URL names. See ui/frame.py."""
from ui import cache, charts, frame  # noqa: F401  (charts: Altair imported once, with the frame)

try:
    page = frame.draw()
    frame.run(page)
finally:                        # also after a page's st.stop(): then the trained encoder loads in the background,
    cache.warm_up()              # once per server, not competing with the first page for the two cores
