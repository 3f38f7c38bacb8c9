"""What is trusted: `current` when a corpus has it, else nothing until someone chooses (library, setups, command
line); and the status names the setups' keywords use (`all`, `none`) are refused on upload."""
import json

import pytest

from rag_core import Document, GoldenRow
from rag_core.__main__ import main
from rag_core.data.corpus import Corpus, label_problem
from rag_core.data.golden_csv import read_golden_csv
from rag_core.data.ingest import Limits, read_files
from rag_core.evaluation import tables
from rag_core.evaluation.compare import compare_setups
from rag_core.evaluation.judgement import judge_answer
from rag_core.evaluation.losses import losses_table
from rag_core.evaluation.setup import Setup, default_setup, parse_setup
from rag_core.evaluation.workbench import Workbench

DRAFTS = (Document("alpha", "The default cutoff is 0.6 for alpha. Another sentence here about beta values.", "draft"),
          Document("beta", "Beta keeps 42 items by default. It is an outdated note.", "outdated"))
GOLDEN = [GoldenRow("What is the default cutoff of alpha?", "alpha", "The default cutoff is 0.6"),
          GoldenRow("How many items does beta keep?", "beta", "Beta keeps 42 items")]


def drafts(**options) -> Workbench:
    return Workbench(Corpus(DRAFTS, name="drafts"), GOLDEN, **options)


# ---- the library ------------------------------------------------------------------------------------------------

def test_a_drafts_only_corpus_trusts_nothing_by_default():
    """It used to trust its first status: a drafts-only upload gave green answers."""
    wb = drafts()
    assert wb.trusted == () and not wb.trust_chosen
    ix = wb.index()
    c = next(i for i in range(len(ix)) if ix.doc_id(i) == "alpha")
    j = judge_answer("The default cutoff is 0.6 [S1].", [ix.texts[c]], [c], ix, "alpha", "The default cutoff is 0.6",
                     wb.trusted, with_article=False)
    assert j.outcome == "wrong source" and "S1 comes from alpha (draft), and no status is trusted" in j.sentence
    assert (losses_table(wb).set_index("stage").questions["answered"]) == 0


def test_the_note_names_the_statuses_and_that_none_is_trusted():
    note = drafts().trust_note()
    assert "no document has the status 'current', and no status is chosen as trusted yet" in note
    assert "statuses: draft, outdated" in note and "no answer is green" in note
    assert drafts(trusted=()).trust_note().startswith("Nothing is trusted: no status is chosen as trusted.")
    assert drafts(trusted=("draft",)).trust_note() is None
    assert Workbench.bundled().trust_note() is None and Workbench.bundled().trusted == ("current",)


def test_chosen_statuses_are_trusted_and_give_green():
    wb = drafts().trusting(["draft", "outdated"])
    assert wb.trusted == ("draft", "outdated") and wb.trust_chosen
    assert (losses_table(wb).set_index("stage").questions["answered"]) == 2
    assert drafts().trusting(None).trusted == ()


def test_a_trusted_status_the_corpus_lacks_is_a_sentence():
    with pytest.raises(ValueError, match=r"No document has the status 'current': trust some of 'draft', 'outdated'"):
        drafts(trusted=["current"])


def test_nothing_trusted_the_filter_keeps_nothing_and_says_so_in_its_label():
    f = tables.filter_effect(drafts())
    assert list(f["filter"]) == ["no filter", "status = none trusted"]
    assert list(f.recall_at_3) == [1.0, 0.0]


# ---- setups and saved runs --------------------------------------------------------------------------------------

def test_a_setup_records_what_it_trusted_and_reads_it_back():
    base = default_setup(drafts(trusted=["draft"]))
    assert base.trusted == frozenset({"draft"}) and "trusted=draft" in base.to_text()
    s = parse_setup("both: trusted=draft|outdated statuses=all", base)
    assert s.trusted == frozenset({"draft", "outdated"}) and parse_setup(s.to_text(), Setup()) == s
    assert parse_setup("x: trusted=none", base).trusted == frozenset()
    assert s.link_params()["trusted"] == "draft,outdated"
    assert "trusted" not in Setup("x").to_text()            # a setup that leaves it to the workbench


def test_each_setup_is_judged_with_its_own_trusted_statuses():
    wb = drafts()
    c = compare_setups(wb, [parse_setup("none: statuses=all", default_setup(wb)),
                            parse_setup("mine: statuses=all trusted=draft|outdated", default_setup(wb))], ks=(3,))
    assert c.outcomes("none")["answered"] == 0 and c.outcomes("mine")["answered"] == 2


def test_a_setup_trusting_a_status_the_corpus_lacks_names_the_setup():
    wb = drafts()
    with pytest.raises(ValueError, match=r"Setup 'x': No document has the status 'current'"):
        compare_setups(wb, [parse_setup("x: trusted=current", default_setup(wb))])


# ---- the command line -------------------------------------------------------------------------------------------

@pytest.fixture
def files(tmp_path):
    (tmp_path / "docs.jsonl").write_text("".join(json.dumps({"id": d.id, "text": d.text, "status": d.status}) + "\n"
                                                 for d in DRAFTS))
    (tmp_path / "golden.csv").write_text("question,doc,anchor\n" + "".join(f"{r.question},{r.doc},{r.anchor}\n"
                                                                          for r in GOLDEN))
    return ["--docs", str(tmp_path / "docs.jsonl"), "--golden", str(tmp_path / "golden.csv")]


def test_report_on_drafts_trusts_nothing_and_says_how_to_choose(capsys, files):
    assert main(["report", "--format", "json", "--tables", "pipeline", *files]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["corpus"]["trusted"] == [] and "Nothing is trusted" in doc["corpus"]["trust_note"]
    assert [r["anchored_right_source"] for r in doc["tables"]["pipeline"]] == [2, 0]
    assert "note: Nothing is trusted" in err and "Choose with --trusted, e.g. --trusted draft." in err


def test_report_trusted_option(capsys, files):
    assert main(["report", "--tables", "filter", "--trusted", "draft, outdated", *files]) == 0
    out, err = capsys.readouterr()
    assert "Trusted statuses: draft, outdated." in out and "| status = draft, outdated | 1.000 | 1.000 |" in out
    assert "Nothing is trusted" not in err


@pytest.mark.parametrize("value, said", [("reviewed", "No document has the status 'reviewed'"),
                                         (" , ", "--trusted names no status")])
def test_a_bad_trusted_option_is_one_line_and_exit_2(capsys, files, value, said):
    assert main(["report", "--tables", "filter", "--trusted", value, *files]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and said in err and err.count("\n") == 1


def test_trusted_none_on_the_bundled_corpus_trusts_nothing(capsys):
    assert main(["report", "--format", "json", "--tables", "filter", "--trusted", "none"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["corpus"]["trusted"] == [] and doc["tables"]["filter"][1]["filter"] == "status = none trusted"


def test_compare_trusted_option_reaches_the_default_setup_and_the_saved_text(capsys, files):
    assert main(["compare", "--setup", "filter:", "--setup", "no filter: statuses=all", "--trusted", "draft",
                 "--format", "json", *files]) == 0
    setups = json.loads(capsys.readouterr().out)["setups"]
    assert "statuses=draft" in setups[0]["setup"] and all("trusted=draft" in s["setup"] for s in setups)
    assert [s["outcomes"]["answered"] for s in setups] == [1, 1]     # the outdated note is never green


# ---- status names the setups' keywords use ----------------------------------------------------------------------

@pytest.mark.parametrize("status", ["all", "none", "ALL", " None "])
def test_a_status_named_like_a_setup_keyword_is_refused_with_a_rename(status):
    problem = label_problem(status)
    assert "is a word setups use" in problem and f"{status.strip() + '-docs'!r}" in problem
    with pytest.raises(ValueError, match="is a word setups use"):
        Document("a", "text", status)


def test_an_upload_with_a_reserved_status_skips_that_document_only():
    rows = b'{"id": "a", "text": "alpha words", "status": "all"}\n{"id": "b", "text": "beta words", "status": "draft"}\n'
    got = read_files([("d.jsonl", rows)], Limits(), "current")
    assert [d.id for d in got.documents] == ["b"]
    assert got.problems == ("d.jsonl line 1: skipped: the status 'all' is a word setups use ('statuses=all' means "
                            "every status): rename it, e.g. 'all-docs'.",)


@pytest.mark.parametrize("status", ["allowed", "nonesuch", "all docs"])
def test_statuses_that_only_start_like_a_keyword_are_fine(status):
    assert label_problem(status) is None


# ---- golden rows asked twice ------------------------------------------------------------------------------------

def test_a_golden_csv_says_which_lines_repeat_a_question():
    text = ("question,doc,anchor\nWhat is the cutoff?,a,is 0.6\nOther?,a,cutoff is\n"
            "what is  the CUTOFF?,a,cutoff is 0.6\nWhat is the cutoff?,a,is 0.6\n")
    rows, problems = read_golden_csv(text, "g.csv")
    assert len(rows) == 4
    assert problems == ["g.csv line 4: the same question as line 2; it counts once.",
                        "g.csv line 5: the same question as line 2; it counts once."]


def test_report_counts_a_repeated_question_once(capsys, tmp_path, files):
    (tmp_path / "golden.csv").write_text("question,doc,anchor\n" + "".join(f"{r.question},{r.doc},{r.anchor}\n"
                                                                          for r in GOLDEN + GOLDEN[:1]))
    assert main(["report", "--format", "json", "--tables", "ceiling", "--trusted", "draft", *files]) == 0
    out, err = capsys.readouterr()
    corpus = json.loads(out)["corpus"]
    assert (corpus["questions"], corpus["valid_questions"]) == (3, 2)
    assert corpus["excluded"][0]["reason"].startswith("The same question as row 1: it counts once.")
    assert "golden.csv line 4: the same question as line 2; it counts once." in err


def test_a_saved_run_keeps_what_it_trusted(tmp_path):
    from rag_core.store import FILE_NAME, Store, golden_key
    wb = drafts(trusted=["draft"])
    c = compare_setups(wb, [parse_setup("a: statuses=all", default_setup(wb)),
                            parse_setup("b: statuses=all trusted=none", default_setup(wb))], ks=(3,))
    store = Store(tmp_path / FILE_NAME)
    ids = store.save_comparison(c, "k", "drafts", golden_key(wb.golden_check.valid), "scripted")
    runs = [store.load_run(i) for i in ids]
    assert [r.setup.trusted for r in runs] == [frozenset({"draft"}), frozenset()]
    assert [r.info.answered for r in runs] == [1, 0]
