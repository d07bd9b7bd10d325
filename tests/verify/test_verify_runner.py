"""`physr3.verify.runner.run_verify`: a JSONL file of solutions verified as a library call, resumable."""

from __future__ import annotations

import json

from physr3.config import load_config
from physr3.problems import write_jsonl
from physr3.synth.generate import generate_problems
from physr3.synth.inject import inject_problems
from physr3.verify.runner import run_verify


def test_verifies_every_line_once_and_scores_against_labels(tmp_path, capsys):
    rows = list(inject_problems(generate_problems(6, 1, split="all"), 1, 0.0))
    src, out = tmp_path / "in.jsonl", tmp_path / "v.jsonl"
    write_jsonl(src, rows)
    cfg = load_config(None, ["verifier.kind=symbolic"])
    assert run_verify(cfg, str(src), str(out), limit=4) == 0
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["id"] for g in got] == [r["id"] for r in rows[:4]]
    assert all(g["label_error_step"] == r["label_error_step"] for g, r in zip(got, rows))
    assert "against labels (4 ok verdicts)" in capsys.readouterr().err
    assert run_verify(cfg, str(src), str(out)) == 0  # resumes: only the last two are new
    assert len(out.read_text().splitlines()) == 6 and "4 already in" in capsys.readouterr().err
