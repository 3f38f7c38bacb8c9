"""A code block that shows how to call a function ("```python\\n@lru_cache(maxsize=None)\\ndef fib(n): ...\\n```"):
it states no result, so it claims nothing about the document but what its comments say.

    shows_usage("```python\\ngzip.compress(data)  # mtime = 0\\n```", "The modification time is set to 0 [S1].")
    -> True
    shows_usage("```python\\nget_close_matches(w, p, cutoff=0.9)  # the default\\n```", "The default is 0.6 [S1].")
    -> False        # the comment's line says 0.9, which the answer did not

A block is usage when it is Python that calls, assigns, defines or imports something (ast parses it, ">>>" and
"..." prompts taken off), with no line of output
after a prompt (a result stated: generation.examples runs those), at most three words beside it ("Usage:"), and
each commented line says nothing the answer before it did not (generation.restatement): its numbers, names and
words are in the cited sentences or the question. Left out on purpose: what the code would do when run (nothing
is run here) and uncommented values ("cutoff=0.9" passed in a call is the reader's choice, not a claim of the
default).
"""
from __future__ import annotations

import ast
import re

from rag_core.generation import quantities
from rag_core.generation.restatement import restates

_LONGEST = 2000         # characters of a block read (a long listing is more than a usage line)
_FENCE = re.compile(r"```[\w+-]*[ \t]*\n?(.*?)```", re.S)
_PROMPT = re.compile(r"^[ \t]*(?:>>>|\.\.\.)[ \t]?", re.M)
_COMMENT = re.compile(r"#(.*)$", re.M)
_CODE = (ast.Call, ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef, ast.Import, ast.ImportFrom, ast.With,
         ast.For)                                      # what makes a block code: a call, a definition, an import ...


def shows_usage(text: str, before: str, question: str | None = None) -> bool:
    """Whether `text` is a code block showing a call, and no more (see the module)."""
    if len(text) > _LONGEST:
        return False
    fenced = _FENCE.search(text)
    code = fenced[1] if fenced else text
    beside = (text[:fenced.start()] + " " + text[fenced.end():]) if fenced else ""
    if len(re.findall(r"[A-Za-z]{2,}", beside)) > 3 or not code.strip():
        return False
    lines = code.splitlines()
    prompted = any(line.lstrip().startswith(">>>") for line in lines)      # "    ..." alone is a body
    if prompted and any(line.strip() and not _PROMPT.match(line) for line in lines):
        return False                                    # ">>> f(x)" then "3": a result, for examples to run
    source = _PROMPT.sub("", code) if prompted else code
    try:
        tree = ast.parse(_dedent(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if not any(isinstance(node, _CODE) for node in ast.walk(tree)):
        return False                                    # "this is not python" parses, and calls nothing
    for m in _COMMENT.finditer(source):                 # a comment says something: with its line's values
        line = source[source.rfind("\n", 0, m.start()) + 1:m.start()]
        said = f"{m[1]} {' '.join(lit for lit, _ in quantities.numbers(line))}"
        if m[1].strip() and not restates(said, before, question):
            return False
    return True


def _dedent(source: str) -> str:
    """The block with its common indentation taken off (an indented code block of a Markdown answer)."""
    lines = [line for line in source.splitlines() if line.strip()]
    margin = min((len(line) - len(line.lstrip()) for line in lines), default=0)
    return "\n".join(line[margin:] for line in source.splitlines())
