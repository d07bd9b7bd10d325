"""CE feedback on the generator's CE-injected set: does the executed code recompute the right value?

    .venv/bin/python benchmarks/code_channel.py [--n 600] [--seed 0]

Generates `--n` injected solutions (`physr3.synth.inject`, all error types), keeps the CE ones, has the
symbolic verifier find the error, and routes each verdict through `FeedbackRouter` twice: with the
problem's ground truth (code built from its sympy equations) and with the question text only (code built
from the solution's own substitution text). These programs are physr3's own and run in-process
(`physr3.feedback.own_code`); only a model's code goes to the sandbox. Prints, per route, how many
verdicts got runnable code, how many outputs equal the ground-truth value of the erroneous step
(relative 1e-3), the slip names, and the time per feedback.

With `--sandbox-too`, each verdict is also routed the old way (the own programs run in the sandbox, one
process each), and the time per feedback of both ways, their ratio and the number of identical feedback
texts are printed, measured in this run.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from physr3.config import Config
from physr3.feedback.router import FeedbackRouter
from physr3.synth.generate import generate_problems
from physr3.synth.inject import inject_problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sandbox-too", action="store_true", help="also route through the sandbox (the old path)")
    args = ap.parse_args()
    from physr3.verify.registry import build_verifier

    problems = generate_problems(args.n, args.seed, split="train")  # as `physr3 synth` with its defaults
    rows = [r for r in inject_problems(problems, args.seed, 0.0) if r["label_error_type"] == "CE"]
    verifier = build_verifier("symbolic", Config())
    router = FeedbackRouter(retriever=object())  # CE only: no formula store needed
    from physr3.feedback.sandbox import run_code
    from physr3.problems import Problem

    def sandboxed(code, timeout_s):
        return run_code(code, timeout_s=timeout_s)

    old = FeedbackRouter(retriever=object(), runner=sandboxed, own_runner=sandboxed)
    cases = [(Problem.from_json(row), row["solution"]) for row in rows]
    cases = [(problem, solution, verifier.verify(problem, solution)) for problem, solution in cases]
    for use_gt in (True, False):
        route = "ground truth" if use_gt else "text only"
        if args.sandbox_too:  # per verdict both ways, alternating which goes first (warm caches help the second)
            spent, same = {"old": 0.0, "new": 0.0}, 0
            for i, (p, s, v) in enumerate(cases):
                texts = {}
                for way in (("old", "new") if i % 2 == 0 else ("new", "old")):
                    t0 = time.perf_counter()
                    texts[way] = (old if way == "old" else router)(p if use_gt else p.question, s, v).text
                    spent[way] += time.perf_counter() - t0
                same += texts["old"] == texts["new"]
            per_old, per_new = spent["old"] / max(len(rows), 1), spent["new"] / max(len(rows), 1)
            print(f"{route:12} n={len(rows)} sandbox {1000 * per_old:.1f} ms, in-process {1000 * per_new:.1f} ms "
                  f"per feedback ({per_old / per_new:.1f}x); identical feedback text {same}/{len(rows)}")
        sources, slips, match, t0 = Counter(), Counter(), 0, time.perf_counter()
        for problem, solution, verdict in cases:
            fb = router(problem if use_gt else problem.question, solution, verdict)
            sources[fb.details.get("source", "no code")] += 1
            slips[fb.details.get("slip", "").split(" (")[0].split(":")[0] or "-"] += 1
            gt = next((s for s in problem.ground_truth["steps"] if s["number"] == verdict.error_step), {})
            value = fb.details.get("correct_value")
            match += value is not None and gt.get("value") is not None and math.isclose(value, gt["value"], rel_tol=1e-3)
        per = (time.perf_counter() - t0) / max(len(rows), 1)
        print(f"{route:12} n={len(rows)} code: {dict(sources)}; "
              f"value = ground truth: {match}/{len(rows)}; {1000 * per:.0f} ms per feedback")
        print(f"{'':12} slips: {dict(slips.most_common())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
