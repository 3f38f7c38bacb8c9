"""Corpus and golden data: the documents with their status, golden questions with anchors, and
reading the user's files."""
