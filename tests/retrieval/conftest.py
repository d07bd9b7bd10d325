"""Fixtures for retrieval tests: a deterministic bag-of-words embedder (no model) and a tiny corpus folder."""

from __future__ import annotations

import hashlib
import json
import re

import numpy as np
import pytest


class HashEmbedder:
    """Words hashed into 64 buckets, L2-normalised: shared words mean similar vectors; fast and exact."""

    dim = 64

    def __init__(self, name: str = "hash-64"):
        self.name = name
        self.calls = 0

    def encode(self, texts):
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


@pytest.fixture
def hash_embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture
def tiny_corpus(tmp_path):
    """A corpus folder in the shipped format: four equations and one constant."""
    eqs = [("Newton’s second law, scalar form", "F_{net}=ma", 5, "Newton's Laws of Motion"),
           ("Range", "R=\\frac{{v}_{0}^{2}\\sin 2{\\theta }_{0}}{g}", 4, "Motion in Two and Three Dimensions"),
           ("Period of a simple pendulum", "T=2\\pi \\sqrt{\\frac{L}{g}}", 15, "Oscillations"),
           ("Magnitude of kinetic friction", "{f}_{k}={\\mu }_{k}N", 6, "Applications of Newton's Laws")]
    folder = tmp_path / "formulas"
    folder.mkdir()
    with open(folder / "university_physics_key_equations.jsonl", "w", encoding="utf-8") as fh:
        for name, latex, ch, title in eqs:
            fh.write(json.dumps({"book": "University Physics Volume 1", "chapter": ch, "chapter_title": title,
                                 "name": name, "latex": latex}) + "\n")
    with open(folder / "university_physics_fundamental_constants.jsonl", "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"book": "University Physics Volume 1", "quantity": "Speed of light in vacuum",
                             "symbol": "c", "value": "2.99792458 \\times {10}^{8} m/s"}) + "\n")
    return folder
