"""Text primitives shared by every stage (the lowest floor: they import nothing of rag_core but each other).

- `tokens`: the article's tokenizer (normalize, words, the word hash, Tokenizer).
- `questions`: what a question must be (check_question), when two are the same (question_key).
- `messages`: items joined as English writes them (listing), a long name cut for a message (shorten).
- `markdown`: `plain`, the one escaper of user text for Markdown.
- `credentials`: `mask_secrets`, every credential taken out of a text before anyone shows it.

Left out on purpose: re-exports; each name is imported from its module.
"""
