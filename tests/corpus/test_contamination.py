"""`physr3 contamination` with the real embedder and FAISS against the shipped SciEval benchmark: an exact copy,
a reworded item with other numbers, a short item quoted inside a longer text, unrelated generated problems,
the n-gram rules on their own, and bad input naming file, line and field."""

from __future__ import annotations

import json

import pytest

from physr3.cli import main
from physr3.corpus.contamination import ngram_matches, ngrams, tokens
from physr3.corpus.inputs import Item
from physr3.eval.benchmarks import load_benchmark

BALL = "scieval/da9c3e90ee24a8315b9816ad28dfea61"  # "A ball with a mass of $420 g$ is projected vertically ..."
TRENCH = "scieval/03fdb6fe34a31d7e4ef6aaaff0983d78"  # "The water pressure at the bottom of the Marianas Trench ..."
FLUID = "scieval/e3b3a121c864dcd03522f1b8cb31067d"  # "How does changing the speed of a fluid affect its pressure?"


@pytest.fixture(scope="module")
def scieval():
    return {p.id: p for p in load_benchmark("scieval")}


def write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def train_rows(scieval, tmp_path):
    synth = tmp_path / "gen.jsonl"
    assert main(["synth", "--n", "4", "--seed", "3", "--families",
                 "calorimetry_mixing,fission_q_value,thin_film_reflected_wavelength,solenoid_stored_energy",
                 "--split", "all", "--out", str(synth)]) == 0
    generated = [json.loads(x) for x in synth.read_text().splitlines()]
    return [
        {"id": "copy", "question": scieval[BALL].question},
        {"id": "reworded", "question": "How much force does the water pressure at the bottom of the Mariana Trench, "
                                       "roughly 1,250 kPa, exert on a fish whose surface area is 0.40 m^2?"},
        {"id": "quoted", "problem": "In the lecture we asked: how does changing the speed of a fluid affect its "
                                    "pressure? Bernoulli's equation answers it."},
        *({"id": g["id"], "question": g["question"]} for g in generated),
    ]


def test_contamination_finds_copies_rewordings_and_quotes(tmp_path, scieval, capsys):
    train = write(tmp_path / "train.jsonl", train_rows(scieval, tmp_path))
    out = tmp_path / "matches.jsonl"
    capsys.readouterr()
    assert main(["contamination", "--train", train, "--benchmark", "scieval", "--out", str(out), "--no-progress"]) == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert all(set(r) == {"train_id", "benchmark", "item_id", "similarity", "kind"} for r in rows)
    got = {(r["train_id"], r["item_id"], r["kind"]): r["similarity"] for r in rows}
    assert got[("copy", BALL, "ngram")] == 1.0 and got[("copy", BALL, "semantic")] > 0.99
    assert got[("reworded", TRENCH, "semantic")] >= 0.82
    assert ("reworded", TRENCH, "ngram") not in got  # rewording breaks every 13-gram: only the embedder sees it
    assert got[("quoted", FLUID, "ngram")] == 1.0
    assert not [r for r in rows if r["train_id"] not in ("copy", "reworded", "quoted")]  # unrelated problems
    assert all(r["similarity"] >= 0.82 for r in rows if r["kind"] == "semantic")

    summary = json.loads((tmp_path / "matches.summary.json").read_text())
    s = summary["benchmarks"]["scieval"]
    assert s["n"] == 164 and s["ngram"]["items"] == len({r["item_id"] for r in rows if r["kind"] == "ngram"})
    assert s["any"]["train_items"] == 3 and summary["settings"]["threshold"] == 0.82
    assert "scieval          n=164" in capsys.readouterr().err

    # a stricter threshold on the command line keeps only the near-identical pairs; --no-semantic only n-grams
    capsys.readouterr()
    assert main(["contamination", "--train", train, "--benchmark", "scieval", "--threshold", "0.99",
                 "--no-progress", "contamination.top_k=1"]) == 0
    strict = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert {(r["train_id"], r["kind"]) for r in strict if r["kind"] == "semantic"} == {("copy", "semantic")}
    assert main(["contamination", "--train", train, "--benchmark", "scieval", "--no-semantic"]) == 0
    assert {r["kind"] for r in map(json.loads, capsys.readouterr().out.splitlines())} == {"ngram"}


def test_ngram_rules():
    assert tokens(r"A $m = 5.0\,\text{kg}$ Ball") == tokens("a m = 5.0 kg ball") == ["a", "m", "5.0", "kg", "ball"]
    assert len(ngrams(list("abcdefghijklmn"), 13, 8)) == 2
    assert ngrams(list("abcdefg"), 13, 8) == set()  # too short to count at all
    words = [f"word{chr(97 + i)}" for i in range(20)]  # letters only: one token each
    bench = {"b": [Item("long", " ".join(words)), Item("short", "alpha beta gamma delta epsilon "
                                                                             "zeta eta theta")]}
    train = [Item("t1", "prefix " + " ".join(words[5:18]) + " suffix"),  # one shared 13-gram of 8
             Item("t2", "x alpha beta gamma delta epsilon zeta eta theta y"),
             Item("t3", "alpha beta gamma delta epsilon zeta eta")]  # part of the short item only
    got = {(m.train_id, m.item_id): m.similarity for m in ngram_matches(train, bench)}
    assert got == {("t1", "long"): 1 / 8, ("t2", "short"): 1.0}


def test_bad_input(tmp_path, capsys):
    bad = write(tmp_path / "bad.jsonl", [{"question": "fine"}, {"id": 2, "question": ""}])
    assert main(["contamination", "--train", bad, "--benchmark", "scieval", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.jsonl:2: field 'question': expected a non-empty string" in err
    good = write(tmp_path / "good.jsonl", [{"question": "fine"}])
    assert main(["contamination", "--train", good, "--benchmark", "scieval", "--threshold", "1.5"]) == 2
    assert "threshold is a cosine in [-1, 1]" in capsys.readouterr().err
    assert main(["contamination", "--train", good, "--benchmark", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: JSONL file not found" in capsys.readouterr().err
