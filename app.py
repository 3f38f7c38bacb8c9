"""Open Book: draws the frame (menu, sidebar) and runs the page the URL names. See ui/frame.py."""
from ui import charts, frame  # noqa: F401  (charts: Altair imported once, with the frame)

frame.run(frame.draw())
