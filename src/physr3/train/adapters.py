"""Policy and frozen reference as two LoRA adapters on one base model.

The refine loop needs π_θ (trainable) and π_ref (the Stage 1 SFT checkpoint, frozen). Both are LoRA
adapters loaded from the same SFT folder onto one shared base, so the reference costs only the adapter's
memory. PEFT's `set_adapter(name)` makes `name` trainable; `reference_active` switches to the reference in
inference mode and back, and re-asserts which parameters train, so the optimizer only ever sees the policy.
`lora_autocast` runs the adapters' branches in the base model's half precision during the loss passes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import torch
from peft import LoraConfig as PeftLoraConfig
from peft import PeftModel, get_peft_model

from physr3.config import LoraConfig

POLICY, REFERENCE = "policy", "ref"


def peft_lora_config(cfg: LoraConfig) -> PeftLoraConfig:
    return PeftLoraConfig(r=cfg.r, lora_alpha=cfg.alpha, lora_dropout=cfg.dropout,
                          target_modules=list(cfg.target_modules), task_type="CAUSAL_LM")


def new_lora_model(base, cfg: LoraConfig, adapter_name: str = POLICY) -> PeftModel:
    """A fresh trainable LoRA adapter (B initialised to zero: the model starts as the base)."""
    return get_peft_model(base, peft_lora_config(cfg), adapter_name=adapter_name)


def policy_and_reference(base, sft_adapter: str | None, cfg: LoraConfig) -> PeftModel:
    """Load the SFT adapter twice: as the trainable policy and as the frozen reference.

    Without an SFT adapter (smoke tests, or skipping Stage 1) both start as the same fresh LoRA adapter.
    """
    if sft_adapter is None:
        model = new_lora_model(base, cfg, POLICY)
        with tempfile.TemporaryDirectory() as tmp:
            model.save_pretrained(tmp, selected_adapters=[POLICY])
            model.load_adapter(f"{tmp}/{POLICY}" if _nested(tmp) else tmp, adapter_name=REFERENCE,
                               is_trainable=False)
    else:
        model = PeftModel.from_pretrained(base, sft_adapter, adapter_name=POLICY, is_trainable=True)
        model.load_adapter(sft_adapter, adapter_name=REFERENCE, is_trainable=False)
    model.set_adapter(POLICY)
    _freeze_all_but_policy(model)
    return model


def save_policy_adapter(model: PeftModel, path) -> None:
    """Save the policy adapter as a plain adapter folder (PEFT nests a non-default name in a sub-folder),
    loadable by `PeftModel.from_pretrained(base, path)`; written to a temporary folder and renamed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
    try:
        model.save_pretrained(tmp, selected_adapters=[POLICY])
        src = tmp / POLICY if _nested(str(tmp)) else tmp
        if path.exists():
            shutil.rmtree(path)
        os.replace(src, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _nested(folder: str) -> bool:
    """PEFT saves a non-default adapter name into a sub-folder named after it."""
    return os.path.isdir(os.path.join(folder, POLICY))


def _freeze_all_but_policy(model: PeftModel) -> None:
    for name, param in model.named_parameters():
        param.requires_grad = f".{POLICY}." in name and "lora_" in name


def trainable_parameters(model: PeftModel) -> list[torch.nn.Parameter]:
    return [p for p in model.parameters() if p.requires_grad]


def lora_autocast(model: PeftModel, enabled: bool = True) -> contextlib.AbstractContextManager:
    """Inside the block, the LoRA branches of a bf16 (or fp16) base compute in that dtype; a no-op for an fp32 base.

    The adapter weights stay fp32 (the optimizer's master copy; PEFT keeps them fp32 by default). Without this,
    PEFT casts each adapted layer's input to fp32 and the sum back to the base's dtype: two copies of every
    activation per adapted projection, forward and backward (copies were 17.5% of a profiled bf16 update, 7.8%
    with this block). Here
    `torch.autocast` casts the small (r x d) weights to the base's dtype per matmul instead, and PEFT's input
    casting is off. The branch's output is then rounded to the base dtype before it is added (the base
    layer's own output is already rounded so), and the adapter's gradients come out of bf16 matmuls (cast to
    fp32 for the optimizer): both within the base dtype's rounding. Measured on the 2-core dev CPU (bf16, no
    AMX; benchmarks/update_step.py, demo SFT adapter on all seven projections): 10-13% less CPU time per
    update; 3.5% of the update in a refine step of the demo's shape, and 0.9 GB less peak RSS.
    """
    from peft.helpers import disable_input_dtype_casting

    base = next((p for n, p in model.named_parameters() if "lora_" not in n), None)
    if not enabled or base is None or base.dtype not in (torch.bfloat16, torch.float16):
        return contextlib.nullcontext()
    stack = contextlib.ExitStack()
    stack.enter_context(torch.autocast(base.device.type, dtype=base.dtype))
    stack.enter_context(disable_input_dtype_casting(model))
    return stack


@contextlib.contextmanager
def reference_active(model: PeftModel) -> Iterator[None]:
    """Run the frozen reference inside the block; the policy is active (and the only trainable) after."""
    model.set_adapter(REFERENCE, inference_mode=True)
    try:
        yield
    finally:
        model.set_adapter(POLICY)
        _freeze_all_but_policy(model)
