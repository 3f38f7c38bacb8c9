"""What the bundled corpus's vector pack holds, and the command that builds it.

    python -m rag_core.evaluation.vector_pack      # rebuild rag_core/data/minilm-pack.npz (2-8 min on two cores)
    chunkers()                                     # every chunker the dashboard and the report index by default
    wanted()                                       # Wanted(chunks, questions): the texts the pack must hold

The pack holds, for the bundled corpus: the vector of every chunk of every chunker the pages and the report ask
for (the Ablations sweeps, the article's chunker, each sidebar strategy's default size, which are also the Compare
page's starting setups), the windows of each such chunk for the dense rerank, and the vector of every question of
both bundled golden sets. Every text is encoded alone (a batch of its own): on some CPUs the last bits of a
vector depend on its batch neighbours, and a vector alone is the one every run gives (tests/test_vector_pack.py
recomputes a sample). A rebuild reuses the vectors of the pack in place and encodes only the new ones.

Left out on purpose: chunk sizes a user types in the sidebar (they are encoded on first use and kept on disk) and
uploads.
"""
from __future__ import annotations

import sys
import time
from typing import NamedTuple

from rag_core.data.golden import load_golden
from rag_core.evaluation import tables
from rag_core.evaluation.workbench import ARTICLE_CHUNKER, Workbench
from rag_core.retrieval.chunkers import STRATEGY_DEFAULTS, ChunkerConfig
from rag_core.retrieval.pack import BUNDLED_PACK, VectorPack, write_pack
from rag_core.retrieval.vectors import MODEL_KEY, WINDOWS_KEY, Embedder, VectorStore, text_key

REBUILD = ".venv/bin/python -m rag_core.evaluation.vector_pack"


class Wanted(NamedTuple):
    chunks: list[str]         # chunk texts: their vector and their windows
    questions: list[str]      # golden questions: their vector


def chunkers() -> tuple[ChunkerConfig, ...]:
    """Every chunker the pages and the report index on the bundled corpus unless told otherwise."""
    fixed = [ChunkerConfig("fixed", s, o) for s, o in tables.SIZE_OVERLAP + tables.RERANK_SIZES]
    defaults = [ChunkerConfig(kind, *size) for kind, size in STRATEGY_DEFAULTS.items()]
    return tuple(dict.fromkeys([*tables.STRATEGIES, *fixed, ARTICLE_CHUNKER, *defaults]))


def wanted(wb: Workbench | None = None) -> Wanted:
    """The texts of the bundled corpus and golden sets whose vectors the pack must hold (no repeats)."""
    wb = wb or Workbench.bundled()
    chunks = list(dict.fromkeys(t for c in chunkers() for t in wb.index(c).texts))
    questions = list(dict.fromkeys(r.question for which in ("article", "user") for r in load_golden(which)))
    return Wanted(chunks, questions)


def missing(pack: VectorPack, want: Wanted | None = None) -> list[str]:
    """The wanted texts the pack lacks (a chunk lacks its vector or its windows; a question its vector)."""
    want = want or wanted()
    return ([t for t in want.chunks if not {(MODEL_KEY, text_key(t)), (WINDOWS_KEY, text_key(t))} <= pack.keys()]
            + [q for q in want.questions if (MODEL_KEY, text_key(q)) not in pack])


def build(path=BUNDLED_PACK, on_progress=None) -> dict:
    """Encode what the pack lacks (the old pack's vectors are reused), write the pack; figures of the run."""
    t0 = time.perf_counter()
    want = wanted()
    emb = Embedder(VectorStore(None), pack=VectorPack.read(path))
    emb.prepare(chunks=want.chunks, whole=want.chunks, questions=want.questions, on_progress=on_progress, alone=True)
    items = {}
    for t, w in zip(want.chunks, emb.whole(want.chunks)):
        items[(MODEL_KEY, text_key(t))] = w[:1]
        items[(WINDOWS_KEY, text_key(t))] = w[1:]
    for q in want.questions:
        items[(MODEL_KEY, text_key(q))] = emb.query(q)[None, :]
    write_pack(path, items)
    return {"chunks": len(want.chunks), "questions": len(want.questions), "encoded": emb.encoded,
            "seconds": time.perf_counter() - t0, "bytes": path.stat().st_size if hasattr(path, "stat") else None}


if __name__ == "__main__":
    got = build(on_progress=lambda done, total, what: print(what, file=sys.stderr, flush=True))
    print(f"{BUNDLED_PACK}: {got['chunks']:,} chunks, {got['questions']} questions, {got['encoded']:,} texts "
          f"encoded in {got['seconds']:.0f} s, {got['bytes'] / 1e6:.1f} MB")
