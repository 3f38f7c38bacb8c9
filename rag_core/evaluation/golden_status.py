"""Every golden row's status under one chunker, in a word and a sentence: what the golden set studio shows at once.

    row_statuses(wb, ChunkerConfig("fixed", 20, 0))
    -> [RowStatus("valid", ""),
        RowStatus("anchor cut", "Chunk 3 of 'difflib' ends after word 2 of the anchor's 5: 'Optional arg' | 'cutoff
                                 (default 0.6)'. No chunk holds it whole ..."),
        RowStatus("document gone", "Unknown document 'notes.md': no document has that id."), ...]

States, in the order they are decided:
    document gone   the row names no document of the dataset (removed, renamed, or a typo)
    excluded        any other reason `check_golden` excludes the row (the reason is the detail)
    anchor cut      valid, but no chunk of this chunker holds the anchor whole (the Ask page's "cut" stage): where
                    the first chunk boundary inside the anchor falls, in its own document
    valid           counted by every metric, and some chunk holds its anchor whole

Left out on purpose: editing rows (data.golden_edit) and drawing them (ui.studio).
"""
from __future__ import annotations

from typing import NamedTuple

from rag_core.retrieval.chunkers import ChunkerConfig

STATES = ("valid", "anchor cut", "document gone", "excluded")
_GONE = "Unknown document "                  # how check_golden's reason for a doc no document has begins


class RowStatus(NamedTuple):
    state: str      # one of STATES
    detail: str     # "" when valid; else why, in a sentence


def row_statuses(wb, chunker: ChunkerConfig) -> list[RowStatus]:
    """One RowStatus per golden row of the workbench `wb`, in file order (see the module docstring)."""
    check = wb.golden_check
    reasons = {p.row: p.reason for p in check.problems}
    whole = wb.whole_in_a_chunk(chunker)
    valid = iter(range(len(check.valid)))
    out = []
    for i in range(len(check.rows)):
        if i in reasons:
            gone = reasons[i].startswith(_GONE)
            out.append(RowStatus("document gone" if gone else "excluded", reasons[i]))
            continue
        v = next(valid)
        out.append(RowStatus("valid", "") if whole[i] else RowStatus("anchor cut", where_cut(wb, v, chunker)))
    return out


def where_cut(wb, v: int, chunker: ChunkerConfig) -> str:
    """Where a chunk boundary cuts valid row v's anchor, at its first place in its own document, in a sentence."""
    row = wb.golden_check.valid[v]
    d = next(n for n, doc in enumerate(wb.corpus.documents) if doc.id == row.doc)
    tokens = wb.tc.tokens[d]
    first, last = (int(x) for x in wb.golden_check.occurrences[v][d][0])
    pieces = chunker.split(wb.corpus.documents[d].text, tokens)
    n, piece = next(((n, p) for n, p in enumerate(pieces, 1) if p.start <= first < p.end), (None, None))
    advice = (f"No chunk of {chunker.label} holds it whole, so no search can find it: choose a shorter anchor, or "
              "a larger chunk or overlap.")
    if piece is None or piece.end > last:        # not met with the three chunkers: said without a place
        return advice
    before, after = tokens[first:piece.end], tokens[piece.end:last + 1]
    return (f"Chunk {n} of {row.doc!r} ends after word {len(before)} of the anchor's {last - first + 1}: "
            f"'{_edge(before, -1)}' | '{_edge(after, 1)}'. " + advice)


def _edge(tokens: list[str], side: int, n: int = 4) -> str:
    """The n words of a side nearest the boundary: ["a", "b", "c", "d", "e"], -1 -> '… b c d e', 1 -> 'a b c d …'"""
    if len(tokens) <= n:
        return " ".join(tokens)
    return "… " + " ".join(tokens[-n:]) if side < 0 else " ".join(tokens[:n]) + " …"
