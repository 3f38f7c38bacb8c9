"""Evaluation: the workbench (a corpus and golden set with indexes), metrics, the pipeline for one
question, outcomes, the article's tables and the report."""
