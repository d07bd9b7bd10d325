"""Paper-style tables from eval summaries: averages, per-benchmark accuracy, error shares and deltas."""

import json

import pytest
import yaml

from physr3.cli import main
from physr3.report.paper_tables import build_tables


def _run(tmp_path, name, model, summary):
    d = tmp_path / name
    d.mkdir()
    (d / "summary.json").write_text(json.dumps(summary))
    (d / "config.yaml").write_text(yaml.safe_dump({"model": {"name_or_path": model}}))
    return d


SUMMARY = {
    "cot": {"a": {"mean_score": 0.2, "error_types": {"MC": 1, "CM": 2, "CE": 1}},
            "b": {"mean_score": 0.4, "error_types": {"CE": 4}}},
    "ours": {"a": {"mean_score": 0.5, "error_types": {"CM": 3, "CE": 1}},
             "b": {"mean_score": 0.6, "error_types": {}}},
}


def test_tables_compute_averages_shares_and_deltas():
    t = build_tables([("m1", SUMMARY)])
    assert t["table1_average"][1][0] == ["m1", pytest.approx(30.0), pytest.approx(55.0)]
    shares = {r[0]: r[1:] for r in t["table5_errors"][1]}
    assert shares["m1 / cot"] == [pytest.approx(12.5), pytest.approx(25.0), pytest.approx(62.5)]
    assert shares["m1 / ours"] == [pytest.approx(0.0), pytest.approx(75.0), pytest.approx(25.0)]
    deltas = {r[0]: r[1:] for r in t["table7_deltas"][1]}
    assert deltas["m1 / CE"] == [pytest.approx(-37.5)]


def test_report_command_writes_every_format(tmp_path, capsys):
    run = _run(tmp_path, "r1", "modelA", SUMMARY)
    (run / "conditions.json").write_text(json.dumps({"cot": {"description": "CoT", "details": "system: think"}}))
    assert main(["report", str(run), "--out", str(tmp_path / "out")]) == 0
    out = tmp_path / "out"
    for name in ("table1_average", "table34_accuracy", "table5_errors", "table7_deltas"):
        for ext in ("md", "csv", "tex"):
            assert (out / f"{name}.{ext}").stat().st_size > 0
    assert "**55.0**" in (out / "table1_average.md").read_text()
    assert (out / "accuracy.png").read_bytes()[:4] == b"\x89PNG"
    assert "<table>" in (out / "index.html").read_text() and "system: think" in (out / "index.html").read_text()
    assert "system: think" in (out / "conditions.md").read_text()


def test_report_refuses_a_folder_without_summary(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "not an eval run folder" in capsys.readouterr().err
