"""Batched generation over chat conversations with transformers, behind the `Engine` interface.

`TransformersEngine.generate(conversations, params)` renders each conversation with the tokenizer's chat
template (which `loading.load_model` has given our default system prompt), sorts the prompts by length so a
batch holds similar lengths, pads them on the LEFT (so every row's last prompt token sits at the same
position and decoding continues from it), and decodes one chunk of `batch_size` prompts at a time.
Results come back in the caller's order.

The decoding loop is our own, not `model.generate`: one prefill of the batch, then one token per step through
the model's KV cache, and a row that finishes (end-of-sequence or a stop string) leaves the batch and the
cache at once. `model.generate` keeps finished rows in the batch until the longest one ends. On a CPU a
decoding step of the 135M model has a large fixed cost (~65 ms at batch 1, ~95 ms at batch 8), so fewer rows
save less time than they save row-steps: benchmarks/generation.py measured 67.4 vs 60.4 tokens/s (1.12x)
at batch 8 with lengths from short to the 512 cap, and the same speed when every row runs to the cap. On a
GPU, where a step's cost follows the batch, the saving is closer to the share of padded row-steps. Log-probs
are taken per step, so no logits are kept.

What a `Completion` holds, precisely:
- `text`: the decoded continuation without special tokens, cut right after the first stop string (the stop
  string is kept) or at end-of-sequence.
- `token_ids`: the generated ids up to and including the token that completes the stop string, or the
  end-of-sequence token when the model emitted one (so `text` may lack a few trailing characters of the
  last token, e.g. the newline of a ">\\n" token).
- `finish_reason`: "stop" (end-of-sequence or a stop string) or "length" (hit `max_new_tokens`).
- `prompt_ids`: the exact prompt ids the row was sampled from (the conversation's `encode_prompt`).
- `logprobs` (when `params.return_logprobs`): log p(token | prefix) of each returned token under the
  model's RAW distribution (temperature 1, no top-p), i.e. what a teacher-forced forward pass gives; the
  refine loop compares them with its own forward pass (`logp_gap`) to measure the sampled-vs-trained gap.

Streaming: `generate(..., on_token=f)` calls `f(i, token_id)` for each token of conversation i as soon as it
is sampled (including a final end-of-sequence token); `physr3 serve` decodes them into text deltas.

Sampling: `temperature == 0` is greedy; otherwise multinomial sampling with temperature and top-p (top-k
off). A `seed` makes a call reproducible for the same inputs and batch size (the global RNG state is
restored afterwards); different batch sizes batch prompts differently and so draw differently.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from physr3.config import Config, GenerationConfig
from physr3.models.types import FINAL_ANSWER_STOP, Completion, Conversation, Engine, SamplingParams

# Streaming: called as on_token(conversation index, token id) for every generated token (physr3 serve).
TokenCallback = Callable[[int, int], None]

log = logging.getLogger(__name__)


class TransformersEngine:
    """`Engine` over a transformers causal LM: left-padded batches of `batch_size` prompts."""

    def __init__(self, model: Any, tokenizer: Any, batch_size: int = 8, sort_by_length: bool = True):
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self.model = model
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self.sort_by_length = sort_by_length
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        self.eos_ids = _eos_ids(model, tokenizer)

    # -------------------------------------------------------------------------------------------- prompts
    def render(self, conversation: Conversation) -> str:
        """The prompt text for one conversation: chat template plus the assistant header."""
        return self.tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)

    def encode(self, conversation: Conversation) -> list[int]:
        from physr3.prompts import encode_prompt

        return encode_prompt(self.tokenizer, conversation)

    # -------------------------------------------------------------------------------------------- generation
    def generate(self, conversations: list[Conversation], params: SamplingParams,
                 on_token: TokenCallback | None = None) -> list[Completion]:
        """One completion per conversation, in order. `on_token(i, token_id)`, when given, is called with each
        token of conversation i as it is generated (streaming); it runs inside the decoding loop, so it must be
        quick and must not raise."""
        return self.generate_ids([self.encode(c) for c in conversations], params, on_token)

    def generate_ids(self, prompts: list[list[int]], params: SamplingParams,
                     on_token: TokenCallback | None = None) -> list[Completion]:
        """`generate` for prompts given as token ids (the refine loop's revision prompts, built from the first
        attempt's sampled ids: physr3.prompts.revision_prompt_ids)."""
        import torch

        order = list(range(len(prompts)))
        if self.sort_by_length:
            order.sort(key=lambda i: -len(prompts[i]))  # longest first: a memory problem shows up at once
        results: list[Completion | None] = [None] * len(prompts)
        device = self.model.device
        fork_devices = [device] if device.type == "cuda" else []
        with torch.inference_mode(), torch.random.fork_rng(devices=fork_devices):
            if params.seed is not None:
                torch.manual_seed(params.seed)
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                relay = None if on_token is None else (lambda row, tok, chunk=chunk: on_token(chunk[row], tok))
                for i, completion in zip(chunk, self._generate_batch([prompts[i] for i in chunk], params, relay)):
                    results[i] = completion
        return [r for r in results if r is not None]

    def _generate_batch(self, prompts: list[list[int]], params: SamplingParams,
                        on_token: TokenCallback | None = None) -> list[Completion]:
        """Prefill the left-padded batch once, then decode one token per step with the KV cache, dropping each
        row from the batch (and the cache) as soon as it finishes."""
        import torch
        from transformers import DynamicCache

        device = self.model.device
        width = max(len(p) for p in prompts)
        input_ids = torch.full((len(prompts), width), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(prompts), width), dtype=torch.long)
        for row, ids in enumerate(prompts):
            input_ids[row, width - len(ids) :] = torch.tensor(ids, dtype=torch.long)
            attention[row, width - len(ids) :] = 1
        input_ids, attention = input_ids.to(device), attention.to(device)
        positions = (attention.cumsum(-1) - 1).clamp(min=0)  # left padding: each row counts from its first token
        cache = DynamicCache(config=self.model.config)
        logits = self.model(input_ids=input_ids, attention_mask=attention, position_ids=positions,
                            cache=cache, use_cache=True, logits_to_keep=1).logits[:, -1, :]
        last = positions[:, -1]
        live = list(range(len(prompts)))  # which original rows the batch dimension holds now
        generated: list[list[int]] = [[] for _ in prompts]
        logprobs: list[list[float]] = [[] for _ in prompts]
        stop_window = max((len(s) for s in params.stop if s), default=0)  # a token holds >= 1 character
        for step in range(params.max_new_tokens):
            tokens, token_lp = _pick(logits, params)
            keep = []
            for k, (row, tok) in enumerate(zip(live, tokens.tolist())):
                generated[row].append(tok)
                if on_token is not None:
                    on_token(row, tok)
                if params.return_logprobs:
                    logprobs[row].append(float(token_lp[k]))
                if tok in self.eos_ids or (stop_window and _first_stop(
                        self._decode(generated[row][-stop_window:]), params.stop) is not None):
                    continue
                keep.append(k)
            if not keep or step == params.max_new_tokens - 1:
                break
            if len(keep) < len(live):  # finished rows leave the batch: no more compute spent on them
                index = torch.tensor(keep, device=device)
                cache.batch_select_indices(index)
                attention, tokens, last = attention[index], tokens[index], last[index]
                live = [live[k] for k in keep]
            attention = torch.cat([attention, attention.new_ones((len(live), 1))], dim=1)
            last = last + 1
            logits = self.model(input_ids=tokens[:, None], attention_mask=attention, position_ids=last[:, None],
                                cache=cache, use_cache=True).logits[:, -1, :]
        completions = []
        for row, ids in enumerate(prompts):
            token_ids, text, reason = self._cut(generated[row], params.stop)
            lp = logprobs[row][: len(token_ids)] if params.return_logprobs else None
            completions.append(Completion(text, token_ids, reason, len(ids), lp, prompt_ids=list(ids)))
        return completions

    def _cut(self, ids: list[int], stops: tuple[str, ...]) -> tuple[list[int], str, str]:
        """Trim generated ids at end-of-sequence or after the first stop string; returns (ids, text, reason)."""
        reason = "length"
        for k, tok in enumerate(ids):
            if tok in self.eos_ids:
                ids, reason = ids[: k + 1], "stop"
                break
        text = self._decode(ids)
        hit = _first_stop(text, stops)
        if hit is None:
            return ids, text, reason
        end = hit
        k = len(ids)
        while k > 1 and _first_stop(self._decode(ids[: k - 1]), stops) is not None:
            k -= 1  # drop tokens after the one that completes the stop string
        return ids[:k], text[:end], "stop"

    def _decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True)


def _first_stop(text: str, stops: tuple[str, ...]) -> int | None:
    """End offset of the earliest stop string in `text`, or None."""
    best = None
    for s in stops:
        if not s:
            continue
        i = text.find(s)
        if i >= 0 and (best is None or i + len(s) < best):
            best = i + len(s)
    return best


def _pick(logits: Any, params: SamplingParams) -> tuple[Any, Any]:
    """Next tokens from last-position logits (greedy, or temperature + top-p sampling with the global torch
    RNG) and their log-probabilities under the raw distribution (temperature 1, no top-p)."""
    import torch

    raw = torch.log_softmax(logits.float(), dim=-1)
    if params.temperature <= 0:
        tokens = raw.argmax(dim=-1)
    else:
        probs = torch.softmax(logits.float() / params.temperature, dim=-1)
        if params.top_p < 1.0:  # nucleus: keep the smallest set of top tokens whose mass reaches top_p
            sorted_probs, order = probs.sort(dim=-1, descending=True)
            outside = sorted_probs.cumsum(dim=-1) - sorted_probs > params.top_p
            sorted_probs = sorted_probs.masked_fill(outside, 0.0)
            probs = torch.zeros_like(probs).scatter(-1, order, sorted_probs)
        tokens = torch.multinomial(probs, 1).squeeze(-1)
    return tokens, raw.gather(-1, tokens[:, None]).squeeze(-1)


def _eos_ids(model: Any, tokenizer: Any) -> set[int]:
    ids: set[int] = set()
    for value in (getattr(model.generation_config, "eos_token_id", None), tokenizer.eos_token_id):
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, list | tuple):
            ids.update(int(v) for v in value)
    return ids


def params_from_config(gen: GenerationConfig, seed: int | None = None, return_logprobs: bool = False) -> SamplingParams:
    """SamplingParams from the `generation` config section."""
    return SamplingParams(
        max_new_tokens=gen.max_new_tokens,
        temperature=gen.temperature,
        top_p=gen.top_p,
        stop=(FINAL_ANSWER_STOP,) if gen.stop_at_final_answer else (),
        return_logprobs=return_logprobs,
        seed=seed,
    )


def engine_for_model(cfg: Config, model: Any, tokenizer: Any, adapter: str | None = None,
                     work_tokens: int | None = None) -> Engine:
    """An engine over an already loaded plain model (eval): OpenVINO for `generation.engine` auto/openvino
    when usable (exported once per model and adapter), else this `TransformersEngine`, after one warning.
    Under auto, a job of fewer than `generation.openvino_min_tokens` `work_tokens` (items x max_new_tokens)
    keeps the transformers engine: it finishes before OpenVINO's export and self-check would pay off."""
    small = work_tokens is not None and work_tokens < cfg.generation.openvino_min_tokens
    if cfg.generation.engine == "auto" and small:
        log.info("physr3: generation.engine=auto: %d items x tokens < generation.openvino_min_tokens=%d; "
                 "using the transformers engine", work_tokens, cfg.generation.openvino_min_tokens)
    elif cfg.generation.engine in ("openvino", "auto"):
        from physr3.models.openvino_engine import OpenVINOUnavailable, openvino_for_model, warn_fallback

        try:
            return openvino_for_model(cfg, model, tokenizer, adapter)
        except (OpenVINOUnavailable, RuntimeError, OSError) as exc:  # GGUFExportError is a RuntimeError
            warn_fallback(cfg, exc)
    return TransformersEngine(model, tokenizer, batch_size=cfg.generation.batch_size)


def build_engine(cfg: Config) -> Engine:
    """The engine named by `cfg.generation.engine`, with the model of `cfg.model` loaded."""
    from physr3.errors import UserError

    name = cfg.generation.engine
    cfg.generation.validate()  # batch_size >= 1 (GenerationConfig's rules), also after a caller's changes
    if name in ("openvino", "auto"):  # falls back to transformers with one warning line when unusable
        from physr3.models.openvino_engine import openvino_or_none

        engine = openvino_or_none(cfg)
        if engine is not None:
            return engine
        name = "transformers"
    if name == "transformers":
        from physr3.models.loading import load_model

        model, tokenizer = load_model(cfg.model)
        return TransformersEngine(model, tokenizer, batch_size=cfg.generation.batch_size)
    if name == "vllm":
        from physr3.models.vllm_engine import VLLMEngine

        return VLLMEngine.from_config(cfg.model)
    raise UserError(f"generation.engine={name!r}: expected auto, transformers, openvino or vllm")
