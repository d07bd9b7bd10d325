"""Model loading: local folders, dtype/device resolution, system prompt, adapters, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from physr3.config import ModelConfig
from physr3.errors import UserError
from physr3.models import loading
from physr3.models.loading import (
    load_model,
    resolve_dtype,
    resolve_model_path,
    with_system_prompt,
)

SMOL_DEFAULT = "You are a helpful AI assistant named SmolLM"


def cfg_for(path: str, **kw) -> ModelConfig:
    return ModelConfig(name_or_path=path, device="cpu", **kw)


def test_load_local_folder(tiny_model) -> None:
    model, tokenizer = tiny_model
    assert model.config.num_hidden_layers == 2 and model.dtype == torch.float32
    assert not model.training
    assert tokenizer.pad_token_id is not None


def test_auto_dtype_follows_cpu_capability(tiny_model_dir: str) -> None:
    expected = torch.bfloat16 if loading.cpu_supports_bf16() else torch.float32
    assert resolve_dtype("auto", "cpu") == expected
    assert resolve_dtype("auto", "cuda") == torch.bfloat16
    assert resolve_dtype("float16", "cpu") == torch.float16
    model, _ = load_model(cfg_for(tiny_model_dir, dtype="auto"))
    assert model.dtype == expected


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"dtype": "fp8"}, r"model.dtype='fp8': expected one of auto, bfloat16, float32, float16"),
        ({"device": "tpu"}, r"model.device='tpu'"),
    ],
)
def test_bad_dtype_or_device(tiny_model_dir: str, kwargs: dict, match: str) -> None:
    with pytest.raises(UserError, match=match):
        load_model(ModelConfig(name_or_path=tiny_model_dir, **{"device": "cpu", **kwargs}))


def test_cuda_device_refused_without_cuda() -> None:
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(UserError, match="CUDA is not available"):
        loading.resolve_device("cuda")


def test_missing_path(tmp_path: Path) -> None:
    for name in (str(tmp_path / "nope"), "./no/such/model", "a/b/c"):
        with pytest.raises(UserError, match="no such folder") as info:
            load_model(cfg_for(name))
        assert "\n" not in str(info.value)


def test_file_and_folder_without_config(tmp_path: Path) -> None:
    (tmp_path / "weights.bin").write_bytes(b"x")
    with pytest.raises(UserError, match="is a file"):
        resolve_model_path(cfg_for(str(tmp_path / "weights.bin")))
    with pytest.raises(UserError, match="no config.json"):
        load_model(cfg_for(str(tmp_path)))


def test_folder_that_is_not_a_causal_lm(tmp_path: Path) -> None:
    from transformers import ViTConfig

    ViTConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64).save_pretrained(tmp_path)
    with pytest.raises(UserError, match="not a causal language model") as info:
        load_model(cfg_for(str(tmp_path)))
    assert "\n" not in str(info.value)


def test_unknown_hub_id_offline() -> None:
    with pytest.raises(UserError, match="cannot load"):
        load_model(cfg_for("physr3-test/definitely-not-a-model"))


def test_system_prompt_replaces_default(tiny_model, tiny_system_prompt: str) -> None:
    _, tokenizer = tiny_model
    text = tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False, add_generation_prompt=True)
    assert SMOL_DEFAULT not in text
    assert text.startswith(f"<|im_start|>system\n{tiny_system_prompt}<|im_end|>\n<|im_start|>user\nhi<|im_end|>")
    assert text.endswith("<|im_start|>assistant\n")
    own = tokenizer.apply_chat_template(
        [{"role": "system", "content": "Mine."}, {"role": "user", "content": "hi"}], tokenize=False
    )
    assert own.count("<|im_start|>system") == 1 and "Mine." in own and tiny_system_prompt not in own


def test_system_prompt_with_quotes_and_newlines(tiny_model_dir: str) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    assert SMOL_DEFAULT in tokenizer.apply_chat_template([{"role": "user", "content": "x"}], tokenize=False)
    prompt = "It's a \"test\" \\ with\nnewline {{ not jinja }}"
    tokenizer.chat_template = with_system_prompt(tokenizer.chat_template, prompt)
    text = tokenizer.apply_chat_template([{"role": "user", "content": "x"}], tokenize=False)
    assert f"<|im_start|>system\n{prompt}<|im_end|>" in text and SMOL_DEFAULT not in text


def test_empty_system_prompt_keeps_template(tiny_model_dir: str) -> None:
    _, tokenizer = load_model(cfg_for(tiny_model_dir, dtype="float32", system_prompt=""))
    assert SMOL_DEFAULT in tokenizer.apply_chat_template([{"role": "user", "content": "x"}], tokenize=False)


def test_adapter_round_trip_and_bad_adapter(tiny_model, tiny_model_dir: str, tmp_path: Path) -> None:
    from peft import LoraConfig, PeftModel, get_peft_model
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    peft = get_peft_model(base, LoraConfig(r=2, target_modules=["q_proj"], init_lora_weights=False))
    peft.save_pretrained(tmp_path / "adapter")
    model, _ = load_model(cfg_for(tiny_model_dir, dtype="float32", adapter=str(tmp_path / "adapter")))
    assert isinstance(model, PeftModel)
    ids = torch.tensor([[1, 2, 3, 4]])
    with torch.no_grad():
        assert not torch.allclose(model(ids).logits, tiny_model[0](ids).logits)
    with pytest.raises(UserError, match="not a PEFT adapter folder"):
        load_model(cfg_for(tiny_model_dir, dtype="float32", adapter=str(tmp_path / "missing")))


def test_embedded_conversion_is_atomic_and_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupted conversion leaves no folder; a finished one is reused without touching the GGUF."""
    import transformers

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", boom)
    with pytest.raises(KeyboardInterrupt):
        loading.ensure_embedded_model(tmp_path)
    models = tmp_path / "models"
    assert [p.name for p in models.iterdir() if not p.name.endswith(".lock")] == []

    target = loading.embedded_model_dir(tmp_path)
    target.mkdir(parents=True)
    (target / "config.json").write_text(json.dumps({"model_type": "llama"}))
    (target / loading._COMPLETE_MARKER).write_text("done")
    assert loading.ensure_embedded_model(tmp_path) == target  # cached: boom() is never called


def test_embedded_gguf_is_found() -> None:
    path = loading.embedded_gguf_path()
    assert path.name == loading.EMBEDDED_GGUF and path.stat().st_size > 50_000_000
