"""Open Book's core: the article's RAG method as a pure library (numpy + pandas, no streamlit).

The folders follow the pipeline, over shared text primitives (`text`):

    data/        corpus (documents with a status), golden questions with anchors, reading your files
    retrieval/   chunkers -> tokenized corpus -> a retriever (hashing, bm25, minilm, hybrid) -> index (filter
                 first, search) -> rerank (lexical, dense); the trained encoder's vectors cached on disk
    generation/  grounding prompt -> scripted generator or a real model -> citation checkers
    evaluation/  workbench (corpus + golden set + indexes) -> metrics, outcomes, the article's tables, report

New encoders and search engines belong in retrieval/. This file only re-exports the public names.
"""
from rag_core.data.corpus import Corpus, Document, bundled_corpus, stdlib_corpus
from rag_core.data.golden import GoldenRow, check_golden, load_golden
from rag_core.evaluation.pipeline import ask
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.generation.generator import scripted_answer
from rag_core.generation.prompt import build_prompt
from rag_core.generation.two_checkers import compare_modes, disagreement
from rag_core.generation.verifier import MODES, verify, verify_grounding
from rag_core.retrieval.chunkers import ChunkerConfig, by_sentence, by_structure, fixed_window
from rag_core.retrieval.index import Index
from rag_core.retrieval.rerank import retrieve
from rag_core.retrieval.retrievers import RERANKERS, RETRIEVERS, RRF_K
from rag_core.retrieval.tokenized import TokenizedCorpus

__all__ = ["Corpus", "Document", "bundled_corpus", "stdlib_corpus", "GoldenRow", "check_golden", "load_golden",
           "ask", "ARTICLE_CHUNKER", "Workbench", "scripted_answer", "build_prompt", "MODES", "compare_modes",
           "disagreement", "verify", "verify_grounding", "ChunkerConfig", "by_sentence", "by_structure",
           "fixed_window", "Index", "retrieve", "RERANKERS", "RETRIEVERS", "RRF_K", "TokenizedCorpus"]
