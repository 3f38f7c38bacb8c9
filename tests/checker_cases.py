"""Spans and helpers shared by the answer checker's tests (tests/test_checker_*.py); no test lives here.

- `CONTEXT`: the article's two spans; `DEFAULT`, `CUTOFF`, `MEDIAN`: one span each; `SPANS`: three spans.
- `mode`: a fixture that runs a test once per checker mode (strict, then article).
- `strict(answer, spans)`: the strict checker's verdict; `verdicts(answer, spans)`: (strict, article) verdicts.

Left out on purpose: constants that only one test file uses stay in that file.
"""
import pytest

from rag_core.generation.two_checkers import compare_modes
from rag_core.generation.verifier import MODES, verify

# the article's context: S1 is the library, S2 the draft note that contradicts it
CONTEXT = ["Optional arg cutoff (default 0.6) is a float in [0, 1].",
           "NOTE (draft): the default cutoff of get_close_matches is 0.9."]
DEFAULT = ["Optional arg cutoff (default 0.6) is a float."]          # no other number: 0 and 6 are invented
CUTOFF = ["The default cutoff is 0.6."]
MEDIAN = ["When it is even, the smaller of the two middle values is returned."]
SPANS = ["Optional arg cutoff (default 0.6) is a float in [0, 1].", "NOTE (draft): the cutoff of get_close_matches.",
         "Return a list of the best good enough matches."]


@pytest.fixture(params=MODES)
def mode(request):
    return request.param


def strict(answer, spans):
    return verify(answer, spans).verdict


def verdicts(answer, spans):
    """(strict, article) verdict strings."""
    s, a = compare_modes(answer, spans)
    return s.verdict, a.verdict
