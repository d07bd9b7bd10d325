"""Generate from a LoRA adapter at the speed of a plain model: merged copies of the weights.

An unmerged LoRA layer adds a few small operations to every adapted linear layer at every decoding step;
with a 135M model on a CPU, where each step is many small operations, that costs about a third of the
decoding time (benchmarks/generation.py `--adapter`: 60.1 tokens/s unmerged, 89.0 merged, batch 8). Two ways
around it, one per use:

- `merged_copy(base, adapter_path)`: a plain model with W + ΔW for evaluation (the adapter is fixed).
- `MergedPolicyEngine`: for training, a mirror of the policy whose adapted weights are rewritten as
  W + ΔW_policy before every `generate` call, so rollouts always sample the current policy. This is what RL
  trainers that sample with vLLM do (weights synced to the inference engine). The training model itself is
  never merged: merging and unmerging in place in bf16 would drift the frozen base weights, which the
  reference adapter shares.

Merged and unmerged forward passes agree up to the rounding of W + ΔW in the mirror's dtype (logits within
~2e-5 in fp32 on the tiny test model; in bf16 the sum W + ΔW is formed in fp32 and rounded to bf16 once);
the refine loss is computed with the unmerged policy, as before. The mirror's dtype is the model's unless
`dtype` says otherwise (`train.mirror_dtype`): an fp32 mirror of a bf16 model holds W + ΔW exactly, at twice
the memory and slower decoding. The refine loop measures the resulting sampled-vs-trained gap every step
(`logp_gap` in metrics.jsonl). Measured with benchmarks/train_step.py on the embedded model with a Stage 1
adapter (2 steps of 2 problems, 64-token attempts, lr 5e-6, a busy 2-core CPU): bf16 model, bf16 mirror
1.8e-2 / 1.4e-2 nats per token at steps 1 / 2; bf16 model, fp32 mirror 1.8e-2 / 1.3e-2 (and ~40% slower
steps); fp32 model and mirror 1.0e-6 / 0.9e-6. The bf16 gap is bf16 arithmetic (cached batched decoding
vs one full forward), not the rounding of W + ΔW, so the default mirror is the model's own dtype.
"""

from __future__ import annotations

import copy
from typing import Any

import torch

from physr3.models.engine import TransformersEngine
from physr3.models.types import Completion, Conversation, SamplingParams


def merged_copy(base: Any, adapter_path: str) -> Any:
    """A plain copy of `base` with the adapter at `adapter_path` merged in; `base` is left untouched."""
    from peft import PeftModel

    merged = PeftModel.from_pretrained(copy.deepcopy(base), adapter_path).merge_and_unload()
    return merged.eval()


class MergedMirror:
    """A plain copy of a PEFT model's base whose adapted layers hold W + ΔW of one adapter (`sync()`)."""

    def __init__(self, peft_model: Any, adapter_name: str, dtype: torch.dtype | None = None):
        from peft.tuners.lora import LoraLayer

        self.adapter_name = adapter_name
        inner = peft_model.base_model.model  # the transformers model, with LoRA layers injected
        layers = [(name, module) for name, module in inner.named_modules()
                  if isinstance(module, LoraLayer) and adapter_name in module.lora_A]
        if not layers:
            raise ValueError(f"adapter {adapter_name!r} adapts no layer of this model")
        self.model = copy.deepcopy(peft_model).merge_and_unload(adapter_names=[adapter_name]).eval()
        if dtype is not None:
            self.model.to(dtype)
        for param in self.model.parameters():
            param.requires_grad_(False)
        self.pairs = [(layer, self.model.get_submodule(name)) for name, layer in layers]  # (LoRA layer, merged)
        self.sync()

    @torch.no_grad()
    def sync(self) -> None:
        """Rewrite every adapted weight as the (frozen) base weight plus the adapter's current delta."""
        for layer, target in self.pairs:
            delta = layer.get_delta_weight(self.adapter_name)
            # Sum in fp32 and round once to the mirror's dtype (not ΔW rounded first, then the sum again).
            target.weight.copy_(layer.base_layer.weight.float() + delta.float())


class MergedPolicyEngine:
    """`Engine` that samples from the current weights of one adapter through a merged mirror."""

    def __init__(self, peft_model: Any, adapter_name: str, tokenizer: Any, batch_size: int,
                 dtype: torch.dtype | None = None):
        self.mirror = MergedMirror(peft_model, adapter_name, dtype)
        self.inner = TransformersEngine(self.mirror.model, tokenizer, batch_size=batch_size)

    def generate(self, conversations: list[Conversation], params: SamplingParams) -> list[Completion]:
        self.mirror.sync()
        return self.inner.generate(conversations, params)

    def generate_ids(self, prompts: list[list[int]], params: SamplingParams) -> list[Completion]:
        self.mirror.sync()
        return self.inner.generate_ids(prompts, params)
