"""Run folders record the resolved config, seed, versions and git commit."""

import json

import yaml

from physr3.config import load_config
from physr3.runs import prepare_run


def test_prepare_run_records_provenance(tmp_path):
    cfg = load_config(None, [f"run.output_dir={tmp_path}", "run.name=r1", "run.seed=7"])
    path = prepare_run(cfg, "test", argv=["physr3", "test"])
    assert path == tmp_path / "r1"
    saved = yaml.safe_load((path / "config.yaml").read_text())
    assert saved["run"]["seed"] == 7
    record = json.loads((path / "run.json").read_text())
    assert record["seed"] == 7 and record["command"] == "test"
    assert record["versions"]["physr3"] and record["versions"]["python"]
    assert "commit" in record["git"]
    prepare_run(cfg, "test", argv=["physr3", "test", "--resume"])
    assert len((path / "runs.jsonl").read_text().splitlines()) == 2
