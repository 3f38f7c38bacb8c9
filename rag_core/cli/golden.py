"""`python -m rag_core golden suggest`: golden questions suggested by your documents' own structure, as a golden CSV
(what `report --docs ... --golden` and the Your data page read) or as JSON with where each comes from.

    python -m rag_core golden suggest --docs notes/ > golden.csv
    python -m rag_core golden suggest --docs faq.zip --format json

The CSV has the columns question,doc,anchor,answer (answer empty: the anchor is the key); every row is valid for
those documents (`data.suggest.from_structure`). The JSON: {"documents": n, "suggestions": [{question, doc, anchor,
answer, why, source}]}. A file that cannot be read is one `note:` line and is skipped; no document read, or a bad
option, is one `error:` line and exit 2. No suggestion is not an error: the header alone, and a note saying why.

Left out on purpose: a model's suggestions (`data.suggest.from_model` needs chosen passages: the studio page
offers them), and writing files (redirect stdout).
"""
from __future__ import annotations

import argparse
import json

from rag_core.cli.options import OneLineParser, parsed
from rag_core.cli.output import emit, error, note
from rag_core.data.golden_csv import golden_to_csv
from rag_core.data.ingest import Limits, read_path
from rag_core.data.suggest import from_structure
from rag_core.text.messages import shorten

HELP = "suggest golden questions from your documents (python -m rag_core golden suggest --help)"


def parser() -> argparse.ArgumentParser:
    g = OneLineParser(prog="python -m rag_core golden", description="Golden sets from your documents.")
    sub = g.add_subparsers(dest="action", required=True, parser_class=OneLineParser)
    s = sub.add_parser("suggest", help="questions your documents' structure asks: headings that are questions, "
                                       "Q:/A: pairs, definition lists; each with an anchor copied from the text",
                       description="Golden rows from your documents' structure, each valid for them.")
    s.add_argument("--docs", required=True, help="your documents: a folder, a file or a zip (.txt .md .pdf .jsonl)")
    s.add_argument("--format", choices=("csv", "json"), default="csv",
                   help="csv (the default): question,doc,anchor,answer, as the golden-set upload reads it; "
                        "json: with why and source")
    return g


def to_json(suggestions, n_documents: int) -> str:
    rows = [{f: getattr(s, f) for f in ("question", "doc", "anchor", "answer", "why", "source")} for s in suggestions]
    return json.dumps({"documents": n_documents, "suggestions": rows}, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str]) -> int:
    args, code = parsed(parser(), argv)
    if args is None:
        return code
    try:
        if not args.docs.strip():
            raise ValueError("--docs is empty: give a folder, a file or a zip.")
        got = read_path(args.docs, Limits.from_env())
        for p in got.problems:
            note(p)
        if not got.documents:
            raise ValueError(f"No document could be read from {shorten(args.docs, 200)!r}.")   # the notes say why
        suggestions = from_structure(got.documents)
    except Exception as e:              # every failure is one readable line, never a traceback
        return error(e)
    if not suggestions:
        note(f"no suggestion: none of the {len(got.documents)} document(s) has a heading that asks a question, a "
             "Q:/A: pair or a definition list with prose below it.")
    if args.format == "json":
        return emit(to_json(suggestions, len(got.documents)), json=True)
    return emit(golden_to_csv(suggestions, answer_column=True))
