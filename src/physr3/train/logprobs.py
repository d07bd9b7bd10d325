"""Token log-probabilities of completions given their prompts, batched, for the policy-gradient loss.

A completion's log-probability is taken under the exact ids the engine sampled from and generated
(`Attempt.prompt_ids + Attempt.completion_ids`): nothing here encodes or truncates a prompt, so the scored
context is the sampled one (over-long prompts are skipped before sampling, physr3.train.refine). Logits are
divided by each row's sampling temperature, so the scored distribution is the sampled one.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass
class SequenceBatch:
    input_ids: torch.Tensor  # (B, T) right-padded
    attention_mask: torch.Tensor  # (B, T)
    completion_mask: torch.Tensor  # (B, T): 1 where the token at t is a completion token


def build_batch(tokenizer, prompts: list[list[int]], completions: list[list[int]],
                max_completion_tokens: int | None = None) -> SequenceBatch:
    """Concatenate prompt and completion ids per row, right-pad, and mark completion positions."""
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    rows, masks = [], []
    for p, c in zip(prompts, completions, strict=True):
        c = list(c)[:max_completion_tokens] if max_completion_tokens else list(c)
        if not c:  # an empty completion still needs one scored token: score the eos the model ended on
            c = [tokenizer.eos_token_id]
        rows.append(list(p) + c)
        masks.append([0] * len(p) + [1] * len(c))
    width = max(len(r) for r in rows)
    input_ids = torch.full((len(rows), width), pad, dtype=torch.long)
    attention = torch.zeros((len(rows), width), dtype=torch.long)
    completion = torch.zeros((len(rows), width), dtype=torch.long)
    for i, (r, m) in enumerate(zip(rows, masks)):
        input_ids[i, : len(r)] = torch.tensor(r)
        attention[i, : len(r)] = 1
        completion[i, : len(m)] = torch.tensor(m)
    return SequenceBatch(input_ids, attention, completion)


def token_logprobs(model, batch: SequenceBatch, temperatures: torch.Tensor | None = None
                   ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Forward pass; returns (log-prob of each next token (B, K), its mask (B, K), logits (B, K, V)).

    With `temperatures` (B,), each row's logits are divided by its temperature before the softmax, and the
    returned logits are those scaled ones (the distribution that was sampled); with (B, T), the logits that
    predict input token t are divided by `temperatures[:, t]`.

    Output position k scores input token `start + k + 1`, where `start` is the position just before the
    earliest completion token in the batch: the output-vocabulary projection runs only from there on
    (`logits_to_keep`), not over the prompts (a revision prompt is ~3x its completion, and (T, V) logits
    in fp32 are the largest tensors of the loss). The mask is `completion_mask` shifted by one (as in the
    paper's Appendix D), so the masked values are exactly those of a full-length pass.
    """
    device = next(model.parameters()).device
    first = int(batch.completion_mask.float().argmax(dim=1).min())  # earliest completion token in any row
    start = max(first - 1, 0)
    width = batch.input_ids.shape[1]
    out = model(input_ids=batch.input_ids.to(device), attention_mask=batch.attention_mask.to(device),
                logits_to_keep=width - start)
    logits = out.logits[:, :-1, :].float()
    if temperatures is not None:
        temps = temperatures.to(device=device, dtype=logits.dtype)
        # (B,): one per row; (B, T): the temperature of the distribution that predicts input token t.
        logits = logits / (temps[:, None, None] if temps.dim() == 1 else temps[:, start + 1 :, None])
    targets = batch.input_ids[:, start + 1 :].to(device)
    logp = torch.gather(F.log_softmax(logits, dim=-1), 2, targets.unsqueeze(-1)).squeeze(-1)
    mask = batch.completion_mask[:, start + 1 :].to(device).to(logp.dtype)
    return logp, mask, logits


def shared_token_logprobs(model, first: SequenceBatch, second: SequenceBatch, first_temperatures: torch.Tensor,
                          second_temperatures: torch.Tensor):
    """Both attempts' `token_logprobs` from ONE forward pass over the second attempt's sequences, when each row
    of `second` starts with the whole (unpadded) row of `first`: the revision prompt (x, y1, p1) built from y1's
    sampled ids (physr3.prompts.revision_prompt_ids). Under causal attention the positions of y1 see exactly
    the context they see in a pass over (x, y1) alone, so the values equal those of two passes (up to float
    summation order); the output projection runs from y1's first completion token on (`logits_to_keep`).

    Returns ((logp, mask, logits) laid out as `token_logprobs(model, first, ...)` returns them, and the same
    for `second`); the first triple is a view of the second's leading positions. Each span is scaled by its own
    temperature (y1 and y2 may have been sampled at different ones)."""
    width1 = first.input_ids.shape[1]
    if not torch.equal(second.input_ids[:, :width1] * first.attention_mask, first.input_ids * first.attention_mask):
        raise ValueError("shared_token_logprobs: the second batch's rows do not start with the first batch's")
    union = second.completion_mask.clone()
    union[:, :width1] |= first.completion_mask  # the scored span runs from y1's first completion token
    batch = SequenceBatch(second.input_ids, second.attention_mask, union)
    temps = second_temperatures
    if not torch.equal(first_temperatures, second_temperatures):
        temps = second_temperatures[:, None].repeat(1, batch.input_ids.shape[1]).to(torch.float64)
        temps[:, :width1] = torch.where(first.completion_mask.bool(), first_temperatures[:, None].double(),
                                        temps[:, :width1])
    logp, _, logits = token_logprobs(model, batch, temps)
    start = batch.input_ids.shape[1] - 1 - logits.shape[1]
    k1 = width1 - 1 - start  # the first batch's output width: token_logprobs starts it at the same position
    mask1 = first.completion_mask[:, start + 1 :].to(logp.device).to(logp.dtype)
    mask2 = second.completion_mask[:, start + 1 :].to(logp.device).to(logp.dtype)
    return (logp[:, :k1], mask1, logits[:, :k1]), (logp, mask2, logits)


def raw_token_logprobs(logits: torch.Tensor, batch: SequenceBatch, temperatures: torch.Tensor | None = None
                       ) -> torch.Tensor:
    """Temperature-1 log-probs of the next tokens from `token_logprobs`'s (scaled) logits, no forward pass:
    what the engines report as `Completion.logprobs`, for the sampled-vs-trained gap."""
    if temperatures is not None:
        logits = logits * temperatures.to(device=logits.device, dtype=logits.dtype)[:, None, None]
    targets = batch.input_ids[:, batch.input_ids.shape[1] - logits.shape[1]:].to(logits.device)
    return torch.gather(F.log_softmax(logits, dim=-1), 2, targets.unsqueeze(-1)).squeeze(-1)


def masked_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Per-row mean over masked positions (rows with an empty mask give 0, never NaN)."""
    return (values * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)


def kl_per_row(policy_logits: torch.Tensor | None, ref_logits: torch.Tensor | None, mask: torch.Tensor,
               sampled_logp_policy: torch.Tensor | None = None, sampled_logp_ref: torch.Tensor | None = None,
               estimator: str = "full") -> torch.Tensor:
    """KL(π_θ ‖ π_ref) per row, averaged over masked positions, as a LOSS term: its value estimates the KL and
    its gradient is (in expectation over tokens sampled from π_θ) the gradient of KL(π_θ ‖ π_ref).

    - "full": the exact KL between the two next-token distributions at each position (sums over the
      vocabulary; exact value and gradient, costs one (T, V) softmax more).
    - "k1": log π_θ(y_t) − log π_ref(y_t) on the sampled tokens. Differentiated as written its gradient is
      ∇log π_θ(y_t), which averages to zero over y_t ~ π_θ; here it enters as sg(k1) · ρ with
      ρ = π_θ(y_t)/sg(π_θ(y_t)) (= 1 in value), whose gradient k1 · ∇log π_θ(y_t) is the score-function form
      of ∇KL (also the gradient of k2 = ½ k1²).
    - "k3": (r − 1) − log r with r = π_ref(y_t)/π_θ(y_t), non-negative. Differentiated as written (as TRL's GRPO
      loss adds it) its gradient (1 − r) ∇log π_θ averages to −E_{π_ref}[∇log π_θ] = ∇KL(π_ref ‖ π_θ), the other
      direction (see also Shah et al. 2025, "A Comedy of Estimators"); here it enters as ρ · k3, whose gradient
      ∇k3 + k3 · ∇log π_θ(y_t) averages to ∇E_{π_θ}[k3] = ∇KL(π_θ ‖ π_ref).
    tests/train/test_logprobs.py checks each estimator's gradient against the exact one.
    """
    if estimator == "full":
        if policy_logits is None or ref_logits is None:
            raise ValueError("KL estimator 'full' needs both models' logits")
        lp = F.log_softmax(policy_logits, dim=-1)
        lq = F.log_softmax(ref_logits, dim=-1)
        per_token = (lp.exp() * (lp - lq)).sum(-1)
    elif estimator in ("k1", "k3"):
        if sampled_logp_policy is None or sampled_logp_ref is None:
            raise ValueError(f"KL estimator {estimator!r} needs the sampled tokens' log-probs")
        lp, lq = sampled_logp_policy, sampled_logp_ref.detach()
        ratio_one = torch.exp(lp - lp.detach())  # ρ: value 1, gradient ∇log π_θ(y_t)
        if estimator == "k1":
            per_token = (lp - lq).detach() * ratio_one
        else:
            log_r = lq - lp
            per_token = ratio_one * ((log_r.exp() - 1) - log_r)
    else:
        raise ValueError(f"unknown KL estimator {estimator!r}; valid: full, k1, k3")
    return masked_mean(per_token, mask)
