"""A local FAISS index over text chunks, persisted on disk and rebuilt when its inputs change.

Vectors are L2-normalised (see `physr3.retrieval.embedding`), so `IndexFlatIP`'s inner product is the
cosine similarity; the corpus is small (hundreds of chunks), so exact search is both fastest to build and
exact. A store folder holds `index.faiss`, `chunks.jsonl` and `meta.json`; `meta.json` carries a
fingerprint (SHA-256 of the corpus text, the embedder's name and the chunking parameters) and is written
last, so an interrupted build is detected and redone on the next load.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from physr3.problems import write_jsonl, write_text_atomic
from physr3.retrieval.chunks import Chunk, chunk_text
from physr3.retrieval.embedding import Embedder, get_embedder

INDEX_FILE, CHUNKS_FILE, META_FILE = "index.faiss", "chunks.jsonl", "meta.json"


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk: its text, cosine similarity and rank (0 = best)."""

    text: str
    score: float
    rank: int
    start: int
    end: int

    def to_json(self) -> dict:
        return asdict(self)


def fingerprint(text: str, embedder_name: str, size: int, overlap: int) -> str:
    h = hashlib.sha256()
    for part in (text, embedder_name, f"size={size}", f"overlap={overlap}"):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


class FaissChunkIndex:
    """Chunks of one corpus text and their embeddings in a FAISS inner-product index."""

    def __init__(self, index, chunks: list[Chunk], embedder: Embedder, meta: dict):
        self.index = index
        self.chunks = chunks
        self.embedder = embedder
        self.meta = meta
        self.rebuilt = False  # True when load_or_build had to (re)build

    @classmethod
    def load_or_build(cls, store_dir: str | os.PathLike, text: str, embedder: Embedder | None = None,
                      size: int = 500, overlap: int = 50) -> FaissChunkIndex:
        """Open the index in `store_dir` if it was built from the same inputs, else build and save it."""
        import faiss

        embedder = embedder or get_embedder("minilm")
        store = Path(store_dir)
        fp = fingerprint(text, embedder.name, size, overlap)
        meta_path = store / META_FILE
        if meta_path.is_file():
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
                if meta.get("fingerprint") == fp:
                    index = faiss.read_index(str(store / INDEX_FILE))
                    with open(store / CHUNKS_FILE, encoding="utf-8") as fh:
                        chunks = [Chunk(**json.loads(line)) for line in fh if line.strip()]
                    if index.ntotal == len(chunks):
                        return cls(index, chunks, embedder, meta)
            except (OSError, ValueError, RuntimeError, TypeError):
                pass  # unreadable or partial store: rebuild below
        built = cls.build(text, embedder, size, overlap)
        built.save(store, fp)
        built.rebuilt = True
        return built

    @classmethod
    def build(cls, text: str, embedder: Embedder, size: int = 500, overlap: int = 50) -> FaissChunkIndex:
        import faiss

        chunks = chunk_text(text, size, overlap)
        vectors = embedder.encode([c.text for c in chunks])
        index = faiss.IndexFlatIP(vectors.shape[1] if len(vectors) else embedder.dim)
        if len(vectors):
            index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        meta = {"embedder": embedder.name, "size": size, "overlap": overlap, "n_chunks": len(chunks),
                "corpus_chars": len(text)}
        return cls(index, chunks, embedder, meta)

    def save(self, store_dir: str | os.PathLike, fp: str) -> None:
        import faiss

        store = Path(store_dir)
        store.mkdir(parents=True, exist_ok=True)
        (store / META_FILE).unlink(missing_ok=True)  # invalid until the new files are in place
        tmp = store / (INDEX_FILE + ".tmp")
        faiss.write_index(self.index, str(tmp))
        os.replace(tmp, store / INDEX_FILE)
        write_jsonl(store / CHUNKS_FILE, (c.to_json() for c in self.chunks))
        self.meta = {**self.meta, "fingerprint": fp}
        write_text_atomic(store / META_FILE, json.dumps(self.meta, indent=1))

    def retrieve(self, query: str, k: int = 3) -> list[Hit]:
        """The `k` chunks most similar to `query` by cosine similarity, best first."""
        if k <= 0 or not self.chunks:
            return []
        vector = self.embedder.encode([query])
        scores, ids = self.index.search(np.ascontiguousarray(vector, dtype=np.float32), min(k, len(self.chunks)))
        return [Hit(self.chunks[i].text, float(s), rank, self.chunks[i].start, self.chunks[i].end)
                for rank, (s, i) in enumerate(zip(scores[0], ids[0])) if i >= 0]
