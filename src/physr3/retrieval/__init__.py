"""Embedding retrieval shared by the CM feedback channel (ChromaDB) and the RAG baseline (FAISS).

- `embedding`: the `Embedder` interface; offline all-MiniLM-L6-v2 (default) or an OpenAI-compatible model
- `chroma_store`: a persistent ChromaDB collection with our embedding function, rebuilt on change
- `chunks`, `faiss_index`: 500/50 character chunks in a FAISS inner-product index persisted on disk
- `rag`: the RAG baseline's `retrieve(query, k=3)` over the formula corpus

Heavy modules (chromadb, faiss, sentence-transformers) are imported by the submodules that need them.
"""
