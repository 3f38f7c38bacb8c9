"""The .jsonl format of documents: one {"id", "text", "status"} object a line, read one line at a time and written back.

    jsonl_row('{"id": "a", "text": "t"}', "current") -> (("a", "t", "current"), None)
    jsonl_row('x', "current") -> (None, "not valid JSON (Expecting value); skipped.")

Left out on purpose: fields beyond id, text and status (ignored), and JSON arrays of documents (one object a line
lets one bad line cost that line only).
"""
from __future__ import annotations

import json


def jsonl_row(line: str, default_status: str) -> tuple[tuple[str, str, str] | None, str | None]:
    """(id, text, status) from one jsonl line, and a problem sentence (without the line prefix) if any."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        return None, f"not valid JSON ({e.msg}); skipped."
    except RecursionError:
        return None, "nested too deeply to read (thousands of brackets); skipped."
    except ValueError as e:   # e.g. an integer of more than 4,300 digits (Python's limit for reading one)
        return None, f"holds a number too long to read ({e}); skipped."
    if not isinstance(obj, dict):
        return None, 'not a JSON object (expected {"id": ..., "text": ...}); skipped.'
    for key in ("id", "text"):
        if key not in obj:
            return None, f"missing {key!r}; skipped."
    doc_id, text = obj["id"], obj["text"]
    if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)) or not str(doc_id).strip():
        return None, "'id' must be a non-empty string; skipped."
    if not isinstance(text, str):
        return None, "'text' must be a string; skipped."
    status = obj.get("status", default_status)
    if not isinstance(status, str) or not status.strip():
        return (str(doc_id).strip(), text, default_status), \
            f"'status' must be a non-empty string; used {default_status!r} instead."
    return (str(doc_id).strip(), text, status.strip()), None


def documents_to_jsonl(documents) -> str:
    """One {"id", "text", "status"} object a line: what `ingest.read_files` reads back from a .jsonl file."""
    documents = getattr(documents, "documents", documents)   # a Corpus works too
    return "".join(json.dumps({"id": d.id, "text": d.text, "status": d.status}, ensure_ascii=False) + "\n"
                   for d in documents)
