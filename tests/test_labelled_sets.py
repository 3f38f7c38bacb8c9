"""The rule on the bundled sets of labelled answers (the Judge page's table): every set found in its order, each
judged as `judge --cases` judges it, and the sentence and table generated from the counts (one set, no green, all
right, none right)."""
import json
import math
import random

import pytest

from rag_core.evaluation.confusion import Confusion
from rag_core.evaluation.labelled_sets import LabelledSet, bundled_sets, bundled_summary, rule_on_bundled_sets
from ui.judge_view import _share, bundled_sets_table


def test_every_bundled_set_is_found_in_order_and_judged_as_the_command_judges_it():
    from rag_core.cli.judge import judged, parser
    paths = bundled_sets()
    assert paths[0].name == "labelled_answers.jsonl" and len(paths) >= 14
    names = [p.name for p in paths]
    assert names.index("labelled_answers_fresh9.jsonl") < names.index("labelled_answers_fresh10.jsonl") \
        < names.index("labelled_answers_fresh52.jsonl") == len(paths) - 1          # 10 after 9, 52 last
    assert [p.name for p in paths[1:3]] == ["labelled_answers_fresh.jsonl", "labelled_answers_fresh3.jsonl"]
    sets = rule_on_bundled_sets()
    assert [s.name + ".jsonl" for s in sets] == [p.name for p in paths]
    for s, p in zip(sets, paths):
        assert s.rule.total == sum(1 for line in p.read_text().splitlines() if line.strip())
    last = judged(parser().parse_args(["--cases", str(paths[-1])])).rule
    assert sets[-1].rule == last


def test_a_set_with_a_bad_line_says_which(tmp_path):
    (tmp_path / "labelled_answers.jsonl").write_text('{"answer": 1}\n')
    with pytest.raises(ValueError, match=r"labelled_answers.jsonl line 1: .*Fix the bundled file"):
        rule_on_bundled_sets(tmp_path)
    assert rule_on_bundled_sets(tmp_path / "none") == [] and "nothing to measure" in bundled_summary([])


def _random_confusion(rng) -> Confusion:
    return Confusion(*(rng.choice([0, 0, 1, 2, 7, 40]) for _ in range(5)))


@pytest.mark.parametrize("seed", range(40))
def test_the_sentence_and_the_table_say_the_counts(seed):
    rng = random.Random(seed)
    sets = [LabelledSet(f"labelled_answers_fresh{i}", _random_confusion(rng)) for i in range(rng.randint(1, 4))]
    total = Confusion(*(sum(c) for c in zip(*(s.rule for s in sets))))
    right = total.right_green + total.right_not_green
    said = bundled_summary(sets)
    assert f"({total.total:,} answers" in said and f"green {total.right_green:,} of the {right:,} right" in said
    assert f"and {total.wrong_green:,} of the {total.total - right:,} wrong ones." in said
    if right:
        assert f"right answers ({total.right_green / right:.0%})" in said
    else:
        assert "right answers and" in said
    assert ("1 bundled set " in said) == (len(sets) == 1)
    table = bundled_sets_table(sets)
    assert list(table["Answers"]) == [s.rule.total for s in sets]
    for row, s in zip(table.to_dict("records"), sets):
        assert row["Right answers green"].startswith(f"{s.rule.right_green} of ")
        assert (row["Precision when green"] == "no green") == (s.rule.green == 0)
        if s.rule.green:
            shown = row["Precision when green"].split(" (")[0]
            assert abs(float(shown.rstrip("%")) / 100 - s.rule.precision_when_green) <= 0.005 + 1e-9
            assert (shown == "100%") == (s.rule.wrong_green == 0)
            assert not math.isnan(s.rule.precision_when_green)
    json.dumps(table.to_dict("records"))          # plain values only: the page shows them as text


@pytest.mark.parametrize("x, said", [(1.0, "100%"), (0.996, "99.6%"), (0.994, "99%"), (0.0, "0%"), (0.004, "0.4%"),
                                     (0.5, "50%")])
def test_a_share_never_rounds_to_all_or_nothing(x, said):
    assert _share(x) == said
