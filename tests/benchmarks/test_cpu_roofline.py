"""benchmarks/cpu_roofline.py: its layer list counts exactly the multiply-adds a decode step's linear layers do, and
the OpenVINO chain it times compiles and runs (on a tiny random Llama config; the timing itself is the script's)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("cpu_roofline", ROOT / "benchmarks" / "cpu_roofline.py")
roofline = importlib.util.module_from_spec(spec)
spec.loader.exec_module(roofline)


def _tiny_config() -> LlamaConfig:
    return LlamaConfig(vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, tie_word_embeddings=True)


def test_multiply_adds_equal_the_models_linear_weights():
    config = _tiny_config()
    model = LlamaForCausalLM(config)
    linear = sum(m.weight.numel() for m in model.modules() if isinstance(m, torch.nn.Linear))
    assert roofline.multiply_adds_per_token(config) == linear  # the tied LM head is a Linear too
    # grouped-query attention: k and v project to fewer features than q
    assert (32, 16) in roofline.linear_shapes(config)


def test_openvino_chain_runs_at_the_requested_batch():
    pytest.importorskip("openvino")
    tok_s, precision = roofline.openvino_linear_tok_s(_tiny_config(), batch=4, threads=1, min_seconds=0.05)
    assert tok_s > 0 and precision


def test_torch_chain_runs():
    assert roofline.torch_linear_tok_s(_tiny_config(), batch=4, threads=1, min_seconds=0.05) > 0


def test_the_workload_bound_charges_prefill_and_decode():
    assert roofline.workload_bound(8, 0, 100, prefill_tok_s=1000, decode_tok_s=400) == pytest.approx(400)
    # 8 prompts of 450 tokens: 3.6 s of prefill, then 2 s of decoding 800 tokens
    assert roofline.workload_bound(8, 450, 100, prefill_tok_s=1000, decode_tok_s=400) == pytest.approx(800 / 5.6)
