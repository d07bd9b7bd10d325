"""benchmarks/verifier_hybrid.py on a kept round: the hybrid takes the symbolic verdict exactly where the finding
is hard, the judge's everywhere else, so its counts follow from the two verifiers' verdicts item by item."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("verifier_hybrid", ROOT / "benchmarks" / "verifier_hybrid.py")
hybrid = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hybrid)


def test_round_scores_are_consistent_and_printed(capsys):
    row = hybrid.score_round("round6", "error")
    assert row["n"] == 163 and row["hard"] + row["judge_calls"] == 163
    assert row["judge"] == 128  # the kept judge's round-6 figure after session 13's relabel (data README)
    # the hybrid can only be right where one of the two it takes from is right, and is right on every kept hard hit
    assert row["hard_exact"] <= row["hybrid"] <= row["hard_exact"] + row["judge_calls"]
    kept = row["by_check"].values()
    assert sum(k for k, _, _ in kept) == row["hard"] and sum(s for _, s, _ in kept) == row["hard_exact"]
    assert hybrid.main(["--rounds", "round6", "--by-check"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"round6: n 163; step exact: symbolic {row['symbolic']} .*hybrid {row['hybrid']} .*with "
                     rf"{row['judge_calls']} judge calls", out), out
    assert "kept findings by check" in out and all(f"  {check}: {k}, {s}, {j}" in out
                                                   for check, (k, s, j) in row["by_check"].items())


def test_with_the_arbiter_its_blames_go_to_the_judge(capsys):
    """`--arbiter on` builds the symbolic part as `verifier.kind=hybrid` does with `verifier.symbolic_arbiter=on`:
    the arbiter's blame reads the step's words, so the hybrid never keeps it; the judge decides those items."""
    row = hybrid.score_round("round16", "error", "on")
    assert row["n"] == 157 and row["hard"] + row["judge_calls"] == 157
    assert "arbiter" not in row["by_check"]
    off = hybrid.score_round("round16", "error", "off")
    assert row["judge"] == off["judge"]  # the same kept replies either way
    assert hybrid.main(["--rounds", "round16", "--arbiter", "on"]) == 0
    assert re.search(rf"round16: n 157; step exact: symbolic {row['symbolic']} ", capsys.readouterr().out)
