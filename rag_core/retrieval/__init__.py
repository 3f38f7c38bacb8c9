"""Retrieval: chunkers, the tokenized corpus, the retrievers (the article's hashing encoder, BM25, MiniLM, hybrid),
the index with its filter-first search, the rerankers. New encoders and search engines go here."""
