"""The eval runner on a tiny random model: per-item rows, adapters per condition, resume without redoing."""

import json

from physr3.config import LoraConfig, load_config
from physr3.eval.runner import run_eval
from physr3.problems import write_jsonl
from physr3.synth.generate import generate_problems


def _sft_adapter(tiny_model_dir, path):
    from transformers import AutoModelForCausalLM

    from physr3.train.adapters import new_lora_model

    model = new_lora_model(AutoModelForCausalLM.from_pretrained(tiny_model_dir), LoraConfig(), "default")
    model.save_pretrained(path)
    return path


def test_eval_writes_rows_and_resumes(tiny_model_dir, tmp_path):
    data = tmp_path / "test.jsonl"
    write_jsonl(data, list(generate_problems(3, seed=5, split="test")))
    adapter = _sft_adapter(tiny_model_dir, tmp_path / "adapter")
    cfg = load_config(None, [f"model.name_or_path={tiny_model_dir}", "model.dtype=float32",
                             f"run.output_dir={tmp_path}", "run.name=ev", "generation.max_new_tokens=6",
                             "eval.conditions=cot,sft", f"eval.sft_adapter={adapter}"])
    cfg.eval.benchmarks = ["synth-test"]
    run_dir = run_eval(cfg, progress=False, benchmark_paths={"synth-test": str(data)})
    rows = [json.loads(x) for x in (run_dir / "results" / "sft__synth-test.jsonl").read_text().splitlines()]
    assert len(rows) == 3 and {r["condition"] for r in rows} == {"sft"}
    assert all(set(r) >= {"id", "completion", "correct", "compliant", "n_steps", "reason"} for r in rows)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["cot"]["synth-test"]["n"] == 3

    # A second run finds every item done and generates nothing new (the file is not rewritten).
    before = (run_dir / "results" / "cot__synth-test.jsonl").read_text()
    run_eval(cfg, progress=False, benchmark_paths={"synth-test": str(data)})
    assert (run_dir / "results" / "cot__synth-test.jsonl").read_text() == before


def test_a_name_equals_file_benchmark_is_reported_under_its_name(tiny_model_dir, tmp_path):
    data = tmp_path / "mine.jsonl"
    write_jsonl(data, list(generate_problems(2, seed=6, split="test")))
    cfg = load_config(None, [f"model.name_or_path={tiny_model_dir}", "model.dtype=float32",
                             f"run.output_dir={tmp_path}", "run.name=named", "generation.max_new_tokens=4"])
    cfg.eval.benchmarks = [f"synth-test={data}"]
    run_dir = run_eval(cfg, progress=False)
    assert list(json.loads((run_dir / "summary.json").read_text())["cot"]) == ["synth-test"]
    assert (run_dir / "results" / "cot__synth-test.jsonl").is_file()
