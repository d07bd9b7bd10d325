"""Fixed-size character chunks with overlap, as the RAG baseline uses (500 characters, 50 overlap).

Each chunk is at most `size` characters and starts `overlap` characters before the previous one ended,
so a formula cut at a boundary appears whole in one of the two neighbours when it is shorter than the
overlap. Deviation from a blind character window: when a line break falls in the second half of a
window the chunk ends there, so a chunk rarely starts or ends mid-formula (LangChain's recursive
splitter behaves alike). The chunking parameters are part of the index fingerprint.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Chunk:
    text: str
    start: int  # character offsets into the corpus text
    end: int

    def to_json(self) -> dict:
        return asdict(self)


def chunk_text(text: str, size: int = 500, overlap: int = 50) -> list[Chunk]:
    """Split `text` into chunks of at most `size` characters, consecutive ones sharing `overlap` characters."""
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError(f"need size > 0 and 0 <= overlap < size, got size={size}, overlap={overlap}")
    chunks: list[Chunk] = []
    start, n = 0, len(text)
    while start < n:
        end = min(start + size, n)
        if end < n:
            cut = text.rfind("\n", start, end)
            if cut + 1 > start + max(size // 2, overlap):
                end = cut + 1
        if text[start:end].strip():
            chunks.append(Chunk(text[start:end], start, end))
        if end >= n:
            break
        start = end - overlap
    return chunks
