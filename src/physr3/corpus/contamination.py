"""Contamination between a training corpus and benchmarks: exact long n-grams and semantic near-duplicates.

The paper reports no exact string matches between its SFT corpus and JEEBench and says that formal
semantic deduplication was not done (Limitations). This module does both, for any training file and any
benchmarks:

- **exact n-gram overlap** (`kind: "ngram"`): texts are lower-cased and split into word and number tokens
  (LaTeX read as plain text first, so `$m = 5.0$ kg` and "m = 5.0 kg" tokenise alike); a pair is flagged
  when the training question shares at least one `n`-gram (default 13, the GPT-3 contamination study's length)
  with the benchmark item, or contains a whole benchmark item shorter than `n` tokens but at least
  `min_tokens` long. `similarity` is the share of the benchmark item's n-grams found in the training text.
- **semantic near-duplicates** (`kind: "semantic"`): both sides embedded with the offline sentence
  embedder (all-MiniLM-L6-v2), the benchmark items put in a FAISS inner-product index (cosine on unit
  vectors), the `top_k` nearest items of each training question kept when their cosine is at least
  `threshold`. The default threshold, 0.82, was chosen on paraphrases versus unrelated same-domain pairs
  by benchmarks/contamination.py (see there for how the paraphrase set is built): precision 0.96-0.98,
  recall 0.98 on its pairs, and 2-4% of the nearest unrelated same-domain items score above it.

A pair found both ways gives two lines, one per kind. Only question texts are compared (not solutions or
options): that is what a model would have memorised from a training problem.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from physr3.corpus.inputs import Item
from physr3.quantity.text import latex_to_plain

_TOKEN = re.compile(r"[a-z]+|\d+(?:\.\d+)?")


def tokens(text: str) -> list[str]:
    """Lower-cased word and number tokens of a question (LaTeX read as plain text)."""
    return _TOKEN.findall(latex_to_plain(text).lower())


def ngrams(toks: Sequence[str], n: int, min_tokens: int) -> set[tuple[str, ...]]:
    """The n-grams of a token list; a text shorter than n (but at least min_tokens long) is one gram."""
    if len(toks) < n:
        return {tuple(toks)} if len(toks) >= min_tokens else set()
    return {tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)}


@dataclass
class Match:
    train_id: str
    benchmark: str
    item_id: str
    similarity: float
    kind: str  # "ngram" | "semantic"

    def to_json(self) -> dict:
        return {"train_id": self.train_id, "benchmark": self.benchmark, "item_id": self.item_id,
                "similarity": round(self.similarity, 4), "kind": self.kind}


def ngram_matches(train: Sequence[Item], benchmarks: dict[str, Sequence[Item]], n: int = 13,
                  min_tokens: int = 8) -> list[Match]:
    """Pairs sharing an n-gram; a short benchmark item counts when the training text contains it whole."""
    index: dict[tuple[str, ...], list[tuple[str, int]]] = defaultdict(list)
    sizes: dict[tuple[str, int], int] = {}
    short: list[tuple[str, int, tuple[str, ...]]] = []
    for bench, items in benchmarks.items():
        for j, item in enumerate(items):
            toks = tokens(item.text)
            grams = ngrams(toks, n, min_tokens)
            sizes[(bench, j)] = len(grams)
            if len(toks) < n and grams:
                short.append((bench, j, tuple(toks)))
                continue
            for g in grams:
                index[g].append((bench, j))
    out: list[Match] = []
    for item in train:
        toks = tokens(item.text)
        shared: dict[tuple[str, int], int] = defaultdict(int)
        for g in ngrams(toks, n, min_tokens) if len(toks) >= n else ():
            for key in index.get(g, ()):
                shared[key] += 1
        joined = " " + " ".join(toks) + " "
        for bench, j, stoks in short:
            if " " + " ".join(stoks) + " " in joined:
                shared[(bench, j)] = sizes[(bench, j)]
        for (bench, j), count in shared.items():
            out.append(Match(item.id, bench, benchmarks[bench][j].id, count / sizes[(bench, j)], "ngram"))
    return out


def semantic_matches(train: Sequence[Item], benchmarks: dict[str, Sequence[Item]], embedder, threshold: float,
                     top_k: int = 3, batch: int = 128,
                     on_progress: Callable[[int], None] | None = None) -> list[Match]:
    """Training questions whose cosine to a benchmark item (among its top_k nearest) is >= threshold."""
    import faiss

    keys = [(bench, item.id) for bench, items in benchmarks.items() for item in items]
    texts = [item.text for items in benchmarks.values() for item in items]
    if not keys or not train:
        return []
    bench_vecs = _encode(embedder, texts, batch, on_progress)
    index = faiss.IndexFlatIP(bench_vecs.shape[1])
    index.add(np.ascontiguousarray(bench_vecs, dtype=np.float32))
    train_vecs = _encode(embedder, [t.text for t in train], batch, on_progress)
    sims, idx = index.search(np.ascontiguousarray(train_vecs, dtype=np.float32), min(top_k, len(keys)))
    out: list[Match] = []
    for item, row_s, row_i in zip(train, sims, idx):
        for s, i in zip(row_s, row_i):
            if i >= 0 and s >= threshold:
                bench, item_id = keys[i]
                out.append(Match(item.id, bench, item_id, float(s), "semantic"))
    return out


def _encode(embedder, texts: Sequence[str], batch: int, on_progress: Callable[[int], None] | None) -> np.ndarray:
    parts = []
    for start in range(0, len(texts), batch):
        parts.append(embedder.encode(list(texts[start:start + batch])))
        if on_progress:
            on_progress(len(texts[start:start + batch]))
    return np.concatenate(parts, axis=0)


def summarize(matches: Sequence[Match], train_n: int, bench_sizes: dict[str, int]) -> dict:
    """Per benchmark and kind: flagged benchmark items (and their share) and flagged training questions."""
    out: dict = {"train_n": train_n, "benchmarks": {}}
    for bench, size in bench_sizes.items():
        entry: dict = {"n": size}
        for kind in ("ngram", "semantic"):
            ms = [m for m in matches if m.benchmark == bench and m.kind == kind]
            items = {m.item_id for m in ms}
            entry[kind] = {"items": len(items), "item_share": len(items) / size if size else 0.0,
                           "train_items": len({m.train_id for m in ms}), "pairs": len(ms)}
        any_items = {m.item_id for m in matches if m.benchmark == bench}
        entry["any"] = {"items": len(any_items), "item_share": len(any_items) / size if size else 0.0,
                        "train_items": len({m.train_id for m in matches if m.benchmark == bench})}
        out["benchmarks"][bench] = entry
    return out
