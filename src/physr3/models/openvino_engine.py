"""The `Engine` interface over OpenVINO GenAI on CPU, reading an f16 GGUF that physr3 writes itself.

Why this engine: generation is most of a refine step and nearly all of an evaluation, and on a CPU the
transformers engine runs far below the memory-bandwidth bound. OpenVINO GenAI's `ContinuousBatchingPipeline`
loads a GGUF directly (no exporter, no second transformers version), batches a whole list of requests itself
(a finished request's slot takes the next one) and was measured 1.7-3.9x faster than the transformers engine
on the busy 2-core development machine (README, benchmarks/generation.py --json). The GGUF is written by physr3.models.gguf_export from the model's
current weights, so the same path serves a fixed model (cached like the embedded model's conversion) and a
training policy (rewritten and reloaded after every optimizer step: `OpenVINOPolicyEngine`).

What a `Completion` holds is what `TransformersEngine` gives (same trimming code): token ids exactly as
sampled (prompts go in as token ids from `physr3.prompts.encode_prompt`, never re-tokenized text), cut after
end-of-sequence or the token completing a stop string; `text` decoded by the Hugging Face tokenizer; the
finish reason. Sampling: greedy at temperature 0, else temperature + top-p (top-k off); request i of a call
uses seed `seed + i` (like the vLLM engine), so a call is reproducible whatever the batch composition.

Deviations, measured with openvino-genai 2026.4.1:
- Per-token log-probs are NOT exposed: with `GenerationConfig.logprobs = 1` a result carries only the
  sequence's cumulative log-probability (`m_scores`, under the raw distribution: temperature 1, no top-p;
  checked against a teacher-forced fp32 forward pass). `Completion.logprobs` stays None; the refine loss
  scores the sampled ids with the training model anyway (physr3.train.logprobs). The self-check uses the
  cumulative value: gap = |sum engine - sum reference| / tokens, per sequence, averaged.
- Precision: "fast" is OpenVINO's default CPU inference precision (bf16 on CPUs with AVX512-BF16/AMX, f32
  elsewhere) on f16 weights; "exact" sets `INFERENCE_PRECISION_HINT=f32` (greedy output identical to the fp32
  transformers engine). A fast precision whose self-check gap exceeds `generation.openvino_max_logp_gap` is
  refused for training (and falls back for generation).
- Prefix caching (`generation.openvino_prefix_caching`, on by default; OpenVINO's own default is off): the
  pipeline keeps the KV blocks of prompts it has computed and reuses those of a shared prefix: the system
  prompt every solve prompt starts with and, in training, a revision prompt's first attempt (the revision
  prompt is built from its sampled ids, physr3.prompts.revision_prompt_ids; y1 and y2 are sampled by the same
  pipeline within a step, and a weight refresh starts an empty cache). The format instruction follows the
  question, so it is not part of the shared prefix. Blocks of generated tokens are reused too: the prefill of 4
  revision prompts (~700 tokens each, y1 = 128 sampled tokens) took 0.09 s after their first attempts, 0.45 s
  when only the solve prompts were cached (another y1), 1.73 s with caching off (one run, embedded model,
  1 thread, busy machine). Greedy outputs are identical with it on and off
  (tests/models/test_openvino_engine.py). The KV cache stays OpenVINO's dynamic one (`cache_size` and
  `num_kv_blocks` 0: it grows to what a call needs); the blocks kept for reuse were measured not to pile up:
  with the embedded model RSS stayed at 1416-1425 MB over 11 calls of 8 new ~500-token prompts (keeping
  every block would have added ~1 GB). A fixed `cache_size` is not set: in openvino-genai 2026.4 it seeds the
  pool without bounding it and disables the release of the cache after a call (openvino.genai issue #4481).
- Runtime LoRA adapters (`openvino_genai.Adapter`) on a GGUF-loaded pipeline were measured to have no effect
  (MEASUREMENTS.md), hence the merged re-export on every refresh.
- One sampler thread (`sampler_num_threads=1`; the ContinuousBatchingPipeline's default is one per core, OpenVINO's
  own LLMPipeline sets 1). The cause of the hang below, found with gdb in session 8: a sampler pool thread waited
  forever inside `Tokenizer::decode` (stop-string matching) for a detokenizer request that no thread held. The
  request queue (`CircularBufferQueue`, from OVMS) can lose a wake-up: `get_idle` sees no idle request and queues
  a promise under a second mutex, and a `return_to` that runs in between finds no promise and puts the request
  back unclaimed. Only concurrent decodes race, and with one sampler thread the decodes of a call run one after
  another. Not forced in a test (the window is a few instructions; 436 stress calls of 16 sampled prompts with
  stop strings ran through with the default); the watchdog stays as the net.
- A watchdog (`generation.openvino_stall_s`): `pipe.generate` runs in a worker thread (it releases the GIL) while
  the caller watches the process's CPU time. A call during which the process uses less than 1 s of CPU for that
  many seconds is taken as hung: one such call was seen once, at 0% CPU inside `pipe.generate`, in a CI run of a
  tiny-model eval test, and was not reproduced (a full test suite and 20 repeated evals of that test's shape ran
  through). Then this call and every later one go to the engine's `fallback` (the transformers engine its
  builder gives it), after one warning line, instead of a run that waits forever. Also, Ctrl-C now interrupts a
  long call at once (the caller waits in short joins instead of inside the C++ call).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from physr3.models.types import Completion, Conversation, SamplingParams

log = logging.getLogger(__name__)

PRECISIONS = {"fast": {}, "exact": {"INFERENCE_PRECISION_HINT": "f32"}}
SAMPLER_THREADS = 1  # see the module docstring: more threads can hang a call with stop strings
EXPORT_VERSION = "2"  # bump when gguf_export's output changes: invalidates cached exports and self-checks
GGUF_NAME = "model-f16.gguf"
CHECK_QUESTIONS = [
    "A 2.0 kg block is pushed by a 10 N horizontal force on a frictionless floor. What is its acceleration?",
    "A car accelerates uniformly from rest to 20 m/s in 5.0 s. How far does it travel in that time?",
    "A 5.0 ohm resistor carries a current of 2.0 A. What is the voltage across it?",
    "A stone is dropped from rest from a 45 m high cliff. How long does it take to reach the ground?",
    "A gas at 300 K and 1.0 atm is heated at constant volume to 450 K. What is its final pressure?",
    "A wave has frequency 50 Hz and wavelength 4.0 m. What is its speed?",
    "A 0.50 kg ball moves at 6.0 m/s. What is its kinetic energy?",
    "A photon has wavelength 500 nm. What is its energy in electronvolts?",
]


class OpenVINOUnavailable(RuntimeError):
    """The OpenVINO engine cannot be used here (not installed, model not exportable, failed self-check)."""


class OpenVINOStalled(OpenVINOUnavailable):
    """A generate call made no progress for `generation.openvino_stall_s` seconds (see the module docstring)."""


def openvino_available() -> tuple[bool, str]:
    """(usable, reason): openvino-genai importable."""
    if importlib.util.find_spec("openvino_genai") is None:
        return False, "openvino-genai is not installed (pip install openvino-genai, or `make install`)"
    return True, "ok"


def openvino_version() -> str:
    import openvino_genai

    return openvino_genai.get_version()


# ----------------------------------------------------------------------------------------------- engine
class OpenVINOEngine:
    """`Engine` over `openvino_genai.ContinuousBatchingPipeline` loaded from a GGUF file."""

    def __init__(self, gguf_path: str | os.PathLike, tokenizer: Any, precision: str = "fast",
                 eos_ids: set[int] | None = None, threads: int = 0, prefix_caching: bool = True,
                 stall_seconds: float = 120.0):
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
        self.tokenizer = tokenizer
        self.precision = precision
        self.threads = threads  # 0: OpenVINO's choice (all cores)
        self.prefix_caching = prefix_caching
        self.eos_ids = set(eos_ids) if eos_ids else ({tokenizer.eos_token_id} - {None})
        self.ignore_eos = False  # benchmarks only: decode to the token cap whatever the model emits
        self.stall_seconds = stall_seconds  # 0: no watchdog
        # Builds the engine that takes over after a hung call (the transformers engine over the same weights);
        # None: the hung call raises OpenVINOStalled instead.
        self.fallback: Callable[[], Any] | None = None
        self.fallen_back: Any = None  # the engine every call goes to once a call hung
        self._hung: list[tuple[threading.Thread, Any]] = []  # hung calls keep their pipeline: never freed
        self._ov_tokenizer = None
        self.pipe = None
        self.gguf_path = None
        self.load_seconds: list[float] = []
        self.load(gguf_path)

    def load(self, gguf_path: str | os.PathLike) -> None:
        """(Re)load the pipeline from a GGUF file. The OpenVINO tokenizer built on the first load is reused
        (building it from the GGUF's vocabulary is ~60% of a plain load: 2.6 s vs 1.0 s measured)."""
        import openvino_genai as og

        start = time.perf_counter()
        self.pipe = None  # free the old model before compiling the new one
        scheduler = og.SchedulerConfig()
        # Reuse the KV blocks of a prompt prefix computed before (the system prompt every solve prompt
        # starts with; a revision prompt's first attempt, computed in the same step). The KV cache is
        # OpenVINO's dynamic one (cache_size and num_kv_blocks 0), see the module docstring for its memory.
        scheduler.enable_prefix_caching = self.prefix_caching
        # The other CPU settings (KV-cache precision, prefill chunk max_num_batched_tokens, performance hints, CPU
        # pinning) were measured at batch 8 and gained nothing beyond noise: benchmarks/openvino_knobs.py.
        self.scheduler_config = scheduler
        props = dict(PRECISIONS[self.precision])
        # One sampler thread: see the module docstring (a lost wake-up in openvino-genai's tokenizer queue hangs
        # a call whose stop strings two sampler threads decode at once); OpenVINO's own LLMPipeline does the same.
        props["sampler_num_threads"] = SAMPLER_THREADS
        self.properties = props
        if self.threads:
            props["INFERENCE_NUM_THREADS"] = self.threads
        if self._ov_tokenizer is None:
            self.pipe = og.ContinuousBatchingPipeline(str(gguf_path), scheduler, "CPU", props)
            self._ov_tokenizer = self.pipe.get_tokenizer()
        else:
            self.pipe = og.ContinuousBatchingPipeline(str(gguf_path), self._ov_tokenizer, scheduler, "CPU", **props)
        self.gguf_path = str(gguf_path)
        self.load_seconds.append(time.perf_counter() - start)

    # -------------------------------------------------------------------------------------------- prompts
    def render(self, conversation: Conversation) -> str:
        return self.tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)

    def encode(self, conversation: Conversation) -> list[int]:
        from physr3.prompts import encode_prompt

        return encode_prompt(self.tokenizer, conversation)

    # -------------------------------------------------------------------------------------------- generation
    def generate(self, conversations: list[Conversation], params: SamplingParams) -> list[Completion]:
        return self.generate_ids([self.encode(c) for c in conversations], params)

    def generate_ids(self, prompts: list[list[int]], params: SamplingParams) -> list[Completion]:
        """Complete prompts given as token ids (all in one continuous-batching call), in the caller's order."""
        return self.run(prompts, params)[0]

    def run(self, prompts: list[list[int]], params: SamplingParams) -> tuple[list[Completion], list[float | None]]:
        """Completions and, when `params.return_logprobs`, each sequence's cumulative log-probability under the
        raw distribution as OpenVINO reports it (None otherwise)."""
        import numpy as np
        import openvino as ov

        if not prompts:
            return [], []
        if self.fallen_back is not None:
            return self.fallen_back.generate_ids(prompts, params), [None] * len(prompts)
        base_seed = params.seed if params.seed is not None else random.getrandbits(31)
        configs = [self._config(params, base_seed + i) for i in range(len(prompts))]
        inputs = [ov.Tensor(np.asarray([ids], dtype=np.int64)) for ids in prompts]
        try:
            results = self._generate_watched(inputs, configs)
        except OpenVINOStalled as exc:
            if self.fallback is None:
                raise
            log.warning("physr3: %s; this and every later call of the engine use the transformers engine", exc)
            self.fallen_back = self.fallback()
            return self.fallen_back.generate_ids(prompts, params), [None] * len(prompts)
        completions, scores = [], []
        for ids, result in zip(prompts, results):
            generated = [int(t) for t in result.m_generation_ids[0]]
            completion = self._completion(ids, generated, result, params.stop)
            score = float(result.m_scores[0]) if params.return_logprobs else None
            if score is not None and len(completion.token_ids) == len(generated):
                completion.sequence_logprob = score  # exact only when nothing generated was trimmed off
            completions.append(completion)
            scores.append(score)
        return completions, scores

    def _generate_watched(self, inputs: list[Any], configs: list[Any]) -> Any:
        """`pipe.generate` in a worker thread, watched through the process's CPU time (all threads): less than
        1 s of it (a tenth of a shorter window) in `stall_seconds` raises OpenVINOStalled; the hung call keeps its
        pipeline, the engine drops it."""
        if not self.stall_seconds:
            return self.pipe.generate(inputs, configs)
        pipe, box = self.pipe, {}

        def call() -> None:
            try:
                box["results"] = pipe.generate(inputs, configs)
            except BaseException as exc:  # raised again in the caller's thread
                box["error"] = exc

        worker = threading.Thread(target=call, name="physr3-openvino-generate", daemon=True)
        worker.start()
        progress = min(1.0, self.stall_seconds / 10)  # CPU seconds that count as progress (1 s at the default)
        cpu, since = time.process_time(), time.monotonic()
        while True:
            worker.join(min(5.0, self.stall_seconds / 4))
            if not worker.is_alive():
                break
            now_cpu, now = time.process_time(), time.monotonic()
            if now_cpu - cpu >= progress:
                cpu, since = now_cpu, now
            elif now - since >= self.stall_seconds:
                self._hung.append((worker, pipe))
                self.pipe = None
                raise OpenVINOStalled(f"an OpenVINO generate call used {now_cpu - cpu:.2f} s of CPU time in "
                                      f"{now - since:.0f} s (generation.openvino_stall_s={self.stall_seconds:g}): "
                                      "taken as hung")
        if "error" in box:
            raise box["error"]
        return box["results"]

    def _config(self, params: SamplingParams, seed: int) -> Any:
        import openvino_genai as og

        g = og.GenerationConfig()
        g.max_new_tokens = params.max_new_tokens
        g.do_sample = params.temperature > 0
        if g.do_sample:
            g.temperature = params.temperature
            g.top_p = params.top_p
            g.rng_seed = seed % (2 ** 32)
        eos = sorted(self.eos_ids)
        if eos:
            g.eos_token_id = eos[0]
            g.stop_token_ids = set(eos)
        g.ignore_eos = self.ignore_eos
        stops = {s for s in params.stop if s}
        if stops:
            g.stop_strings = stops
            g.include_stop_str_in_output = True
        g.logprobs = 1 if params.return_logprobs else 0
        return g

    def _completion(self, prompt_ids: list[int], generated: list[int], result: Any,
                    stops: tuple[str, ...]) -> Completion:
        import openvino_genai as og

        from physr3.models.engine import TransformersEngine

        if self.ignore_eos:
            return _make_completion(self._decode(generated), generated, "length", prompt_ids)
        # The reference engine's trimming (it needs only `eos_ids` and `_decode`), so both engines cut alike.
        token_ids, text, reason = TransformersEngine._cut(self, generated, stops)
        if result.finish_reasons and result.finish_reasons[0] == og.GenerationFinishReason.STOP:
            reason = "stop"
        return _make_completion(text, token_ids, reason, prompt_ids)

    def _decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True)


def _make_completion(text: str, token_ids: list[int], reason: str, prompt_ids: list[int]) -> Completion:
    """A Completion that carries the prompt ids it was sampled from."""
    return Completion(text, token_ids, reason, len(prompt_ids), None, prompt_ids=list(prompt_ids))


# ----------------------------------------------------------------------------------------------- self-check
@dataclass
class SelfCheck:
    """How faithfully the engine reproduces a reference transformers model (`run_self_check`)."""

    precision: str
    n_prompts: int
    n_tokens: int
    greedy_agree: int  # prompts whose greedy continuation equals the reference's argmax at every position
    mean_abs_logp_gap: float  # per token: |sum engine - sum reference| / tokens, averaged over prompts
    decode_agree: int  # prompts whose OpenVINO detokenization equals the Hugging Face decode (stop strings)
    reference_dtype: str
    seconds: float
    versions: dict[str, str] = field(default_factory=dict)
    encode_agree: int = -1  # prompts the GGUF's tokenizer encodes to our ids (informative: ids are fed in)

    def verdict(self, max_gap: float, need_greedy: bool) -> tuple[bool, str]:
        """(passed, reason). Exact precision must agree greedily on >= 7/8 of the prompts; every precision
        must keep the log-prob gap within `max_gap` and detokenize like the Hugging Face tokenizer."""
        if self.decode_agree < self.n_prompts:
            return False, f"OpenVINO detokenizes {self.n_prompts - self.decode_agree}/{self.n_prompts} checks differently"
        if self.mean_abs_logp_gap > max_gap:
            return False, (f"mean |Δ log-prob| {self.mean_abs_logp_gap:.4f}/token at precision {self.precision} "
                           f"exceeds generation.openvino_max_logp_gap={max_gap}")
        if need_greedy and self.greedy_agree * 8 < 7 * self.n_prompts:
            return False, f"greedy output agrees on only {self.greedy_agree}/{self.n_prompts} prompts"
        return True, "ok"


def run_self_check(engine: OpenVINOEngine, model: Any, n_tokens: int = 64,
                   questions: list[str] | None = None) -> SelfCheck:
    """Greedy continuations of fixed solve prompts by the engine, scored by `model` (teacher forcing, one
    forward pass per prompt): greedy agreement position by position and the log-prob gap per token."""
    import torch

    from physr3.problems import Problem
    from physr3.prompts import build_solve_conversation

    start = time.perf_counter()
    questions = questions or CHECK_QUESTIONS
    prompts = [engine.encode(build_solve_conversation(Problem(id=str(i), question=q, answer=""), True))
               for i, q in enumerate(questions)]
    params = SamplingParams(max_new_tokens=n_tokens, temperature=0.0, stop=(), return_logprobs=True)
    engine.ignore_eos, saved = True, engine.ignore_eos  # always n_tokens per prompt
    try:
        completions, scores = engine.run(prompts, params)
    finally:
        engine.ignore_eos = saved
    agree = decode_agree = encode_agree = 0
    gaps = []
    device = next(model.parameters()).device
    with torch.no_grad():
        for ids, completion, score in zip(prompts, completions, scores):
            gen = completion.token_ids
            x = torch.tensor([ids + gen], device=device)
            logits = model(input_ids=x).logits[0, len(ids) - 1 : -1].float()
            logp = torch.log_softmax(logits, dim=-1)
            target = torch.tensor(gen, device=device)
            agree += bool((logp.argmax(dim=-1) == target).all())
            ref_sum = float(logp.gather(-1, target[:, None]).sum())
            gaps.append(abs(score - ref_sum) / max(1, len(gen)))
            # OpenVINO drops the bytes of an incomplete UTF-8 character where Hugging Face writes U+FFFD (seen
            # with random models); neither matters to a stop string, so the comparison ignores U+FFFD.
            ov_text = engine._ov_tokenizer.decode(gen, skip_special_tokens=True)
            decode_agree += ov_text.replace("\ufffd", "") == engine._decode(gen).replace("\ufffd", "")
            text = engine.tokenizer.decode(ids)
            ov_ids = engine._ov_tokenizer.encode(text, add_special_tokens=False).input_ids.data[0].tolist()
            encode_agree += ov_ids == ids
    import openvino_genai

    return SelfCheck(engine.precision, len(prompts), n_tokens, agree, sum(gaps) / len(gaps), decode_agree,
                     str(next(model.parameters()).dtype).replace("torch.", ""), time.perf_counter() - start,
                     {"openvino_genai": openvino_genai.get_version(), "export": EXPORT_VERSION}, encode_agree)


# ----------------------------------------------------------------------------------------------- export cache
def _fingerprint(*paths: str | None) -> str:
    """A key for the export cache: names, sizes and modification times of the model (and adapter) files."""
    h = hashlib.sha256(f"physr3-gguf-export-{EXPORT_VERSION}".encode())
    for raw in paths:
        if not raw:
            continue
        path = Path(raw).expanduser()
        h.update(str(path.resolve() if path.exists() else raw).encode())
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else []
        for f in files:
            st = f.stat()
            h.update(f"{f.relative_to(path)}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:20]


def export_dir(model_cfg: Any, path: str, source_dtype: str = "float32") -> Path:
    """The cache folder of one export: per model, adapter and the dtype the weights were written from (an f16
    GGUF written from bf16 weights is not the one written from fp32 ones; their self-checks differ too)."""
    from physr3.models.loading import default_cache_dir

    base = Path(model_cfg.cache_dir).expanduser() if model_cfg.cache_dir else default_cache_dir()
    suffix = "" if source_dtype == "float32" else f"-from-{source_dtype}"
    return base / "openvino" / (_fingerprint(path, model_cfg.adapter) + suffix)


def cached_gguf(model_cfg: Any, path: str, load_fp32: Any, source_dtype: str = "float32",
                budget_gb: float = 0.0) -> Path:
    """The f16 GGUF of the model (with its adapter merged), written once per model under a file lock, like
    the embedded model's conversion. `load_fp32()` returns (model, tokenizer) in fp32 when an export is due.
    A hit marks the export as just used; after a new export, `prune_exports` keeps the most recently used
    within `budget_gb` (0 = no limit): every evaluated adapter is an export of the whole model, so the cache
    would otherwise grow by a model's size per adapter, for ever."""
    from physr3.models.gguf_export import model_tensors, tokenizer_metadata, write_llama_gguf
    from physr3.models.loading import _file_lock

    folder = export_dir(model_cfg, path, source_dtype)
    target = folder / GGUF_NAME
    if target.is_file():
        with contextlib.suppress(OSError):
            os.utime(folder)  # last use, for the pruning
        return target
    with _file_lock(folder.parent / f".{folder.name}.lock"):
        if target.is_file():
            return target
        start = time.perf_counter()
        model, tokenizer = load_fp32()
        if hasattr(model, "merge_and_unload"):  # a PEFT adapter: export W + ΔW
            model = model.merge_and_unload()
        write_llama_gguf(model.config, model_tensors(model),
                         tokenizer_metadata(tokenizer, model.config.vocab_size), target)
        log.warning("physr3: wrote the OpenVINO export once (%.1f s) into %s", time.perf_counter() - start, target)
    if budget_gb > 0:
        prune_exports(folder.parent, int(budget_gb * 2**30), protect=folder)
    return target


def prune_exports(root: Path, budget_bytes: int, protect: Path | None = None) -> list[Path]:
    """Remove the least recently used export folders under `root` until the rest fit in `budget_bytes` (a
    folder's mtime is its last use: `cached_gguf` touches it on every hit); `protect` (the export just
    written) is always kept and counted first. Returns what was removed. Small exports (test models) cost
    little of the budget, so they do not push out a large one in use. A process that already loaded a
    removed export keeps running (the pipeline holds its weights in memory); one that needs it again writes
    it again."""
    import shutil

    def size(d: Path) -> int:
        return sum(f.stat().st_size for f in d.iterdir() if f.is_file())

    exports = [d for d in root.iterdir() if d.is_dir() and (d / GGUF_NAME).is_file()] if root.is_dir() else []
    exports.sort(key=lambda d: (d != protect, -d.stat().st_mtime))
    used, removed = 0, []
    for d in exports:
        used += size(d)
        if used <= budget_bytes or d == protect:
            continue
        shutil.rmtree(d, ignore_errors=True)
        with contextlib.suppress(OSError):
            (root / f".{d.name}.lock").unlink()
        removed.append(d)
    if removed:
        log.warning("physr3: removed %d least recently used OpenVINO export(s) from %s (generation."
                    "openvino_cache_gb=%.1f)", len(removed), root, budget_bytes / 2**30)
    return removed


def _eos_for(path: str, tokenizer: Any) -> set[int]:
    ids = {tokenizer.eos_token_id} - {None}
    with contextlib.suppress(OSError, ValueError):
        from transformers import GenerationConfig

        value = GenerationConfig.from_pretrained(path).eos_token_id
        ids.update([value] if isinstance(value, int) else list(value or []))
    return ids


def build_openvino_engine(cfg: Any) -> OpenVINOEngine:
    """The OpenVINO engine for `cfg.model` at `cfg.generation.openvino_precision`, after its (cached) self-check
    against the fp32 transformers model. Raises `OpenVINOUnavailable` (or `GGUFExportError`) with the reason."""
    from transformers import AutoConfig

    from physr3.config import ModelConfig
    from physr3.models.gguf_export import check_exportable
    from physr3.models.loading import load_model, load_tokenizer, resolve_device, resolve_model_path

    ok, reason = openvino_available()
    if not ok:
        raise OpenVINOUnavailable(reason)
    if resolve_device(cfg.model.device) != "cpu":
        raise OpenVINOUnavailable("it runs on CPU only and model.device is a GPU")
    gen = cfg.generation
    path = resolve_model_path(cfg.model)
    check_exportable(AutoConfig.from_pretrained(path, trust_remote_code=cfg.model.trust_remote_code))
    fp32 = ModelConfig(**{**vars(cfg.model), "dtype": "float32", "device": "cpu"})
    loaded: list[Any] = []

    def load_fp32() -> tuple[Any, Any]:
        if not loaded:
            loaded.append(load_model(fp32))
        return loaded[0]

    gguf = cached_gguf(cfg.model, path, load_fp32, budget_gb=gen.openvino_cache_gb)
    tokenizer = load_tokenizer(cfg.model, path)
    engine = OpenVINOEngine(gguf, tokenizer, gen.openvino_precision, _eos_for(path, tokenizer), gen.openvino_threads,
                            gen.openvino_prefix_caching, gen.openvino_stall_s)
    _checked(engine, gguf, gen, lambda: load_fp32()[0])
    engine.fallback = lambda: _transformers_engine(cfg, *load_model(cfg.model))
    return engine


def _transformers_engine(cfg: Any, model: Any, tokenizer: Any) -> Any:
    from physr3.models.engine import TransformersEngine

    return TransformersEngine(model, tokenizer, batch_size=cfg.generation.batch_size)


_LAST_ENGINE: list[tuple[str, OpenVINOEngine]] = []  # the last engine built for a given model: eval reuses it


def openvino_for_model(cfg: Any, model: Any, tokenizer: Any, adapter: str | None = None) -> OpenVINOEngine:
    """The OpenVINO engine for an already loaded plain model (eval: the base, or the base with `adapter`
    merged), exported once per (model, adapter) into the cache and self-checked against `model` itself."""
    from physr3.config import ModelConfig
    from physr3.models.gguf_export import check_exportable
    from physr3.models.loading import resolve_device, resolve_model_path

    ok, reason = openvino_available()
    if not ok:
        raise OpenVINOUnavailable(reason)
    if resolve_device(cfg.model.device) != "cpu" or next(model.parameters()).device.type != "cpu":
        raise OpenVINOUnavailable("it runs on CPU only and the model is on a GPU")
    check_exportable(model.config)
    path = resolve_model_path(cfg.model)
    model_cfg = ModelConfig(**{**vars(cfg.model), "adapter": adapter})
    source_dtype = str(next(model.parameters()).dtype).removeprefix("torch.")
    gguf = cached_gguf(model_cfg, path, lambda: (model, tokenizer), source_dtype, cfg.generation.openvino_cache_gb)
    key = f"{gguf}:{cfg.generation.openvino_precision}:{cfg.generation.openvino_prefix_caching}"
    if _LAST_ENGINE and _LAST_ENGINE[0][0] == key and _LAST_ENGINE[0][1].fallen_back is None:
        engine = _LAST_ENGINE[0][1]
    else:
        _LAST_ENGINE.clear()
        engine = OpenVINOEngine(gguf, tokenizer, cfg.generation.openvino_precision, _eos_for(path, tokenizer),
                                cfg.generation.openvino_threads, cfg.generation.openvino_prefix_caching,
                                cfg.generation.openvino_stall_s)
        _checked(engine, gguf, cfg.generation, lambda: model)
        _LAST_ENGINE.append((key, engine))
    engine.fallback = lambda: _transformers_engine(cfg, model, tokenizer)  # this caller's model object
    return engine


def _checked(engine: OpenVINOEngine, gguf: Path, gen: Any, reference: Any) -> SelfCheck:
    """The engine's self-check against `reference()` (recorded beside the export, per precision and reference
    dtype); raises `OpenVINOUnavailable` when it fails."""
    record = gguf.parent / f"selfcheck-{gen.openvino_precision}.json"
    check = None
    if record.is_file():
        with contextlib.suppress(ValueError, TypeError):
            check = SelfCheck(**json.loads(record.read_text(encoding="utf-8")))
        if check is not None and check.versions.get("openvino_genai") != openvino_version():
            check = None
    if check is None:
        check = run_self_check(engine, reference())
        record.write_text(json.dumps(vars(check)) + "\n", encoding="utf-8")
    passed, why = check.verdict(gen.openvino_max_logp_gap, need_greedy=gen.openvino_precision == "exact")
    if not passed:
        raise OpenVINOUnavailable(f"self-check failed: {why}")
    return check


def openvino_or_none(cfg: Any) -> OpenVINOEngine | None:
    """For `generation.engine` openvino or auto: the OpenVINO engine, or None after ONE warning line saying why
    the transformers engine is used instead (auto on a GPU falls back silently: vLLM is the GPU engine)."""
    from physr3.models.gguf_export import GGUFExportError
    from physr3.models.loading import resolve_device

    if cfg.generation.engine == "auto" and resolve_device(cfg.model.device) != "cpu":
        return None
    try:
        return build_openvino_engine(cfg)
    except (OpenVINOUnavailable, GGUFExportError, RuntimeError, OSError) as exc:
        warn_fallback(cfg, exc)
        return None


def warn_fallback(cfg: Any, exc: BaseException) -> None:
    """The one warning line of a fallback to the transformers engine (none for auto on a GPU)."""
    from physr3.models.loading import resolve_device

    if cfg.generation.engine == "auto" and resolve_device(cfg.model.device) != "cpu":
        return
    log.warning("physr3: generation.engine=%s: OpenVINO engine not used (%s); using the transformers engine",
                cfg.generation.engine, str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__)


# ----------------------------------------------------------------------------------------------- training
def _refresh_dir() -> Any:
    """A private temporary folder for the per-step GGUF: in RAM (/dev/shm) where there is one. Its name holds
    the process id, so folders left by a killed run (SIGKILL skips the cleanup; the resume test does that)
    are removed by the next run instead of holding a model's size of RAM."""
    import shutil
    import tempfile

    shm = Path("/dev/shm")
    where = shm if shm.is_dir() and os.access(shm, os.W_OK) else Path(tempfile.gettempdir())
    for stale in where.glob("physr3-openvino-*-*") if Path("/proc/self").exists() else ():  # Linux: pids in /proc
        pid = stale.name.split("-")[2]
        if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(stale, ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f"physr3-openvino-{os.getpid()}-", dir=str(where))


class OpenVINOPolicyEngine:
    """`Engine` that samples from the CURRENT weights of one LoRA adapter of a PEFT model: before a `generate`
    whose adapter weights changed since the last export (an optimizer step, a resumed checkpoint), the policy
    is written as an f16 GGUF with W + ΔW merged on the fly (physr3.models.gguf_export.merged_lora_tensors;
    the training model is never merged) and the pipeline reloaded. `refresh_seconds` records (write, load)."""

    def __init__(self, peft_model: Any, adapter_name: str, tokenizer: Any, precision: str = "fast",
                 eos_ids: set[int] | None = None, threads: int = 0, prefix_caching: bool = True,
                 stall_seconds: float = 120.0):
        from physr3.models.gguf_export import (
            LlamaGGUFExporter,
            adapted_names,
            check_exportable,
            tokenizer_metadata,
        )

        ok, reason = openvino_available()
        if not ok:
            raise OpenVINOUnavailable(reason)
        self.peft_model, self.adapter_name, self.tokenizer = peft_model, adapter_name, tokenizer
        self.config = peft_model.base_model.model.config
        check_exportable(self.config)
        self.exporter = LlamaGGUFExporter(self.config, tokenizer_metadata(tokenizer, self.config.vocab_size))
        if not self._adapter_params():
            raise OpenVINOUnavailable(f"adapter {adapter_name!r} adapts no layer of this model")
        adapted = adapted_names(peft_model, adapter_name)
        self.static = {name.replace(".base_layer.", ".") for name in peft_model.base_model.model.state_dict()
                       if "lora_" not in name} - adapted  # the frozen base outside the adapted layers
        self._dir = _refresh_dir()
        self.path = Path(self._dir.name) / GGUF_NAME
        self.refresh_seconds: list[tuple[float, float]] = []
        self._version = self._weights_version()
        write_s = self._write()
        self.engine = OpenVINOEngine(self.path, tokenizer, precision, eos_ids, threads, prefix_caching, stall_seconds)
        self.refresh_seconds.append((write_s, self.engine.load_seconds[-1]))

    @property
    def precision(self) -> str:
        return self.engine.precision

    def _adapter_params(self) -> list[Any]:
        return [p for name, p in self.peft_model.named_parameters()
                if "lora_" in name and f".{self.adapter_name}." in name]

    def _weights_version(self) -> tuple[tuple[int, int], ...]:
        # In-place updates (optimizer steps, load_state_dict) bump a tensor's version counter; a replaced
        # tensor has a new storage.
        return tuple((p.data_ptr(), p._version) for p in self._adapter_params())

    def _write(self) -> float:
        from physr3.models.gguf_export import merged_lora_tensors

        start = time.perf_counter()
        self.exporter.write(merged_lora_tensors(self.peft_model, self.adapter_name), self.path, self.static)
        return time.perf_counter() - start

    def refresh(self, force: bool = False) -> bool:
        """Re-export and reload if the adapter's weights changed (or `force`); True when it did. Not after a
        hung call: the transformers engine that took over samples the live weights."""
        if self.engine.fallen_back is not None:
            return False
        version = self._weights_version()
        if version == self._version and not force:
            return False
        write_s = self._write()
        self.engine.load(self.path)
        self._version = version
        self.refresh_seconds.append((write_s, self.engine.load_seconds[-1]))
        return True

    def encode(self, conversation: Conversation) -> list[int]:
        return self.engine.encode(conversation)

    def generate(self, conversations: list[Conversation], params: SamplingParams) -> list[Completion]:
        self.refresh()
        return self.engine.generate(conversations, params)

    def generate_ids(self, prompts: list[list[int]], params: SamplingParams) -> list[Completion]:
        self.refresh()
        return self.engine.generate_ids(prompts, params)

    def close(self) -> None:
        self.engine.pipe = None
        self._dir.cleanup()


def policy_engine_or_none(cfg: Any, peft_model: Any, tokenizer: Any, adapter_name: str) -> OpenVINOPolicyEngine | None:
    """The refine loop's OpenVINO rollout engine for `generation.engine` openvino/auto, after a self-check
    against the training model itself (its dtype: the gap the loss will see). A failed check at the fast
    precision refuses to train when openvino was asked for explicitly (UserError), and falls back to the
    transformers engine with one warning line under auto; a missing or unusable engine falls back too."""
    from physr3.errors import UserError
    from physr3.models.gguf_export import GGUFExportError
    from physr3.models.loading import resolve_device, resolve_model_path

    gen = cfg.generation
    if gen.engine not in ("openvino", "auto"):
        return None
    if resolve_device(cfg.model.device) != "cpu" or next(peft_model.parameters()).device.type != "cpu":
        if gen.engine == "openvino":
            log.warning("physr3: generation.engine=openvino runs on CPU only; using the transformers engine")
        return None
    engine = None
    was_training = peft_model.training
    try:
        engine = OpenVINOPolicyEngine(peft_model, adapter_name, tokenizer, gen.openvino_precision,
                                      _eos_for(resolve_model_path(cfg.model), tokenizer), gen.openvino_threads,
                                      gen.openvino_prefix_caching, gen.openvino_stall_s)
        peft_model.eval()
        check = run_self_check(engine.engine, peft_model)
    except (OpenVINOUnavailable, GGUFExportError, RuntimeError, OSError) as exc:
        if engine is not None:
            engine.close()  # its per-step GGUF folder goes now, not at garbage collection
        peft_model.train(was_training)
        log.warning("physr3: generation.engine=%s: OpenVINO rollouts not used (%s); using the transformers engine",
                    gen.engine, str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__)
        return None
    peft_model.train(was_training)
    engine.self_check = check
    passed, why = check.verdict(gen.openvino_max_logp_gap, need_greedy=False)
    if not passed:
        engine.close()
        if gen.engine == "openvino":
            raise UserError(f"generation.engine=openvino: refusing to train: {why} (use "
                            "generation.openvino_precision=exact or generation.engine=transformers)")
        log.warning("physr3: generation.engine=auto: OpenVINO rollouts not used (%s); using the transformers engine", why)
        return None
    return engine

