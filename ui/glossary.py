"""The glossary: every term the dashboard shows, in plain language, for the Glossary page and the sidebar's popover.

Left out on purpose: the terms' sources (the README explains the method; this is for a reader of the screen).
"""
from __future__ import annotations

import streamlit as st

GLOSSARY = {
    "Document": "One file of the corpus, with a status. The bundled corpus has 18 Python standard-library modules "
                "and 10 notes that contradict them.",
    "Status": "A label on each document (current, draft, outdated, or your own). The filter chooses which "
              "statuses may be retrieved; only trusted statuses (current) count as a right source.",
    "Chunk": "A piece of a document, cut by the chunker. The index stores chunks, not whole documents. Chunks are "
             "numbered from 1 within their document, on every page.",
    "Chunker": "The rule that cuts documents into chunks: a fixed window of N words, paragraphs merged up to N "
               "words (by structure), or N sentences.",
    "Overlap": "How much each chunk repeats of the previous one, so a sentence cut by a boundary still exists "
               "whole in some chunk. It costs more chunks.",
    "Golden question": "A test question with a known answer: the document that answers it and the anchor.",
    "Anchor": "The literal sentence of a document that contains a golden question's answer. A chunk counts as "
              "right only if it contains the whole anchor.",
    "Similarity": "The first search's score of a chunk for the question; its scale depends on the retriever: a "
                  "cosine up to 1 for hashing and MiniLM, an unbounded sum for BM25 (7.265 is possible), a fused "
                  "1/(60 + rank) sum for hybrid (at most about 0.033). Compare scores only within one search.",
    "Bi-encoder": "The first, fast search: the question and each chunk are turned into vectors separately, then "
                  "compared. By default the article's hashing encoder; MiniLM is a trained one.",
    "BM25": "A classic lexical retriever: each word shared with the question counts by its rarity and how often "
            "the chunk uses it, less in long chunks.",
    "MiniLM": "all-MiniLM-L6-v2, a small trained sentence encoder run offline: close meanings score close even "
              "without shared words.",
    "Hybrid": "BM25 and MiniLM together: each chunk's two ranks are fused, 1/(60 + rank) each, summed.",
    "Candidate": "A chunk brought back by the first search, for the reranker to reorder.",
    "Rerank": "A second pass that re-reads each (question, chunk) pair and reorders the candidates. It can "
              "only move up what the candidates already contain.",
    "Surrogate": "The article's reranker is a surrogate: a word-overlap formula that reads the pair like a "
                 "cross-encoder would, without being a trained model.",
    "k": "How many chunks are handed to the model, as spans [S1]..[Sk].",
    "Span": "A chunk handed to the model inside the prompt, numbered [S1], [S2], … so answers can cite it.",
    "Filter": "A rule on the documents' status applied before ranking: excluded chunks never compete for a place.",
    "Trusted statuses": "The statuses a green answer may come from, and the ones the filter keeps: 'current' when some "
                        "document has it, else none until you choose (sidebar, Your data). A draft is never trusted "
                        "by default.",
    "Ceiling": "The share of golden questions whose anchor is inside the chunks handed to the model. "
               "No prompt and no bigger model can score above it.",
    "Recall@k": "The ceiling at k: the share of golden questions whose anchor is in the first k chunks. Shown as "
                "a number between 0 and 1 (0.389 = 7 of 18 questions). Every figure says whether the filter and the "
                "rerank were on.",
    "Contradicted": "A question with at least one chunk of an untrusted status (draft, outdated) in its top 3.",
    "Verdict": "The citation checker's decision on an answer: anchored, also called grounded (every number and "
               "technical name is in the cited span), refused, or abstained. Grounded is not right: the outcome "
               "below adds where the words come from and whether the answer states the golden answer key.",
    "States the key": "An answer states the answer key when it holds every number of the key (by value: 0.6 = "
                      "0.60 = six tenths), every technical name, every other word (inflections folded: "
                      "default/defaults) and its symbols in order. It contradicts the key with another value, a "
                      "negation added or removed, the opposite word (smaller/larger), both alternatives, or a "
                      "retraction.",
    "Nothing to check": "A sentence with no number, no technical name and not most of its words in the span it "
                        "cites ('The answer is: [S3].') claims nothing the checker can test: the strict checker "
                        "refuses it, and the outcome is not confirmed (grey), never green.",
    "Strict checker": "The default checker: numbers are compared by value as whole numbers (0.6 is not 0 or 6), "
                      "names as whole names, and an abstention must be the whole answer.",
    "Article's checker": "The article's checker: it looks for each number or name as a piece of the span's text, "
                         "so '0' passes against '0.6'. The article's tables use it.",
    "Answer key": "The few words of a golden anchor that answer its question ('0.6' of 'Optional arg cutoff "
                  "(default 0.6)'); without one, the whole anchor is the key.",
    "Accepted wording": "Another way of saying a golden answer key that a marker accepts ('no size limit' for "
                        "'the cache can grow without bound'), listed with the golden row. It counts only when the "
                        "answer neither states nor contradicts the key itself, and never negated or inside an 'if'.",
    "Golden reply": "The Yes or No a yes/no golden question is answered with, when one reply is right: an answer "
                    "that opens with the other one is a wrong answer.",
    "Answered": "Grounded in the cited spans, from the document that holds the golden anchor (of a trusted "
                "status), and the answer states the answer key or an accepted wording of it (or, to a yes/no "
                "question, opens with its golden reply) and contradicts none of it. The only green outcome.",
    "Wrong answer": "Grounded, and from the right document, but the answer contradicts the answer key: another "
                    "value, a negation added or removed, the opposite word, both alternatives, a retraction, or the "
                    "other reply to a yes/no question (red).",
    "Not confirmed": "From the right document, but the answer neither states the answer key nor contradicts it, "
                     "or the rule saw something it cannot be sure of, or a sentence has nothing to check: it may "
                     "be right in other words; the page says why and shows the key (grey).",
    "Grounded": "For a question with no golden answer: every claim is in trusted spans, but nobody can say whether "
                "it answers (grey).",
    "Wrong source": "Grounded, but on a span of another document or an untrusted status: a faithful quote of the "
                    "wrong page.",
    "Anchored / right source": "The article's own labels, kept in its tables: 'anchored' means grounded, 'right "
                               "source' that the cited span comes from the anchor's document; neither says the "
                               "answer is right (drawn blue, a colour of its own).",
    "Refused": "The checker found a sentence without a citation, a citation to a span that does not exist, or a "
               "number or name that the cited span lacks. An answer whose only fault is uncited last sentences (a "
               "tip, a recommendation) is judged on the rest instead, and never green unless those sentences are "
               "only advice, a question to the reader, a summary that says again what the cited sentences said, or "
               "examples that Python runs and agrees with. A letter's greeting and sign-off are not read.",
    "Abstained": "The answer says NOT IN THE CONTEXT: the spans do not hold the answer.",
    "False refusal": "A refused answer although the anchor was among the spans handed over.",
    "p-value": "The chance of a split of questions at least this lopsided if the two setups were equally good. "
               "Below 0.05: unlikely to be chance; above: could be chance.",
    "95 % interval": "The range that holds the true ceiling 95 times in 100 (Wilson's interval): with 18 questions "
                     "it is wide, so two setups whose intervals overlap may not really differ.",
    "McNemar test": "The exact test for two setups on the same questions: it looks only at the questions one finds "
                    "and the other does not.",
    "Power": "How many golden questions it would take to tell a difference of this size apart 8 times in 10 (an "
             "estimate).",
    "Loss stages": "Where a golden question is lost, in pipeline order: cut (a boundary cuts its anchor "
                   "everywhere), filtered (only untrusted chunks hold it), not retrieved (not among the candidates), "
                   "ranked out (a candidate below k), lost by rerank (within k before the rerank, below after), then "
                   "the answer: refused, abstained, wrong source, wrong answer, not confirmed, answered.",
    "Trap 3": "The article's third trap: golden questions written with the document's own words flatter a word-"
              "matching search. The same questions phrased as a user would score lower.",
    "Lost in the middle": "Models read the middle of a long context worst; putting the best span first and the "
                          "second best last ('best at both ends') works around it.",
    "Search engine": "Who runs the first search: the index inside this dashboard (the default), or a PostgreSQL "
                     "database with pgvector, which gives the same chunks and can be shared by several dashboards.",
    "Approximate search (HNSW)": "A faster search through a graph of neighbouring chunks that may miss a few of "
                                 "the best ones. Its recall, the share of the exact top chunks it finds, is shown "
                                 "beside it (1.000: it missed none).",
}


# the retrievers' and rerankers' names on screen (the sidebar, Compare's setups)


def popover() -> None:
    """The glossary in the sidebar, folded away until clicked."""
    with st.popover("Glossary", icon=":material/menu_book:", width="stretch"):
        for term, meaning in GLOSSARY.items():
            st.markdown(f"**{term}** — {meaning}")
