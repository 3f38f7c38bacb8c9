"""Open Book: draws the frame (menu, sidebar) and runs the page the URL names. See ui/frame.py."""
from ui import charts, data, frame  # noqa: F401  (charts: Altair imported once, with the frame)

data.warm_up()                  # the trained encoder loads in the background, once per server
frame.run(frame.draw())
