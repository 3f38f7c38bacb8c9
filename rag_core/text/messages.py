"""How a message names things: items joined as English writes them (`listing`), a user-given name cut to a
readable length (`shorten`).

Left out on purpose: escaping for Markdown (`text.markdown`) and credentials (`text.credentials`): a message passes
through those where it is shown.
"""
from __future__ import annotations


def listing(items, last: str = "and") -> str:
    """Items joined as English writes them: ['a'] -> 'a'; ['a', 'b', 'c'] -> 'a, b and c'; with last="or",
    'a, b or c'; [] -> ''."""
    items = [str(x) for x in items]
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else "".join(items)


def shorten(name, limit: int = 80) -> str:
    """A user-given name (a file, a zip member, a document id, a status...) as a message repeats it: past `limit`
    characters, its start, an ellipsis, its end and its length, `limit` characters in all (at least 30). Line breaks
    and control characters are left to the message (repr shows them, the command line's one_line escapes them).

        shorten("notes.txt") -> "notes.txt";  shorten("a" * 65_000 + ".txt") -> "aaaa…aaa.txt (65,004 characters)"
    """
    name = str(name)
    if len(name) <= limit:
        return name
    length = f" ({len(name):,} characters)"
    keep = max(limit - len(length) - 1, 8)                      # characters of the name kept, start and end
    return f"{name[:keep - keep // 3]}…{name[len(name) - keep // 3:]}{length}"
