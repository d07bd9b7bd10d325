"""Bring your own corpus: teacher conversion into the seven-tag format, topic mix, benchmark contamination."""
