"""Structured feedback: route a verdict to statement (MC), retrieval (CM) or executed-code (CE) feedback."""
