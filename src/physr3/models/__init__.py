"""Model loading (HF id, local folder, embedded GGUF) and generation engines behind one interface."""
