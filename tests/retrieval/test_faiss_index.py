"""The FAISS chunk index: cosine ranking, persistence, rebuild on change, and the RAG retriever."""

from __future__ import annotations

import json

from physr3.retrieval.faiss_index import META_FILE, FaissChunkIndex

TEXT = "".join(f"{topic} formula number {i}\n" for i in range(40)
               for topic in ("pendulum period", "projectile range", "ohm resistance"))


def test_retrieves_the_most_similar_chunks_best_first(tmp_path, hash_embedder):
    index = FaissChunkIndex.load_or_build(tmp_path, TEXT, hash_embedder, size=60, overlap=10)
    hits = index.retrieve("projectile range", k=3)
    assert len(hits) == 3 and [h.rank for h in hits] == [0, 1, 2]
    assert all("projectile range" in h.text for h in hits)
    assert hits[0].score >= hits[1].score >= hits[2].score and hits[0].score <= 1.0 + 1e-5


def test_persisted_index_is_reused_and_rebuilt_when_inputs_change(tmp_path, hash_embedder):
    first = FaissChunkIndex.load_or_build(tmp_path, TEXT, hash_embedder)
    assert first.rebuilt and (tmp_path / META_FILE).is_file()
    again = FaissChunkIndex.load_or_build(tmp_path, TEXT, hash_embedder)
    assert not again.rebuilt and len(again.chunks) == len(first.chunks)
    assert FaissChunkIndex.load_or_build(tmp_path, TEXT + "new line\n", hash_embedder).rebuilt
    hash_embedder.name = "another-model"
    assert FaissChunkIndex.load_or_build(tmp_path, TEXT + "new line\n", hash_embedder).rebuilt
    assert FaissChunkIndex.load_or_build(tmp_path, TEXT + "new line\n", hash_embedder, size=300).rebuilt


def test_a_damaged_store_is_rebuilt(tmp_path, hash_embedder):
    FaissChunkIndex.load_or_build(tmp_path, TEXT, hash_embedder)
    (tmp_path / "index.faiss").write_bytes(b"garbage")
    assert FaissChunkIndex.load_or_build(tmp_path, TEXT, hash_embedder).rebuilt
    meta = json.loads((tmp_path / META_FILE).read_text())
    assert meta["size"] == 500 and meta["overlap"] == 50 and meta["embedder"] == hash_embedder.name


def test_rag_retrieve_over_the_formula_corpus_with_minilm(tmp_path, tiny_corpus):
    from physr3.retrieval import rag

    hits = rag.retrieve("How long is the period of a simple pendulum of length L?", k=3,
                        store_dir=str(tmp_path / "rag"), corpus_dir=str(tiny_corpus))
    assert len(hits) == 1  # the tiny corpus fits in one 500-character chunk
    assert "simple pendulum" in hits[0].text and 0.0 < hits[0].score <= 1.0 + 1e-5
    assert "[1] " in rag.format_context(hits)
