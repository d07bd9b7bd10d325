"""The CM channel over a small real store: the governing law is retrieved and named in the feedback."""

from __future__ import annotations

import json

import pytest

from physr3.feedback.knowledge import corpus_hash, corpus_text, load_corpus, tidy_latex
from physr3.feedback.retrieval import FormulaRetriever, retrieval_feedback

NAMES = ["Newton’s second law, scalar form", "Range", "Conservation of momentum", "Period of a simple pendulum",
         "Magnitude of kinetic friction", "Work-energy theorem", "Coulomb’s law", "Law of refraction (Snell’s law)",
         "Radioactive decay law", "First law of thermodynamics", "Capacitance of a parallel combination",
         "Energy of a photon"]


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """The shipped corpus, cut down to a dozen named equations (plus the constants)."""
    from physr3.paths import data_dir

    src = data_dir() / "formulas_openstax"
    folder = tmp_path_factory.mktemp("corpus")
    rows = [json.loads(line) for line in open(src / "university_physics_key_equations.jsonl", encoding="utf-8")]
    keep = [r for r in rows if r["name"] in NAMES]
    (folder / "university_physics_key_equations.jsonl").write_text("".join(json.dumps(r) + "\n" for r in keep))
    (folder / "university_physics_fundamental_constants.jsonl").write_text(
        (src / "university_physics_fundamental_constants.jsonl").read_text(encoding="utf-8"))
    return folder


@pytest.fixture(scope="module")
def retriever(small_corpus, tmp_path_factory):
    return FormulaRetriever(store_dir=str(tmp_path_factory.mktemp("chroma")), corpus_dir=str(small_corpus))


def test_the_shipped_corpus_loads_with_equations_and_constants():
    entries = load_corpus()
    assert len(entries) == 596 + 21 and len({e.id for e in entries}) == len(entries)
    pendulum = next(e for e in entries if e.name == "Period of a simple pendulum")
    assert pendulum.text.startswith("Period of a simple pendulum: T=2\\pi") and "(UP1 ch15 Oscillations)" in pendulum.text
    assert pendulum.embed_text == "Period of a simple pendulum (Oscillations)"
    assert corpus_hash(entries) != corpus_hash(entries[:-1]) and corpus_text(entries).count("\n") == len(entries)


def test_tidy_latex():
    assert tidy_latex("{A}_{x}=\\text{net} {\\mu }_{k}N") == "A_x=net \\mu _kN"
    assert tidy_latex("\\frac{m}{k}") == "\\frac{m}{k}"  # macro arguments keep their braces


def test_wrong_law_query_retrieves_the_governing_law(retriever):
    hits = retriever.search_error(
        "Two blocks of masses 4.7 kg and 1.6 kg hang over a frictionless pulley. Find the tension in the string.",
        "Conservation of momentum: the total momentum of the blocks is constant",
        "Momentum conservation does not give the tension; apply Newton's second law to each block.")
    assert len(hits) == 3 and hits[0]["rank"] == 0
    assert any("Newton" in h["name"] for h in hits)
    assert {"id", "name", "latex", "source", "text", "score"} <= set(hits[0])


def test_store_is_reused_across_retrievers(retriever, small_corpus):
    retriever.search("pendulum")
    again = FormulaRetriever(store_dir=retriever.store_dir, corpus_dir=str(small_corpus))
    assert not again.store.rebuilt


def test_feedback_names_the_step_the_explanation_and_the_top_law():
    retrieved = [{"name": "Newton’s second law, scalar form", "latex": "F_{net}=ma", "source": "UP1 ch5"}]
    text = retrieval_feedback(5, "Conservation of momentum", "Use Newton's second law.", retrieved)
    assert "Step 5" in text and "Use Newton's second law." in text
    assert "most likely Newton’s second law, scalar form: F_{net}=ma" in text


def test_a_law_named_in_the_explanation_comes_first(retriever):
    hits = retriever.search_error("A ball is thrown at 20 m/s at 30 degrees. How far does it land?",
                                  "Conservation of momentum", "Use the Work-energy theorem here.")
    assert hits[0]["name"] == "Work-energy theorem" and [h["rank"] for h in hits] == [0, 1, 2]
