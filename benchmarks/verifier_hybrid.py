"""A judge only where the symbolic verifier is unsure: agreement and judge calls, from kept judge replies.

    python benchmarks/verifier_hybrid.py --rounds round9 round10 round11 round12 round13   # sets with replies under judge/

The symbolic verifier's findings are of two kinds (`physr3.verify.symbolic_outcome.READING_CHECKS`): a stated
number that contradicts the problem or a computed value (a "hard" finding), or a reading of the solution's own
words, letters and relations, which trips on correct work far more often. The hybrid keeps a hard finding and
asks the LLM judge about everything else (no error found, a reading finding, an unreadable step), so a judge is
called only for part of the solutions. This script scores, per labelled round that has kept judge replies
(`benchmarks/data/real_solutions/judge/<round>_replies.jsonl`, the replies of `--judge-replies`), the step-exact
agreement of the symbolic verifier (`--unchecked`, default error), of the judge alone and of the hybrid, and the
share of solutions the hybrid sends to the judge. Offline: the judge's verdicts come from the kept replies through
`LLMJudge.interpret`, as in `benchmarks/verifier.py --judge-replies`. A round the verifier was tuned on flatters
the symbolic verifier and so the hybrid; only a round measured before it was read is a held-out figure. The
policy is `verifier.kind=hybrid`'s (`physr3.verify.hybrid.keeps_symbolic`); with `--unchecked error` (the default)
the symbolic part is the one that verifier kind runs (`--arbiter`: with the learned step arbiter or without, as
`verifier.symbolic_arbiter`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from verifier import offline_judge, read_replies, score_reply  # noqa: E402  (the benchmark's own judge scoring)

SETS = Path(__file__).parent / "data" / "real_solutions"


def score_round(name: str, unchecked: str, arbiter: str = "off") -> dict:
    """Step-exact counts of the symbolic verifier, the judge and the hybrid on one round, and the judge calls."""
    from physr3.verify.hybrid import keeps_symbolic
    from physr3.verify.runner import read_items
    from physr3.verify.symbolic import SymbolicVerifier, with_arbiter

    real = str(SETS / f"{name}_test.jsonl")
    items = read_items(real, need_ground_truth=True, limit=None)
    replies = read_replies(str(SETS / "judge" / f"{name}_replies.jsonl"), real, items)
    judge = offline_judge("kept-replies", "clamp")
    verifier = with_arbiter(SymbolicVerifier(unchecked=unchecked), arbiter)  # as verifier.kind=hybrid builds it
    symbolic = verifier.verify_batch([(p, s) for p, s, _ in items])
    row = {"round": name, "n": len(items), "symbolic": 0, "judge": 0, "hybrid": 0, "judge_calls": 0,
           "hard": 0, "hard_exact": 0, "by_check": {}}
    for (problem, solution, record), sym in zip(items, symbolic):
        label = record["label_error_step"]
        by_judge = score_reply(judge, replies[problem.id], solution)
        hard = keeps_symbolic(sym)
        hybrid = sym if hard else by_judge
        row["symbolic"] += sym.error_step == label
        row["judge"] += by_judge.error_step == label
        row["hybrid"] += hybrid.error_step == label
        row["judge_calls"] += not hard
        row["hard"] += hard
        row["hard_exact"] += hard and sym.error_step == label
        if hard:  # per check: how often its kept finding is exact, and how often the judge would have been
            kept = row["by_check"].setdefault(sym.details.get("check"), [0, 0, 0])
            kept[0] += 1
            kept[1] += sym.error_step == label
            kept[2] += by_judge.error_step == label
    return row


def main(argv: list[str] | None = None) -> int:
    from physr3.config import VerifierConfig

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", nargs="+", default=["round13"], help="set names with kept judge replies")
    parser.add_argument("--unchecked", default="error", choices=("pass", "error"))
    parser.add_argument("--arbiter", default="on" if VerifierConfig.symbolic_arbiter else "off", choices=("on", "off"),
                        help="verifier.symbolic_arbiter for the symbolic part (default: the config's)")
    parser.add_argument("--by-check", action="store_true",
                        help="per check of a kept finding: kept, exact by the symbolic verifier, exact by the judge")
    args = parser.parse_args(argv)
    totals: dict[str, int] = {}
    by_check: dict[str, list[int]] = {}
    for name in args.rounds:
        row = score_round(name, args.unchecked, args.arbiter)
        n = row["n"]
        print(f"{name}: n {n}; step exact: symbolic {row['symbolic']} ({row['symbolic'] / n:.1%}), judge "
              f"{row['judge']} ({row['judge'] / n:.1%}), hybrid {row['hybrid']} ({row['hybrid'] / n:.1%}) with "
              f"{row['judge_calls']} judge calls ({row['judge_calls'] / n:.0%}); hard findings kept "
              f"{row['hard']}, exact {row['hard_exact']}")
        for key, value in row.items():
            if key not in ("round", "by_check"):
                totals[key] = totals.get(key, 0) + value
        for check, counts in row["by_check"].items():
            total = by_check.setdefault(check, [0, 0, 0])
            for k, v in enumerate(counts):
                total[k] += v
    if len(args.rounds) > 1:
        n = totals["n"]
        print(f"all: n {n}; symbolic {totals['symbolic'] / n:.1%}, judge {totals['judge'] / n:.1%}, hybrid "
              f"{totals['hybrid'] / n:.1%}, judge calls {totals['judge_calls'] / n:.0%}")
    if args.by_check:
        print("kept findings by check (all rounds): check, kept, exact by the symbolic verifier, exact by the judge")
        for check, (kept, sym, judge) in sorted(by_check.items(), key=lambda kv: -kv[1][0]):
            print(f"  {check}: {kept}, {sym}, {judge}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
