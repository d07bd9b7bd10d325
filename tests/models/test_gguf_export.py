"""The f16 GGUF writer on the tiny random Llama, read back by an independent reader (transformers' GGUF loader)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, GPT2Config

from physr3.models.gguf_export import (
    GGUFExportError,
    check_exportable,
    merged_lora_tensors,
    model_tensors,
    permute,
    tokenizer_metadata,
    write_llama_gguf,
)

X = torch.tensor([[1, 17, 2045, 33, 980, 4, 512, 77, 9000, 12]])


@pytest.fixture(scope="module")
def tiny_gguf(tiny_model, tmp_path_factory):
    model, tokenizer = tiny_model
    path = tmp_path_factory.mktemp("gguf") / "tiny-f16.gguf"
    write_llama_gguf(model.config, model_tensors(model), tokenizer_metadata(tokenizer, model.config.vocab_size), path)
    return path


def test_layout_types_and_metadata(tiny_gguf, tiny_model) -> None:
    import gguf

    model, tokenizer = tiny_model
    reader = gguf.GGUFReader(str(tiny_gguf))
    tensors = {t.name: t for t in reader.tensors}
    assert "output.weight" not in tensors  # tied embeddings: the reader uses token_embd for the head
    assert tensors["token_embd.weight"].tensor_type == gguf.GGMLQuantizationType.F16
    assert tensors["blk.1.attn_q.weight"].tensor_type == gguf.GGMLQuantizationType.F16
    assert tensors["blk.0.attn_norm.weight"].tensor_type == gguf.GGMLQuantizationType.F32
    assert len(tensors) == 2 + 9 * model.config.num_hidden_layers
    fields = reader.fields
    assert fields["general.architecture"].contents() == "llama"
    assert fields["llama.attention.head_count_kv"].contents() == 2
    assert fields["tokenizer.ggml.eos_token_id"].contents() == tokenizer.eos_token_id
    assert len(fields["tokenizer.ggml.tokens"].data) == model.config.vocab_size
    k = tensors["blk.0.attn_k.weight"].data  # stored permuted: HF rotary halves -> interleaved pairs
    hf_k = model.model.layers[0].self_attn.k_proj.weight.detach().numpy()
    assert np.allclose(k, permute(hf_k, 2).astype(np.float16))
    assert not np.allclose(k, hf_k.astype(np.float16))


def test_transformers_reads_it_back_to_the_same_model(tiny_gguf, tiny_model) -> None:
    """transformers' own GGUF loader (which undoes llama.cpp's q/k permutation) gives the same logits up to
    f16 rounding, and its tokenizer from the GGUF metadata encodes like the original."""
    model, tokenizer = tiny_model
    back = AutoModelForCausalLM.from_pretrained(tiny_gguf.parent, gguf_file=tiny_gguf.name, dtype=torch.float32)
    with torch.no_grad():
        a, b = model(X).logits, back(X).logits
    assert torch.allclose(a, b, atol=2e-2), (a - b).abs().max()
    assert torch.equal(a.argmax(-1), b.argmax(-1))
    tok = AutoTokenizer.from_pretrained(tiny_gguf.parent, gguf_file=tiny_gguf.name)
    text = "A 2.0 kg block: F = m a, so a = 5.0 m/s^2 <final_answer>"
    assert tok(text, add_special_tokens=False)["input_ids"] == tokenizer(text, add_special_tokens=False)["input_ids"]


def test_merged_lora_tensors_equal_peft_merge(tiny_model_dir) -> None:
    from physr3.config import LoraConfig
    from physr3.train.adapters import POLICY, policy_and_reference

    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    model = policy_and_reference(base, None, LoraConfig(r=4, alpha=8, dropout=0.0))
    torch.manual_seed(1)
    for name, p in model.named_parameters():
        if "lora_B" in name:
            p.data.normal_(0, 0.2)  # a non-zero delta
    ours = dict(merged_lora_tensors(model, POLICY))
    import copy

    expected = copy.deepcopy(model).merge_and_unload(adapter_names=[POLICY]).state_dict()
    assert ours.keys() == expected.keys()
    for name, value in expected.items():
        assert torch.allclose(ours[name].float(), value.float(), atol=1e-6), name
    assert not torch.allclose(ours["model.layers.0.self_attn.q_proj.weight"],
                              base.model.layers[0].self_attn.q_proj.base_layer.weight)


def test_non_llama_models_are_refused() -> None:
    with pytest.raises(GGUFExportError, match="only Llama"):
        check_exportable(GPT2Config(n_layer=1, n_embd=32, n_head=2))


def test_repeated_writes_equal_a_fresh_full_write(tiny_model_dir, tmp_path) -> None:
    """The exporter's fast path (kept header bytes, kept static tensors) writes the same bytes as a full write."""
    from physr3.config import LoraConfig
    from physr3.models.gguf_export import LlamaGGUFExporter, adapted_names
    from physr3.train.adapters import POLICY, policy_and_reference

    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = policy_and_reference(base, None, LoraConfig(r=4, alpha=8, dropout=0.0))
    meta = tokenizer_metadata(tok, base.config.vocab_size)
    static = {n.replace(".base_layer.", ".") for n in model.base_model.model.state_dict() if "lora_" not in n}
    static -= adapted_names(model, POLICY)
    assert "model.embed_tokens.weight" in static and "model.layers.0.self_attn.q_proj.weight" not in static
    exporter = LlamaGGUFExporter(base.config, meta)
    exporter.write(merged_lora_tensors(model, POLICY), tmp_path / "a.gguf", static)
    for name, p in model.named_parameters():
        if "lora_B" in name and f".{POLICY}." in name:
            p.data.normal_(0, 0.2)  # an update of the policy
    exporter.write(merged_lora_tensors(model, POLICY), tmp_path / "a.gguf", static)
    write_llama_gguf(base.config, merged_lora_tensors(model, POLICY), meta, tmp_path / "b.gguf")
    first = (tmp_path / "a.gguf").read_bytes()
    assert first == (tmp_path / "b.gguf").read_bytes()
