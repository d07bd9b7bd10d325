"""The `physr3 train` recipe: runs Algorithm 1 (physr3.train.refine) over a dataset, resumably.

It owns what the step does not: the data order and cursor, the optimizer and scheduler, metrics
(`metrics.jsonl`, TensorBoard, a progress bar with ETA), rollout logs (`samples.jsonl`) and checkpoints.
Data order is a per-epoch permutation seeded by (run seed, epoch); sampling inside a step is seeded by
(run seed, step). Together with the saved optimizer/scheduler/RNG state this makes a resumed run take the
same steps as an uninterrupted one.

Data parallel: under `accelerate launch` (or torchrun) each process takes every world_size-th problem of
a step's batch, and the policy gradients are all-reduced before the optimizer step; the loss mean runs
over all processes' non-skipped problems, so the update equals the single-process one.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from physr3.config import Config
from physr3.problems import Problem, read_problems
from physr3.runs import prepare_run
from physr3.train import checkpoint as ckpt
from physr3.train.adapters import trainable_parameters
from physr3.train.refine import RefineStep, summarize


class DataCursor:
    """Epoch-wise shuffled order over problem indices, resumable from (epoch, position)."""

    def __init__(self, n: int, seed: int, epoch: int = 0, position: int = 0):
        self.n, self.seed, self.epoch, self.position = n, seed, epoch, position
        self._order = self._permutation(epoch)

    def _permutation(self, epoch: int) -> list[int]:
        order = list(range(self.n))
        random.Random(self.seed * 7_919 + epoch).shuffle(order)
        return order

    def take(self, k: int) -> list[int]:
        out = []
        while len(out) < k:
            if self.position >= self.n:
                self.epoch, self.position = self.epoch + 1, 0
                self._order = self._permutation(self.epoch)
            out.append(self._order[self.position])
            self.position += 1
        return out

    def state(self) -> dict[str, int]:
        return {"epoch": self.epoch, "position": self.position}


class _World:
    """Rank/size and gradient all-reduce; a no-op in a single process."""

    def __init__(self) -> None:
        self.dist = torch.distributed if torch.distributed.is_available() and torch.distributed.is_initialized() \
            else None
        self.rank = self.dist.get_rank() if self.dist else 0
        self.size = self.dist.get_world_size() if self.dist else 1

    def sum_int(self, value: int) -> int:
        if not self.dist:
            return value
        t = torch.tensor([value], dtype=torch.long)
        self.dist.all_reduce(t)
        return int(t.item())

    def all_reduce_grads(self, params: Sequence[torch.nn.Parameter]) -> None:
        if not self.dist:
            return
        for p in params:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
            self.dist.all_reduce(p.grad)  # each process already divided by the global sample count

    def gather(self, obj: Any) -> list[Any]:
        if not self.dist:
            return [obj]
        out: list[Any] = [None] * self.size
        self.dist.all_gather_object(out, obj)
        return out


def init_distributed() -> str | None:
    """Under `accelerate launch`/torchrun (WORLD_SIZE > 1) set up the process group (gloo on CPU, NCCL on GPU)
    through accelerate, and return this process's device; None in a single process."""
    import os

    if int(os.environ.get("WORLD_SIZE", "1")) <= 1:
        return None
    from accelerate import PartialState

    state = PartialState(cpu=not torch.cuda.is_available())
    return str(state.device)


def total_steps(cfg: Config, n_problems: int) -> int:
    if cfg.train.max_steps is not None:
        return cfg.train.max_steps
    return max(1, math.ceil(cfg.train.epochs * n_problems / cfg.train.batch_size))


class RefineTrainer:
    def __init__(self, cfg: Config, problems: list[Problem], model, tokenizer, engine, verifier, feedback_fn,
                 answer_check, run_dir: Path):
        if not problems:
            raise ValueError("no training problems")
        self.cfg, self.problems, self.model, self.run_dir = cfg, problems, model, Path(run_dir)
        self.step_fn = RefineStep(cfg, model, tokenizer, engine, verifier, feedback_fn, answer_check)
        self.params = trainable_parameters(model)
        # No weight decay: decay would pull the LoRA weights towards the *base* model (not the SFT reference)
        # even on steps whose samples all carry zero reward.
        self.optimizer = torch.optim.AdamW(self.params, lr=cfg.train.learning_rate, weight_decay=0.0)
        # The paper names no schedule: a constant learning rate (kept as a scheduler so it resumes).
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda _: 1.0)
        self.cursor = DataCursor(len(problems), cfg.run.seed)
        self.step = 0
        self.world = _World()
        self.total = total_steps(cfg, len(problems))

    def resume_if_possible(self) -> bool:
        path = ckpt.latest_checkpoint(self.run_dir)
        if path is None:
            return False
        ckpt.load_policy_weights(self.model, path)
        state = ckpt.load_trainer_state(path, self.optimizer, self.scheduler)
        self.step = state["step"]
        self.cursor = DataCursor(len(self.problems), self.cfg.run.seed, state["epoch"], state["position"])
        if self.world.rank == 0:
            for name in ("metrics.jsonl", "samples.jsonl"):
                ckpt.truncate_jsonl(self.run_dir / name, self.step)
        return True

    def _save(self) -> None:
        if self.world.rank == 0:
            ckpt.save_checkpoint(self.run_dir, self.step, self.model, self.optimizer, self.scheduler,
                                 {"step": self.step, **self.cursor.state()})

    def train(self, progress: bool = True) -> list[dict[str, Any]]:
        from tqdm import tqdm

        writer = _tensorboard(self.run_dir) if self.world.rank == 0 else None
        bar = tqdm(total=self.total, initial=self.step, desc="refine", unit="step", disable=not progress
                   or self.world.rank != 0, dynamic_ncols=True)
        history = []
        try:
            while self.step < self.total:
                batch_idx = self.cursor.take(self.cfg.train.batch_size)
                mine = [self.problems[i] for i in batch_idx[self.world.rank :: self.world.size]]
                metrics = self._one_step(mine)
                history.append(metrics)
                if self.world.rank == 0:
                    _append(self.run_dir / "metrics.jsonl", metrics)
                    if writer:
                        _log_scalars(writer, metrics)
                    bar.set_postfix(loss=f"{metrics['loss']:.3f}", r2=_fmt(metrics["r2_mean"]),
                                    skip=f"{metrics['skip_rate']:.2f}")
                bar.update(1)
                if self.step % self.cfg.train.checkpoint_every == 0 or self.step == self.total:
                    self._save()
        finally:
            bar.close()
            if writer:
                writer.close()
        return history

    def _one_step(self, problems: list[Problem]) -> dict[str, Any]:
        t_start = time.perf_counter()
        step = self.step + 1
        rollouts, timing = self.step_fn.rollouts(problems, step) if problems else ([], {})
        n_used_local = sum(ro.y2 is not None and ro.r2 is not None for ro in rollouts)
        n_used = self.world.sum_int(n_used_local)
        t0 = time.perf_counter()
        self.optimizer.zero_grad(set_to_none=True)
        loss_stats = self.step_fn.backward(rollouts, denominator=n_used)
        self.world.all_reduce_grads(self.params)
        grad_norm = None
        if n_used:
            grad_norm = float(torch.nn.utils.clip_grad_norm_(self.params, max_norm=1.0))
            self.optimizer.step()
        self.scheduler.step()
        timing["update"] = time.perf_counter() - t0
        self.step = step

        all_rollouts = [ro for part in self.world.gather([r.to_json() for r in rollouts]) for ro in part]
        summary = summarize(rollouts) if self.world.size == 1 else _merge_summaries(
            self.world.gather(summarize(rollouts)))
        wall = time.perf_counter() - t_start
        metrics = {"step": step, "epoch": self.cursor.epoch, "lr": self.scheduler.get_last_lr()[0],
                   **{k: v for k, v in loss_stats.items()}, "grad_norm": grad_norm, **summary,
                   "time": {k: round(v, 3) for k, v in timing.items()} | {"step": round(wall, 3)},
                   "tokens_per_s": summary["generated_tokens"] / timing["generation"]
                   if timing.get("generation") else None}
        if self.world.rank == 0:
            with open(self.run_dir / "samples.jsonl", "a", encoding="utf-8") as fh:
                for row in all_rollouts:
                    fh.write(json.dumps({"step": step, **row}, ensure_ascii=False) + "\n")
        return metrics


def _merge_summaries(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Combine per-process step summaries (counts add, means re-weighted by their sample lists)."""
    merged: dict[str, Any] = {}
    for key in ("problems", "skipped_solved", "skipped_verifier", "verifier_failures", "generated_tokens"):
        merged[key] = sum(p[key] for p in parts)
    merged["r1"] = [x for p in parts for x in p["r1"]]
    merged["r2"] = [x for p in parts for x in p["r2"]]
    mean = lambda xs: sum(xs) / len(xs) if xs else None  # noqa: E731
    merged["r1_mean"], merged["r2_mean"] = mean(merged["r1"]), mean(merged["r2"])
    merged["skip_rate"] = (merged["skipped_solved"] + merged["skipped_verifier"]) / max(1, merged["problems"])
    for key in ("transitions", "revisions", "error_types_y1", "error_types_y2"):
        total: dict[str, int] = {}
        for p in parts:
            for k, v in p[key].items():
                total[k] = total.get(k, 0) + v
        merged[key] = total
    for key, weight in (("acc_y1", "problems"), ("n_steps_y1", "problems")):
        vals = [(p[key], p[weight]) for p in parts if p[key] is not None]
        merged[key] = sum(v * w for v, w in vals) / sum(w for _, w in vals) if vals else None
    revised = [(p, sum(p["transitions"].values())) for p in parts]
    for key in ("acc_y2", "n_steps_y2"):
        vals = [(p[key], w) for p, w in revised if p[key] is not None and w]
        merged[key] = sum(v * w for v, w in vals) / sum(w for _, w in vals) if vals else None
    return merged


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _append(path: Path, row: dict[str, Any]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")


def _tensorboard(run_dir: Path):
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:  # tensorboard is a dependency, but keep training if it is missing
        return None
    return SummaryWriter(log_dir=str(run_dir / "tensorboard"))


def _log_scalars(writer, metrics: dict[str, Any]) -> None:
    step = metrics["step"]
    for key, value in metrics.items():
        if isinstance(value, int | float) and not isinstance(value, bool) and key != "step":
            writer.add_scalar(f"train/{key}", value, step)
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, int | float):
                    writer.add_scalar(f"train/{key}/{k}", v, step)
    if metrics["r1"]:
        writer.add_histogram("train/r1_hist", torch.tensor(metrics["r1"]), step)
    if metrics["r2"]:
        writer.add_histogram("train/r2_hist", torch.tensor(metrics["r2"]), step)


def load_training_problems(cfg: Config) -> list[Problem]:
    from physr3.errors import UserError

    if not cfg.train.data:
        raise UserError("train.data is not set: give a JSONL of problems with ground truth (physr3 synth)")
    problems = read_problems(cfg.train.data)
    if not problems:
        raise UserError(f"{cfg.train.data}: no problems")
    return problems


def rollout_engine(cfg: Config, model, tokenizer):
    """The engine that samples y1 and y2 from the policy adapter: OpenVINO re-exported after every update
    (`generation.engine` auto/openvino on CPU, physr3.models.openvino_engine), else a merged mirror of it
    (`train.merged_generation`, physr3.models.merged) or the unmerged PEFT model itself."""
    from physr3.models.engine import TransformersEngine
    from physr3.models.merged import MergedPolicyEngine
    from physr3.models.openvino_engine import policy_engine_or_none
    from physr3.train.adapters import POLICY

    engine = policy_engine_or_none(cfg, model, tokenizer, POLICY)  # None unless generation.engine=openvino/auto
    if engine is not None:
        return engine
    if cfg.train.merged_generation:
        return MergedPolicyEngine(model, POLICY, tokenizer, batch_size=cfg.generation.batch_size)
    return TransformersEngine(model, tokenizer, batch_size=cfg.generation.batch_size)


def run_refine(cfg: Config, argv: list[str] | None = None, progress: bool = True) -> Path:
    """Build model, verifier and feedback from the config and train; resumes from the run folder if it can."""
    from physr3.eval.answers import score_problem
    from physr3.feedback.router import FeedbackRouter
    from physr3.models.loading import load_model
    from physr3.train.adapters import policy_and_reference, save_policy_adapter
    from physr3.verify.registry import build_verifier

    problems = load_training_problems(cfg)
    device = init_distributed()
    if device is not None and cfg.model.device == "auto":
        cfg.model.device = device
    if _World().rank == 0:
        run_dir = prepare_run(cfg, "train", argv)
    else:
        from physr3.runs import run_dir as _run_dir
        from physr3.runs import seed_everything

        run_dir = _run_dir(cfg)
        seed_everything(cfg.run.seed)
    base, tokenizer = load_model(cfg.model)
    model = policy_and_reference(base, cfg.train.sft_adapter, cfg.lora)
    engine = rollout_engine(cfg, model, tokenizer)
    verifier = build_verifier(cfg.verifier.kind, cfg)
    router = FeedbackRouter(cfg.feedback)

    def answer_check(problem: Problem, text: str) -> bool:
        return score_problem(problem, text, rel_tol=cfg.eval.relative_tolerance).correct

    trainer = RefineTrainer(cfg, problems, model, tokenizer, engine, verifier, router, answer_check, run_dir)
    if trainer.resume_if_possible():
        print(f"train: resumed {run_dir} at step {trainer.step}/{trainer.total}")
    trainer.train(progress=progress)
    if trainer.world.rank == 0:
        if hasattr(verifier, "report"):  # judge calls, cache hits, parse failures, ...
            print(f"train: verifier {verifier.report()}")
        save_policy_adapter(model, run_dir / "adapter")
    return run_dir
