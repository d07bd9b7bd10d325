"""The DPO baseline (section 4.3): TRL's `DPOTrainer` with the IPO loss on top of the SFT checkpoint.

Preference pairs (as in the paper): chosen = the ground-truth seven-tag solution, rejected = the same
problem's solution with an error injected at an *execution* step — `<governing_equation>`,
`<substitution>` or `<calculation>` — by the generator (`physr3.synth.inject`, CM and CE operators), so the
preference signal points at execution, not at reading the problem. The prompt is the solve prompt the
SFT, DPO and ours conditions see at evaluation (`physr3.prompts.build_solve_conversation`, with the
configured system prompt from the chat template). `dpo.data` accepts, line by line:
- a ready pair: `chosen` and `rejected` (strings or assistant-message lists) with `prompt` (a string or a
  conversation) or the problem fields (`question`, `options`) to build it from;
- an injected row (`physr3 synth --inject`): `reference_solution` is chosen, `solution` rejected, kept only
  when the tag of `label_error_step` (`physr3.solution.step_tag`) is an execution tag;
- a problem record with ground truth: the pair is built here with `inject_row(types=("CM", "CE"))`,
  deterministic in (`run.seed`, problem id), and filtered by tag as above. (The injector's CM errors first
  differ in `<governing_equation>`, its CE errors in `<calculation>`; none lands in `<substitution>`.)
Rows that yield no pair are counted by reason in `dpo_summary.json`; the pairs used are in `pairs.jsonl`.

Reference model = the SFT checkpoint. TRL 1.16 (`DPOTrainer.__init__`): given a `PeftModel` that already
holds a trained adapter and no `peft_config`/`ref_model`, it copies that adapter into a frozen adapter named
"ref" and computes the reference log-probs with "ref" active (`use_adapter(model, "ref")`). So we load the
SFT adapter as the trainable "default" adapter and let TRL make the copy: the policy starts at the SFT model
and the reference IS the SFT model, exactly (no merge, no rounding; the test checks that the first loss is
IPO's value at zero margin). The saved DPO adapter is the SFT adapter continued — one self-contained
adapter on the base weights, like `physr3 train`'s output — so `eval.dpo_adapter=runs/<name>/adapter` works
with the runner's adapter switch unchanged. (The alternative — merge the SFT adapter into the base and
train a new LoRA whose disabled state is the reference — gives the same reference but an adapter that is
only valid on the merged weights; TRL itself refuses `peft_config` together with a `PeftModel`.) Without
an SFT adapter (smoke runs) a fresh LoRA (`lora` section) is trained and the reference is the base model.
With one, the SFT adapter's own LoRA settings (rank, alpha, targets) carry over and `lora` is not used.

The IPO loss in TRL 1.16 (`loss_type="ipo"`, `_compute_loss`): with s = Σ_t log π_θ(y_t|·) − Σ_t log
π_ref(y_t|·) summed over completion tokens, it length-normalises each side by its own completion token
count, Δ = s_chosen / |chosen| − s_rejected / |rejected|, and minimises (Δ − 1/(2β))² (Azar et al. Eq. 17,
β = τ), averaged over pairs. The counts are `completion_mask.sum().clamp(min=1)`, so an empty completion
mask gives 0/1, not NaN. Both guards are tested against TRL's code (tests/train/test_dpo.py), so a TRL
change that drops them fails there. Data-side guards here: pairs longer than `dpo.max_length` tokens are
dropped rather than truncated (TRL keeps the start, which could cut the injected step out of view), and
so are pairs whose chosen and rejected texts are equal or empty. (TRL's logged `rewards/*` metrics are
β × the summed, not averaged, log-ratios: they are diagnostics, not the quantity IPO optimises.)

Hyperparameters (`dpo` section; paper: AdamW, lr 2e-6, batch 2, gradient accumulation 16, 1 epoch, IPO):
TRL's bf16 autocast is off (the model carries its own dtype; on CPU `use_cpu=True`), gradient
checkpointing off unless `dpo.gradient_checkpointing`, no reporting integrations, checkpoints under
`runs/<name>/trainer/` for `physr3 dpo --resume runs/<name>`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from physr3.config import Config
from physr3.errors import InputFormatError, UserError
from physr3.problems import Problem, iter_jsonl, write_jsonl, write_text_atomic
from physr3.prompts import build_solve_conversation
from physr3.runs import prepare_run
from physr3.solution import step_tag
from physr3.train.sft import trainer_kwargs

EXECUTION_TAGS = ("governing_equation", "substitution", "calculation")
INJECT_TYPES = ("CM", "CE")  # the injector's execution-step error types (first difference in an equation/calc)


def _assistant(value: Any, where: str) -> list[dict[str, str]]:
    if isinstance(value, str):
        return [{"role": "assistant", "content": value}]
    if isinstance(value, list) and value and all(isinstance(m, dict) and "content" in m for m in value):
        return value
    raise UserError(f"{where}: expected a string or a list of messages")


def _text(messages: list[dict[str, str]]) -> str:
    return "".join(m.get("content") or "" for m in messages)


def _prompt(row: dict[str, Any], format_instruction: bool, path: str, line: int) -> list[dict[str, str]]:
    if "prompt" in row:
        p = row["prompt"]
        if isinstance(p, str):
            return [{"role": "user", "content": p}]
        if isinstance(p, list) and all(isinstance(m, dict) and "role" in m for m in p):
            return p
        raise UserError(f"{path}:{line}: field 'prompt': expected a string or a list of messages")
    return build_solve_conversation(Problem.from_json(row, path, line), format_instruction)


def build_pairs(rows: Iterable[tuple[int, dict[str, Any]]], seed: int, format_instruction: bool = True,
                path: str = "<data>") -> tuple[list[dict[str, Any]], Counter]:
    """Preference pairs from JSONL rows (see the module docstring) and the count of skipped rows by reason."""
    from physr3.synth.inject import InjectionError, inject_row

    pairs: list[dict[str, Any]] = []
    skipped: Counter = Counter()
    for line, row in rows:
        meta: dict[str, Any] = {"id": str(row.get("id", f"line{line}"))}
        if "chosen" in row and "rejected" in row:
            chosen = _assistant(row["chosen"], f"{path}:{line}: field 'chosen'")
            rejected = _assistant(row["rejected"], f"{path}:{line}: field 'rejected'")
            meta["source"] = "pair"
        else:
            problem = Problem.from_json(row, path, line)  # InputFormatError names file, line and field
            if "reference_solution" in row and "label_error_step" in row:
                meta["source"] = "injected"
                label = row["label_error_step"]
                if isinstance(label, bool) or not isinstance(label, int):
                    raise InputFormatError(path, line, "label_error_step", f"expected an integer, got {label!r}")
                if row["reference_solution"] is not None and not isinstance(row["reference_solution"], str):
                    raise InputFormatError(path, line, "reference_solution", "expected a string")
                if not row.get("reference_solution") or label <= 0:
                    skipped["control_or_no_reference"] += 1
                    continue
                good, bad, step, etype = (row["reference_solution"], problem.solution or "",
                                          int(row["label_error_step"]), row.get("label_error_type"))
            else:
                meta["source"] = "problem"
                if not problem.solution or not problem.ground_truth:
                    skipped["no_ground_truth"] += 1
                    continue
                try:
                    inj = inject_row(problem, seed, 0.0, types=INJECT_TYPES)
                except InjectionError:
                    skipped["no_injection"] += 1
                    continue
                except (KeyError, ValueError, UserError):  # unknown family or malformed ground truth
                    skipped["no_injection"] += 1
                    continue
                good, bad, step, etype = problem.solution, inj["solution"], inj["label_error_step"], \
                    inj["label_error_type"]
            tag = step_tag(bad, step)
            if tag not in EXECUTION_TAGS:
                skipped[f"error_in_{tag or 'no_step'}"] += 1
                continue
            meta.update(error_step=step, error_type=etype, error_tag=tag)
            chosen, rejected = _assistant(good, path), _assistant(bad, path)
        if not _text(chosen).strip() or not _text(rejected).strip():
            skipped["empty_completion"] += 1
            continue
        if _text(chosen).strip() == _text(rejected).strip():
            skipped["chosen_equals_rejected"] += 1
            continue
        pairs.append({**meta, "prompt": _prompt(row, format_instruction, path, line), "chosen": chosen,
                      "rejected": rejected})
    return pairs, skipped


def pair_length(tokenizer, pair: dict[str, Any]) -> int:
    """Tokens of the longer of prompt+chosen and prompt+rejected, as TRL tokenises them (chat template)."""
    n = 0
    for key in ("chosen", "rejected"):
        text = tokenizer.apply_chat_template(pair["prompt"] + pair[key], tokenize=False)
        n = max(n, len(tokenizer(text, add_special_tokens=False)["input_ids"]))
    return n


def _trl_args(cfg: Config, out_dir: Path, use_cpu: bool):
    from trl import DPOConfig as TRLDPOConfig

    d = cfg.dpo
    return TRLDPOConfig(
        loss_type=[d.loss_type],
        beta=d.beta,
        max_steps=d.max_steps if d.max_steps is not None else -1,
        **trainer_kwargs(d, cfg.run.seed, out_dir, use_cpu),
    )


def policy_model(base, sft_adapter: str | None):
    """The SFT adapter as the trainable "default" adapter (TRL copies it to the frozen "ref"), or the bare base."""
    if sft_adapter is None:
        return base
    from peft import PeftModel

    if not (Path(sft_adapter) / "adapter_config.json").is_file():
        raise UserError(f"dpo.sft_adapter={sft_adapter}: not a PEFT adapter folder (no adapter_config.json)")
    return PeftModel.from_pretrained(base, sft_adapter, is_trainable=True)


def make_trainer(cfg: Config, base, tokenizer, pairs: list[dict[str, Any]], out_dir: Path):
    """A TRL DPOTrainer over `pairs` (policy = SFT adapter continued, reference = frozen SFT copy)."""
    import torch
    from datasets import Dataset
    from trl import DPOTrainer

    from physr3.train.adapters import peft_lora_config

    model = policy_model(base, cfg.dpo.sft_adapter)
    model.train()
    data = Dataset.from_list([{k: p[k] for k in ("prompt", "chosen", "rejected")} for p in pairs])
    return DPOTrainer(
        model=model,
        args=_trl_args(cfg, out_dir, use_cpu=not torch.cuda.is_available()),
        train_dataset=data,
        processing_class=tokenizer,
        peft_config=None if cfg.dpo.sft_adapter else peft_lora_config(cfg.lora),
    )


def run_dpo(cfg: Config, argv: list[str] | None = None, resume: bool = False) -> Path:
    """Build pairs, train with IPO, save the adapter to runs/<name>/adapter; returns the run folder."""
    from physr3.models.loading import load_model

    d = cfg.dpo
    if not d.data:
        raise UserError("dpo.data is not set: give a JSONL of pairs, injected rows or problems with ground truth")
    if d.loss_type != "ipo":
        print(f"dpo: note: loss_type={d.loss_type!r}; the paper's baseline uses 'ipo'")
    pairs, skipped = build_pairs(iter_jsonl(d.data), cfg.run.seed, cfg.generation.format_instruction, d.data)
    run_dir = prepare_run(cfg, "dpo", argv)
    base, tokenizer = load_model(cfg.model)
    kept = [p for p in pairs if pair_length(tokenizer, p) <= d.max_length]
    skipped["too_long"] += len(pairs) - len(kept)
    if not kept:
        raise UserError(f"{d.data}: no usable preference pair (skipped: {dict(skipped)})")
    write_jsonl(run_dir / "pairs.jsonl", kept)
    trainer_dir = run_dir / "trainer"
    trainer = make_trainer(cfg, base, tokenizer, kept, trainer_dir)
    has_checkpoint = resume and any(trainer_dir.glob("checkpoint-*"))
    result = trainer.train(resume_from_checkpoint=True if has_checkpoint else None)
    adapter = run_dir / "adapter"
    trainer.model.save_pretrained(str(adapter), selected_adapters=["default"])  # not TRL's "ref" copy
    tokenizer.save_pretrained(str(adapter))
    logs = [h for h in trainer.state.log_history if "loss" in h]
    summary: dict[str, Any] = {
        "train_loss": result.training_loss, "steps": result.global_step, "pairs": len(kept),
        "rows_skipped": dict(skipped), "sft_adapter": d.sft_adapter,
        "reference": "frozen copy of the SFT adapter (TRL 'ref')" if d.sft_adapter else "base model (no SFT adapter)",
        "error_tags": dict(Counter(p.get("error_tag", "unknown") for p in kept)),
        "first_log": logs[0] if logs else None, "last_log": logs[-1] if logs else None,
    }
    write_text_atomic(run_dir / "dpo_summary.json", json.dumps(summary, indent=2) + "\n")
    return run_dir
