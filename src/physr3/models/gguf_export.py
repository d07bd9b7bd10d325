"""Write a Llama-architecture causal LM as an f16 GGUF file that OpenVINO GenAI (and llama.cpp) can load.

`write_llama_gguf(config, tensors, tokenizer_meta, path)` writes a model's CURRENT weights: a plain
transformers model (`model_tensors`) or a PEFT model with one adapter merged on the fly
(`merged_lora_tensors`: W + ΔW in fp32, no copy of the model). `LlamaGGUFExporter` does the same again and
again for a training policy, reusing what does not change. The layout is what llama.cpp's
`convert_hf_to_gguf.py --outtype f16` produces for `LlamaForCausalLM`, through the `gguf` package's writer
and tensor-name map:

- matrices in f16, 1-D tensors (the RMS norms) in f32;
- q_proj and k_proj rows permuted from the Hugging Face rotary layout (two halves) to GGUF's (interleaved
  pairs), `permute()` below, the same permutation llama.cpp applies and transformers' GGUF reader undoes;
- tied embeddings: no `output.weight` (readers then use `token_embd.weight` for the LM head);
- the tokenizer as GGUF metadata (`tokenizer.ggml.*`): byte-level BPE only (`tokenizer.ggml.model = gpt2`,
  tokens in id order, merges, special-token ids, chat template). physr3 feeds token ids to the engine, so the
  GGUF tokenizer only detokenizes (for stop strings); the ids come from the Hugging Face tokenizer.

Deliberately narrow: Llama-family models (LlamaForCausalLM, e.g. SmolLM2, the test fixture) without rope
scaling or biases; anything else raises `GGUFExportError` and the caller falls back to the transformers
engine. Measured on the 135M model on the busy 2-core development machine: a first write 1.9 s (half of it
packing the 49k-token vocabulary), a repeated write of a policy with every linear layer adapted 1.4 s.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

SUPPORTED_ARCHITECTURES = ("LlamaForCausalLM",)


class GGUFExportError(RuntimeError):
    """The model cannot be written as a GGUF this module knows how to write."""


def permute(weights: np.ndarray, n_head: int) -> np.ndarray:
    """HF rotary layout (first half / second half of each head) -> GGUF's interleaved pairs (llama.cpp's
    `LlamaModel.permute`); `n_head` is the number of heads the rows belong to (KV heads for k_proj)."""
    return (weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
            .swapaxes(1, 2)
            .reshape(weights.shape))


def check_exportable(config: Any) -> None:
    """Raise `GGUFExportError` naming the reason when `config` is not a Llama model this writer handles."""
    archs = list(getattr(config, "architectures", None) or [])
    if getattr(config, "model_type", None) != "llama" or (archs and archs[0] not in SUPPORTED_ARCHITECTURES):
        raise GGUFExportError(f"only Llama models are exported to GGUF (got model_type={config.model_type!r}, "
                              f"architectures={archs})")
    rope = getattr(config, "rope_parameters", None) or getattr(config, "rope_scaling", None) or {}
    if rope.get("rope_type", "default") not in ("default", None):
        raise GGUFExportError(f"rope scaling {rope.get('rope_type')!r} is not exported")
    if getattr(config, "attention_bias", False) or getattr(config, "mlp_bias", False):
        raise GGUFExportError("Llama variants with biases are not exported")
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    if head_dim * config.num_attention_heads != config.hidden_size:
        raise GGUFExportError("head_dim * num_attention_heads != hidden_size is not exported")


def _rope_theta(config: Any) -> float:
    rope = getattr(config, "rope_parameters", None) or {}
    return float(rope.get("rope_theta", getattr(config, "rope_theta", 10000.0)))


# ------------------------------------------------------------------------------------------------- tokenizer
def tokenizer_metadata(tokenizer: Any, vocab_size: int) -> dict[str, Any]:
    """The `tokenizer.ggml.*` fields of a byte-level BPE Hugging Face tokenizer (raises otherwise)."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        raise GGUFExportError("only fast (tokenizers-backed) tokenizers are exported")
    spec = json.loads(backend.to_str())
    model = spec.get("model", {})
    if model.get("type") != "BPE" or "ByteLevel" not in json.dumps(spec.get("pre_tokenizer")):
        raise GGUFExportError("only byte-level BPE tokenizers are exported to GGUF")
    merges = [m if isinstance(m, str) else " ".join(m) for m in model.get("merges", [])]
    n = max(vocab_size, len(tokenizer))
    tokens = [f"[PAD{i}]" for i in range(n)]
    types = [5] * n  # gguf.TokenType.UNUSED for ids the tokenizer does not define
    for token, i in model["vocab"].items():
        if i < n:
            tokens[i], types[i] = token, 1  # NORMAL
    for i, added in getattr(tokenizer, "added_tokens_decoder", {}).items():
        if i < n:
            tokens[i] = added.content
            types[i] = 3 if added.special else 4  # CONTROL | USER_DEFINED
    pre = spec.get("pre_tokenizer") or {}
    # GGUF names the pre-tokenizer's split pattern. OpenVINO's GGUF tokenizer reproduces a plain byte-level
    # (GPT-2 pattern) pre-tokenizer under "smollm" (checked: SmolLM2's prompts encode to the same ids; "gpt-2"
    # and "default" split " <" differently). Others get "default"; physr3 feeds ids, so only decoding matters.
    plain = pre.get("type") == "ByteLevel" and pre.get("use_regex", True)
    meta: dict[str, Any] = {"tokens": tokens, "token_type": types, "merges": merges,
                            "pre": "smollm" if plain else "default"}
    for field, attr in (("bos_token_id", "bos_token_id"), ("eos_token_id", "eos_token_id"),
                        ("unknown_token_id", "unk_token_id"), ("padding_token_id", "pad_token_id")):
        value = getattr(tokenizer, attr, None)
        if isinstance(value, int):
            meta[field] = value
    template = getattr(tokenizer, "chat_template", None)
    meta["chat_template"] = template if isinstance(template, str) else None
    return meta


# ------------------------------------------------------------------------------------------------- tensors
def model_tensors(model: Any) -> Iterator[tuple[str, Any]]:
    """(Hugging Face name, tensor) of a plain transformers model's weights."""
    yield from model.state_dict().items()


def merged_lora_tensors(peft_model: Any, adapter_name: str) -> Iterator[tuple[str, Any]]:
    """(plain Hugging Face name, tensor) of a PEFT model with ONE adapter merged: W + ΔW computed in fp32 for
    the adapted layers, the base weights elsewhere. Nothing is merged in place and no copy of the model is
    made (the delta of one layer at a time), so training continues on the unmerged adapter."""
    import torch
    from peft.tuners.lora import LoraLayer

    inner = peft_model.base_model.model
    merged: dict[str, Any] = {}
    for name, module in inner.named_modules():
        if isinstance(module, LoraLayer) and adapter_name in module.lora_A:
            merged[f"{name}.base_layer.weight"] = module
    with torch.no_grad():
        for name, tensor in inner.state_dict().items():
            if "lora_" in name:
                continue
            module = merged.get(name)
            if module is not None:
                delta = module.get_delta_weight(adapter_name).to(torch.float32)
                tensor = module.base_layer.weight.to(torch.float32) + delta
            yield name.replace(".base_layer.", "."), tensor


def adapted_names(peft_model: Any, adapter_name: str) -> set[str]:
    """Plain Hugging Face names of the weights `merged_lora_tensors` recomputes (the rest never changes)."""
    from peft.tuners.lora import LoraLayer

    return {f"{name}.weight" for name, module in peft_model.base_model.model.named_modules()
            if isinstance(module, LoraLayer) and adapter_name in module.lora_A}


# ------------------------------------------------------------------------------------------------- writer
class LlamaGGUFExporter:
    """Writes one Llama model as an f16 GGUF, again and again (a training policy after every update).

    The first `write` goes through the `gguf` package's writer. It keeps the bytes before the tensor data
    (header, metadata with the ~49k-token vocabulary, tensor infos: packing them is half of a write) and each
    tensor's offset; later writes of the same layout reuse them, and tensors named in `static` (weights that
    do not change between writes: the frozen base outside the adapted layers) keep their converted bytes, so
    only the adapted layers are converted again. Every write goes to a temporary file that is then renamed.
    """

    def __init__(self, config: Any, tokenizer_meta: dict[str, Any], name: str = "physr3-export"):
        check_exportable(config)
        self.config, self.meta, self.name = config, tokenizer_meta, name
        self._layout: list[tuple[str, tuple[int, ...], str, int]] | None = None  # (name, shape, dtype, offset)
        self._prefix = b""
        self._size = 0
        self._static: dict[str, np.ndarray] = {}

    def _arrays(self, tensors: Iterable[tuple[str, Any]], static: set[str]) -> Iterator[tuple[str, np.ndarray]]:
        """(GGUF name, array in its GGUF dtype and layout) per tensor."""
        import gguf
        import torch

        config = self.config
        n_head, n_kv = config.num_attention_heads, config.num_key_value_heads
        tied = bool(getattr(config, "tie_word_embeddings", False))
        names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, config.num_hidden_layers)
        with torch.no_grad():
            for hf_name, tensor in tensors:
                if hf_name.endswith("rotary_emb.inv_freq") or (tied and hf_name == "lm_head.weight"):
                    continue
                new_name = names.get_name(hf_name, try_suffixes=(".weight", ".bias"))
                if new_name is None:
                    raise GGUFExportError(f"no GGUF name for tensor {hf_name!r}")
                if hf_name in static and new_name in self._static:
                    yield new_name, self._static[new_name]
                    continue
                data = tensor.detach().to(torch.float32).cpu().numpy()
                if hf_name.endswith("q_proj.weight"):
                    data = permute(data, n_head)
                elif hf_name.endswith("k_proj.weight"):
                    data = permute(data, n_kv)
                data = np.ascontiguousarray(data.astype(np.float16 if data.ndim > 1 else np.float32))
                if hf_name in static:
                    self._static[new_name] = data
                yield new_name, data

    def write(self, tensors: Iterable[tuple[str, Any]], path: str | os.PathLike, static: set[str] = frozenset()) -> Path:
        """Write `tensors` (Hugging Face names, e.g. `model_tensors(model)` or `merged_lora_tensors(...)`) at
        `path`; `static` names tensors whose values are the same as in the previous write."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        arrays = list(self._arrays(tensors, set(static)))
        layout = [(n, tuple(a.shape), a.dtype.str) for n, a in arrays]
        try:
            if self._layout is not None and [row[:3] for row in self._layout] == layout:
                with open(tmp, "wb") as fh:
                    fh.write(self._prefix)
                    for (_, _, _, offset), (_, data) in sorted(zip(self._layout, arrays), key=lambda r: r[0][3]):
                        if fh.tell() > offset:  # pragma: no cover - the layout was checked above
                            raise GGUFExportError("tensor data overlaps: layout changed")
                        fh.write(b"\0" * (offset - fh.tell()))
                        data.tofile(fh)
                    fh.write(b"\0" * (self._size - fh.tell()))
            else:
                self._write_full(arrays, tmp)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return path

    def _write_full(self, arrays: list[tuple[str, np.ndarray]], tmp: Path) -> None:
        import gguf

        config, meta = self.config, self.meta
        n_head = config.num_attention_heads
        head_dim = getattr(config, "head_dim", None) or config.hidden_size // n_head
        writer = gguf.GGUFWriter(str(tmp), "llama")
        writer.add_type(gguf.GGUFType.MODEL)
        writer.add_name(self.name)
        writer.add_block_count(config.num_hidden_layers)
        writer.add_context_length(int(config.max_position_embeddings))
        writer.add_embedding_length(int(config.hidden_size))
        writer.add_feed_forward_length(int(config.intermediate_size))
        writer.add_head_count(n_head)
        writer.add_head_count_kv(config.num_key_value_heads)
        writer.add_rope_freq_base(_rope_theta(config))
        writer.add_layer_norm_rms_eps(float(config.rms_norm_eps))
        writer.add_vocab_size(int(config.vocab_size))
        writer.add_rope_dimension_count(int(head_dim))
        writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
        writer.add_tokenizer_model("gpt2")
        writer.add_tokenizer_pre(meta.get("pre", "default"))
        writer.add_token_list(meta["tokens"])
        writer.add_token_types(meta["token_type"])
        writer.add_token_merges(meta["merges"])
        for field, add in (("bos_token_id", writer.add_bos_token_id), ("eos_token_id", writer.add_eos_token_id),
                           ("unknown_token_id", writer.add_unk_token_id),
                           ("padding_token_id", writer.add_pad_token_id)):
            if field in meta:
                add(meta[field])
        writer.add_add_bos_token(False)  # physr3 passes token ids; the chat template writes its own tokens
        if meta.get("chat_template"):
            writer.add_chat_template(meta["chat_template"])
        writer.add_quantization_version(gguf.GGML_QUANT_VERSION)
        for name, data in arrays:
            writer.add_tensor(name, data)
        try:
            writer.write_header_to_file()
            writer.write_kv_data_to_file()
            writer.write_tensors_to_file()
        finally:
            writer.close()
        reader = gguf.GGUFReader(str(tmp))
        offsets = {t.name: int(t.data_offset) for t in reader.tensors}
        del reader
        self._layout = [(n, tuple(a.shape), a.dtype.str, offsets[n]) for n, a in arrays]
        with open(tmp, "rb") as fh:
            self._prefix = fh.read(min(offsets.values()))
        self._size = tmp.stat().st_size


def write_llama_gguf(config: Any, tensors: Iterable[tuple[str, Any]], tokenizer_meta: dict[str, Any],
                     path: str | os.PathLike, name: str = "physr3-export") -> Path:
    """Write `tensors` (Hugging Face names) of a Llama model with `config` as an f16 GGUF at `path`, once
    (`LlamaGGUFExporter` for repeated writes). `tokenizer_meta` comes from `tokenizer_metadata`."""
    return LlamaGGUFExporter(config, tokenizer_meta, name).write(tensors, path)
