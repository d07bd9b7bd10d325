"""The `physr3 train` recipe: runs Algorithm 1 (physr3.train.refine) over a dataset, resumably.

It owns what the step does not: the data order and cursor, the optimizer and scheduler, metrics
(`metrics.jsonl`, TensorBoard, a progress bar with ETA), rollout logs (`samples.jsonl`) and checkpoints.
Data order is a per-epoch permutation seeded by (run seed, epoch); sampling inside a step is seeded by
(run seed, step). Together with the saved optimizer/scheduler/RNG state this makes a resumed run take the
same steps as an uninterrupted one.

Resume is explicit and checked: a run folder that holds a checkpoint is continued only with `resume=True`
(`physr3 train --resume RUN_DIR`), and only when the data file's hash, the SFT adapter's hash and the
training-relevant config equal what the checkpoint recorded (its `fingerprint`); a mismatch is refused in one
line naming the differing fields. Without `resume`, such a folder is refused (another run's checkpoint).

Data parallel goes through accelerate's `Accelerator` (process group, device placement, reductions): under
`accelerate launch` (or torchrun) each process takes every world_size-th problem of a step's batch, and the
policy gradients are all-reduced (one flat tensor on the training device, so NCCL works) before the
optimizer step; the loss mean runs over all processes' non-skipped problems, so the update equals the
single-process one.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from pathlib import Path
from typing import Any

import torch

from physr3.config import Config
from physr3.errors import UserError
from physr3.problems import Problem, read_problems
from physr3.runs import prepare_run
from physr3.train import checkpoint as ckpt
from physr3.train.adapters import trainable_parameters
from physr3.train.refine import RefineStep, check_train_config, summarize


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


def make_accelerator(device: str = "auto"):
    """accelerate's Accelerator for this process: under `accelerate launch`/torchrun (WORLD_SIZE > 1) it sets up
    the process group (gloo on CPU, NCCL on GPU) and names this process's device; in one process it is a no-op
    wrapper whose reductions return their input."""
    from accelerate import Accelerator

    cpu = not torch.cuda.is_available() or str(device).startswith("cpu")
    return Accelerator(cpu=cpu)


def total_steps(cfg: Config, n_problems: int) -> int:
    if cfg.train.max_steps is not None:
        return cfg.train.max_steps
    return max(1, math.ceil(cfg.train.epochs * n_problems / cfg.train.batch_size))


class RefineTrainer:
    def __init__(self, cfg: Config, problems: list[Problem], model, tokenizer, engine, verifier, feedback_fn,
                 answer_check, run_dir: Path, accelerator=None, fingerprint: dict[str, Any] | None = None):
        if not problems:
            raise ValueError("no training problems")
        self.accelerator = accelerator or make_accelerator(str(next(model.parameters()).device))
        self.rank, self.world_size = self.accelerator.process_index, self.accelerator.num_processes
        self.fingerprint = fingerprint
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
        self.total = total_steps(cfg, len(problems))

    # -- collectives (accelerate; tensors on the training device) --------------------------------------------
    def sum_over_processes(self, value: int) -> int:
        t = torch.tensor([value], dtype=torch.long, device=self.accelerator.device)
        return int(self.accelerator.reduce(t, reduction="sum").item())

    def all_reduce_grads(self) -> None:
        """Sum the policy gradients over processes (each already divided by the global sample count); in one
        process accelerate's reduce returns its input (a copy of the small LoRA gradients)."""
        for p in self.params:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
        flat = torch.cat([p.grad.flatten() for p in self.params])
        flat = self.accelerator.reduce(flat, reduction="sum")
        offset = 0
        for p in self.params:
            p.grad.copy_(flat[offset : offset + p.numel()].view_as(p.grad))
            offset += p.numel()

    def gather(self, obj: Any) -> list[Any]:
        """One object per process, in rank order."""
        if self.world_size == 1:
            return [obj]
        from accelerate.utils import gather_object

        return gather_object([obj])

    def resume(self) -> bool:
        """Continue from the run folder's latest checkpoint (checked against this run by `run_refine`)."""
        path = ckpt.latest_checkpoint(self.run_dir)
        if path is None:
            return False
        ckpt.load_policy_weights(self.model, path)
        state = ckpt.load_trainer_state(path, self.optimizer, self.scheduler)
        self.step = state["step"]
        self.cursor = DataCursor(len(self.problems), self.cfg.run.seed, state["epoch"], state["position"])
        if self.rank == 0:
            for name in ("metrics.jsonl", "samples.jsonl"):
                ckpt.truncate_jsonl(self.run_dir / name, self.step)
        return True

    def _save(self) -> None:
        if self.rank == 0:
            keep = self.cfg.train.keep_checkpoints or 10**9  # 0 = keep all
            ckpt.save_checkpoint(self.run_dir, self.step, self.model, self.optimizer, self.scheduler,
                                 {"step": self.step, **self.cursor.state(), "fingerprint": self.fingerprint},
                                 keep_last=keep)

    def train(self, progress: bool = True) -> list[dict[str, Any]]:
        from tqdm import tqdm

        writer = _tensorboard(self.run_dir) if self.rank == 0 else None
        bar = tqdm(total=self.total, initial=self.step, desc="refine", unit="step", disable=not progress
                   or self.rank != 0, dynamic_ncols=True)
        history = []
        try:
            while self.step < self.total:
                batch_idx = self.cursor.take(self.cfg.train.batch_size)
                mine = [self.problems[i] for i in batch_idx[self.rank :: self.world_size]]
                metrics = self._one_step(mine)
                history.append(metrics)
                if self.rank == 0:
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
        n_used = self.sum_over_processes(n_used_local)
        n_first = 0
        if self.cfg.train.advantage == "paper+first":  # the first-attempt term averages over every scored y1
            n_first = self.sum_over_processes(sum(ro.y1 is not None and ro.r1 is not None for ro in rollouts))
        t0 = time.perf_counter()
        self.optimizer.zero_grad(set_to_none=True)
        loss_stats = self.step_fn.backward(rollouts, denominator=n_used, first_denominator=n_first)
        self.all_reduce_grads()
        if self.world_size > 1:
            loss_stats = _merge_loss_stats(self.gather(loss_stats))
        grad_norm = None
        if n_used or n_first:  # paper+first also learns from steps without revisions
            grad_norm = float(torch.nn.utils.clip_grad_norm_(self.params, max_norm=1.0))
            self.optimizer.step()
        self.scheduler.step()
        timing["update"] = time.perf_counter() - t0
        self.step = step

        all_rollouts = [ro for part in self.gather([r.to_json() for r in rollouts]) for ro in part]
        summary = summarize(rollouts) if self.world_size == 1 else _merge_summaries(
            self.gather(summarize(rollouts)))
        wall = time.perf_counter() - t_start
        metrics = {"step": step, "epoch": self.cursor.epoch, "lr": self.scheduler.get_last_lr()[0],
                   **{k: v for k, v in loss_stats.items()}, "grad_norm": grad_norm, **summary,
                   "time": {k: round(v, 3) for k, v in timing.items()} | {"step": round(wall, 3)},
                   "tokens_per_s": summary["generated_tokens"] / timing["generation"]
                   if timing.get("generation") else None}
        if self.rank == 0:
            with open(self.run_dir / "samples.jsonl", "a", encoding="utf-8") as fh:
                for row in all_rollouts:
                    fh.write(json.dumps({"step": step, **row}, ensure_ascii=False) + "\n")
        return metrics


def _merge_loss_stats(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Combine per-process loss statistics: the loss adds (each part is already over the global count), means
    are re-weighted by each process's used samples; the gap is rank 0's first micro-batch when it has one."""
    used = sum(p["used"] for p in parts)
    merged: dict[str, Any] = {"loss": sum(p["loss"] for p in parts), "used": used}
    if any("loss_first" in p for p in parts):  # paper+first: each part is already over the global count
        merged["loss_first"] = sum(p.get("loss_first", 0.0) for p in parts)
        merged["first_used"] = sum(p.get("first_used", 0.0) for p in parts)
    merged["shared_pass"] = sum(p.get("shared_pass", 0.0) for p in parts)
    merged["update_passes"] = sum(p.get("update_passes", 0.0) * p["used"] for p in parts) / used if used else 0.0
    for key in ("kl", "logp_y1", "logp_y2"):
        merged[key] = sum(p[key] * p["used"] for p in parts) / used if used else 0.0
    first = next((p for p in parts if p["logp_gap"] is not None), parts[0])
    merged["logp_gap"], merged["importance_ratio"] = first["logp_gap"], first["importance_ratio"]
    merged["logp_gap_kind"] = first.get("logp_gap_kind")
    return merged


def _merge_summaries(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Combine per-process step summaries (counts add, means re-weighted by their sample lists)."""
    merged: dict[str, Any] = {}
    for key in ("problems", "sampled", "skipped_solved", "skipped_verifier", "skipped_overlong", "truncated",
                "verifier_failures", "generated_tokens", "revision_reencoded"):
        merged[key] = sum(p[key] for p in parts)
    judged = [p.get("hybrid_judge_calls") for p in parts if p.get("hybrid_judge_calls") is not None]
    merged["hybrid_judge_calls"] = sum(judged) if judged else None  # verifier.kind=hybrid only
    merged["r1"] = [x for p in parts for x in p["r1"]]
    merged["r2"] = [x for p in parts for x in p["r2"]]
    mean = lambda xs: sum(xs) / len(xs) if xs else None  # noqa: E731
    merged["r1_mean"], merged["r2_mean"] = mean(merged["r1"]), mean(merged["r2"])
    merged["skip_rate"] = (merged["skipped_solved"] + merged["skipped_verifier"] + merged["skipped_overlong"]) / max(
        1, merged["problems"])
    for key in ("transitions", "revisions", "error_types_y1", "error_types_y2"):
        total: dict[str, int] = {}
        for p in parts:
            for k, v in p[key].items():
                total[k] = total.get(k, 0) + v
        merged[key] = total
    for key, weight in (("acc_y1", "sampled"), ("n_steps_y1", "sampled")):
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
    (`train.merged_generation`, physr3.models.merged, in `train.mirror_dtype`) or the unmerged PEFT model itself."""
    from physr3.models.engine import TransformersEngine
    from physr3.models.merged import MergedPolicyEngine
    from physr3.models.openvino_engine import policy_engine_or_none
    from physr3.train.adapters import POLICY

    def without_openvino():
        if cfg.train.merged_generation:
            dtype = None if cfg.train.mirror_dtype == "model" else getattr(torch, cfg.train.mirror_dtype)
            return MergedPolicyEngine(model, POLICY, tokenizer, batch_size=cfg.generation.batch_size, dtype=dtype)
        return TransformersEngine(model, tokenizer, batch_size=cfg.generation.batch_size)

    engine = policy_engine_or_none(cfg, model, tokenizer, POLICY)  # None unless generation.engine=openvino/auto
    if engine is None:
        return without_openvino()
    engine.engine.fallback = without_openvino  # takes over after a hung OpenVINO call (generation.openvino_stall_s)
    return engine


# Config keys a resumed run may change: where it runs, how long it runs, how it talks to services, and switches
# that change speed but not what is sampled or learned (prefix caching, the shared loss pass). Every other
# key of the sections below must equal what the checkpoint recorded; data and adapter compare by content hash.
_RESUME_FREE = {"run.name", "run.output_dir", "model.device", "model.cache_dir", "train.data", "train.sft_adapter",
                "train.max_steps", "train.epochs", "train.checkpoint_every", "train.keep_checkpoints",
                "generation.batch_size", "generation.openvino_prefix_caching", "generation.openvino_stall_s",
                "generation.openvino_min_tokens", "train.shared_policy_pass",
                "verifier.concurrency", "verifier.max_retries", "verifier.timeout_s", "verifier.cache_path",
                "verifier.api_key_env", "feedback.store_dir", "feedback.code_api_key_env", "feedback.code_timeout_s"}
_RESUME_SECTIONS = ("run", "model", "generation", "lora", "train", "verifier", "reward", "feedback")


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run_fingerprint(cfg: Config) -> dict[str, Any]:
    """What a checkpoint records about its run: data and SFT adapter by content hash, and the config."""
    adapter = None
    if cfg.train.sft_adapter:
        folder = Path(cfg.train.sft_adapter)
        adapter = {f.name: _sha256_file(f) for f in sorted(folder.glob("adapter_*")) if f.is_file()} or str(folder)
    config = {f"{s}.{k}": v for s, body in cfg.to_dict().items() if s in _RESUME_SECTIONS
              for k, v in body.items() if f"{s}.{k}" not in _RESUME_FREE}
    return {"train.data": _sha256_file(Path(cfg.train.data)), "train.sft_adapter": adapter, "config": config}


def fingerprint_differences(recorded: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """The fields that differ, each as `name (recorded → now)` for config keys and `name` for hashed ones."""
    out = [k for k in ("train.data", "train.sft_adapter") if recorded.get(k) != now.get(k)]
    old, new = recorded.get("config", {}), now.get("config", {})
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            out.append(f"{key} ({old.get(key)!r} → {new.get(key)!r})")
    return out


def check_resume(run_dir: Path, fingerprint: dict[str, Any], resume: bool) -> Path | None:
    """The checkpoint to resume from, or None to start fresh; refuses (one line) a folder that holds another
    run's checkpoint without `resume`, and a resume whose data, adapter or config differ from the recorded."""
    path = ckpt.latest_checkpoint(run_dir)
    if path is None:
        return None
    if not resume:
        raise UserError(f"{run_dir} already holds a run's checkpoint ({path.name}): continue it with "
                        f"`physr3 train --resume {run_dir}`, or start a new run with another run.name")
    recorded = json.loads((path / "state.json").read_text()).get("fingerprint")
    if recorded is None:
        raise UserError(f"{path}: the checkpoint records no data/adapter/config fingerprint (written by an older "
                        f"physr3), so resuming it cannot be checked; start a new run with another run.name")
    diff = fingerprint_differences(recorded, fingerprint)
    if diff:
        raise UserError(f"{path}: resume refused, this run differs from the checkpoint's in {'; '.join(diff)}")
    return path


def run_refine(cfg: Config, argv: list[str] | None = None, progress: bool = True, resume: bool = False) -> Path:
    """Build model, verifier and feedback from the config and train. A run folder that holds a checkpoint is
    continued only with `resume` and only when data, SFT adapter and config match (see `check_resume`)."""
    from physr3.eval.answers import score_problem
    from physr3.feedback.router import FeedbackRouter
    from physr3.models.loading import load_model
    from physr3.runs import run_dir as _run_dir
    from physr3.runs import seed_everything
    from physr3.train.adapters import policy_and_reference, save_policy_adapter
    from physr3.verify.registry import build_verifier

    check_train_config(cfg)
    problems = load_training_problems(cfg)  # a bad data file is named first, before any other complaint
    if not cfg.train.sft_adapter and not cfg.train.from_base:
        raise UserError("train.sft_adapter is not set: give the Stage 1 adapter with --sft-adapter DIR (the policy's "
                        "start and the KL reference), or --from-base to start from and regularise to the base model")
    fingerprint = run_fingerprint(cfg)
    run_dir = _run_dir(cfg)
    checkpoint = check_resume(run_dir, fingerprint, resume)  # before prepare_run rewrites config.yaml

    accelerator = make_accelerator(cfg.model.device)
    if accelerator.num_processes > 1 and cfg.model.device == "auto":
        cfg.model.device = str(accelerator.device)  # each process on its own device
    if accelerator.is_main_process:
        run_dir = prepare_run(cfg, "train", argv)
        if checkpoint is None:  # a fresh start: lines a run killed before its first checkpoint left go
            for name in ("metrics.jsonl", "samples.jsonl"):
                ckpt.truncate_jsonl(run_dir / name, 0)
    else:
        seed_everything(cfg.run.seed)
    base, tokenizer = load_model(cfg.model)
    model = policy_and_reference(base, cfg.train.sft_adapter, cfg.lora)
    engine = rollout_engine(cfg, model, tokenizer)
    verifier = build_verifier(cfg.verifier.kind, cfg)
    router = FeedbackRouter(cfg.feedback)

    def answer_check(problem: Problem, text: str) -> bool:
        return score_problem(problem, text, rel_tol=cfg.eval.relative_tolerance).correct

    trainer = RefineTrainer(cfg, problems, model, tokenizer, engine, verifier, router, answer_check, run_dir,
                            accelerator=accelerator, fingerprint=fingerprint)
    if checkpoint is not None and trainer.resume():
        print(f"train: resumed {run_dir} at step {trainer.step}/{trainer.total}")
    try:
        trainer.train(progress=progress)
    finally:
        if hasattr(engine, "close"):  # the OpenVINO rollout engine's per-step GGUF folder
            engine.close()
    if trainer.rank == 0:
        if hasattr(verifier, "report"):  # judge calls, cache hits, parse failures, ...
            print(f"train: verifier {verifier.report()}")
        save_policy_adapter(model, run_dir / "adapter")
    return run_dir
