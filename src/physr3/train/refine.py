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
- Every attempt is one `Attempt` record (physr3.train.attempt) from the engine to the loss: the loss scores
  `attempt.prompt_ids + attempt.completion_ids`, the ids the engine sampled from and generated, and never
  re-encodes a conversation. Token log-probs are averaged over each attempt's tokens (Appendix D).
- Prompts over the caps are decided once, before sampling: a solve prompt over `train.max_prompt_tokens` or a
  revision prompt over `train.max_revision_prompt_tokens` is skipped and counted (`skipped_overlong`), never
  truncated (the paper truncates at 512; its prompts had no ~359-token format instruction).
- The loss divides logits by each attempt's sampling temperature (`train.temperature`; greedy attempts are
  scored at 1), so it scores the distribution that was sampled; `train.top_p` < 1 is refused for the same
  reason. The KL terms use the same scaled distributions of policy and reference.
- `logp_gap` (metrics): mean |engine log-prob − loss log-prob| per completion token over the first
  micro-batch, and `importance_ratio` the mean of exp(loss − engine) per token, both from the loss's own
  forward pass and on the raw (temperature-1) distributions the engines report. They measure how far the
  sampling weights (the merged mirror, `train.mirror_dtype`) are from the trained ones.
- A truncated attempt (finish reason "length") never gets reward 1 (physr3.reward, `truncated`); counted
  as `truncated` in metrics.
- The y1 term is detached (paper): it shifts the loss value but not the gradient, which is
  r2 · ∇ mean log π_θ(y2|…) − β ∇KL. With r2 ≥ 0 this is reward-weighted likelihood of the revision.
  `train.advantage=improvement` (not the paper's) weights by r2 − r1 instead, so a revision that is no better
  than the first attempt is not reinforced. `train.advantage=paper+first` (not the paper's) keeps Eq. 2 and
  adds `train.first_attempt_coef` · REINFORCE on the first attempts, −(r1 − mean r1) · mean_t log π_θ(y1|x)
  averaged over every sampled y1 with a reward (the "solved" ones skipped by τ included: they carry the
  largest advantage). Evaluation samples π(·|x), and Eq. 2 acts on π(y2|x, y1, p1) only; this term is the
  direct pressure on first attempts. The baseline is the mean r1 of the problems this process sampled in the
  step (under data parallel, its share of the batch).
- KL is measured along y1, the policy's own sample from π_θ(·|x): at every position of y1 we take
  KL between the policy's and the reference's next-token distributions. `train.kl_estimator`: `full` (exact
  over the vocabulary per position, default, lowest variance), `k1` or `k3` (sampled-token estimators written
  as loss terms whose gradient is that of KL(π_θ ‖ π_ref), see `logprobs.kl_per_row`). The reference is the
  frozen Stage 1 adapter (physr3.train.adapters); without one (`train.from_base`) it is the base model.
- The batch mean runs over the problems that were not skipped; a step where all were skipped makes no update
  (but advances the data cursor and is logged).
- Sampling is seeded per (run seed, step, attempt), so a resumed run draws the same samples.
- The revision prompt is built from y1's SAMPLED ids (physr3.prompts.revision_prompt_ids): y1's prompt and
  completion ids, then the chat template's text after the assistant turn (end-of-turn, the feedback turn, the
  assistant header) encoded on its own. The model revises its own tokens, not a re-tokenization of their
  decoded text (which can differ). A template that renders earlier turns differently in the revision
  conversation (or an engine without `generate_ids`) falls back to encoding the conversation, counted as
  `revision_reencoded`.
- Loss passes per micro-batch: the reference on (x, y1) without grad, then, because y2's sequence starts
  with y1's, ONE policy pass over (x, y1, p1, y2) gives both attempts' token log-probs (causal attention: the
  same values as two passes; logits kept from y1's first completion token on; each span at its own scoring
  temperature): 2 forward passes per sample instead of 3 (`update_passes` in metrics). Rows whose y2 does not
  start with y1's ids, or `train.shared_policy_pass=false`, use separate passes.
- Dropout is off in the loss passes (as TRL's online trainers do): log-probs match the sampling distribution.
- On a bf16 model the loss passes compute the LoRA branches in bf16 (`train.lora_autocast`,
  physr3.train.adapters.lora_autocast): the fp32 adapter weights are cast per matmul instead of every
  activation to fp32 and back; the adapter, its gradients and the optimizer state stay fp32.
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
from physr3.models.types import Conversation, Engine, SamplingParams
from physr3.problems import Problem
from physr3.prompts import (
    build_revision_conversation,
    build_solve_conversation,
    encode_prompt,
    revision_prompt_ids,
)
from physr3.reward import problem_reward
from physr3.solution import count_steps, parse_solution
from physr3.train.adapters import lora_autocast, reference_active
from physr3.train.attempt import Attempt
from physr3.train.logprobs import (
    build_batch,
    kl_per_row,
    masked_mean,
    raw_token_logprobs,
    shared_token_logprobs,
    token_logprobs,
)
from physr3.verify.base import Verdict

FeedbackFn = Callable[[Problem, str, Verdict], Any]  # returns an object with .text and .to_json()
AnswerCheck = Callable[[Problem, str], bool]  # is the final answer of a solution correct?

UNREADABLE_FEEDBACK = (
    "Your solution could not be checked. Rewrite it in the seven-tag format with numbered steps "
    "(Step 1:, Step 2:, ...) and check every step."
)


def check_train_config(cfg: Config) -> None:
    """Refuse, in one line, training settings under which the loss would not score what was sampled.

    The rules are `TrainConfig`'s (config.py); checked again here because a caller may have changed
    `cfg.train` after it was built."""
    cfg.train.validate()


@dataclass
class Rollout:
    """Everything one problem went through in a step; logged to samples.jsonl."""

    problem: Problem
    y1: Attempt | None  # None: the solve prompt was over-long and nothing was sampled
    skipped: str | None = None  # "overlong" | "solved" (r1 > τ) | "verifier" (r1 is None) | None
    feedback: Any = None
    feedback_text: str = ""
    y2: Attempt | None = None
    # True: y2's prompt was built from y1's sampled ids (it starts with them); False: re-encoded from text (a
    # template that rewrites earlier turns, or an engine that takes no prompt ids); None: no revision prompt.
    revision_from_ids: bool | None = None
    timings: dict[str, float] = field(default_factory=dict)

    # Read-only views used by the summaries and logs.
    v1 = property(lambda self: self.y1.verdict if self.y1 else None)
    r1 = property(lambda self: self.y1.reward if self.y1 else None)
    correct1 = property(lambda self: bool(self.y1 and self.y1.correct))
    n1 = property(lambda self: self.y1.n_steps if self.y1 else 0)
    v2 = property(lambda self: self.y2.verdict if self.y2 else None)
    r2 = property(lambda self: self.y2.reward if self.y2 else None)
    correct2 = property(lambda self: self.y2.correct if self.y2 else None)
    n2 = property(lambda self: self.y2.n_steps if self.y2 else None)

    def to_json(self) -> dict[str, Any]:
        def verdict(v: Verdict | None) -> dict[str, Any] | None:
            return v.to_json() | {"raw": None} if v is not None else None

        return {
            "id": self.problem.id, "family": self.problem.family, "skipped": self.skipped,
            "y1": self.y1.text if self.y1 else None, "v1": verdict(self.v1), "r1": self.r1, "correct1": self.correct1,
            "feedback": self.feedback.to_json() if hasattr(self.feedback, "to_json") else self.feedback_text,
            "y2": self.y2.text if self.y2 else None, "v2": verdict(self.v2),
            "r2": self.r2, "correct2": self.correct2, "n1": self.n1, "n2": self.n2,
            "attempt1": self.y1.to_json() if self.y1 else None, "attempt2": self.y2.to_json() if self.y2 else None,
        }


class RefineStep:
    """One step of Algorithm 1 over a batch: rollouts (no grad), then the Eq. 2 loss and its gradient."""

    def __init__(self, cfg: Config, model, tokenizer, engine: Engine, verifier, feedback_fn: FeedbackFn,
                 answer_check: AnswerCheck):
        check_train_config(cfg)
        self.cfg, self.model, self.tokenizer, self.engine = cfg, model, tokenizer, engine
        self.verifier, self.feedback_fn, self.answer_check = verifier, feedback_fn, answer_check

    # -- rollouts -------------------------------------------------------------------------------------
    def sampling_params(self, seed: int) -> SamplingParams:
        """Training sampling: `train.temperature` and `train.top_p` (not the evaluation's `generation.*`), with
        the engine's log-probs for the sampled-vs-trained gap."""
        t = self.cfg.train
        return SamplingParams(max_new_tokens=t.max_attempt_tokens, temperature=t.temperature, top_p=t.top_p,
                              seed=seed, return_logprobs=True)

    def sample(self, conversations: list[Conversation], params: SamplingParams,
               prompt_ids: list[list[int]] | None = None, from_ids: bool = False) -> list[Attempt]:
        """Sample one attempt per conversation; `prompt_ids` are their encodings when already made. With
        `from_ids` the engine samples from `prompt_ids` as given (`generate_ids`), which need not be the
        conversations' encodings (revision prompts built from the first attempts' ids)."""
        if prompt_ids is None:
            prompt_ids = [encode_prompt(self.tokenizer, c) for c in conversations]
        if not conversations:
            return []
        self.model.eval()
        with torch.no_grad():
            if from_ids:
                completions = self.engine.generate_ids(prompt_ids, params)
            else:
                completions = self.engine.generate(conversations, params)
        return [Attempt.from_completion(c, ids, params) for c, ids in zip(completions, prompt_ids, strict=True)]

    def _sample_capped(self, conversations: list[Conversation], cap: int, seed: int,
                       ids: list[list[int]] | None = None) -> list[Attempt | None]:
        """Encode once (or take the given prompt ids), sample only the prompts within `cap` tokens; None for the
        over-long ones."""
        from_ids = ids is not None
        ids = ids if from_ids else [encode_prompt(self.tokenizer, c) for c in conversations]
        fit = [i for i, x in enumerate(ids) if len(x) <= cap]
        sampled = self.sample([conversations[i] for i in fit], self.sampling_params(seed), [ids[i] for i in fit],
                              from_ids=from_ids)
        out: list[Attempt | None] = [None] * len(conversations)
        for i, attempt in zip(fit, sampled):
            out[i] = attempt
        return out

    def score(self, attempt: Attempt, problem: Problem, verdict: Verdict) -> Attempt:
        """Fill in the verdict, parsed solution, answer check, step count and reward of an attempt."""
        cfg = self.cfg
        attempt.verdict, attempt.solution = verdict, parse_solution(attempt.text)
        attempt.correct = self.answer_check(problem, attempt.text)
        attempt.n_steps = count_steps(attempt.text, cfg.reward.step_pattern)
        attempt.reward = problem_reward(verdict, attempt.text, problem, cfg, final_correct=attempt.correct,
                                        truncated=attempt.truncated)
        return attempt

    def rollouts(self, problems: Sequence[Problem], step: int) -> tuple[list[Rollout], dict[str, float]]:
        cfg, fmt = self.cfg, self.cfg.generation.format_instruction
        timing = Counter()
        base_seed = cfg.run.seed * 1_000_003 + step * 2

        t0 = time.perf_counter()
        y1s = self._sample_capped([build_solve_conversation(p, fmt) for p in problems], cfg.train.max_prompt_tokens,
                                  base_seed)
        timing["generation"] += time.perf_counter() - t0

        out = [Rollout(p, y, skipped=None if y else "overlong") for p, y in zip(problems, y1s)]
        sampled = [ro for ro in out if ro.y1 is not None]
        t0 = time.perf_counter()
        v1s = self.verifier.verify_batch([(ro.problem, ro.y1.text) for ro in sampled]) if sampled else []
        timing["verification"] += time.perf_counter() - t0
        for ro, v in zip(sampled, v1s):
            self.score(ro.y1, ro.problem, v)
            if ro.r1 is None:
                ro.skipped = "verifier"
            elif ro.r1 > cfg.train.tau:
                ro.skipped = "solved"

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
            conversations = [build_revision_conversation(ro.problem, ro.y1.text, ro.feedback_text, fmt)
                             for ro in active]
            y2s = self._sample_capped(conversations, cfg.train.max_revision_prompt_tokens, base_seed + 1,
                                      self._revision_ids(active, conversations))
            timing["generation"] += time.perf_counter() - t0
            for ro, y in zip(active, y2s):
                ro.y2 = y
                if y is None:
                    ro.skipped = "overlong"
            revised = [ro for ro in active if ro.y2 is not None]
            t0 = time.perf_counter()
            v2s = self.verifier.verify_batch([(ro.problem, ro.y2.text) for ro in revised]) if revised else []
            timing["verification"] += time.perf_counter() - t0
            for ro, v in zip(revised, v2s):
                self.score(ro.y2, ro.problem, v)
        return out, dict(timing)

    def _revision_ids(self, active: list[Rollout], conversations: list[Conversation]) -> list[list[int]] | None:
        """The revision prompts' ids, built from each first attempt's sampled ids (`revision_prompt_ids`), so
        that y2's context starts with y1's whole sequence; a rollout whose template does not allow it is
        re-encoded from its conversation instead (`revision_from_ids` False, counted as `revision_reencoded`).
        None (all re-encoded) for an engine that takes no prompt ids."""
        if not hasattr(self.engine, "generate_ids"):
            for ro in active:
                ro.revision_from_ids = False
            return None
        fmt, out = self.cfg.generation.format_instruction, []
        for ro, conversation in zip(active, conversations, strict=True):
            ids = revision_prompt_ids(self.tokenizer, ro.problem, ro.y1.prompt_ids, ro.y1.completion_ids,
                                      ro.feedback_text, fmt)
            ro.revision_from_ids = ids is not None
            out.append(ids if ids is not None else encode_prompt(self.tokenizer, conversation))
        return out

    # -- loss -----------------------------------------------------------------------------------------
    def backward(self, rollouts: list[Rollout], denominator: int | None = None,
                 first_denominator: int | None = None) -> dict[str, float]:
        """Accumulate the gradient of Eq. 2 over the rollouts that have a revision with a reward (and, with
        `paper+first`, of the first-attempt term over every scored y1).

        `denominator` is the number of samples the mean runs over (all processes, under data parallel), and
        `first_denominator` the number of scored first attempts the paper+first term averages over.
        """
        t = self.cfg.train
        used = [ro for ro in rollouts if ro.y2 is not None and ro.r2 is not None]
        n = denominator if denominator is not None else len(used)
        stats: dict[str, Any] = {"loss": 0.0, "kl": 0.0, "logp_y1": 0.0, "logp_y2": 0.0, "used": float(len(used)),
                                 "logp_gap": None, "importance_ratio": None, "logp_gap_kind": None,
                                 "update_passes": 0.0, "shared_pass": 0.0}
        first_adv = first_attempt_advantages(rollouts) if t.advantage == "paper+first" else {}
        n_first = first_denominator or len(first_adv)
        if first_adv:
            stats["first_used"] = float(len(first_adv))
            stats["loss_first"] = 0.0
        if (not used or n == 0) and not first_adv:
            return stats
        # Dropout stays off (eval mode; gradients still flow): the log-probs in the loss must be those of the
        # distribution that sampled y1 and y2, and the reference pass must not be noisy either.
        self.model.eval()
        mb = max(1, t.micro_batch_size)
        for start in range(0, len(used), mb):
            chunk = used[start : start + mb]
            a1, a2 = [ro.y1 for ro in chunk], [ro.y2 for ro in chunk]
            # Exactly the sampled ids, at the sampling temperature: nothing is re-encoded or truncated here.
            b1 = build_batch(self.tokenizer, [a.prompt_ids for a in a1], [a.completion_ids for a in a1])
            b2 = build_batch(self.tokenizer, [a.prompt_ids for a in a2], [a.completion_ids for a in a2])
            temp1 = torch.tensor([a.scoring_temperature for a in a1])
            temp2 = torch.tensor([a.scoring_temperature for a in a2])

            with torch.no_grad(), reference_active(self.model), self._autocast():
                ref_lp1, _, ref_logits = token_logprobs(self.model, b1, temp1)
            if t.shared_policy_pass and all(_revision_extends_first(ro) for ro in chunk):
                # y2's sequence starts with y1's: one causal pass scores both (physr3.train.logprobs).
                with self._autocast():
                    (pol_lp1, mask1, pol_logits), (pol_lp2, mask2, pol_logits2) = shared_token_logprobs(
                        self.model, b1, b2, temp1, temp2)
                stats["shared_pass"] += len(chunk)
                passes = 2
            else:
                with self._autocast():
                    pol_lp1, mask1, pol_logits = token_logprobs(self.model, b1, temp1)
                    pol_lp2, mask2, pol_logits2 = token_logprobs(self.model, b2, temp2)
                passes = 3
            # Forward passes of the update (reference included) per used sample: 2 shared, 3 separate.
            stats["update_passes"] += passes * len(chunk) / len(used)
            if start == 0:  # the sampled-vs-trained gap, from this forward pass (no extra one)
                stats.update(_gap([(a1, b1, pol_logits, temp1, mask1, pol_lp1),
                                   (a2, b2, pol_logits2, temp2, mask2, pol_lp2)]))
            del pol_logits2

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
            total = per_sample.sum() / n
            if first_adv:  # y1's log-prob with its graph, already computed here
                total = total + self._first_term(chunk, masked_mean(pol_lp1, mask1), first_adv, n_first, stats)
            total.backward()

            stats["loss"] += per_sample.detach().sum().item() / n
            stats["kl"] += kl.detach().sum().item() / len(used)
            stats["logp_y1"] += mean_lp1.sum().item() / len(used)
            stats["logp_y2"] += mean_lp2.detach().sum().item() / len(used)
        used_ids = {id(ro) for ro in used}
        rest = [ro for ro in rollouts if id(ro) in first_adv and id(ro) not in used_ids]
        for start in range(0, len(rest), mb):  # first attempts without a revision (e.g. skipped as solved)
            chunk = rest[start : start + mb]
            b1 = build_batch(self.tokenizer, [ro.y1.prompt_ids for ro in chunk], [ro.y1.completion_ids for ro in chunk])
            with self._autocast():
                lp, mask, _ = token_logprobs(self.model, b1, torch.tensor([ro.y1.scoring_temperature for ro in chunk]))
            self._first_term(chunk, masked_mean(lp, mask), first_adv, n_first, stats).backward()
        return stats

    def _autocast(self):
        """The loss passes' LoRA branches in the base's half precision (`train.lora_autocast`; no-op on fp32)."""
        return lora_autocast(self.model, self.cfg.train.lora_autocast)

    def _first_term(self, chunk: list[Rollout], mean_lp1: torch.Tensor, adv: dict[int, float], n_first: int,
                    stats: dict[str, Any]) -> torch.Tensor:
        """−coef · (r1 − mean r1) · mean log π(y1|x), summed over the chunk and divided by all scored y1."""
        a = torch.tensor([adv[id(ro)] for ro in chunk], dtype=mean_lp1.dtype, device=mean_lp1.device)
        term = -(self.cfg.train.first_attempt_coef * a * mean_lp1).sum() / n_first
        stats["loss_first"] += term.item()
        stats["loss"] += term.item()
        return term


def _revision_extends_first(ro: Rollout) -> bool:
    """Does y2's prompt start with y1's whole sequence (prompt + completion), both completions non-empty? Then
    one policy pass over y2's sequence scores y1's tokens as well (`shared_token_logprobs`)."""
    y1, y2 = ro.y1, ro.y2
    n = len(y1.prompt_ids) + len(y1.completion_ids)
    return (bool(y1.completion_ids) and bool(y2.completion_ids) and len(y2.prompt_ids) >= n
            and y2.prompt_ids[: len(y1.prompt_ids)] == y1.prompt_ids
            and y2.prompt_ids[len(y1.prompt_ids) : n] == y1.completion_ids)


def first_attempt_advantages(rollouts: list[Rollout]) -> dict[int, float]:
    """r1 − mean r1 over the rollouts whose first attempt has a reward, keyed by id(rollout); empty when none."""
    scored = [ro for ro in rollouts if ro.y1 is not None and ro.r1 is not None]
    if not scored:
        return {}
    baseline = sum(ro.r1 for ro in scored) / len(scored)
    return {id(ro): ro.r1 - baseline for ro in scored}


@torch.no_grad()
def _gap(parts) -> dict[str, float | None]:
    """Mean |engine − loss| log-prob per completion token and mean exp(loss − engine), over the rows whose
    engine reported log-probs for every scored token (temperature-1 distributions on both sides); for an engine
    that reports only each sequence's total (OpenVINO) the per-token mean difference of the sequence is used
    (`logp_gap_kind` says which)."""
    diffs = []
    kinds = set()
    for attempts, batch, logits, temps, mask, logp in parts:
        # At temperature 1 the loss's log-probs are the raw ones; otherwise one more log-softmax, no forward.
        raw = logp.detach() if bool((temps == 1).all()) else raw_token_logprobs(logits.detach(), batch, temps)
        for row, attempt in enumerate(attempts):
            scored = raw[row][mask[row].bool()].double().cpu()
            if attempt.logprobs is not None and len(attempt.logprobs) == scored.numel():
                diffs.append(scored - torch.tensor(attempt.logprobs, dtype=torch.float64))
                kinds.add("token")
            elif attempt.sequence_logprob is not None and len(attempt.completion_ids) == scored.numel():
                # Only the sum is known: the per-token mean difference, one value per token of the sequence
                # (a lower bound of the mean absolute per-token gap).
                mean_diff = (scored.sum() - attempt.sequence_logprob) / scored.numel()
                diffs.append(mean_diff.repeat(scored.numel()))
                kinds.add("sequence")
    if not diffs:
        return {"logp_gap": None, "importance_ratio": None, "logp_gap_kind": None}
    d = torch.cat(diffs)
    return {"logp_gap": d.abs().mean().item(), "importance_ratio": d.exp().mean().item(),
            "logp_gap_kind": "+".join(sorted(kinds))}


def summarize(rollouts: list[Rollout]) -> dict[str, Any]:
    """Per-step statistics the paper did not log: skip rate, transitions, error types, step counts."""
    n = len(rollouts)
    sampled = [ro for ro in rollouts if ro.y1 is not None]
    r1 = [ro.r1 for ro in sampled if ro.r1 is not None]
    revised = [ro for ro in rollouts if ro.y2 is not None]
    r2 = [ro.r2 for ro in revised if ro.r2 is not None]
    trans = Counter(f"{'R' if ro.correct1 else 'W'}{'R' if ro.correct2 else 'W'}" for ro in revised)
    paired = [(ro.r1, ro.r2) for ro in revised if ro.r1 is not None and ro.r2 is not None]
    types1 = Counter(ro.v1.error_type for ro in sampled if ro.v1 is not None and ro.v1.ok)
    types2 = Counter(ro.v2.error_type for ro in revised if ro.v2 is not None and ro.v2.ok)
    verdicts = [ro.v1 for ro in sampled if ro.v1 is not None] + [ro.v2 for ro in revised if ro.v2 is not None]
    mean = lambda xs: sum(xs) / len(xs) if xs else None  # noqa: E731
    return {
        "problems": n,
        "sampled": len(sampled),
        "skipped_solved": sum(ro.skipped == "solved" for ro in rollouts),
        "skipped_verifier": sum(ro.skipped == "verifier" for ro in rollouts),
        "skipped_overlong": sum(ro.skipped == "overlong" for ro in rollouts),
        # Revision prompts re-encoded from text instead of built from y1's sampled ids (no shared loss pass).
        "revision_reencoded": sum(ro.revision_from_ids is False for ro in rollouts),
        "skip_rate": sum(ro.skipped is not None for ro in rollouts) / n if n else 0.0,
        "truncated": sum(ro.y1.truncated for ro in sampled) + sum(ro.y2.truncated for ro in revised),
        "r1_mean": mean(r1), "r1": r1,
        "r2_mean": mean(r2), "r2": r2,
        "acc_y1": mean([float(ro.correct1) for ro in sampled]),
        "acc_y2": mean([float(bool(ro.correct2)) for ro in revised]),
        "transitions": {k: trans.get(k, 0) for k in ("RR", "RW", "WR", "WW")},
        # Did the feedback help at all? Eq. 2 reinforces every revision with r2 > 0, better or not.
        "revisions": {"better": sum(b > a for a, b in paired), "same": sum(b == a for a, b in paired),
                      "worse": sum(b < a for a, b in paired)},
        "error_types_y1": dict(types1), "error_types_y2": dict(types2),
        "verifier_failures": sum(ro.v1 is not None and not ro.v1.ok for ro in sampled)
        + sum(ro.v2 is not None and not ro.v2.ok for ro in revised),
        # verifier.kind=hybrid: how many of the step's verdicts the judge decided (None under any other kind)
        "hybrid_judge_calls": None if not any("hybrid" in v.details for v in verdicts) else
        sum(v.details["hybrid"] == "judge" for v in verdicts),
        "n_steps_y1": mean([float(ro.n1) for ro in sampled]),
        "n_steps_y2": mean([float(ro.n2) for ro in revised if ro.n2 is not None]),
        "generated_tokens": sum(len(ro.y1.completion_ids) for ro in sampled)
        + sum(len(ro.y2.completion_ids) for ro in revised),
    }
