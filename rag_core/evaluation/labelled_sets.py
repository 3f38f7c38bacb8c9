"""The sets of labelled answers bundled with Open Book, and the rule measured on each against people's marks: what
the Judge page's table of bundled sets shows, and what the README's per-set table reports.

    sets = rule_on_bundled_sets()
    sets[-1].name -> "labelled_answers_fresh9"; sets[-1].rule -> Confusion(right_green=39, ...)
    bundled_summary(sets) -> "On 9 bundled sets (1,437 answers marked by people), the rule calls green 569 of the
                              730 right answers (78 %) and 10 of the 707 wrong ones."

Left out on purpose: what each set gave when it was first judged, held out, with the rule of its time. The rule has
been changed from every set since, so those figures cannot be computed again; the README keeps them.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from rag_core.data.corpus import DATA, bundled_corpus
from rag_core.data.golden import load_golden
from rag_core.evaluation.cases import SpanSources, read_cases
from rag_core.evaluation.confusion import Confusion
from rag_core.evaluation.judges import holds, judge_cases, most_first


class LabelledSet(NamedTuple):
    name: str           # the file's name without .jsonl (its notes: the .md of the same name)
    rule: Confusion     # the rule against the set's marks
    holds: tuple = ()   # (what keeps the rule from green, right answers) of its right answers not green (judges.holds)


def bundled_sets(folder: Path = DATA) -> list[Path]:
    """The labelled_answers*.jsonl files of `folder`, the first set first and the fresh ones in their order."""
    def order(p: Path) -> tuple:
        m = re.search(r"_fresh(\d*)$", p.stem)
        return (0, 0) if m is None else (1, int(m[1] or 1))
    return sorted(folder.glob("labelled_answers*.jsonl"), key=order)


def rule_on_bundled_sets(folder: Path = DATA) -> list[LabelledSet]:
    """Each bundled set judged by the rule, as `judge --cases` judges it (the bundled corpus, both golden sets)."""
    sources = SpanSources(bundled_corpus().documents, load_golden() + load_golden("user"))
    sets = []
    for path in bundled_sets(folder):
        cases, problems = read_cases(path.read_text(encoding="utf-8"))
        if problems:
            line, why = problems[0]
            raise ValueError(f"{path.name} line {line}: {why} Fix the bundled file.")
        report = judge_cases(cases, sources)
        sets.append(LabelledSet(path.stem, report.rule, tuple(holds(report.rows))))
    return sets


def bundled_summary(sets: list[LabelledSet]) -> str:
    """One sentence of the rule's figures over every set."""
    if not sets:
        return "No labelled set is bundled: nothing to measure the rule on."
    total = Confusion(*(sum(cells) for cells in zip(*(s.rule for s in sets))))
    right, wrong = total.right_green + total.right_not_green, total.total - total.right_green - total.right_not_green
    share = f" ({total.right_green / right:.0%})" if right else ""
    count = "1 bundled set" if len(sets) == 1 else f"{len(sets)} bundled sets"
    return (f"On {count} ({total.total:,} answers marked by people), the rule calls green {total.right_green:,} of "
            f"the {right:,} right answers{share} and {total.wrong_green:,} of the {wrong:,} wrong ones.")


def bundled_holds(sets: list[LabelledSet]) -> list[tuple[str, int]]:
    """What keeps the rule from green over the right answers of every set, most first (as judges.holds)."""
    return most_first(sum((Counter(dict(s.holds)) for s in sets), Counter()))
