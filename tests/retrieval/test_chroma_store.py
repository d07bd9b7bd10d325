"""The persistent ChromaDB store: our embedding function, telemetry off, reuse and rebuild on change."""

from __future__ import annotations

from physr3.retrieval.chroma_store import ChromaEmbedding, ChromaStore, Document

DOCS = [Document("a", "Newton second law force equals mass times acceleration", {"name": "N2"}),
        Document("b", "Range of a projectile launched at an angle", {"name": "Range"}),
        Document("c", "Period of a simple pendulum depends on its length", {"name": "Pendulum"})]


def test_query_returns_the_nearest_documents_with_metadata(tmp_path, hash_embedder):
    store = ChromaStore.open(tmp_path, DOCS, hash_embedder)
    assert store.rebuilt and store.collection.count() == 3
    matches = store.query("pendulum length period", k=2)
    assert [m.rank for m in matches] == [0, 1] and matches[0].id == "c" and matches[0].metadata["name"] == "Pendulum"
    assert matches[0].score > matches[1].score
    by_vector = store.query_vector(hash_embedder.encode(["projectile range angle"])[0], k=1)
    assert by_vector[0].id == "b"


def test_collection_uses_our_embedding_function_and_no_telemetry(tmp_path, hash_embedder):
    store = ChromaStore.open(tmp_path, DOCS, hash_embedder)
    assert store.client.get_settings().anonymized_telemetry is False
    assert isinstance(store.collection._embedding_function, ChromaEmbedding)
    assert store.collection.metadata["embedder"] == hash_embedder.name


def test_store_is_reused_then_rebuilt_when_corpus_or_model_changes(tmp_path, hash_embedder):
    ChromaStore.open(tmp_path, DOCS, hash_embedder)
    calls = hash_embedder.calls
    again = ChromaStore.open(tmp_path, DOCS, hash_embedder)
    assert not again.rebuilt and hash_embedder.calls == calls  # nothing re-embedded
    changed = ChromaStore.open(tmp_path, DOCS[:2] + [Document("c", "Period of a physical pendulum")], hash_embedder)
    assert changed.rebuilt and changed.collection.count() == 3
    hash_embedder.name = "other-model"
    assert ChromaStore.open(tmp_path, DOCS, hash_embedder).rebuilt


def test_embed_text_is_embedded_while_text_is_returned(tmp_path, hash_embedder):
    docs = [Document("x", "F_{net}=ma (shown)", {}, embed_text="newton second law"),
            Document("y", "R=v^2 sin 2θ / g (shown)", {}, embed_text="projectile range")]
    store = ChromaStore.open(tmp_path, docs, hash_embedder)
    top = store.query("newton second law", k=1)[0]
    assert top.id == "x" and top.text == "F_{net}=ma (shown)"
