"""Open Book's core: the article's RAG method as a pure library (numpy + pandas, no streamlit).

Stages, one module each: corpus -> golden -> text/encoder -> chunkers -> index (filter, search)
-> rerank -> metrics -> prompt -> generator -> verifier -> pipeline -> tables -> report.
"""
from .chunkers import ChunkerConfig, by_sentence, by_structure, fixed_window
from .corpus import Corpus, Document, bundled_corpus, stdlib_corpus
from .generator import scripted_answer
from .golden import GoldenRow, check_golden, load_golden
from .index import Index, TokenizedCorpus
from .pipeline import ask
from .prompt import build_prompt
from .rerank import retrieve
from .verifier import verify, verify_grounding
from .workbench import ARTICLE_CHUNKER, Workbench

__all__ = ["ChunkerConfig", "by_sentence", "by_structure", "fixed_window", "Corpus", "Document", "bundled_corpus",
           "stdlib_corpus", "scripted_answer", "GoldenRow", "check_golden", "load_golden", "Index",
           "TokenizedCorpus", "ask", "build_prompt", "retrieve", "verify", "verify_grounding",
           "ARTICLE_CHUNKER", "Workbench"]
