"""Token log-probabilities of completions given chat prompts, batched, for the policy-gradient loss.

A completion's log-probability is taken under the exact token ids the engine generated (not a re-tokenised
string), appended to the chat-templated prompt. Prompts longer than `max_prompt_tokens` keep their *last*
tokens (the question is near the end of a revision prompt), completions longer than `max_completion_tokens`
keep their first tokens; both caps mirror the paper's 512 / 1,240.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from physr3.models.types import Conversation
from physr3.prompts import encode_prompt


@dataclass
class SequenceBatch:
    input_ids: torch.Tensor  # (B, T) right-padded
    attention_mask: torch.Tensor  # (B, T)
    completion_mask: torch.Tensor  # (B, T): 1 where the token at t is a completion token


def prompt_ids(tokenizer, conversation: Conversation, max_prompt_tokens: int | None = None) -> list[int]:
    ids = encode_prompt(tokenizer, conversation)  # the engine's encoding: scored = sampled context
    if max_prompt_tokens is not None and len(ids) > max_prompt_tokens:
        ids = ids[-max_prompt_tokens:]
    return ids


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


def token_logprobs(model, batch: SequenceBatch) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Forward pass; returns (log-prob of each next token (B, K), its mask (B, K), logits (B, K, V)).

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
    targets = batch.input_ids[:, start + 1 :].to(device)
    logp = torch.gather(F.log_softmax(logits, dim=-1), 2, targets.unsqueeze(-1)).squeeze(-1)
    mask = batch.completion_mask[:, start + 1 :].to(device).to(logp.dtype)
    return logp, mask, logits


def masked_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Per-row mean over masked positions (rows with an empty mask give 0, never NaN)."""
    return (values * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)


def kl_per_row(policy_logits: torch.Tensor, ref_logits: torch.Tensor, mask: torch.Tensor,
               sampled_logp_policy: torch.Tensor | None = None, sampled_logp_ref: torch.Tensor | None = None,
               estimator: str = "full") -> torch.Tensor:
    """KL(π_θ ‖ π_ref) per row, averaged over masked positions.

    - "full": the exact KL between the two next-token distributions at each position (sums over the
      vocabulary; lowest variance, costs one (T, V) softmax more).
    - "k1": log π_θ(y_t) − log π_ref(y_t) on the sampled tokens (unbiased, high variance, can be negative).
    - "k3": (r − 1) − log r with r = π_ref(y_t)/π_θ(y_t) on the sampled tokens (unbiased, non-negative).
    """
    if estimator == "full":
        lp = F.log_softmax(policy_logits, dim=-1)
        lq = F.log_softmax(ref_logits, dim=-1)
        per_token = (lp.exp() * (lp - lq)).sum(-1)
    elif estimator in ("k1", "k3"):
        if sampled_logp_policy is None or sampled_logp_ref is None:
            raise ValueError(f"KL estimator {estimator!r} needs the sampled tokens' log-probs")
        log_ratio = sampled_logp_ref - sampled_logp_policy
        per_token = -log_ratio if estimator == "k1" else (log_ratio.exp() - 1) - log_ratio
    else:
        raise ValueError(f"unknown KL estimator {estimator!r}; valid: full, k1, k3")
    return masked_mean(per_token, mask)
