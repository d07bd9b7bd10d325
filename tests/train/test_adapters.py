"""Policy and reference adapters on one base: only the policy trains, the reference stays frozen."""

import torch
from transformers import LlamaConfig, LlamaForCausalLM

from physr3.config import LoraConfig
from physr3.train.adapters import (
    POLICY,
    lora_autocast,
    policy_and_reference,
    reference_active,
    trainable_parameters,
)


def _model(dtype=torch.float32):
    torch.manual_seed(0)
    base = LlamaForCausalLM(LlamaConfig(vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                        num_attention_heads=4, num_key_value_heads=2)).to(dtype)
    model = policy_and_reference(base, None, LoraConfig(target_modules=["q_proj", "v_proj", "up_proj", "down_proj"]))
    with torch.no_grad():  # a policy that differs from the base, so the branches matter
        for n, p in model.named_parameters():
            if p.requires_grad and "lora_B" in n:
                p.normal_(std=0.2)
    return model


def test_only_policy_lora_weights_train():
    model = _model()
    names = [n for n, p in model.named_parameters() if p.requires_grad]
    assert names and all(f".{POLICY}." in n and "lora_" in n for n in names)


def test_reference_stays_put_after_a_policy_update_and_switching_back_restores_training():
    model = _model()
    x = torch.randint(0, 50, (1, 6))
    with torch.no_grad(), reference_active(model):
        ref_before = model(x).logits
    opt = torch.optim.SGD(trainable_parameters(model), lr=1.0)
    for _ in range(2):
        model(x).logits.sum().backward()
        opt.step()
        opt.zero_grad()
    with torch.no_grad():
        policy_after = model(x).logits
    with torch.no_grad(), reference_active(model):
        assert not trainable_parameters(model)
        ref_after = model(x).logits
    assert torch.allclose(ref_before, ref_after)
    assert not torch.allclose(policy_after, ref_after)
    assert model.active_adapter == POLICY and trainable_parameters(model)


def test_sft_adapter_folder_loads_as_both(tmp_path):
    model = _model()
    for n, p in model.named_parameters():
        if p.requires_grad and "lora_B" in n:
            p.data.fill_(0.05)
    model.save_pretrained(tmp_path, selected_adapters=[POLICY])
    torch.manual_seed(0)
    base = LlamaForCausalLM(LlamaConfig(vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                        num_attention_heads=4, num_key_value_heads=2))
    reloaded = policy_and_reference(base, str(tmp_path / POLICY), LoraConfig())
    x = torch.randint(0, 50, (1, 6))
    with torch.no_grad():
        pol = reloaded(x).logits
        with reference_active(reloaded):
            ref = reloaded(x).logits
        assert torch.allclose(pol, ref) and torch.allclose(pol, model(x).logits, atol=1e-5)


def _loss_and_grads(model, x, autocast):
    """Logits, a loss and the policy's gradients, recording the dtype of what enters each adapter's lora_A."""
    seen = set()
    hooks = [m.register_forward_hook(lambda mod, args, out: seen.add(args[0].dtype))
             for n, m in model.named_modules() if n.endswith(f"lora_A.{POLICY}")]
    model.zero_grad(set_to_none=True)
    with lora_autocast(model, autocast):
        logits = model(x).logits
    logits.float().log_softmax(-1)[..., 3].sum().backward()
    for h in hooks:
        h.remove()
    return logits.float(), [p.grad.clone() for p in trainable_parameters(model)], seen


def test_lora_autocast_feeds_the_adapters_bf16_activations_and_keeps_fp32_weights_and_gradients():
    model = _model(torch.bfloat16)
    x = torch.randint(0, 50, (2, 12))
    assert {p.dtype for p in trainable_parameters(model)} == {torch.float32}  # the optimizer's master copy
    ref_logits, ref_grads, ref_seen = _loss_and_grads(model, x, autocast=False)
    logits, grads, seen = _loss_and_grads(model, x, autocast=True)
    assert ref_seen == {torch.float32} and seen == {torch.bfloat16}  # PEFT's fp32 cast of every input is gone
    assert all(g.dtype == torch.float32 for g in grads)
    # Same values up to bf16 rounding (relative ~2^-8 per op).
    assert torch.allclose(logits, ref_logits, atol=0.05, rtol=0.02)
    num = sum(float((g - r).norm() ** 2) for g, r in zip(grads, ref_grads)) ** 0.5
    den = sum(float(r.norm() ** 2) for r in ref_grads) ** 0.5
    assert den > 0 and num / den < 0.05
    # PEFT's input casting is back on after the block.
    assert _loss_and_grads(model, x, autocast=False)[2] == {torch.float32}


def test_lora_autocast_changes_nothing_on_an_fp32_model():
    model = _model(torch.float32)
    x = torch.randint(0, 50, (2, 12))
    ref_logits, ref_grads, _ = _loss_and_grads(model, x, autocast=False)
    logits, grads, seen = _loss_and_grads(model, x, autocast=True)
    assert seen == {torch.float32} and torch.equal(logits, ref_logits)
    assert all(torch.equal(g, r) for g, r in zip(grads, ref_grads))
