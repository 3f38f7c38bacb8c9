"""The three chunkers: hand-cut examples, then properties every piece must have on any text.

The property that lets a UI draw boundaries: piece.text.split() == document.split()[piece.start:piece.end].
"""
import random

import pytest

from rag_core import ChunkerConfig, by_sentence, by_structure, fixed_window
from rag_core.retrieval.chunkers import Piece

FIVE = "one two three four five"


# ---- fixed window ---------------------------------------------------------------------------------

def test_fixed_window_docstring_example():
    assert fixed_window("a b c d e", size=2, overlap=1) == [("a b", 0, 2), ("b c", 1, 3), ("c d", 2, 4),
                                                            ("d e", 3, 5), ("e", 4, 5)]


@pytest.mark.parametrize("size, overlap, expected", [
    (2, 0, [("one two", 0, 2), ("three four", 2, 4), ("five", 4, 5)]),
    (3, 1, [("one two three", 0, 3), ("three four five", 2, 5), ("five", 4, 5)]),
    (5, 0, [(FIVE, 0, 5)]),
    (9, 4, [(FIVE, 0, 5)]),                                   # a window larger than the text: the whole text
    (1, 0, [("one", 0, 1), ("two", 1, 2), ("three", 2, 3), ("four", 3, 4), ("five", 4, 5)]),
    (4, 3, [("one two three four", 0, 4), ("two three four five", 1, 5), ("three four five", 2, 5),
            ("four five", 3, 5), ("five", 4, 5)]),
])
def test_fixed_window_by_hand(size, overlap, expected):
    assert fixed_window(FIVE, size, overlap) == [Piece(*e) for e in expected]


def test_fixed_window_collapses_whitespace_and_keeps_word_positions():
    assert fixed_window("one\n\n two\tthree  four", 3, 0) == [("one two three", 0, 3), ("four", 3, 4)]


@pytest.mark.parametrize("text", ["", "  \n "])
def test_fixed_window_of_an_empty_text_is_one_empty_piece(text):
    assert fixed_window(text, 3, 1) == [(text, 0, 0)]       # as the article: `or [text]`


def test_fixed_window_uses_the_tokens_it_is_given():
    assert fixed_window("ignored", 2, 0, tokens=["x", "y", "z"]) == [("x y", 0, 2), ("z", 2, 3)]


# ---- by structure ---------------------------------------------------------------------------------

STRUCTURED = "alpha beta\n\ngamma\n\ndelta epsilon zeta\n \n\n\neta"


@pytest.mark.parametrize("max_size, expected", [
    # paragraphs: "alpha beta" (2 words) "gamma" (1) "delta epsilon zeta" (3) "eta" (1)
    (3, [("alpha beta\n\ngamma", 0, 3), ("delta epsilon zeta", 3, 6), ("eta", 6, 7)]),
    (4, [("alpha beta\n\ngamma", 0, 3), ("delta epsilon zeta\n\neta", 3, 7)]),
    (7, [("alpha beta\n\ngamma\n\ndelta epsilon zeta\n\neta", 0, 7)]),
    (1, [("alpha beta", 0, 2), ("gamma", 2, 3), ("delta epsilon zeta", 3, 6), ("eta", 6, 7)]),   # never split
])
def test_by_structure_by_hand(max_size, expected):
    assert by_structure(STRUCTURED, max_size) == [Piece(*e) for e in expected]


def test_by_structure_keeps_single_newlines_inside_a_paragraph():
    assert by_structure("a b\nc\n\nd", 10) == [("a b\nc\n\nd", 0, 4)]
    assert by_structure("a b\nc\n\nd", 3) == [("a b\nc", 0, 3), ("d", 3, 4)]


# ---- by sentence ----------------------------------------------------------------------------------

SENTENCES = "One two. Three four! Five? Six: seven.\nEight"      # 6 sentences: ends are . ! ? : and the end


@pytest.mark.parametrize("n, overlap, expected", [
    (2, 1, [("One two. Three four!", 0, 4), ("Three four! Five?", 2, 5), ("Five? Six:", 4, 6),
            ("Six: seven.", 5, 7), ("seven. Eight", 6, 8), ("Eight", 7, 8)]),
    (3, 0, [("One two. Three four! Five?", 0, 5), ("Six: seven. Eight", 5, 8)]),
    (4, 2, [("One two. Three four! Five? Six:", 0, 6), ("Five? Six: seven. Eight", 4, 8),
            ("seven. Eight", 6, 8)]),
    (9, 0, [("One two. Three four! Five? Six: seven. Eight", 0, 8)]),
])
def test_by_sentence_by_hand(n, overlap, expected):
    assert by_sentence(SENTENCES, n, overlap) == [Piece(*e) for e in expected]


def test_by_sentence_does_not_split_inside_a_word():
    assert by_sentence("Use os.path.join now. Done.", 1, 0) == [("Use os.path.join now.", 0, 3), ("Done.", 3, 4)]


# ---- properties -----------------------------------------------------------------------------------

CONFIGS = [ChunkerConfig("fixed", 1, 0), ChunkerConfig("fixed", 3, 2), ChunkerConfig("fixed", 7, 0),
           ChunkerConfig("fixed", 40, 8), ChunkerConfig("fixed", 160, 32), ChunkerConfig("structure", 1, 0),
           ChunkerConfig("structure", 5, 0), ChunkerConfig("structure", 160, 0), ChunkerConfig("sentence", 1, 0),
           ChunkerConfig("sentence", 4, 1), ChunkerConfig("sentence", 3, 2)]


def check_pieces(text: str, cfg: ChunkerConfig, pieces: list) -> None:
    """Every property a chunking must have, whatever the text."""
    words = text.split()
    assert pieces, "a chunker returns at least one piece for a text with words"
    for p in pieces:
        assert p.text.split() == words[p.start:p.end], (cfg, p)                # the span is exact
        assert 0 <= p.start <= p.end <= len(words)
    covered = set()
    for p in pieces:
        covered.update(range(p.start, p.end))
    assert covered == set(range(len(words))), cfg                              # every word is in a piece
    starts = [p.start for p in pieces]
    assert starts == sorted(starts) and len(set(starts)) == len(starts), cfg   # in order, never twice
    if cfg.kind == "fixed":
        step = cfg.size - cfg.overlap
        assert starts == list(range(0, len(words), step))
        for a, b in zip(pieces, pieces[1:]):
            assert a.end - b.start == min(cfg.overlap, a.end - b.start)         # overlap words shared...
            if a.end - a.start == cfg.size and b.end - b.start == cfg.size:
                assert a.end - b.start == cfg.overlap                           # ...exactly, between full windows
        assert all(p.end - p.start <= cfg.size for p in pieces)
    elif cfg.kind == "structure":
        for a, b in zip(pieces, pieces[1:]):
            assert a.end == b.start                                             # no overlap, no gap
    else:
        for a, b in zip(pieces, pieces[1:]):
            assert a.end >= b.start                                             # no gap


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.label)
def test_properties_on_the_bundled_documents(wb, cfg):
    for d in wb.corpus.documents:
        check_pieces(d.text, cfg, cfg.split(d.text))


def test_article_notes_are_one_piece_each(wb):
    # every note is shorter than 160 words, so the article's chunker leaves it whole
    for d in wb.corpus.documents:
        if d.status != "current":
            words = d.text.split()
            assert ChunkerConfig("fixed", 160, 32).split(d.text) == [(" ".join(words), 0, len(words))]


TOKENS = ["a", "b.", "c!", "d?", "e:", "f", "os.path", "(g)", "h;", "I", "getCloseMatches", "é", "🤔"]
SEPARATORS = [" ", "  ", "\n", "\n\n", " \n \n ", "\t", "\r\n\r\n", "\u00a0", "\u2028", "\x0b"]


def random_texts(n: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(n):
        yield rng.choice(["", " ", "\n\n"]) + "".join(rng.choice(TOKENS) + rng.choice(SEPARATORS)
                                                      for _ in range(rng.randint(1, 30)))


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.label)
def test_properties_on_random_texts(cfg):
    # odd whitespace (tabs, CRLF, no-break space, line separator) must not shift a piece's word span
    for text in random_texts(300):
        check_pieces(text, cfg, cfg.split(text))


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.label)
def test_config_split_is_the_function(cfg):
    text = SENTENCES + "\n\n" + STRUCTURED
    direct = {"fixed": lambda: fixed_window(text, cfg.size, cfg.overlap),
              "structure": lambda: by_structure(text, cfg.size),
              "sentence": lambda: by_sentence(text, cfg.size, cfg.overlap)}[cfg.kind]()
    assert cfg.split(text) == direct


@pytest.mark.parametrize("cfg, label", [
    (ChunkerConfig("fixed", 160, 32), "fixed window 160, overlap 32"),
    (ChunkerConfig("structure", 160, 0), "by structure (paragraphs, max 160)"),
    (ChunkerConfig("sentence", 4, 1), "by sentence (4 sentences, 1 overlap)"),
])
def test_labels_are_the_article_names(cfg, label):
    assert cfg.label == label
