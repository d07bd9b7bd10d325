"""OpenVINO GenAI CPU settings at batch 8, alternating in one process: tokens/s and greedy agreement per setting.

    python benchmarks/openvino_knobs.py [--knobs default,kv_u8,kv_f16,kv_bf16,mnbt_1024,mnbt_4096,pin]
                                        [--reps 4] [--threads 2]

The embedded model's cached f16 GGUF (physr3's own export), the self-check's 8 solve prompts (~450 tokens),
256 greedy new tokens each with end-of-sequence ignored, prefix caching off (every round pays its prefill, and
a round never reuses the previous one's blocks). Each setting is its own `ContinuousBatchingPipeline`; one
warm-up call each, then `--reps` rounds in turn, so load drift hits them alike; each round starts at the next
setting (rotation; use a multiple of the number of settings for `--reps`). The order the pipelines are built
in matters by a few percent (the one built first was 4-6% slower in three of four runs, whatever its
setting), so compare a pair in both orders (`--knobs a,b`, then `--knobs b,a`). `default` is the
engine's own setting (OpenVINO's scheduler defaults: prefill chunks of 256 tokens); the others change one
thing: KV-cache precision (`kv_*`), the scheduler's prefill chunk (`mnbt_*`: max_num_batched_tokens, with
dynamic split-fuse), performance hints (`latency`, `throughput`), CPU pinning (`pin`). Prints one JSON line per
setting: median, min and max tokens/s and on how many prompts its first 64 greedy tokens equal the first setting's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

KNOBS = {
    "default": ({}, {}),
    "kv_u8": ({"KV_CACHE_PRECISION": "u8"}, {}),
    "kv_f16": ({"KV_CACHE_PRECISION": "f16"}, {}),
    "kv_bf16": ({"KV_CACHE_PRECISION": "bf16"}, {}),
    "latency": ({"PERFORMANCE_HINT": "LATENCY"}, {}),
    "throughput": ({"PERFORMANCE_HINT": "THROUGHPUT"}, {}),
    "mnbt_4096": ({}, {"max_num_batched_tokens": 4096}),
    "mnbt_1024": ({}, {"max_num_batched_tokens": 1024}),
    "pin": ({"ENABLE_CPU_PINNING": True}, {}),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--knobs", default="default,kv_u8,kv_f16,kv_bf16,mnbt_1024,mnbt_4096,pin")
    ap.add_argument("--reps", type=int, default=4)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    import numpy as np
    import openvino as ov
    import openvino_genai as og

    from physr3.config import load_config
    from physr3.models.openvino_engine import CHECK_QUESTIONS, build_openvino_engine
    from physr3.problems import Problem
    from physr3.prompts import build_solve_conversation

    engine = build_openvino_engine(load_config(None, [f"generation.openvino_threads={args.threads}"]))
    prompts = [engine.encode(build_solve_conversation(Problem(id=str(i), question=q, answer=""), True))
               for i, q in enumerate(CHECK_QUESTIONS)]
    gguf, tokenizer = engine.gguf_path, engine._ov_tokenizer
    engine.pipe = None
    pipes = {}
    for name in args.knobs.split(","):
        props, sched = KNOBS[name]
        scheduler = og.SchedulerConfig()
        scheduler.enable_prefix_caching = False
        for key, value in sched.items():
            setattr(scheduler, key, value)
        try:
            pipes[name] = og.ContinuousBatchingPipeline(gguf, tokenizer, scheduler, "CPU",
                                                        INFERENCE_NUM_THREADS=args.threads, **props)
        except RuntimeError as exc:
            print(f"{name}: not accepted ({str(exc).splitlines()[-1][:200]})")

    def configs(n: int) -> list:
        out = []
        for _ in range(n):
            g = og.GenerationConfig()
            g.max_new_tokens, g.do_sample, g.ignore_eos = 256, False, True
            out.append(g)
        return out

    inputs = [ov.Tensor(np.asarray([p], dtype=np.int64)) for p in prompts]
    for pipe in pipes.values():  # warm-up: kernels are compiled on first use
        pipe.generate(inputs[:2], configs(2))
    speeds, firsts = {name: [] for name in pipes}, {}
    names = list(pipes)
    for rep in range(args.reps):
        for name in names[rep % len(names):] + names[: rep % len(names)]:  # rotate the first position
            pipe = pipes[name]
            start = time.perf_counter()
            results = pipe.generate(inputs, configs(len(inputs)))
            seconds = time.perf_counter() - start
            tokens = sum(len(r.m_generation_ids[0]) for r in results)
            firsts[name] = [list(r.m_generation_ids[0][:64]) for r in results]
            speeds[name].append(tokens / seconds)
            print(f"round {rep} {name}: {tokens / seconds:.1f} tok/s, load average {os.getloadavg()[0]:.2f}", flush=True)
    first = next(iter(pipes))
    for name, values in speeds.items():
        agree = sum(a == b for a, b in zip(firsts[name], firsts[first], strict=True))
        print(json.dumps({"knob": name, "tok_s_median": round(statistics.median(values), 1), "tok_s_min": round(min(values), 1), "tok_s_max": round(max(values), 1),
                          f"greedy64_agree_with_{first}": agree, "threads": args.threads}))


if __name__ == "__main__":
    main()
