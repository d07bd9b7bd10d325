"""Stage 2-3 of the method: Algorithm 1 with the loss of Eq. 2 / Appendix D.

For each problem x in a batch (the loop never names a task; the verifier and feedback are plugged in):

1. y1 ~ π_θ(·|x), sampled with the policy adapter (batched engine, temperature `train.temperature`).
2. (e1, c1, expl1) = V(y1, y*); r1 = e1/(n+1), or 1.0 with no error (physr3.reward).
3. r1 > τ: skip the problem (counted). A verifier failure follows `verifier.on_parse_failure`.
4. p1 = F(x, y1, verdict): re-read (MC), retrieved formulas (CM) or executed code (CE).
5. y2 ~ π_θ(·|x, y1, p1) with the fixed revision prompt of `physr3.prompts.build_revision_conversation`.
6. (e2, c2, expl2) = V(y2, y*); r2.
7. loss = −mean_i[(mean_t log π_θ(y2|x,y1,p1) − sg(mean_t log π_θ(y1|x))) · r2 − β · KL(π_θ(·|x) ‖ π_ref(·|x))]

Choices the paper leaves open, and what we do:
- Token log-probs are averaged over each attempt's tokens (Appendix D), under the exact generated ids.
- The y1 term is detached (paper): it shifts the loss value but not the gradient, which is
  r2 · ∇ mean log π_θ(y2|…) − β ∇KL. With r2 ≥ 0 this is reward-weighted likelihood of the revision.
  `train.advantage=improvement` (not the paper's) weights by r2 − r1 instead, so a revision that is no better
  than the first attempt is not reinforced.
- KL is measured along y1, the policy's own sample from π_θ(·|x): at every position of y1 we take
  KL between the policy's and the reference's next-token distributions. `train.kl_estimator`: `full` (exact
  over the vocabulary per position, default, lowest variance), `k1` (log-ratio on the sampled token) or `k3`
  ((r−1) − log r, non-negative). The reference is the frozen Stage 1 adapter (physr3.train.adapters).
- The batch mean runs over the problems that were not skipped; a step where all were skipped makes no update
  (but advances the data cursor and is logged).
- Sampling is seeded per (run seed, step, attempt), so a resumed run draws the same samples.
- Dropout is off in the loss passes (as TRL's online trainers do): log-probs match the sampling distribution.
- Gradients are accumulated one micro-batch at a time (`train.micro_batch_size`) to bound memory; the
  result equals the full-batch gradient.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from physr3.config import Config
from physr3.models.types import Completion, Engine, SamplingParams
from physr3.problems import Problem
from physr3.prompts import build_revision_conversation, build_solve_conversation
from physr3.reward import step_reward
from physr3.solution import count_steps
from physr3.train.adapters import reference_active
from physr3.train.logprobs import build_batch, kl_per_row, masked_mean, prompt_ids, token_logprobs
from physr3.verify.base import Verdict

FeedbackFn = Callable[[Problem, str, Verdict], Any]  # returns an object with .text and .to_json()
AnswerCheck = Callable[[Problem, str], bool]  # is the final answer of a solution correct?

UNREADABLE_FEEDBACK = (
    "Your solution could not be checked. Rewrite it in the seven-tag format with numbered steps "
    "(Step 1:, Step 2:, ...) and check every step."
)


@dataclass
class Rollout:
    """Everything one problem went through in a step; logged to samples.jsonl."""

    problem: Problem
    y1: Completion
    v1: Verdict
    r1: float | None
    skipped: str | None = None  # "solved" (r1 > τ) | "verifier" (r1 is None) | None
    feedback: Any = None
    feedback_text: str = ""
    y2: Completion | None = None
    v2: Verdict | None = None
    r2: float | None = None
    correct1: bool = False
    correct2: bool | None = None
    n1: int = 0
    n2: int | None = None
    timings: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.problem.id, "family": self.problem.family, "skipped": self.skipped,
            "y1": self.y1.text, "v1": self.v1.to_json() | {"raw": None}, "r1": self.r1, "correct1": self.correct1,
            "feedback": self.feedback.to_json() if hasattr(self.feedback, "to_json") else self.feedback_text,
            "y2": self.y2.text if self.y2 else None, "v2": self.v2.to_json() | {"raw": None} if self.v2 else None,
            "r2": self.r2, "correct2": self.correct2, "n1": self.n1, "n2": self.n2,
        }


class RefineStep:
    """One step of Algorithm 1 over a batch: rollouts (no grad), then the Eq. 2 loss and its gradient."""

    def __init__(self, cfg: Config, model, tokenizer, engine: Engine, verifier, feedback_fn: FeedbackFn,
                 answer_check: AnswerCheck):
        self.cfg, self.model, self.tokenizer, self.engine = cfg, model, tokenizer, engine
        self.verifier, self.feedback_fn, self.answer_check = verifier, feedback_fn, answer_check

    # -- rollouts -------------------------------------------------------------------------------------
    def _sample(self, conversations, seed: int) -> list[Completion]:
        t = self.cfg.train
        params = SamplingParams(max_new_tokens=t.max_attempt_tokens, temperature=t.temperature,
                                top_p=self.cfg.generation.top_p, seed=seed)
        self.model.eval()
        with torch.no_grad():
            return self.engine.generate(conversations, params)

    def _reward(self, verdict: Verdict, problem: Problem, text: str, correct: bool) -> float | None:
        gt_n = count_steps(problem.solution, self.cfg.reward.step_pattern) if problem.solution else None
        return step_reward(verdict, text, self.cfg.reward, reference_n=gt_n, final_correct=correct,
                           on_failure=self.cfg.verifier.on_parse_failure)

    def rollouts(self, problems: Sequence[Problem], step: int) -> tuple[list[Rollout], dict[str, float]]:
        cfg, fmt = self.cfg, self.cfg.generation.format_instruction
        timing = Counter()
        base_seed = cfg.run.seed * 1_000_003 + step * 2

        t0 = time.perf_counter()
        y1s = self._sample([build_solve_conversation(p, fmt) for p in problems], base_seed)
        timing["generation"] += time.perf_counter() - t0

        t0 = time.perf_counter()
        v1s = self.verifier.verify_batch([(p, y.text) for p, y in zip(problems, y1s)])
        timing["verification"] += time.perf_counter() - t0

        out: list[Rollout] = []
        for p, y, v in zip(problems, y1s, v1s):
            correct = self.answer_check(p, y.text)
            r1 = self._reward(v, p, y.text, correct)
            ro = Rollout(p, y, v, r1, correct1=correct, n1=count_steps(y.text, cfg.reward.step_pattern))
            if r1 is None:
                ro.skipped = "verifier"
            elif r1 > cfg.train.tau:
                ro.skipped = "solved"
            out.append(ro)

        active = [ro for ro in out if ro.skipped is None]
        t0 = time.perf_counter()
        for ro in active:
            if ro.v1.ok:
                ro.feedback = self.feedback_fn(ro.problem, ro.y1.text, ro.v1)
                ro.feedback_text = ro.feedback.text
            else:
                ro.feedback_text = UNREADABLE_FEEDBACK
        timing["feedback"] += time.perf_counter() - t0

        if active:
            t0 = time.perf_counter()
            y2s = self._sample([build_revision_conversation(ro.problem, ro.y1.text, ro.feedback_text, fmt)
                                for ro in active], base_seed + 1)
            timing["generation"] += time.perf_counter() - t0
            t0 = time.perf_counter()
            v2s = self.verifier.verify_batch([(ro.problem, y.text) for ro, y in zip(active, y2s)])
            timing["verification"] += time.perf_counter() - t0
            for ro, y, v in zip(active, y2s, v2s):
                ro.y2, ro.v2 = y, v
                ro.correct2 = self.answer_check(ro.problem, y.text)
                ro.r2 = self._reward(v, ro.problem, y.text, ro.correct2)
                ro.n2 = count_steps(y.text, cfg.reward.step_pattern)
        return out, dict(timing)

    # -- loss -----------------------------------------------------------------------------------------
    def backward(self, rollouts: list[Rollout], denominator: int | None = None) -> dict[str, float]:
        """Accumulate the gradient of Eq. 2 over the rollouts that have a revision with a reward.

        `denominator` is the number of samples the mean runs over (all processes, under data parallel).
        """
        cfg, t = self.cfg, self.cfg.train
        used = [ro for ro in rollouts if ro.y2 is not None and ro.r2 is not None]
        n = denominator if denominator is not None else len(used)
        stats = {"loss": 0.0, "kl": 0.0, "logp_y1": 0.0, "logp_y2": 0.0, "used": float(len(used))}
        if not used or n == 0:
            return stats
        fmt = cfg.generation.format_instruction
        # Dropout stays off (eval mode; gradients still flow): the log-probs in the loss must be those of the
        # distribution that sampled y1 and y2, and the reference pass must not be noisy either.
        self.model.eval()
        mb = max(1, t.micro_batch_size)
        for start in range(0, len(used), mb):
            chunk = used[start : start + mb]
            x_ids = [prompt_ids(self.tokenizer, build_solve_conversation(ro.problem, fmt), t.max_prompt_tokens)
                     for ro in chunk]
            rev_ids = [prompt_ids(self.tokenizer, build_revision_conversation(ro.problem, ro.y1.text,
                                                                              ro.feedback_text, fmt),
                                  t.max_prompt_tokens + t.max_attempt_tokens + 512)
                       for ro in chunk]
            b1 = build_batch(self.tokenizer, x_ids, [ro.y1.token_ids for ro in chunk], t.max_attempt_tokens)
            b2 = build_batch(self.tokenizer, rev_ids, [ro.y2.token_ids for ro in chunk], t.max_attempt_tokens)

            with torch.no_grad(), reference_active(self.model):
                ref_lp1, _, ref_logits = token_logprobs(self.model, b1)
            pol_lp1, mask1, pol_logits = token_logprobs(self.model, b1)
            pol_lp2, mask2, _ = token_logprobs(self.model, b2)

            mean_lp1 = masked_mean(pol_lp1, mask1).detach()  # the paper's detached first-attempt baseline
            mean_lp2 = masked_mean(pol_lp2, mask2)
            kl = kl_per_row(pol_logits, ref_logits, mask1, pol_lp1, ref_lp1, estimator=t.kl_estimator)
            r2 = torch.tensor([ro.r2 for ro in chunk], dtype=mean_lp2.dtype, device=mean_lp2.device)
            if t.advantage == "improvement":
                r1 = torch.tensor([ro.r1 or 0.0 for ro in chunk], dtype=r2.dtype, device=r2.device)
                weight = r2 - r1
            else:
                weight = r2
            per_sample = -((mean_lp2 - mean_lp1) * weight - t.beta * kl)
            (per_sample.sum() / n).backward()

            stats["loss"] += per_sample.detach().sum().item() / n
            stats["kl"] += kl.detach().sum().item() / len(used)
            stats["logp_y1"] += mean_lp1.sum().item() / len(used)
            stats["logp_y2"] += mean_lp2.detach().sum().item() / len(used)
        return stats


def summarize(rollouts: list[Rollout]) -> dict[str, Any]:
    """Per-step statistics the paper did not log: skip rate, transitions, error types, step counts."""
    n = len(rollouts)
    r1 = [ro.r1 for ro in rollouts if ro.r1 is not None]
    revised = [ro for ro in rollouts if ro.y2 is not None]
    r2 = [ro.r2 for ro in revised if ro.r2 is not None]
    trans = Counter(f"{'R' if ro.correct1 else 'W'}{'R' if ro.correct2 else 'W'}" for ro in revised)
    paired = [(ro.r1, ro.r2) for ro in revised if ro.r1 is not None and ro.r2 is not None]
    types1 = Counter(ro.v1.error_type for ro in rollouts if ro.v1.ok)
    types2 = Counter(ro.v2.error_type for ro in revised if ro.v2 is not None and ro.v2.ok)
    mean = lambda xs: sum(xs) / len(xs) if xs else None  # noqa: E731
    return {
        "problems": n,
        "skipped_solved": sum(ro.skipped == "solved" for ro in rollouts),
        "skipped_verifier": sum(ro.skipped == "verifier" for ro in rollouts),
        "skip_rate": sum(ro.skipped is not None for ro in rollouts) / n if n else 0.0,
        "r1_mean": mean(r1), "r1": r1,
        "r2_mean": mean(r2), "r2": r2,
        "acc_y1": mean([float(ro.correct1) for ro in rollouts]),
        "acc_y2": mean([float(bool(ro.correct2)) for ro in revised]),
        "transitions": {k: trans.get(k, 0) for k in ("RR", "RW", "WR", "WW")},
        # Did the feedback help at all? Eq. 2 reinforces every revision with r2 > 0, better or not.
        "revisions": {"better": sum(b > a for a, b in paired), "same": sum(b == a for a, b in paired),
                      "worse": sum(b < a for a, b in paired)},
        "error_types_y1": dict(types1), "error_types_y2": dict(types2),
        "verifier_failures": sum(not ro.v1.ok for ro in rollouts)
        + sum(ro.v2 is not None and not ro.v2.ok for ro in revised),
        "n_steps_y1": mean([float(ro.n1) for ro in rollouts]),
        "n_steps_y2": mean([float(ro.n2) for ro in revised if ro.n2 is not None]),
        "generated_tokens": sum(len(ro.y1.token_ids) for ro in rollouts)
        + sum(len(ro.y2.token_ids) for ro in revised),
    }
