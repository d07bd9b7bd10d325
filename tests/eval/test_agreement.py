"""`physr3 agreement` through `physr3.cli.main`: real labels (`synth --inject`) against real verdicts
(`verify --verifier symbolic`), a second annotator that disagrees in known ways, failed verdicts, unmatched
ids, an undefined kappa, and bad input naming file, line and field."""

from __future__ import annotations

import collections
import json

import pytest

from physr3.cli import main

TYPES = ("MC", "CM", "CE", "none")


def _lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def _write(path, rows) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """(labels file, symbolic verify output) over 40 injected solutions."""
    d = tmp_path_factory.mktemp("agree")
    inj, ver = d / "inj.jsonl", d / "ver.jsonl"
    assert main(["synth", "--n", "40", "--seed", "5", "--inject", "--out", str(inj)]) == 0
    assert main(["verify", "--input", str(inj), "--out", str(ver), "--verifier", "symbolic"]) == 0
    return inj, ver


def _agree_json(a, b, capsys, *extra) -> dict:
    capsys.readouterr()
    assert main(["agreement", str(a), str(b), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _kappa_from_confusion(conf: dict) -> float:
    """Cohen's kappa from its definition, to check that sklearn was given the right pairs and classes."""
    n = sum(sum(row.values()) for row in conf.values())
    p_o = sum(conf[t][t] for t in TYPES) / n
    p_e = sum(sum(conf[t].values()) * sum(conf[u][t] for u in TYPES) for t in TYPES) / n**2
    return (p_o - p_e) / (1 - p_e)


def test_verifier_against_labels(labelled, capsys):
    inj, ver = labelled
    labels = _lines(inj)
    verdicts = {r["id"]: r for r in _lines(ver)}
    got = _agree_json(ver, inj, capsys)
    assert set(got) == {"n", "kappa_type", "step_exact", "step_within1", "confusion"}
    assert got["n"] == len(labels) == 40
    # the expected figures come from the two files, pair by pair
    exact = sum(verdicts[r["id"]]["error_step"] == r["label_error_step"] for r in labels) / 40
    same_type = sum(verdicts[r["id"]]["error_type"] == r["label_error_type"] for r in labels)
    assert got["step_exact"] == pytest.approx(exact)
    assert sum(got["confusion"][t][t] for t in TYPES) == same_type
    # columns of the confusion matrix are side B's (the labels') type counts
    counts = collections.Counter(r["label_error_type"] for r in labels)
    assert {t: sum(got["confusion"][u][t] for u in TYPES) for t in TYPES} == {t: counts[t] for t in TYPES}
    assert got["kappa_type"] == pytest.approx(_kappa_from_confusion(got["confusion"]))
    # the verify output's own copied labels, read with --b-fields label, give the same figures
    assert _agree_json(ver, ver, capsys, "--b-fields", "label") == got
    # the plain report names n, kappa and the matrix
    assert main(["agreement", str(ver), str(inj)]) == 0
    out = capsys.readouterr().out
    assert "n = 40 matched ids" in out and "Cohen's kappa" in out and "confusion (rows A, columns B)" in out


def test_second_annotator_with_known_disagreements(labelled, tmp_path, capsys):
    inj, _ = labelled
    labels = _lines(inj)
    other = []
    for i, r in enumerate(labels):  # a second annotator: every 4th type changed, every 5th step moved
        step, etype = r["label_error_step"], r["label_error_type"]
        if i % 4 == 0:
            etype = {"MC": "CM", "CM": "CE", "CE": "MC", "none": "CE"}[etype]
        if i % 5 == 0:
            step += 1 if i % 10 == 0 else 3
        other.append({"id": r["id"], "error_step": step, "error_type": etype, "status": "ok"})
    b = _write(tmp_path / "b.jsonl", other)
    got = _agree_json(inj, b, capsys)
    assert got["n"] == 40
    assert got["step_exact"] == pytest.approx(32 / 40)
    assert got["step_within1"] == pytest.approx(36 / 40)
    assert sum(got["confusion"][t][t] for t in TYPES) == 30
    assert got["kappa_type"] == pytest.approx(_kappa_from_confusion(got["confusion"]))
    assert 0 < got["kappa_type"] < 1


def test_failed_verdicts_and_unmatched_ids_are_left_out(tmp_path, capsys):
    a = _write(tmp_path / "a.jsonl", [
        {"id": 1, "error_step": 3, "error_type": "CE", "status": "ok"},
        {"id": 2, "error_step": 0, "error_type": "none", "status": "parse_error"},
        {"id": 3, "error_step": 2, "error_type": "MC", "status": "ok"},
        {"id": 4, "error_step": 5, "error_type": "CM", "status": "ok"},
    ])
    b = _write(tmp_path / "b.jsonl", [
        {"id": "1", "label_error_step": 4, "label_error_type": "CE"},
        {"id": "2", "label_error_step": 0, "label_error_type": "none"},
        {"id": "3", "label_error_step": 2, "label_error_type": "CM"},
        {"id": "9", "label_error_step": 1, "label_error_type": "MC"},
    ])
    got = _agree_json(a, b, capsys)
    assert (got["n"], got["step_exact"], got["step_within1"]) == (2, 0.5, 1.0)
    assert got["confusion"]["CE"]["CE"] == 1 and got["confusion"]["MC"]["CM"] == 1
    assert main(["agreement", a, b]) == 0
    assert "only in A 1, only in B 1, left out for a failed verdict 1" in capsys.readouterr().out


def test_category_names_are_read_as_codes(tmp_path, capsys):
    a = _write(tmp_path / "a.jsonl", [{"id": 1, "error_step": 2, "error_type": "CE"},
                                      {"id": 2, "error_step": 0, "error_type": "none"},
                                      {"id": 3, "error_step": 1, "error_type": "MC"}])
    b = _write(tmp_path / "b.jsonl", [{"id": 1, "label_error_step": 2, "label_error_type": "Calculation Error"},
                                      {"id": 2, "label_error_step": 0, "label_error_type": "no error"},
                                      {"id": 3, "label_error_step": 1, "label_error_type": "Problem Miscomprehension"}])
    got = _agree_json(a, b, capsys)
    assert got["kappa_type"] == 1.0 and got["confusion"]["CE"]["CE"] == 1 and got["confusion"]["none"]["none"] == 1


def test_kappa_undefined_is_null(tmp_path, capsys):
    rows = [{"id": i, "error_step": 0, "error_type": "none"} for i in range(3)]
    a = _write(tmp_path / "a.jsonl", rows)
    got = _agree_json(a, a, capsys)
    assert got["kappa_type"] is None and got["n"] == 3 and got["step_exact"] == 1.0


@pytest.mark.parametrize("row, field, message", [
    ({"error_step": 1, "error_type": "CE"}, "id", "required field is missing"),
    ({"id": "x", "error_step": 1}, "error_type", "required field is missing"),
    ({"id": "x", "error_step": -1, "error_type": "CE"}, "error_step", "expected an integer >= 0"),
    ({"id": "x", "error_step": 1, "error_type": "wrong"}, "error_type", "'wrong' is not one of MC, CM, CE, none"),
    ({"id": "x", "error_step": 1, "error_type": None}, "error_type", "None is not one of"),
    ({"id": "x", "error_step": 1, "error_type": ""}, "error_type", "'' is not one of"),
    ({"id": "x", "label_error_step": "2", "label_error_type": "CE"}, "label_error_step", "expected an integer"),
    ({"id": "x", "question": "q"}, "label_error_step", "required field is missing (nor error_step)"),
])
def test_bad_input_names_file_line_and_field(tmp_path, capsys, row, field, message):
    good = _write(tmp_path / "good.jsonl", [{"id": "y", "error_step": 0, "error_type": "none"}])
    bad = _write(tmp_path / "bad.jsonl", [{"id": "y", "error_step": 0, "error_type": "none"}, row])
    capsys.readouterr()
    assert main(["agreement", good, bad]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"bad.jsonl:2: field '{field}': {message}" in err


def test_duplicate_id_and_missing_file(tmp_path, capsys):
    dup = _write(tmp_path / "dup.jsonl", [{"id": "y", "error_step": 0, "error_type": "none"}] * 2)
    assert main(["agreement", dup, dup]) == 2
    assert "dup.jsonl:2: field 'id': duplicate id 'y' (first on line 1)" in capsys.readouterr().err
    good = _write(tmp_path / "good.jsonl", [{"id": "y", "error_step": 0, "error_type": "none"}])
    assert main(["agreement", good, str(tmp_path / "nope.jsonl")]) == 2
    assert "nope.jsonl: JSONL file not found" in capsys.readouterr().err
