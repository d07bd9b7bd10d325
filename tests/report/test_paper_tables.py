"""Paper-style tables from eval run folders: merging, averages, shares, deltas, n and intervals in every format.

The run folders here are written by hand in the eval runner's format (summary.json, config.yaml, run.json and
results/<condition>__<benchmark>.jsonl, see physr3.eval.runner) so that each number is known in advance; the
browser test (test_report_in_browser.py) uses folders made by the runner itself.
"""

import json

import pytest
import yaml

from physr3.cli import main
from physr3.report.intervals import newcombe_interval, wilson_interval
from physr3.report.merge import load_run, merge_runs
from physr3.report.paper_tables import build_tables


def _cell(n, correct, errors=None, compliant=0):
    return {"n": n, "accuracy": correct / n, "mean_score": correct / n, "compliance": compliant / n,
            "no_answer": 0, "mean_steps": 3.0, "error_types": errors or {}, "error_type_share": {}}


def _run(tmp_path, name, model, summary, started="2026-01-01T00:00:00+00:00", max_new_tokens=384, rows=None):
    d = tmp_path / name
    d.mkdir()
    (d / "summary.json").write_text(json.dumps(summary))
    (d / "config.yaml").write_text(yaml.safe_dump({"model": {"name_or_path": model},
                                                   "generation": {"max_new_tokens": max_new_tokens}}))
    (d / "run.json").write_text(json.dumps({"started": started, "git": {"commit": "abc1234567890", "dirty": False}}))
    for (cond, bench), scores in (rows or {}).items():
        (d / "results").mkdir(exist_ok=True)
        (d / "results" / f"{cond}__{bench}.jsonl").write_text("".join(
            json.dumps({"id": f"q{i}", "score": s, "correct": s == 1.0, "compliant": True}) + "\n"
            for i, s in enumerate(scores)))
    return d


SUMMARY = {
    "cot": {"a": _cell(10, 2, {"MC": 1, "CM": 2, "CE": 1}), "b": _cell(5, 2, {"CE": 4})},
    "ours": {"a": _cell(10, 5, {"CM": 3, "CE": 1}), "b": _cell(5, 3)},
}


def _tables(*runs):
    return {t.name: t for t in build_tables(merge_runs([load_run(p, i) for i, p in enumerate(runs)]))}


def test_tables_compute_averages_shares_and_deltas_with_n_and_intervals(tmp_path):
    t = _tables(_run(tmp_path, "r1", "m1", SUMMARY))
    (row,) = t["average"].rows
    cot, ours = row[1:]
    assert row[0] == "m1"
    assert cot.value == pytest.approx(30.0) and cot.n == 15 and cot.low < 30.0 < cot.high  # (20% + 40%) / 2
    assert ours.value == pytest.approx(55.0) and ours.n == 15
    (row,) = t["accuracy_a"].rows
    assert (row[1].low, row[1].high) == pytest.approx(tuple(100 * x for x in wilson_interval(2, 10)))
    assert row[1].n == 10
    shares = {r[0]: r[1:] for r in t["errors"].rows}
    assert [c.value for c in shares["CoT"]] == pytest.approx([12.5, 25.0, 62.5])
    assert [c.n for c in shares["CoT"]] == [8, 8, 8]
    assert [c.value for c in shares["Ours"]] == pytest.approx([0.0, 75.0, 25.0])
    deltas = {r[0]: r[1:] for r in t["deltas"].rows}
    (ce,) = deltas["CE"]
    assert ce.value == pytest.approx(-37.5) and ce.n == "4/8"
    assert (ce.low, ce.high) == pytest.approx(tuple(100 * x for x in newcombe_interval(1, 4, 5, 8)))
    assert t["average"].title == "Average accuracy across benchmarks (%)" and "Table 1" in t["average"].caption


def test_runs_of_one_model_merge_into_one_row_and_the_newer_run_wins(tmp_path):
    old = _run(tmp_path, "old", "m1", {"cot": {"a": _cell(10, 1)}, "sft": {"a": _cell(10, 4)}},
               started="2026-01-01T00:00:00+00:00", max_new_tokens=128)
    new = _run(tmp_path, "new", "m1", {"cot": {"a": _cell(10, 6)}, "rag": {"a": _cell(10, 7)}},
               started="2026-02-01T00:00:00+00:00")
    other = _run(tmp_path, "other", "m2", {"cot": {"a": _cell(4, 1)}})
    merged = merge_runs([load_run(new, 0), load_run(old, 1), load_run(other, 2)])  # newer first on purpose
    assert merged.models == ["m1", "m2"] and merged.conditions == ["cot", "rag", "sft"]
    (sup,) = merged.superseded
    assert (sup.model, sup.benchmark, sup.condition) == ("m1", "a", "cot")
    assert sup.winner.path == new and [r.path for r in sup.losers] == [old]
    assert sup.conflicts == {"generation.max_new_tokens": (384, 128)}
    # sft comes from the older run only: the row mixes token budgets, which the page flags too
    assert merged.row_conflicts("m1") == {"generation.max_new_tokens": [(384, ["cot", "rag"]), (128, ["sft"])]}
    assert merged.row_conflicts("m2") == {}
    t = {x.name: x for x in build_tables(merged)}
    rows = {r[0]: r[1:] for r in t["accuracy_a"].rows}
    assert list(rows) == ["m1", "m2"]  # one row per model
    cot, rag, sft = rows["m1"]
    assert (cot.value, rag.value, sft.value) == pytest.approx((60.0, 70.0, 40.0))
    assert cot.mark == "‡" and not rag.mark and "‡" in t["accuracy_a"].notes[0]
    assert rows["m2"][1] is None  # m2 has no rag cell: shown as "–", not borrowed from another model


def test_partial_credit_scores_get_a_bootstrap_interval(tmp_path):
    summary = {"cot": {"jeebench": {**_cell(4, 1), "mean_score": 0.5}}}
    run = _run(tmp_path, "r", "m", summary, rows={("cot", "jeebench"): [1.0, 0.5, 0.25, 0.25]})
    (row,) = _tables(run)["accuracy_jeebench"].rows
    cell = row[1]
    assert cell.value == pytest.approx(50.0) and cell.n == 4
    assert 25.0 <= cell.low < 50.0 < cell.high <= 100.0
    assert (cell.low, cell.high) != pytest.approx(tuple(100 * x for x in wilson_interval(2, 4)))


def test_report_command_writes_titles_n_and_intervals_in_every_format(tmp_path):
    run = _run(tmp_path, "r1", "modelA", SUMMARY)
    (run / "conditions.json").write_text(json.dumps({"cot": {"description": "CoT", "details": "system: think"}}))
    assert main(["report", str(run), "--out", str(tmp_path / "out")]) == 0
    out = tmp_path / "out"
    for name in ("average", "accuracy_a", "accuracy_b", "compliance", "errors", "deltas"):
        for ext in ("md", "csv", "tex"):
            assert (out / f"{name}.{ext}").stat().st_size > 0
    md = (out / "average.md").read_text()
    assert md.startswith("## Average accuracy across benchmarks (%)")
    assert "**55.0** [" in md and "n=15" in md
    assert (out / "average.csv").read_text().splitlines()[0] == \
        "Model,CoT,CoT_low,CoT_high,CoT_n,Ours,Ours_low,Ours_high,Ours_n"
    tex = (out / "average.tex").read_text()
    assert all(x in tex for x in (r"\toprule", r"\midrule", r"\bottomrule", r"\caption{", "$n$=15"))
    page = (out / "index.html").read_text()
    assert "Average accuracy across benchmarks (%)" in page and "n=15" in page
    assert "<details><summary><b>cot</b>" in page and "system: think" in page
    assert "src='data:image/png;base64," in page and "src='accuracy.png'" not in page
    assert "system: think" in (out / "conditions.md").read_text()
    assert "Average accuracy" in (out / "report.md").read_text()
    from matplotlib.image import imread

    for png in ("accuracy.png", "errors.png"):
        height, width = imread(out / png).shape[:2]
        assert width <= 900  # sized to the page's text column


def test_report_refuses_a_folder_without_summary_and_a_broken_summary(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "not an eval run folder" in capsys.readouterr().err
    (tmp_path / "summary.json").write_text('{"cot": {"a": {"n": 3,}}}')
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "summary.json:1: invalid JSON" in err and err.count("\n") == 1


def test_training_figures_come_from_the_ours_adapters_training_run(tmp_path):
    train = tmp_path / "train"
    (train / "adapter").mkdir(parents=True)
    # two steps as physr3.train.refine.summarize writes them (only the fields the figures read, plus a few)
    steps = [{"step": 1, "problems": 4, "r1_mean": 0.2, "r2_mean": 0.3, "acc_y1": 0.0, "acc_y2": 0.25,
              "transitions": {"RR": 0, "RW": 0, "WR": 1, "WW": 3}, "skip_rate": 0.0},
             {"step": 2, "problems": 4, "r1_mean": 0.4, "r2_mean": 0.35, "acc_y1": 0.25, "acc_y2": 0.25,
              "transitions": {"RR": 1, "RW": 0, "WR": 0, "WW": 2}, "skip_rate": 0.25}]
    (train / "metrics.jsonl").write_text("".join(json.dumps(m) + "\n" for m in steps))
    run = _run(tmp_path, "ev", "m", {"ours": {"a": _cell(4, 1)}})
    cfg = yaml.safe_load((run / "config.yaml").read_text())
    cfg["eval"] = {"ours_adapter": str(train / "adapter")}
    (run / "config.yaml").write_text(yaml.safe_dump(cfg))
    assert main(["report", str(run), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "index.html").read_text()
    assert "id='fig-transitions'" in page and "id='fig-learning'" in page
    assert "n = 7 revisions" in page and str(train / "metrics.jsonl") in page
    assert (tmp_path / "out" / "learning_curves.png").is_file()
    # without the training run the page simply has no training figures; a wrong --train is refused
    assert main(["report", str(run), "--out", str(tmp_path / "out2"), "--train", str(tmp_path)]) == 2


def test_page_shows_conflicting_values_plainly(tmp_path):
    old = _run(tmp_path, "old", "m1", {"sft": {"a": _cell(4, 1)}}, max_new_tokens=128)
    new = _run(tmp_path, "new", "m1", {"cot": {"a": _cell(4, 2)}}, started="2026-03-01T00:00:00+00:00")
    assert main(["report", str(old), str(new), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "index.html").read_text()
    assert "mixes runs with different settings:</span> <code>generation.max_new_tokens</code> 128 (SFT) vs " \
           "384 (CoT)" in page
