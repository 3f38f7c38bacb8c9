"""Retrieval: chunkers, the hashing encoder, the index with its filter-first search, the reranker.
New encoders and search engines go here."""
