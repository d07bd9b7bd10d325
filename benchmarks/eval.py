"""Evaluation throughput of the embedded model: items/s batched vs one item at a time, same run.

    python benchmarks/eval.py [--condition cot] [--per-benchmark 16] [--batch 8] [--max-new-tokens 384]

For each benchmark (SciEval, MMLU high school, MMLU college, JEEBench, and a generated test set standing in
for PhysicsQA, which is not public) it takes the first `--per-benchmark` items, generates with the batched
engine, then the same items one at a time (batch 1, the paper's style), and prints items/s for both, the
ratio, and the time the whole benchmark would take at the batched rate. The projection is labelled as such:
it is the measured rate times the item count, not a full run (`physr3 eval` does that).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--condition", default="cot")
    ap.add_argument("--per-benchmark", type=int, default=16)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=384)
    args = ap.parse_args()

    from physr3.config import load_config
    from physr3.eval.benchmarks import load_benchmark
    from physr3.eval.conditions import get_condition
    from physr3.models.engine import TransformersEngine
    from physr3.models.loading import load_model
    from physr3.models.types import SamplingParams
    from physr3.synth.generate import generate_problems

    cfg = load_config(None, [f"generation.max_new_tokens={args.max_new_tokens}"])
    model, tok = load_model(cfg.model)
    condition = get_condition(args.condition)
    params = SamplingParams(max_new_tokens=args.max_new_tokens, temperature=0.0)
    sets = {name: load_benchmark(name) for name in ("scieval", "mmlu-hs", "mmlu-college", "jeebench")}
    sets["synth-test (PhysicsQA stand-in)"] = list(generate_problems(370, seed=0, split="test"))
    total_projection = 0.0
    print(f"condition {args.condition}, {args.per_benchmark} items per benchmark, max {args.max_new_tokens} new "
          f"tokens, greedy, {next(model.parameters()).dtype}")
    print(f"{'benchmark':<32}{'items':>6}{'batched it/s':>14}{'per-item it/s':>15}{'ratio':>7}{'full set (projected)':>22}")
    for name, problems in sets.items():
        sample = problems[: args.per_benchmark]
        convs = [condition.build(p, cfg) for p in sample]
        t0 = time.perf_counter()
        TransformersEngine(model, tok, batch_size=args.batch).generate(convs, params)
        batched = len(sample) / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        single = TransformersEngine(model, tok, batch_size=1)
        for conv in convs:
            single.generate([conv], params)
        per_item = len(sample) / (time.perf_counter() - t0)
        projected = len(problems) / batched
        total_projection += projected
        print(f"{name:<32}{len(problems):>6}{batched:>14.3f}{per_item:>15.3f}{batched / per_item:>6.1f}x"
              f"{projected / 60:>19.1f} min")
    print(f"all five benchmarks, one condition, batched: {total_projection / 60:.1f} min projected "
          f"(target <= 30 min)")


if __name__ == "__main__":
    main()
