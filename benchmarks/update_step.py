"""Seconds of the refine update alone (`RefineStep.backward` + one AdamW step), per training-model setting.

    python benchmarks/update_step.py [--variants bfloat16,bfloat16+noautocast,float32] [--problems 1]
                                     [--prompt 200 --y1 300 --feedback 250 --y2 300] [--sft-adapter DIR]
                                     [--reps 3] [--threads 1]

The update's passes on synthetic rollouts of a fixed shape (random token ids: the cost depends on lengths, not
on the text): the reference pass on (x, y1), the shared policy pass on (x, y1, p1, y2), the backward, the
optimizer step. No generation, verifier or feedback, so the update is timed without the engines' noise.
Variants (`model.dtype`, plus `+noautocast` for `train.lora_autocast=false`) each load their own copy of the
embedded model and run one after another, round after round (the first round is a warm-up and not counted),
so load drift on a shared machine hits them alike. Prints per variant the wall and process CPU seconds (CPU
time moves less than wall time with other processes' load; with `--threads 1`, the default, it is the work
done), the KL term of each round (with an SFT adapter the policy starts equal to the reference, so round 0's
KL is pure rounding of the passes), and the process's peak RSS. Without `--sft-adapter` the fresh policy's
lora_B is drawn at random (std 1e-3) so policy and reference differ.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="bfloat16,bfloat16+noautocast,float32")
    ap.add_argument("--problems", type=int, default=1)
    ap.add_argument("--prompt", type=int, default=200)
    ap.add_argument("--y1", type=int, default=300)
    ap.add_argument("--feedback", type=int, default=250)
    ap.add_argument("--y2", type=int, default=300)
    ap.add_argument("--sft-adapter", default=None)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--learning-rate", type=float, default=5e-6)
    args = ap.parse_args()
    import torch

    from physr3.config import load_config
    from physr3.models.loading import load_model
    from physr3.synth.generate import generate_problems
    from physr3.train.adapters import policy_and_reference, trainable_parameters
    from physr3.train.attempt import Attempt
    from physr3.train.refine import RefineStep, Rollout

    torch.set_num_threads(args.threads)
    gen = torch.Generator().manual_seed(0)
    ids = lambda n: torch.randint(100, 40000, (n,), generator=gen).tolist()  # noqa: E731
    rollouts = []
    for p in generate_problems(args.problems, seed=11, split="train"):
        prompt, y1, feedback, y2 = ids(args.prompt), ids(args.y1), ids(args.feedback), ids(args.y2)
        a1, a2 = Attempt(prompt, y1, "", "stop", 0.7, 1.0), Attempt(prompt + y1 + feedback, y2, "", "stop", 0.7, 1.0)
        a1.reward, a2.reward = 0.2, 0.5
        rollouts.append(Rollout(p, a1, y2=a2, revision_from_ids=True))

    runs = {}
    for variant in args.variants.split(","):
        dtype, _, flag = variant.partition("+")
        cfg = load_config(None, [f"model.dtype={dtype}", f"train.lora_autocast={str(flag != 'noautocast').lower()}"])
        base, tok = load_model(cfg.model)
        model = policy_and_reference(base, args.sft_adapter, cfg.lora)
        if args.sft_adapter is None:
            draw = torch.Generator().manual_seed(1)
            with torch.no_grad():
                for name, p in sorted(model.named_parameters()):
                    if p.requires_grad and "lora_B" in name:
                        p.copy_(torch.randn(p.shape, generator=draw) * 1e-3)
        opt = torch.optim.AdamW(trainable_parameters(model), lr=args.learning_rate)
        runs[variant] = (RefineStep(cfg, model, tok, None, None, None, None), opt, [], [], [])
        print(f"{variant}: model {next(base.parameters()).dtype}, adapter "
              f"{sorted({str(p.dtype) for p in trainable_parameters(model)})}", flush=True)
    tokens = sum(len(ro.y2.prompt_ids) + len(ro.y2.completion_ids) for ro in rollouts)
    print(f"{args.problems} problem(s), {tokens} tokens in the policy pass(es); threads {args.threads}")
    for rep in range(args.reps + 1):
        for variant, (step, opt, wall, cpu, kls) in runs.items():
            t0, c0 = time.perf_counter(), time.process_time()
            stats = step.backward(rollouts)
            opt.step()
            opt.zero_grad(set_to_none=True)
            w, c = time.perf_counter() - t0, time.process_time() - c0
            kls.append(stats["kl"])
            if rep:
                wall.append(w)
                cpu.append(c)
            print(f"  round {rep}{' (warm-up)' if not rep else ''} {variant}: {w:.2f} s wall, {c:.2f} s CPU, "
                  f"kl {stats['kl']:.2e}, load average {os.getloadavg()[0]:.2f}", flush=True)
    first = next(iter(runs))
    for variant, (_, _, wall, cpu, kls) in runs.items():
        ratio = min(runs[first][3]) / min(cpu)
        print(f"{variant:<22} update {min(wall):.2f}-{max(wall):.2f} s wall, {min(cpu):.2f}-{max(cpu):.2f} s CPU "
              f"({ratio:.2f}x {first}'s CPU time); kl per round {' '.join(format(k, '.1e') for k in kls)}")
    print(f"peak RSS of the process (all variants loaded): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2:.2f} GB")


if __name__ == "__main__":
    main()
