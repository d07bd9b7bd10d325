"""The RAG condition: top-k chunks of the formula corpus by cosine in the prompt, a persisted FAISS index."""

import hashlib
import json
import re

import numpy as np
import pytest

from physr3.config import load_config
from physr3.eval import rag
from physr3.eval.conditions import condition_details, get_condition
from physr3.problems import Problem
from physr3.prompts import COT_SYSTEM_PROMPT


class BagOfWords:
    """A fast deterministic stand-in for MiniLM: hashed word counts, unit length (cosine = inner product)."""

    name = "test-bag-of-words"
    dim = 512

    def __init__(self):
        self.calls = 0

    def encode(self, texts):
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"[a-z]+", t.lower()):
                if len(w) > 3:
                    out[i, int(hashlib.md5(w.encode()).hexdigest(), 16) % self.dim] += 1
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


@pytest.fixture
def embedder(monkeypatch):
    import physr3.retrieval.rag as retrieval_rag

    bow = BagOfWords()
    seen = []
    monkeypatch.setattr(retrieval_rag, "get_embedder",
                        lambda spec="minilm", base_url=None: seen.append((spec, base_url)) or bow)
    retrieval_rag.get_index.cache_clear()
    bow.seen = seen
    yield bow
    retrieval_rag.get_index.cache_clear()


def _cfg(tmp_path, *extra):
    return load_config(None, [f"eval.rag_store_dir={tmp_path / 'faiss'}", *extra])


PROBLEM = Problem(id="q1", question="A mass on a spring oscillates in simple harmonic motion. Find the period "
                  "of the mass-spring system for m = 0.5 kg and k = 200 N/m.", answer="0.31 s")


def test_prompt_holds_the_top3_chunks_best_first_after_the_cot_system_prompt(tmp_path, embedder):
    cfg = _cfg(tmp_path)
    hits = rag.retrieve(PROBLEM, cfg)
    assert len(hits) == 3 and [h.rank for h in hits] == [0, 1, 2]
    assert hits[0].score >= hits[1].score >= hits[2].score
    assert all(len(h.text) <= 500 for h in hits)
    assert "spring" in hits[0].text.lower()
    conv = get_condition("rag").build(PROBLEM, cfg)
    assert conv[0] == {"role": "system", "content": COT_SYSTEM_PROMPT}
    user = conv[1]["content"]
    assert user.startswith(rag.RAG_CONTEXT_HEADER + "\n[1] ")
    positions = [user.index(h.text.strip()) for h in hits]
    assert positions == sorted(positions)  # best first
    assert user.endswith(f"{rag.RAG_QUESTION_HEADER}\n{PROBLEM.question}")
    assert embedder.seen[0] == ("minilm", None)


def test_index_is_persisted_in_the_configured_folder_and_reused(tmp_path, embedder):
    import physr3.retrieval.rag as retrieval_rag

    cfg = _cfg(tmp_path)
    first = rag.get_index(cfg)
    meta = json.loads((tmp_path / "faiss" / "meta.json").read_text())
    assert meta["size"] == 500 and meta["overlap"] == 50 and meta["n_chunks"] == len(first.chunks) > 3
    retrieval_rag.get_index.cache_clear()
    again = rag.get_index(cfg)
    assert not again.rebuilt and len(again.chunks) == len(first.chunks)


def test_openai_embedder_is_selected_by_config(tmp_path, embedder):
    cfg = _cfg(tmp_path, "eval.rag_embedder=openai:text-embedding-ada-002",
               "eval.rag_embedder_base_url=http://localhost:9/v1")
    rag.get_index(cfg)
    assert embedder.seen[-1] == ("openai:text-embedding-ada-002", "http://localhost:9/v1")
    assert "openai:text-embedding-ada-002" in condition_details("rag", cfg)


def test_rag_condition_in_the_runner_records_what_it_retrieved(tiny_model_dir, tmp_path, embedder):
    from physr3.eval.runner import run_eval
    from physr3.problems import write_jsonl
    from physr3.synth.generate import generate_problems

    data = tmp_path / "test.jsonl"
    write_jsonl(data, list(generate_problems(2, seed=5, split="test")))
    cfg = _cfg(tmp_path, f"model.name_or_path={tiny_model_dir}", "model.dtype=float32", f"run.output_dir={tmp_path}",
               "run.name=ev", "generation.max_new_tokens=4", "eval.conditions=rag")
    cfg.eval.benchmarks = ["synth-test"]
    run_dir = run_eval(cfg, progress=False, benchmark_paths={"synth-test": str(data)})
    rows = [json.loads(x) for x in (run_dir / "results" / "rag__synth-test.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    assert all([h["rank"] for h in r["trace"]["retrieved"]] == [0, 1, 2] for r in rows)
    assert all(h["text"].strip() for r in rows for h in r["trace"]["retrieved"])
