"""Seconds per refine step, its time split and peak RSS, for the embedded model (bf16 where supported).

    python benchmarks/train_step.py [--steps 3] [--batch 5] [--sft-adapter DIR] [--max-attempt-tokens 384]
                                    [--mirror-dtypes model,float32]

Runs the real refine loop (the training's rollout engine, symbolic verifier, feedback router with retrieval and sandbox)
on generated problems and prints, measured in this run: seconds per step, the share of each phase
(generation, verification, feedback, update), tokens/s, and the process's peak RSS. Targets from the issue:
peak RSS <= 6 GB and generation >= 60% of the step. Without an SFT adapter the policy starts from the base
model (a fresh LoRA); with one it starts from Stage 1, as in training.

For each mirror dtype in `--mirror-dtypes` (`train.mirror_dtype`: model = the model's own, bf16 where
supported; float32) the same steps run again from the same start, and a row gives the sampled-vs-trained
gap the loss measured (`logp_gap`: mean |engine − loss| log-prob per completion token, first micro-batch
of each step; `importance_ratio`: mean exp(loss − engine)) with the step time. Without an SFT adapter the
fresh policy equals the base model at step 1 (ΔW = 0), so only later steps show a rounding gap of ΔW.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--batch", type=int, default=5)
    ap.add_argument("--sft-adapter", default=None)
    ap.add_argument("--max-attempt-tokens", type=int, default=384)
    ap.add_argument("--dtype", default="auto")
    ap.add_argument("--mirror-dtypes", default="model,float32",
                    help="comma-separated train.mirror_dtype values, one run each (first: the timing report)")
    ap.add_argument("--learning-rate", type=float, default=5e-6)
    args = ap.parse_args()

    from physr3.config import load_config
    from physr3.eval.answers import score_problem
    from physr3.feedback.router import FeedbackRouter
    from physr3.models.loading import load_model
    from physr3.synth.generate import generate_problems
    from physr3.train.adapters import policy_and_reference
    from physr3.train.refine_trainer import RefineTrainer, rollout_engine
    from physr3.verify.registry import build_verifier

    mirror_dtypes = [m.strip() for m in args.mirror_dtypes.split(",") if m.strip()]
    problems = list(generate_problems(args.batch * args.steps, seed=11, split="train"))
    gap_rows = []
    for k, mirror in enumerate(mirror_dtypes):
        with tempfile.TemporaryDirectory() as tmp:
            cfg = load_config(None, [f"model.dtype={args.dtype}", f"train.batch_size={args.batch}",
                                     f"train.max_steps={args.steps}",
                                     f"train.max_attempt_tokens={args.max_attempt_tokens}",
                                     f"train.checkpoint_every={args.steps + 1}", f"run.output_dir={tmp}",
                                     f"train.mirror_dtype={mirror}", f"train.learning_rate={args.learning_rate}",
                                     "generation.format_instruction=false", f"generation.batch_size={args.batch}"])
            t0 = time.perf_counter()
            base, tok = load_model(cfg.model)
            model = policy_and_reference(base, args.sft_adapter, cfg.lora)
            load_s = time.perf_counter() - t0
            trainer = RefineTrainer(cfg, problems, model, tok, rollout_engine(cfg, model, tok),
                                    build_verifier("symbolic", cfg), FeedbackRouter(cfg.feedback),
                                    lambda p, text: score_problem(p, text).correct, tmp)
            runs = trainer.train(progress=False)
        gap_rows.append((mirror, runs))
        if k == 0:
            history, dtype, first_load_s = runs, next(base.parameters()).dtype, load_s
        del model, base, trainer

    phases = ("generation", "verification", "feedback", "update")
    total = {k: sum(m["time"].get(k, 0.0) for m in history) for k in (*phases, "step")}
    tokens = sum(m["generated_tokens"] for m in history)
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
    print(f"model: embedded SmolLM2-135M-Instruct, {dtype}, load {first_load_s:.1f} s; batch {args.batch}, "
          f"{args.steps} steps, max attempt {args.max_attempt_tokens} tokens")
    print(f"seconds per step: {total['step'] / len(history):.1f}")
    for k in phases:
        print(f"  {k:<13} {total[k]:7.1f} s  {100 * total[k] / total['step']:5.1f}% of the step")
    print(f"generated tokens: {tokens} ({tokens / max(total['generation'], 1e-9):.1f} tok/s in generation)")
    print(f"revised samples used in updates: {sum(m['used'] for m in history):.0f} of {len(problems)}")
    print(f"timings above: the first run (mirror {mirror_dtypes[0]}); peak RSS over all runs of this process")
    print(f"peak RSS: {peak_gb:.2f} GB (target <= 6 GB: {'met' if peak_gb <= 6 else 'NOT met'}); "
          f"generation share {100 * total['generation'] / total['step']:.0f}% (target >= 60%: "
          f"{'met' if total['generation'] >= 0.6 * total['step'] else 'NOT met'})")
    print(f"sampled-vs-trained gap per mirror dtype (model {dtype}, lr {args.learning_rate:g}; per step, "
          f"first micro-batch; '-' = no revised sample that step):")
    fmt = lambda x, spec: "-" if x is None else format(x, spec)  # noqa: E731
    for mirror, runs in gap_rows:
        gaps = " ".join(fmt(m["logp_gap"], ".2e") for m in runs)
        ratios = " ".join(fmt(m["importance_ratio"], ".4f") for m in runs)
        secs = sum(m["time"]["step"] for m in runs) / len(runs)
        print(f"  mirror {mirror:<8} logp_gap [{gaps}]  importance_ratio [{ratios}]  {secs:.1f} s/step")


if __name__ == "__main__":
    main()
