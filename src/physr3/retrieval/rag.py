"""The RAG baseline's retriever (paper section 4.3): top-3 chunks of the formula corpus by cosine similarity.

As the paper's RAG condition: the physics formula corpus (ours: `physr3.feedback.knowledge`, one entry per
line) is split into 500-character chunks with 50 characters of overlap, embedded with all-MiniLM-L6-v2 (or
an OpenAI-compatible embedding model: `embedder="openai:text-embedding-ada-002"`), and kept in a local
FAISS index persisted on disk (`<cache>/rag_faiss/<embedder>` by default) and rebuilt when the corpus, the
embedder or the chunking changes. `retrieve(query, k=3)` returns the chunk texts, best first;
`format_context` renders them for insertion into the prompt.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from physr3.feedback.knowledge import corpus_text, load_corpus
from physr3.paths import cache_dir
from physr3.retrieval.embedding import get_embedder
from physr3.retrieval.faiss_index import FaissChunkIndex, Hit

CHUNK_SIZE, CHUNK_OVERLAP, TOP_K = 500, 50, 3


def default_store_dir(embedder: str = "minilm") -> Path:
    tag = "minilm" if embedder == "minilm" else hashlib.sha256(embedder.encode()).hexdigest()[:12]
    return cache_dir() / "rag_faiss" / tag


@functools.lru_cache(maxsize=4)
def get_index(store_dir: str | None = None, corpus_dir: str | None = None, embedder: str = "minilm",
              base_url: str | None = None) -> FaissChunkIndex:
    """The corpus index, loaded from `store_dir` or (re)built there; one per arguments and process."""
    text = corpus_text(load_corpus(corpus_dir))
    return FaissChunkIndex.load_or_build(store_dir or default_store_dir(embedder), text,
                                         get_embedder(embedder, base_url), CHUNK_SIZE, CHUNK_OVERLAP)


def retrieve(query: str, k: int = TOP_K, **index_args) -> list[Hit]:
    """The `k` corpus chunks most similar to `query` (cosine), best first."""
    return get_index(**index_args).retrieve(query, k)


def format_context(hits: list[Hit]) -> str:
    """Retrieved chunks as a prompt block, numbered."""
    return "\n\n".join(f"[{i}] {h.text.strip()}" for i, h in enumerate(hits, 1))
