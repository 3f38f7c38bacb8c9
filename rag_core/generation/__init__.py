"""Generation and verification: the grounding prompt, the scripted generator, a real model's
client, the citation checkers and the answers to try."""
