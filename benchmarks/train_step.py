"""Seconds per refine step, its time split and peak RSS, for the embedded model (bf16 where supported).

    python benchmarks/train_step.py [--steps 3] [--batch 5] [--sft-adapter DIR] [--max-attempt-tokens 384]
                                    [--mirror-dtypes model,float32] [--engines transformers,openvino]
                                    [--shared-pass on|off|both] [--no-shared-pass] [--no-prefix-caching]
                                    [--no-lora-autocast]

Runs the real refine loop (the training's rollout engine, symbolic verifier, feedback router with retrieval and executed code)
on generated problems and prints, measured in this run: seconds per step, the share of each phase
(generation, verification, feedback, update), tokens/s, and the process's peak RSS. Targets from the issue:
peak RSS <= 6 GB and generation >= 60% of the step. Without an SFT adapter the policy starts from the base
model (a fresh LoRA); with one it starts from Stage 1, as in training.

With `--engines`, the same steps run once per rollout engine (`generation.engine`, a fresh policy each time)
and the ratio of seconds per step to the first engine is printed; for openvino the weight refresh (GGUF write
+ pipeline load, after every optimizer step) is reported as a share of the step.

For the transformers engine, each mirror dtype in `--mirror-dtypes` (`train.mirror_dtype`: model = the model's
own, bf16 where supported; float32) runs the same steps again from the same start, and a row gives the
sampled-vs-trained gap the loss measured (`logp_gap`: mean |engine − loss| log-prob per completion token, first
micro-batch of each step; `importance_ratio`: mean exp(loss − engine)) with the step time. Without an SFT
adapter the fresh policy equals the base model at step 1 (ΔW = 0), so only later steps show a rounding gap of
ΔW. The OpenVINO engine reports only each sequence's total log-prob, so its rows give the per-sequence gap
(`logp_gap_kind` sequence: the mean per-token difference of each sequence, a lower bound of the token gap).

The update's forward passes per used problem are printed per run: 2 when one policy pass scores y1 and y2
(`train.shared_policy_pass`, the revision prompt built from y1's sampled ids), 3 with separate passes
(`--no-shared-pass`), and how many revision prompts fell back to re-encoding (then 3 for that problem).
`--shared-pass both` runs every engine with the shared pass and then without it, from the same start, and
prints the ratio of update seconds (and of step seconds) between the two. The first run of a process also
pays one-time warm-up (oneDNN kernels, OpenVINO compilation), so with `both` the first engine's shared run is
penalized: compare the update seconds, or list that engine twice as a throwaway (`--engines
transformers,transformers,openvino`; the last run of each name is the one compared). `--no-prefix-caching` turns
OpenVINO's prefix caching off (`generation.openvino_prefix_caching`).
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
    ap.add_argument("--mirror-dtypes", default="model",
                    help="comma-separated train.mirror_dtype values, one transformers run each")
    ap.add_argument("--learning-rate", type=float, default=5e-6)
    ap.add_argument("--threads", type=int, default=1, help="CPU threads for torch and for OpenVINO alike.")
    ap.add_argument("--engines", default="auto", help="Comma-separated generation.engine values to compare.")
    ap.add_argument("--shared-pass", choices=("on", "off", "both"), default="on",
                    help="train.shared_policy_pass: on (one policy pass for y1 and y2), off, or both (one run each).")
    ap.add_argument("--no-shared-pass", dest="shared_pass", action="store_const", const="off",
                    help="Same as --shared-pass off.")
    ap.add_argument("--no-prefix-caching", action="store_true", help="generation.openvino_prefix_caching=false.")
    ap.add_argument("--no-lora-autocast", action="store_true",
                    help="train.lora_autocast=false: PEFT's fp32 LoRA branches in the update (a bf16 model only).")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    per_step, gap_rows, shared_rows = {}, [], {}
    settings = {"on": [True], "off": [False], "both": [True, False]}[args.shared_pass]
    for engine in args.engines.split(","):
        mirrors = [m.strip() for m in args.mirror_dtypes.split(",") if m.strip()] if engine == "transformers" else ["model"]
        for mirror in mirrors:
            for shared in settings:
                seconds, history = run_one(args, engine, mirror, shared)
                per_step.setdefault(engine, seconds)
                gap_rows.append((f"{engine}/{mirror}" + ("" if len(settings) == 1 else f"/shared={shared}"), history))
                if mirror == mirrors[0]:
                    shared_rows[(engine, shared)] = history
    if len(settings) == 2:
        print("one policy pass for y1 and y2 (shared) vs separate passes, per engine (same start, same samples "
              "only while both draw the same tokens):")
        for engine in args.engines.split(","):
            on, off = shared_rows[(engine, True)], shared_rows[(engine, False)]
            upd = [sum(m["time"].get("update", 0.0) for m in h) for h in (on, off)]
            step = [sum(m["time"]["step"] for m in h) for h in (on, off)]
            print(f"  {engine}: update {upd[0] / len(on):.1f} s vs {upd[1] / len(off):.1f} s per step "
                  f"({upd[1] / max(upd[0], 1e-9):.2f}x), step {step[0] / len(on):.1f} s vs {step[1] / len(off):.1f} s "
                  f"({step[1] / max(step[0], 1e-9):.2f}x)")
    first = next(iter(per_step))
    if len(per_step) > 1:
        for engine, seconds in per_step.items():
            print(f"{engine}: {seconds:.1f} s per step, {per_step[first] / seconds:.2f}x faster than {first} "
                  f"(load average {os.getloadavg()[0]:.2f})")
    print(f"sampled-vs-trained gap per engine/mirror dtype (lr {args.learning_rate:g}; per step, first "
          f"micro-batch; '-' = no revised sample that step, or no engine log-probs):")
    fmt = lambda x, spec: "-" if x is None else format(x, spec)  # noqa: E731
    for name, runs in gap_rows:
        gaps = " ".join(fmt(m["logp_gap"], ".2e") for m in runs)
        ratios = " ".join(fmt(m["importance_ratio"], ".4f") for m in runs)
        secs = sum(m["time"]["step"] for m in runs) / len(runs)
        print(f"  {name:<22} logp_gap [{gaps}]  importance_ratio [{ratios}]  {secs:.1f} s/step")


def run_one(args, engine: str, mirror: str, shared: bool = True):
    from physr3.config import load_config
    from physr3.eval.answers import score_problem
    from physr3.feedback.router import FeedbackRouter
    from physr3.models.loading import load_model
    from physr3.synth.generate import generate_problems
    from physr3.train.adapters import policy_and_reference
    from physr3.train.refine_trainer import RefineTrainer, rollout_engine
    from physr3.verify.registry import build_verifier

    with tempfile.TemporaryDirectory() as tmp:
        cfg = load_config(None, [f"model.dtype={args.dtype}", f"train.batch_size={args.batch}",
                                 f"train.max_steps={args.steps}", f"train.max_attempt_tokens={args.max_attempt_tokens}",
                                 f"train.checkpoint_every={args.steps + 1}", f"run.output_dir={tmp}",
                                 f"train.mirror_dtype={mirror}", f"train.learning_rate={args.learning_rate}",
                                 "generation.format_instruction=false", f"generation.batch_size={args.batch}",
                                 f"generation.engine={engine}", f"generation.openvino_threads={args.threads}",
                                 f"train.shared_policy_pass={str(shared).lower()}",
                                 f"generation.openvino_prefix_caching={str(not args.no_prefix_caching).lower()}",
                                 f"train.lora_autocast={str(not args.no_lora_autocast).lower()}"])
        problems = list(generate_problems(args.batch * args.steps, seed=11, split="train"))
        t0 = time.perf_counter()
        base, tok = load_model(cfg.model)
        model = policy_and_reference(base, args.sft_adapter, cfg.lora)
        load_s = time.perf_counter() - t0
        dtype = next(base.parameters()).dtype
        rollouts = rollout_engine(cfg, model, tok)
        trainer = RefineTrainer(cfg, problems, model, tok, rollouts,
                                build_verifier("symbolic", cfg), FeedbackRouter(cfg.feedback),
                                lambda p, text: score_problem(p, text).correct, tmp)
        history = trainer.train(progress=False)

    phases = ("generation", "verification", "feedback", "update")
    total = {k: sum(m["time"].get(k, 0.0) for m in history) for k in (*phases, "step")}
    tokens = sum(m["generated_tokens"] for m in history)
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
    print(f"== rollout engine {engine} (mirror {mirror}, train.shared_policy_pass={shared}): "
          f"{type(rollouts).__name__}")
    print(f"model: embedded SmolLM2-135M-Instruct, {dtype}, load {load_s:.1f} s; batch {args.batch}, "
          f"{args.steps} steps, max attempt {args.max_attempt_tokens} tokens")
    print(f"seconds per step: {total['step'] / len(history):.1f}")
    for k in phases:
        print(f"  {k:<13} {total[k]:7.1f} s  {100 * total[k] / total['step']:5.1f}% of the step")
    print(f"generated tokens: {tokens} ({tokens / max(total['generation'], 1e-9):.1f} tok/s in generation)")
    used = sum(m["used"] for m in history)
    print(f"revised samples used in updates: {used:.0f} of {len(problems)}")
    passes = sum(m.get("update_passes", 0.0) * m["used"] for m in history) / used if used else None
    print(f"update forward passes per used problem (reference included): "
          f"{'-' if passes is None else format(passes, '.2f')} (2 = one policy pass for y1 and y2, 3 = separate); "
          f"revision prompts re-encoded from text (no shared pass): {sum(m['revision_reencoded'] for m in history)}"
          f"; OpenVINO prefix caching {'off' if args.no_prefix_caching else 'on'} (openvino engine only)")
    print(f"peak RSS so far in this process: {peak_gb:.2f} GB (target <= 6 GB: {'met' if peak_gb <= 6 else 'NOT met'}); "
          f"generation share {100 * total['generation'] / total['step']:.0f}% (target >= 60%: "
          f"{'met' if total['generation'] >= 0.6 * total['step'] else 'NOT met'})")
    refresh = getattr(rollouts, "refresh_seconds", None)
    if refresh:
        later = refresh[1:] or refresh  # the first export happens before training starts
        mean = sum(w + ld for w, ld in later) / len(later)
        print(f"weight refresh: {len(refresh) - 1} after updates, mean {mean:.2f} s (write "
              f"{sum(w for w, _ in later) / len(later):.2f} + load {sum(ld for _, ld in later) / len(later):.2f}) = "
              f"{100 * mean / (total['step'] / len(history)):.1f}% of a step (target <= 5%)")
    check = getattr(rollouts, "self_check", None)
    if check is not None:
        print(f"self-check vs the training model ({check.reference_dtype}, precision {check.precision}): greedy "
              f"{check.greedy_agree}/{check.n_prompts} over {check.n_tokens} tokens, mean |Δ log-prob| "
              f"{check.mean_abs_logp_gap:.4f}/token")
    if hasattr(rollouts, "close"):
        rollouts.close()
    return total["step"] / len(history), history


if __name__ == "__main__":
    main()
