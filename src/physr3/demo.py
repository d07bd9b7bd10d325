"""`physr3 demo`: the whole method end to end on the embedded model, sized for a laptop CPU.

Stages (each a recipe of its own, run into `runs/<name>/<stage>/`, each reused when its output exists so an
interrupted demo resumes):

1. synth  — generated train problems and a held-out test split (`runs/<name>/data/`).
2. sft    — Stage 1 LoRA warm-up on the train problems' seven-tag solutions.
3. train  — the refine loop (Algorithm 1, Eq. 2) from the SFT adapter, symbolic verifier, structured feedback.
4. eval   — CoT-prompted base model, the SFT model and ours on the held-out test set, with error attribution.
5. report — `runs/<name>/report.md` with the accuracy table, format compliance, error types and reward curves.

The numbers are whatever the run measured; the demo prints each stage as it starts and ends.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path

from physr3.config import DEMO_STAGES, Config
from physr3.problems import write_jsonl
from physr3.runs import prepare_run

STAGES = DEMO_STAGES  # in order; the valid values of demo.stages


def _sub(cfg: Config, root: Path, name: str) -> Config:
    sub = copy.deepcopy(cfg)
    sub.run.output_dir = str(root)
    sub.run.name = name
    return sub


def _say(msg: str) -> None:
    print(f"[demo] {msg}", flush=True)


def run_demo(cfg: Config, argv: list[str] | None = None, progress: bool = True) -> Path:
    cfg.demo.validate()  # stages (DemoConfig's rules), also after a caller's changes
    root = prepare_run(cfg, "demo", argv)
    data = root / "data"
    train_path, test_path = data / "train.jsonl", data / "test.jsonl"
    sft_adapter = root / "sft" / "adapter"
    ours_adapter = root / "train" / "adapter"
    t_all = time.perf_counter()

    def stage(name: str, done: bool, fn) -> None:
        if name not in cfg.demo.stages:
            return
        if done:
            _say(f"{name}: reusing what an earlier run left in {root}")
            return
        _say(f"{name}: starting")
        t0 = time.perf_counter()
        fn()
        _say(f"{name}: done in {time.perf_counter() - t0:.0f} s")

    def synth() -> None:
        from physr3.synth.generate import generate_problems

        s = cfg.synth
        train = list(generate_problems(cfg.demo.n_train, cfg.run.seed, split="train", families=s.families or None,
                                       domains=s.domains or None, test_fraction=s.test_fraction,
                                       holdout_families=s.holdout_families))
        test = list(generate_problems(cfg.demo.n_test, cfg.run.seed, split="test", families=s.families or None,
                                      domains=s.domains or None, test_fraction=s.test_fraction,
                                      holdout_families=s.holdout_families))
        write_jsonl(train_path, train)
        write_jsonl(test_path, test)
        _say(f"synth: {len(train)} train and {len(test)} held-out test problems from "
             f"{len({p.family for p in train + test})} families → {data}")

    def sft() -> None:
        from physr3.train.sft import run_sft

        sub = _sub(cfg, root, "sft")
        sub.sft.data, sub.sft.eval_data = str(train_path), None
        run_sft(sub, "sft", resume=True)

    def train() -> None:
        from physr3.train.refine_trainer import run_refine

        sub = _sub(cfg, root, "train")
        sub.train.data, sub.train.sft_adapter = str(train_path), str(sft_adapter)
        run_refine(sub, progress=progress, resume=True)  # an interrupted demo continues (checked)

    def evaluate() -> None:
        from physr3.eval.runner import run_eval

        sub = _sub(cfg, root, "eval")
        sub.eval.conditions = list(cfg.demo.conditions)
        sub.eval.benchmarks = ["synth-test"]
        sub.eval.sft_adapter, sub.eval.ours_adapter = str(sft_adapter), str(ours_adapter)
        sub.eval.attribute_errors = True
        run_eval(sub, progress=progress, benchmark_paths={"synth-test": str(test_path)})

    def report() -> None:
        from physr3.report.demo_report import write_demo_report

        path = write_demo_report(root)
        _say(f"report: {path}")

    stage("synth", train_path.exists() and test_path.exists(), synth)
    stage("sft", (sft_adapter / "adapter_config.json").exists(), sft)
    stage("train", (ours_adapter / "adapter_config.json").exists(), train)
    stage("eval", False, evaluate)  # the eval runner resumes item by item itself
    stage("report", False, report)
    _say(f"finished in {time.perf_counter() - t_all:.0f} s; everything is in {root}")
    if "report" in cfg.demo.stages:
        print((root / "report.md").read_text())
    return root
