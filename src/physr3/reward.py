"""The step-level reward r = e/(n+1) of the paper (Appendix B), and opt-in guards against gaming it.

The paper: with the verifier's first error step e (1-based; 0 = no error) and n the number of
`Step k:` markers in the solution, r = 1.0 when e == 0, else e / (n + 1), with n = 1 when no marker is
found. With every guard off and `step_pattern: paper` this module computes exactly that, except where the
paper's code would silently misuse a faulty verdict: a step e > n (which would give r ≥ 1 for a wrong
solution) is clamped to n, so an erroneous solution always scores below an error-free one.

A policy trained on this reward can raise it without reasoning better. Each guard below is off by
default (the paper's reward) and is switched on in `RewardConfig`:

| hack                                                   | guard (RewardConfig)                     |
|--------------------------------------------------------|------------------------------------------|
| pad trivial steps ("Step 2: OK.") before the error     | `min_step_chars`: short steps don't count |
| repeat earlier steps to push the error later           | `duplicate_step_penalty`: repeats don't count |
| stop right after the error (error = last step, r→n/(n+1)) | `reference_denominator`: n = the ground truth's step count |
| write very many steps                                  | `max_steps`: more than that → r_step = 0   |
| a late error scores almost like a correct solution     | `outcome_weight` w: r = (1-w)·r_step + w·[final answer correct] |

With `min_step_chars` or `duplicate_step_penalty`, e and n are counted over *countable* steps only:
e = 1 + (countable steps written before the error step), n = countable steps (the error step always
counts). With `reference_denominator`, n = `reference_n` (the ground truth's count) and e is capped at n.
The outcome term needs `final_correct`; when it is None the term is left out (`RewardBreakdown` says so).

Truncated solutions (generation hit its token cap, `truncated=True`): a verdict that finds no error in what
was written (e = 0, e.g. an LLM judge reading correct steps cut off before the answer) gives reward 0, as an
unfinished solution earns no full credit from any verifier; an error found in the written part keeps its
e/(n+1) (< 1). (Not in the paper, which caps tokens but does not say how a cut-off solution scores.)

Failed verdicts: `parse_error` follows `on_failure` (VerifierConfig.on_parse_failure): `min_reward` gives
0.0 (the paper's "minimal reward"), `skip` gives None (the trainer drops the sample, TRL-style).
`api_error` always gives None: a network failure says nothing about the solution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from physr3.config import RewardConfig
from physr3.solution import count_steps, parse_solution
from physr3.verify.base import Verdict

FAILURE_POLICIES = ("min_reward", "skip")


@dataclass
class RewardBreakdown:
    """How a reward was computed: the numbers that went in and the guards that acted."""

    reward: float | None
    e: int = 0
    n: int = 0
    r_step: float | None = None
    guards: list[str] = field(default_factory=list)  # which guards changed the result
    notes: list[str] = field(default_factory=list)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def compute_reward(
    verdict: Verdict,
    solution: str,
    cfg: RewardConfig | None = None,
    reference_n: int | None = None,
    final_correct: bool | None = None,
    on_failure: str = "min_reward",
    truncated: bool = False,
) -> RewardBreakdown:
    """The reward with its breakdown; see the module docstring for every rule."""
    cfg = cfg or RewardConfig()
    if on_failure not in FAILURE_POLICIES:
        raise ValueError(f"on_failure {on_failure!r}: expected one of {', '.join(FAILURE_POLICIES)}")
    if verdict.status == "api_error":
        return RewardBreakdown(None, notes=["api_error: no reward"])
    if verdict.status != "ok":
        value = 0.0 if on_failure == "min_reward" else None
        return RewardBreakdown(value, notes=[f"{verdict.status}: on_failure={on_failure}"])

    out = RewardBreakdown(None)
    raw_n = count_steps(solution, cfg.step_pattern)
    n = raw_n if raw_n else 1  # the paper: `len(matches) if matches else 1`
    e = verdict.error_step
    if truncated and e == 0:
        return RewardBreakdown(0.0, e=0, n=n, r_step=0.0, guards=["truncated"],
                               notes=["truncated at the token cap with no error found: no full credit"])

    if e == 0:
        r_step = 1.0
    else:
        steps = parse_solution(solution).steps
        if (cfg.min_step_chars > 0 or cfg.duplicate_step_penalty) and steps:
            pos = next((i for i, s in enumerate(steps) if s.number == e), min(e, len(steps)) - 1)
            seen: set[str] = set()
            countable: list[bool] = []
            for s in steps:
                ok = True
                if cfg.min_step_chars > 0 and len(s.text.strip()) < cfg.min_step_chars:
                    ok = False
                if cfg.duplicate_step_penalty:
                    key = _norm(s.text)
                    if key in seen:
                        ok = False
                    seen.add(key)
                countable.append(ok)
            e_g = 1 + sum(countable[:pos])
            n_g = sum(countable) + (0 if countable[pos] else 1)
            if (e_g, n_g) != (e, n):
                out.guards.append("countable_steps")
            e, n = e_g, n_g
        if e > n:
            out.notes.append(f"error step {e} > n={n}: clamped to n")
            e = n
        if cfg.reference_denominator:
            if reference_n is not None and reference_n > 0:
                if reference_n != n:
                    out.guards.append("reference_denominator")
                n = reference_n
                e = min(e, n)
            else:
                out.notes.append("reference_denominator on but no reference_n given: own step count used")
        r_step = e / (n + 1)

    if cfg.max_steps is not None and raw_n > cfg.max_steps:
        r_step = 0.0
        out.guards.append("max_steps")
    out.e, out.n, out.r_step = e, n, r_step
    reward = r_step
    if cfg.outcome_weight > 0:
        if final_correct is None:
            out.notes.append("outcome_weight set but final_correct unknown: outcome term left out")
        else:
            w = cfg.outcome_weight
            reward = (1 - w) * r_step + w * (1.0 if final_correct else 0.0)
            out.guards.append("outcome")
    out.reward = reward
    return out


def problem_reward(verdict: Verdict, solution: str, problem, cfg, final_correct: bool | None = None,
                   truncated: bool = False) -> float | None:
    """`step_reward` for a solution of `problem` as training, `physr3 study` and `physr3 verify` all compute it:
    the `reward` section, the reference step count of the problem's ground-truth solution, and the failure
    policy `verifier.on_parse_failure`. `cfg` is the whole `physr3.config.Config`."""
    ref_n = count_steps(problem.solution, cfg.reward.step_pattern) if problem.solution else None
    return step_reward(verdict, solution, cfg.reward, reference_n=ref_n, final_correct=final_correct,
                       on_failure=cfg.verifier.on_parse_failure, truncated=truncated)


def step_reward(
    verdict: Verdict,
    solution: str,
    cfg: RewardConfig | None = None,
    reference_n: int | None = None,
    final_correct: bool | None = None,
    on_failure: str = "min_reward",
    truncated: bool = False,
) -> float | None:
    """r = e/(n+1) (1.0 when error-free) with the guards of `cfg`; None means "skip this sample"."""
    return compute_reward(verdict, solution, cfg, reference_n, final_correct, on_failure, truncated).reward


def reward_fn(verdicts: list[Verdict], completions: list[str], cfg: RewardConfig | None = None,
              reference_ns: list[int | None] | None = None, final_correct: list[bool | None] | None = None,
              on_failure: str = "min_reward") -> list[float | None]:
    """Batch form in the TRL style: one reward (or None = skip) per completion."""
    refs = reference_ns or [None] * len(verdicts)
    finals = final_correct or [None] * len(verdicts)
    return [step_reward(v, c, cfg, r, f, on_failure) for v, c, r, f in zip(verdicts, completions, refs, finals)]
