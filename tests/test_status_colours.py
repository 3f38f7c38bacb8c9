"""A status's colour in the tables comes from the whole status, exactly: an untrusted 'current maybe' is not teal
like 'current', a status holding ' · ' colours the Ask page's flips table by itself, and statuses of the user's
own get the other colours in order. Read from the pandas Styler the pages draw (ui.widgets.styled)."""
from __future__ import annotations

import pandas as pd

from ui.widgets import CSS, OTHER_COLOURS, STATUS_COLOURS, colour, status_label, styled

STATUSES = ["current", "current maybe", "draft", "draft · old", "outdated", "x current"]


def drawn_colours(styler) -> list[list[str | None]]:
    """The CSS colour of each cell, row by row (None: not coloured)."""
    styler._compute()
    df = styler.data
    out = [[None] * len(df.columns) for _ in range(len(df))]
    for (r, c), props in styler.ctx.items():
        out[r][c] = dict(props).get("color")
    return out


def test_each_status_is_coloured_by_its_whole_name():
    table = pd.DataFrame({"document": [f"d{i}" for i in range(len(STATUSES))],
                          "status": [status_label(s) for s in STATUSES]})
    drawn = [row[1] for row in drawn_colours(styled(table, {"status": STATUSES}, STATUSES))]
    assert drawn == [CSS[colour(s, STATUSES)] for s in STATUSES]
    assert drawn[:3] == [CSS["teal"], CSS[OTHER_COLOURS[0]], CSS["plum"]]       # 'current maybe' is not 'current'
    assert [colour(s, STATUSES) for s in STATUSES] == ["teal", "slate", "plum", "olive", "brown", "gray"]


def test_a_cell_that_says_more_than_its_status_is_coloured_by_the_status_given():
    statuses = ["current", "draft · current"]
    cells = {"now": [f"{status_label('draft · current')} · doc · chunk 1", f"{status_label('current')} · doc · chunk 2", ""]}
    drawn = drawn_colours(styled(pd.DataFrame(cells), {"now": ["draft · current", "current", None]}, statuses))
    assert drawn == [[CSS[colour("draft · current", statuses)]], [CSS[STATUS_COLOURS["current"]]], [None]]
    assert drawn[0][0] != CSS["teal"]
