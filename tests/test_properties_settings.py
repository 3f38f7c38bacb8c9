"""Properties of the settings in the URL (ui.settings): any query string gives a valid state and at most a warning
for each setting it names, never an exception.

    Setting.read   any text gives a value the widget accepts, or the ValueError or TypeError that `init` turns into
                   a warning (a malformed value, one outside its bounds, one the dataset does not have)
    init           run by Streamlit (AppTest) on query strings parsed as Streamlit parses them: every setting holds
                   its default or a value read back the same from its own link text
"""
from pathlib import Path
from urllib.parse import parse_qs, quote

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st
from streamlit.testing.v1 import AppTest

from rag_core import ChunkerConfig
from ui import settings

NAMES = sorted({s.name(k) for k, s in settings.SETTINGS.items()} | {"data", "x", ""})
# values next to what the parsers accept: bounds, other digits, separators, escapes, statuses, documents
VALUES = ("", " ", "0", "1", "3", "-1", "2000", "2001", "1999", "100", "50", "51", "9", "10", " 3 ", "3.0", "1_000", "1e3", "nan",
          "\u0663", "\uff13", "9" * 5000, "true", "FALSE", "on", "yes", "2", "fixed", "sentences", "structure",
          "hashing", "bm25", "lexical", "dense", "memory", "postgres", "current", "draft", "current,draft", "-",
          "current,", ",", "a%2Cb", "%", "%25", "|", "heapq", "difflib", "gone.md", "\x00", "\u202e", "<b>x</b>",
          "[link](http://evil.example)", "a user@evil.example", "&lt;ent&gt;", "\ud800")
KEYS = [k for k in settings.SETTINGS if k != "trusted"]          # "trusted" is read by ui.trust_form, not init()
ROOT = Path(__file__).resolve().parents[1]


def text():
    return st.one_of(st.sampled_from(VALUES), st.text(max_size=12))


@st.composite
def query_strings(draw) -> str:
    """A query string as a browser sends it: names and values quoted or not, repeated, blank, or stray '&', '='."""
    pairs = draw(st.lists(st.tuples(st.sampled_from(NAMES), text(), st.booleans()), max_size=12))
    parts = [f"{name}={value if not quoted and value.isascii() else quote(value.encode('utf-8', 'surrogatepass'))}"
             for name, value, quoted in pairs]          # a browser sends UTF-8, percent-encoded (a lone surrogate too)
    return "&".join(parts + draw(st.lists(st.sampled_from(["", "&", "=", "step", "a=b=c", "%zz"]), max_size=2)))


def valid(key: str, value) -> bool:
    """What a widget of this setting accepts: its default (or the part of it the dataset has), or a value that its
    own link text reads back the same."""
    s = settings.SETTINGS[key]
    if value == s.fallback() or value == s.default:
        return True
    try:
        return s.read(s.dump(value)) == value
    except ValueError:
        return False


@given(st.sampled_from([k for k in KEYS if settings.SETTINGS[k].within is None]), text())
def test_any_text_reads_as_a_valid_value_or_a_value_error(key, raw):
    s = settings.SETTINGS[key]
    try:
        value = s.read(raw)
    except (ValueError, TypeError):
        return
    assert valid(key, value), (key, raw, value)


def _init_all():
    import streamlit as st
    from ui import settings
    for warning in settings.init([k for k in settings.SETTINGS if k != "trusted"]):    # run alone: no module names
        st.warning(warning)


@hypothesis_settings(max_examples=60)
@given(query_strings())
def test_any_query_string_gives_a_valid_state_and_at_most_a_warning_a_setting(query):
    at = AppTest.from_function(_init_all, default_timeout=120)
    at.query_params.update({k: v[0] if len(v) == 1 else v for k, v in parse_qs(query, keep_blank_values=True).items()})
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    named = {n for n in parse_qs(query, keep_blank_values=True)}
    warned = [w.value for w in at.warning]
    assert len(warned) <= len(named & set(NAMES)), warned
    for key in KEYS:
        assert valid(key, at.session_state[key]), (key, at.session_state[key])
    state = {k: at.session_state[k] for k in KEYS}
    kind = state["chunker"]                                         # the sidebar's chunker, as settings.chunker()
    ChunkerConfig(kind, state["size"], 0 if kind == "structure" else state["overlap"])
    assert state["ask_k"] <= state["ask_candidates"]                # the k spans are kept out of the candidates


@hypothesis_settings(max_examples=12)
@given(st.sampled_from(["ask", "corpus", "compare", "tour"]), query_strings())
def test_any_query_string_opens_a_page_with_at_most_warnings(page, query):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({k: v[0] if len(v) == 1 else v for k, v in parse_qs(query, keep_blank_values=True).items()})
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.main.error, [e.value for e in at.main.error]      # the sidebar may say why a database cannot be used


@pytest.mark.parametrize("query, overlap", [({"size": "1"}, 0), ({"size": "10", "overlap": "1999"}, 9),
                                            ({"size": "40", "overlap": "100"}, 32)])
def test_a_links_overlap_that_does_not_fit_its_size_is_lowered_with_a_warning(query, overlap):
    """Found by the query-string property: '?size=1' kept the default overlap 32, and every page stopped on
    'The chunker settings in the sidebar are not valid'."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.switch_page("pages/corpus.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["overlap"] == overlap
    assert [w.value.replace("\\", "") for w in at.warning][:1] == [
        f"The link's overlap {query.get('overlap', 32)} is not smaller than its chunk size {query['size']} (the window "
        f"would never advance); using overlap {overlap}."]


@pytest.mark.parametrize("page", ["ask", "compare"])
def test_a_links_k_above_its_candidates_raises_the_candidates_with_a_warning(page):
    """Found by the query-string property: '?ask_k=50&ask_candidates=1' stopped Ask with 'Cannot keep 50 chunks out
    of 1 candidates' (and Compare's first row)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"ask_k": "50", "ask_candidates": "1", "ask_question": "What is the default cutoff?"})
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["ask_candidates"] == 50
    assert ("The link's k 50 is more than its 1 candidates (the k chunks handed over are kept out of the "
            "candidates); using 50 candidates.") in [w.value.replace("\\", "") for w in at.warning]
