"""Chunking for the RAG index: size cap, overlap, coverage, line-break preference."""

from __future__ import annotations

import pytest

from physr3.retrieval.chunks import chunk_text


def test_chunks_are_capped_and_overlap_by_50_on_hard_cuts():
    text = "x" * 1200  # no line breaks: plain windows
    chunks = chunk_text(text, 500, 50)
    assert [len(c.text) for c in chunks] == [500, 500, 300]
    assert [c.start for c in chunks] == [0, 450, 900]
    assert all(a.text[-50:] == b.text[:50] for a, b in zip(chunks, chunks[1:]))


def test_chunks_cover_the_text_and_keep_offsets():
    text = "".join(f"line {i}: E = m c^2 and more words\n" for i in range(60))
    chunks = chunk_text(text, 500, 50)
    assert chunks[0].start == 0 and chunks[-1].end == len(text)
    assert all(text[c.start:c.end] == c.text and len(c.text) <= 500 for c in chunks)
    assert all(b.start == a.end - 50 for a, b in zip(chunks, chunks[1:]))


def test_chunks_prefer_to_end_at_a_line_break():
    text = "a" * 400 + "\n" + "b" * 400
    first = chunk_text(text, 500, 50)[0]
    assert first.text.endswith("\n") and first.end == 401


def test_empty_text_and_bad_parameters():
    assert chunk_text("") == []
    with pytest.raises(ValueError):
        chunk_text("abc", 100, 100)
