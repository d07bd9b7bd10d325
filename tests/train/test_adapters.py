"""Policy and reference adapters on one base: only the policy trains, the reference stays frozen."""

import torch
from transformers import LlamaConfig, LlamaForCausalLM

from physr3.config import LoraConfig
from physr3.train.adapters import POLICY, policy_and_reference, reference_active, trainable_parameters


def _model():
    torch.manual_seed(0)
    base = LlamaForCausalLM(LlamaConfig(vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                        num_attention_heads=4, num_key_value_heads=2))
    return policy_and_reference(base, None, LoraConfig())


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
