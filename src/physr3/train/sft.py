"""Stage 1 (and the SFT baseline): LoRA fine-tuning on seven-tag solutions with TRL's SFTTrainer.

Each problem becomes a conversational prompt-completion pair: the prompt is exactly what the model sees at
inference (`physr3.prompts.build_solve_conversation`), the completion the ground-truth seven-tag solution.
TRL computes the loss on completion tokens only for prompt-completion data. The adapter lands in
`runs/<name>/adapter/`; the Hugging Face trainer's checkpoints in `runs/<name>/trainer/` let an interrupted
run resume (`physr3 sft --resume runs/NAME`). At the end the adapter is evaluated on a held-out split:
format compliance and answer accuracy with greedy decoding.

`section="sft"` is Stage 1 of our method; `section="sft_baseline"` is the paper's SFT condition (its own
hyperparameters in `configs/paper.yaml`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from physr3.config import Config, SFTConfig
from physr3.errors import UserError
from physr3.problems import Problem, read_problems
from physr3.prompts import build_solve_conversation, encode_prompt
from physr3.runs import prepare_run


def sft_records(problems: list[Problem], format_instruction: bool, path: str = "<data>") -> list[dict[str, Any]]:
    rows = []
    for p in problems:
        if not p.solution:
            raise UserError(f"{path}: problem {p.id}: field 'solution' is empty; SFT needs a ground-truth solution")
        rows.append({"prompt": build_solve_conversation(p, format_instruction),
                     "completion": [{"role": "assistant", "content": p.solution}]})
    return rows


def _check_lengths(rows: list[dict[str, Any]], tokenizer, max_length: int, key: str) -> None:
    """TRL truncates prompt + solution to max_length and silently drops rows left with no solution token;
    say how many solutions get cut, and refuse when no row would keep any."""
    cut = empty = 0
    for row in rows:
        n_prompt = len(encode_prompt(tokenizer, row["prompt"]))
        n_total = n_prompt + len(tokenizer(row["completion"][0]["content"], add_special_tokens=False)["input_ids"])
        empty += n_prompt >= max_length
        cut += n_total > max_length
    if empty == len(rows):
        raise UserError(f"{key}={max_length} is shorter than every prompt: no solution token would be trained on")
    if cut:
        print(f"sft: {cut} of {len(rows)} solutions exceed {key}={max_length} tokens and are truncated"
              f"{f'; {empty} have no solution token left and are dropped' if empty else ''}")


def trainer_kwargs(section, seed: int, out_dir: Path, use_cpu: bool) -> dict[str, Any]:
    """Arguments every physr3 Hugging Face Trainer recipe shares (SFT and DPO): schedule, batch, logging,
    resumable checkpoints, seeds. `section` is an SFTConfig or DPOConfig of physr3.config."""
    return dict(
        output_dir=str(out_dir),
        num_train_epochs=section.epochs,
        learning_rate=section.learning_rate,
        per_device_train_batch_size=section.batch_size,
        gradient_accumulation_steps=section.grad_accum,
        max_length=section.max_length,
        warmup_steps=section.warmup_ratio,  # transformers 5: a float < 1 is a share of the steps
        gradient_checkpointing=section.gradient_checkpointing,
        use_cpu=use_cpu,
        bf16=False,  # the base model already carries its dtype (physr3.models.loading); no autocast
        fp16=False,
        report_to=[],
        logging_steps=1,
        save_strategy="steps",
        save_steps=max(1, section.save_steps),
        save_total_limit=1,
        seed=seed,
        data_seed=seed,
        disable_tqdm=False,
    )


def _trl_args(section: SFTConfig, cfg: Config, out_dir: Path, use_cpu: bool):
    from trl import SFTConfig as TRLSFTConfig

    kwargs = trainer_kwargs(section, cfg.run.seed, out_dir, use_cpu)
    kwargs["max_steps"] = section.max_steps if section.max_steps is not None else -1
    return TRLSFTConfig(**kwargs)


def run_sft(cfg: Config, section_name: str = "sft", argv: list[str] | None = None, resume: bool = False) -> Path:
    import torch
    from datasets import Dataset
    from trl import SFTTrainer

    from physr3.models.loading import load_model
    from physr3.train.adapters import peft_lora_config

    section: SFTConfig = getattr(cfg, section_name)
    if not section.data:
        raise UserError(f"{section_name}.data is not set: give a JSONL of problems with a seven-tag `solution`")
    problems = read_problems(section.data)
    rows = sft_records(problems, cfg.generation.format_instruction, section.data)
    revision_stats: dict[str, int] = {}
    if section.revision_fraction > 0:
        from physr3.train.revision_warmup import revision_records

        extra, counts = revision_records(problems, cfg, section.revision_fraction, cfg.run.seed)
        rows += extra
        revision_stats = dict(counts)
        print(f"sft: {len(extra)} revision examples mixed into {len(problems)} solve examples "
              f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()) if v)})")
    if section.eval_data:
        read_problems(section.eval_data)  # a bad held-out file fails now, not after the training
    run_dir = prepare_run(cfg, section_name.replace("_", "-"), argv)
    base, tokenizer = load_model(cfg.model)
    _check_lengths(rows, tokenizer, section.max_length, f"{section_name}.max_length")
    use_cpu = not torch.cuda.is_available()
    trainer_dir = run_dir / "trainer"
    if section.init_adapter:
        # Continue an existing adapter (trainable), like the DPO recipe does with the SFT adapter.
        from peft import PeftModel

        model, peft_config = PeftModel.from_pretrained(base, section.init_adapter, is_trainable=True), None
    else:
        model, peft_config = base, peft_lora_config(cfg.lora)
    trainer = SFTTrainer(
        model=model,
        args=_trl_args(section, cfg, trainer_dir, use_cpu),
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        peft_config=peft_config,
    )
    has_checkpoint = resume and any(trainer_dir.glob("checkpoint-*"))
    result = trainer.train(resume_from_checkpoint=True if has_checkpoint else None)
    adapter = run_dir / "adapter"
    trainer.model.save_pretrained(str(adapter))
    tokenizer.save_pretrained(str(adapter))
    summary: dict[str, Any] = {"train_loss": result.training_loss, "steps": result.global_step,
                               "problems": len(problems), "revision": revision_stats}
    if section.eval_data:
        # The adapter is saved: merge it in place so the held-out generation runs at plain-model speed.
        merged = trainer.model.merge_and_unload()
        summary["eval"] = evaluate_adapter(cfg, merged, tokenizer, section.eval_data, run_dir)
    (run_dir / "sft_summary.json").write_text(json.dumps(summary, indent=2))
    return run_dir


def evaluate_adapter(cfg: Config, model, tokenizer, data_path: str, run_dir: Path) -> dict[str, Any]:
    """Greedy generation on held-out problems: compliance and accuracy, per-item rows in eval_samples.jsonl."""
    from physr3.eval.answers import score_problem
    from physr3.models.engine import TransformersEngine
    from physr3.models.types import SamplingParams
    from physr3.problems import write_jsonl
    from physr3.solution import validate

    problems = read_problems(data_path)
    engine = TransformersEngine(model, tokenizer, batch_size=cfg.generation.batch_size)
    params = SamplingParams(max_new_tokens=cfg.generation.max_new_tokens, temperature=0.0)
    model.eval()
    completions = engine.generate([build_solve_conversation(p, cfg.generation.format_instruction)
                                   for p in problems], params)
    rows = []
    for p, c in zip(problems, completions):
        report = validate(c.text)
        s = score_problem(p, c.text, rel_tol=cfg.eval.relative_tolerance)
        rows.append({"id": p.id, "completion": c.text, "compliant": report.compliant, "correct": s.correct,
                     "extracted": s.extracted})
    write_jsonl(run_dir / "eval_samples.jsonl", rows)
    n = len(rows) or 1
    return {"n": len(rows), "compliance": sum(r["compliant"] for r in rows) / n,
            "accuracy": sum(r["correct"] for r in rows) / n}
