"""Text arguments checked where a library function takes them: a ValueError that says what to pass, not a
TypeError from deep inside a pattern ("expected string or bytes-like object").

    text_argument(None, "answer") -> ValueError("answer must be a str, not NoneType: pass answer='...'.")

Left out on purpose: converting what is passed (bytes are not decoded, numbers not formatted): the caller knows
what the value means.
"""
from __future__ import annotations


def text_argument(value, name: str) -> str:
    """`value` when it is a str, else a ValueError naming `name`."""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a str, not {type(value).__name__}: pass {name}='...'.")
    return value
