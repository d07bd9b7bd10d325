"""Merged copies of LoRA adapters compute what the unmerged adapter computes, and leave the source alone."""

from __future__ import annotations

import copy

import torch
from transformers import AutoModelForCausalLM

from physr3.config import LoraConfig
from physr3.models.engine import TransformersEngine
from physr3.models.merged import MergedMirror, MergedPolicyEngine, merged_copy
from physr3.models.types import SamplingParams
from physr3.train.adapters import (
    POLICY,
    REFERENCE,
    policy_and_reference,
    reference_active,
    trainable_parameters,
)

X = torch.tensor([[5, 17, 200, 3, 44, 91, 7]])


def _policy(tiny_model_dir: str):
    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    model = policy_and_reference(base, None, LoraConfig(r=4, alpha=8))
    torch.manual_seed(1)
    for p in trainable_parameters(model):  # B starts at zero: give the policy a real delta
        p.data.normal_(0, 0.2)
    return model


def _logits(model, x=X):
    with torch.no_grad():
        return model(x).logits


def test_mirror_follows_the_policy_after_every_update(tiny_model_dir: str) -> None:
    model = _policy(tiny_model_dir)
    base_weights = {n: p.clone() for n, p in model.named_parameters() if "base_layer" in n}
    mirror = MergedMirror(model, POLICY)
    assert torch.allclose(_logits(mirror.model), _logits(model), atol=1e-4)

    opt = torch.optim.SGD(trainable_parameters(model), lr=0.5)
    model(X).logits.square().mean().backward()
    opt.step()
    stale = _logits(mirror.model)
    mirror.sync()
    assert not torch.allclose(stale, _logits(model), atol=1e-4), "the update must change the policy"
    assert torch.allclose(_logits(mirror.model), _logits(model), atol=1e-4)
    with reference_active(model):  # the reference adapter is not what the mirror holds
        assert not torch.allclose(_logits(mirror.model), _logits(model), atol=1e-4)
    for n, p in model.named_parameters():  # the training model's frozen base is untouched
        if "base_layer" in n:
            assert torch.equal(p, base_weights[n]), n
    assert model.active_adapter == POLICY and REFERENCE in model.peft_config


def test_merged_policy_engine_generates_what_the_unmerged_policy_generates(tiny_model_dir: str, tiny_model) -> None:
    _, tokenizer = tiny_model
    model = _policy(tiny_model_dir)
    convs = [[{"role": "user", "content": q}] for q in ("Find the speed.", "State Ohm's law, then use it.")]
    params = SamplingParams(max_new_tokens=12, temperature=0.0, stop=())
    merged = MergedPolicyEngine(model, POLICY, tokenizer, batch_size=2).generate(convs, params)
    unmerged = TransformersEngine(model, tokenizer, batch_size=2).generate(convs, params)
    assert [c.token_ids for c in merged] == [c.token_ids for c in unmerged]


def test_merged_copy_of_a_saved_adapter(tiny_model_dir: str, tmp_path) -> None:
    model = _policy(tiny_model_dir)
    model.save_pretrained(tmp_path, selected_adapters=[POLICY])
    folder = tmp_path / POLICY if (tmp_path / POLICY).is_dir() else tmp_path
    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    pristine = copy.deepcopy(base.state_dict())
    merged = merged_copy(base, str(folder))
    assert not hasattr(merged, "peft_config")
    assert torch.allclose(_logits(merged), _logits(model), atol=1e-4)
    assert all(torch.equal(v, pristine[k]) for k, v in base.state_dict().items()), "the base must stay unmerged"
