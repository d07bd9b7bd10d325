"""The symbolic verifier first, the LLM judge where it is unsure (`verifier.kind=hybrid`).

The symbolic verifier's findings are of two kinds (`physr3.verify.symbolic_outcome.READING_CHECKS`): a stated
number that contradicts the problem or a computed value (a "hard" finding), or a reading of the solution's own
words, letters and relations, which trips on correct work far more often. The hybrid keeps a hard finding and
asks the judge about everything else: no error found, a reading finding, an unreadable step, a problem without
the step-level ground truth the symbolic verifier needs. So the judge sees only part of the solutions.

What it buys, measured on real model output with the policy fixed before the rounds were read
(`benchmarks/verifier_hybrid.py`, from kept judge replies; README "Verifier on real solutions"): first-error step
exact on held-out rounds 9, 10 and 11: 82.7%, 88.0%, 77.6% with 49%, 57%, 55% of the judge calls, against 86.0%,
86.7%, 81.6% for the judge alone and 74.0%, 78.7%, 67.8% for the symbolic verifier alone. So about two points below
the judge for half its calls: a kept hard finding is right 75-82% of the time on a fresh round.

The symbolic part always runs with `unchecked=error`, the measured policy: a step no check can read stops it
there and goes to the judge, so a hard finding is kept only when every step before it was checked.
`verifier.symbolic_answer_overrules` applies as configured, and so does `verifier.symbolic_arbiter` (the learned
given/find arbiter, `symbolic_arbiter`; its own blame, check "arbiter", is a reading finding: the judge decides it). Each verdict says who decided it in
`details["hybrid"]` (`symbolic` or `judge`); a judged verdict keeps the symbolic one's step, type and check in
`details["symbolic"]`. `counters()`/`report()` give the judge's share of the calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from physr3.problems import Problem
from physr3.verify.base import Verdict
from physr3.verify.registry import register_verifier
from physr3.verify.symbolic_outcome import READING_CHECKS


def keeps_symbolic(verdict: Verdict) -> bool:
    """Whether the hybrid keeps this symbolic verdict: an error found by a check outside READING_CHECKS (the
    learned arbiter's blame, check "arbiter", is a reading of the step's words too: the judge decides it)."""
    return verdict.has_error and verdict.details.get("check") not in READING_CHECKS | {"arbiter"}


@register_verifier("hybrid")
class HybridVerifier:
    """A hard symbolic finding, else the LLM judge's verdict (see the module docstring)."""

    name = "hybrid"
    needs_reference_text = True  # the judge's prompt carries the ground-truth solution text

    def __init__(self, symbolic: Any, judge: Any):
        self.symbolic, self.judge = symbolic, judge
        self.stats = {"verdicts": 0, "kept_symbolic": 0, "sent_to_judge": 0}

    @classmethod
    def from_config(cls, cfg: Any, *, client: Any = None, use_cache: bool = True) -> HybridVerifier:
        from physr3.verify.llm_judge import LLMJudge
        from physr3.verify.symbolic import SymbolicVerifier, with_arbiter

        symbolic = with_arbiter(SymbolicVerifier(unchecked="error",
                                                 answer_overrules=cfg.verifier.symbolic_answer_overrules),
                                cfg.verifier.symbolic_arbiter)
        return cls(symbolic, LLMJudge.from_config(cfg, client=client, use_cache=use_cache))

    def verify(self, problem: Problem, solution: str) -> Verdict:
        return self.verify_batch([(problem, solution)])[0]

    def verify_batch(self, items: Sequence[tuple[Problem, str]]) -> list[Verdict]:
        first = self.symbolic.verify_batch(items)
        ask = [i for i, verdict in enumerate(first) if not keeps_symbolic(verdict)]
        for i in ask:  # fail before any call, not halfway through a batch (as the judge itself does)
            if items[i][0].solution is None:
                raise ValueError(f"problem {items[i][0].id}: the symbolic verifier is unsure and the judge prompt "
                                 "needs a ground-truth solution text, which this problem lacks")
        judged = self.judge.verify_batch([items[i] for i in ask]) if ask else []
        out = list(first)
        for i, verdict in zip(ask, judged):
            sym = first[i]
            verdict.details["symbolic"] = {"error_step": sym.error_step, "error_type": sym.error_type,
                                           "status": sym.status, "check": sym.details.get("check")}
            out[i] = verdict
        for i, verdict in enumerate(out):
            verdict.details["hybrid"] = "symbolic" if verdict is first[i] else "judge"
        self.stats["verdicts"] += len(items)
        self.stats["kept_symbolic"] += len(items) - len(ask)
        self.stats["sent_to_judge"] += len(ask)
        return out

    def counters(self) -> dict[str, int]:
        return {**self.stats, **{f"judge_{k}": v for k, v in self.judge.counters().items()}}

    def report(self) -> str:
        n = self.stats["verdicts"]
        share = f" ({self.stats['sent_to_judge'] / n:.0%})" if n else ""
        return (f"hybrid: {n} verdicts, {self.stats['kept_symbolic']} kept from the symbolic verifier, "
                f"{self.stats['sent_to_judge']} sent to the judge{share}; {self.judge.report()}")

    def close(self) -> None:
        self.judge.close()
