"""Conceptual-misapplication (CM) feedback: retrieve the governing law from the formula knowledge base.

As in the paper (section 3.3; Appendix C's FeedbackRAGAgent over ChromaDB with all-MiniLM-L6-v2): a query
made of the erroneous step, the verifier's explanation and the problem is run against a persistent ChromaDB
collection of the formula corpus (`physr3.feedback.knowledge`), and the top-k formulas are combined with
the explanation into feedback that names the law to use. Deviations: the paper has LLaMA 3.2 3B phrase
the feedback from the retrieved text; we compose it from a template (no model call, deterministic, free),
and our corpus is OpenStax *University Physics* instead of the NEET formula PDF.

How the parts form the query. Measured with `benchmarks/retrieval.py` (hit@3 of one of the family's
governing relations; MiniLM; 617 formulas): "injected" = the generator's CM-injected set (203 items, 60
families, wrong governing equations, explanations from the symbolic verifier, e.g. "Step 10 uses
v = sqrt(K/m); the governing relation is v = sqrt(2*K/m)"); "simulated" = the <concept> step replaced by
another family's law (183 items, 61 families; the explanation names the right law / only says it is wrong):
    query                                                     injected   simulated named / vague
    step + explanation + problem, one text                      0.75        0.60 / 0.60
    explanation + problem                                       0.75        0.80 / 0.77
    explanation + problem, minus 0.3 x step                     0.75        0.82 / 0.72
    ... plus the solution's concept steps before the error      0.82        0.82 / 0.72
    ... plus laws named in the explanation moved to the front   0.82        0.86 / 0.72   <- default
The erroneous step names the law that was *misapplied*, so embedding it with the rest pulls that wrong
law to the top. The query vector is therefore e(explanation + context + problem) + w * e(step) with
w = `step_weight` = -0.3: the step still shapes the query, as a direction away from the misapplied law
(the score is linear in the query vector, so this is sim(main) + w * sim(step) per formula). The context
is the solution's <concept> steps before the first error — principles the verifier accepted, which the
symbolic verifier's equation-only explanations lack. Finally, formulas whose name the explanation states
("... apply Newton's second law ...") and the erroneous step does not (that is the misapplied law) are moved
to the front, in similarity order: a judge that names the law has already done the retrieval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from physr3.feedback.knowledge import KnowledgeEntry, load_corpus
from physr3.paths import cache_dir


def default_store_dir() -> Path:
    return cache_dir() / "feedback_chroma"


def build_query(question: str, step_text: str | None, explanation: str) -> str:
    """All three parts as one text (for logging and for the plain-text `search`)."""
    return "\n".join(p.strip() for p in (step_text or "", explanation, question) if p and p.strip())


def correct_concepts(parsed, step: int) -> str:
    """The solution's <concept> steps before the first error: principles the verifier accepted."""
    return "\n".join(s.text for s in parsed.section_steps("concept") if s.number < step)


@dataclass
class FormulaRetriever:
    """Top-k formulas for a query from the persistent Chroma store; the store opens on first use."""

    store_dir: str | None = None
    corpus_dir: str | None = None
    embedder: str = "minilm"
    top_k: int = 3
    step_weight: float = -0.3

    def __post_init__(self) -> None:
        self._store = None

    @property
    def store(self):
        if self._store is None:
            from physr3.retrieval.chroma_store import ChromaStore, Document
            from physr3.retrieval.embedding import get_embedder

            entries = load_corpus(self.corpus_dir)
            docs = [Document(e.id, e.text, _metadata(e), e.embed_text) for e in entries]
            self._store = ChromaStore.open(self.store_dir or default_store_dir(), docs, get_embedder(self.embedder))
        return self._store

    def search(self, query: str, k: int | None = None) -> list[dict]:
        """Formulas nearest to one query text: [{id, name, latex, source, text, score, rank}], best first."""
        return _rows(self.store.query(query, self.top_k if k is None else k))

    def search_error(self, question: str, step_text: str | None, explanation: str,
                     k: int | None = None, context: str = "") -> list[dict]:
        """Formulas for a conceptual error: e(explanation + context + problem) + step_weight * e(step).

        `context` is optional text known to be right, e.g. `correct_concepts` of the solution."""
        from physr3.retrieval.embedding import get_embedder

        embedder = get_embedder(self.embedder)
        main = "\n".join(p.strip() for p in (explanation, context, question) if p and p.strip())
        texts = [main or (step_text or "")] + ([step_text] if step_text and main and self.step_weight else [])
        vectors = embedder.encode(texts)
        vector = vectors[0] + (self.step_weight * vectors[1] if len(vectors) > 1 else 0.0)
        k = self.top_k if k is None else k
        if not explanation.strip():
            return _rows(self.store.query_vector(vector, k))
        ranked = self.store.query_vector(vector, self.store.collection.count())
        said, wrong = _norm(explanation), _norm(step_text or "")
        promote = {m.id for m in ranked if _named(m.metadata.get("name", ""), said)
                   and not _named(m.metadata.get("name", ""), wrong)}  # not the law the step misapplied
        named = [m for m in ranked if m.id in promote]
        rest = [m for m in ranked if m.id not in promote]
        return [{**row, "rank": i} for i, row in enumerate(_rows((named + rest)[:k]))]


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").replace("‘", "'").split())


def _named(name: str, said: str) -> bool:
    """Whether the explanation names this formula: the name before any comma or parenthesis, as words,
    when that is specific enough (two words or more, or nine letters or more)."""
    head = _norm(name.split(",")[0].split("(")[0])
    if not head or (" " not in head and len(head) < 9):
        return False
    return re.search(rf"(?<![\w']){re.escape(head)}(?![\w'])", said) is not None


def _rows(matches) -> list[dict]:
    return [{"id": m.id, "name": m.metadata.get("name", ""), "latex": m.metadata.get("latex", ""),
             "source": m.metadata.get("source", ""), "text": m.text, "score": round(m.score, 4), "rank": m.rank}
            for m in matches]


def _metadata(e: KnowledgeEntry) -> dict:
    return {"name": e.name, "latex": e.latex, "source": e.source, "kind": e.kind}


def retrieval_feedback(step: int, step_text: str | None, explanation: str, retrieved: list[dict]) -> str:
    """Feedback text for a conceptual error: the explanation, the retrieved laws, and what to do."""
    lines = [f"Step {step} applies the wrong physical principle or equation."]
    if step_text:
        lines.append(f'You wrote: "Step {step}: {step_text.strip()}"')
    if explanation.strip():
        lines.append(f"Why it is wrong: {explanation.strip()}")
    if retrieved:
        top = retrieved[0]
        lines.append(f"The law that governs this situation is most likely {top['name']}: {top['latex']} "
                     f"({top['source']}).")
        lines.append("Relevant formulas from the formula sheet:")
        lines += [f"{i}. {r['name']}: {r['latex']} ({r['source']})" for i, r in enumerate(retrieved, 1)]
    lines.append(f"Check which law applies and under which conditions, rewrite Step {step} with it, and redo "
                 "every step that depends on it.")
    return "\n".join(lines)
