"""The DPO (IPO) baseline: pair building, TRL's IPO loss guards, the SFT reference, and a tiny run to eval."""

import json
import math

import pytest
import torch

from physr3.config import LoraConfig, load_config
from physr3.problems import write_jsonl
from physr3.solution import step_tag
from physr3.synth.generate import generate_problems
from physr3.synth.inject import inject_row
from physr3.train.dpo import EXECUTION_TAGS, build_pairs, make_trainer

BETA = 0.1


@pytest.fixture(scope="module")
def problems():
    return list(generate_problems(6, seed=5, split="train"))


@pytest.fixture(scope="module")
def sft_adapter(tiny_model_dir, tmp_path_factory):
    """A LoRA adapter with non-zero B, so the SFT model differs from the base."""
    from transformers import AutoModelForCausalLM

    from physr3.train.adapters import new_lora_model

    torch.manual_seed(1)
    model = new_lora_model(AutoModelForCausalLM.from_pretrained(tiny_model_dir), LoraConfig(), "default")
    for name, p in model.named_parameters():
        if "lora_B" in name:
            torch.nn.init.normal_(p, std=0.05)
    path = tmp_path_factory.mktemp("sft") / "adapter"
    model.save_pretrained(path)
    return str(path)


def _short_pairs():
    """Four short ready pairs (prompt string; chosen/rejected texts): cheap enough for a CPU training step."""
    return [{"id": f"p{i}", "prompt": f"What is {i} + {i}?", "chosen": f"<final_answer>{2 * i}</final_answer>",
             "rejected": f"<final_answer>{2 * i + 1}</final_answer>"} for i in range(4)]


def _rows(items):
    return list(enumerate(items, 1))


def test_pairs_from_problems_are_ground_truth_vs_an_execution_step_error(problems):
    pairs, skipped = build_pairs(_rows([p.to_json() for p in problems]), seed=0)
    assert len(pairs) + sum(skipped.values()) == len(problems) and len(pairs) >= 4
    by_id = {p.id: p for p in problems}
    for pair in pairs:
        chosen, rejected = pair["chosen"][0]["content"], pair["rejected"][0]["content"]
        assert pair["source"] == "problem" and chosen == by_id[pair["id"]].solution and rejected != chosen
        assert pair["error_tag"] in EXECUTION_TAGS
        assert step_tag(rejected, pair["error_step"]) == pair["error_tag"]
        assert pair["prompt"][-1]["role"] == "user" and by_id[pair["id"]].question.strip() in pair["prompt"][-1]["content"]
    again, _ = build_pairs(_rows([p.to_json() for p in problems]), seed=0)
    assert again == pairs  # deterministic in (seed, problem id)


def test_injected_rows_keep_only_execution_step_errors(problems):
    rows = [inject_row(p, 3, 0.0, types=(t,)) for p in problems[:3] for t in ("MC", "CE")]
    rows.append(inject_row(problems[0], 3, 1.0))  # a control row (no error)
    pairs, skipped = build_pairs(_rows(rows), seed=0)
    assert len(pairs) == 3 and all(p["error_type"] == "CE" and p["error_tag"] == "calculation" for p in pairs)
    assert skipped["control_or_no_reference"] == 1
    assert sum(v for k, v in skipped.items() if k in ("error_in_given", "error_in_find")) == 3
    for pair, row in zip(pairs, rows[1::2]):
        assert pair["chosen"][0]["content"] == row["reference_solution"]
        assert pair["rejected"][0]["content"] == row["solution"]


def test_ready_pairs_and_degenerate_pairs_are_dropped():
    rows = _short_pairs() + [{"prompt": "q", "chosen": "same", "rejected": "same"},
                             {"prompt": "q", "chosen": "a", "rejected": "  "}]
    pairs, skipped = build_pairs(_rows(rows), seed=0)
    assert len(pairs) == 4 and pairs[0]["prompt"] == [{"role": "user", "content": "What is 0 + 0?"}]
    assert skipped == {"chosen_equals_rejected": 1, "empty_completion": 1}


def _cfg(tiny_model_dir, tmp_path, *extra):
    return load_config(None, [f"model.name_or_path={tiny_model_dir}", "model.dtype=float32",
                              f"run.output_dir={tmp_path}", "dpo.batch_size=2", "dpo.grad_accum=1",
                              "dpo.learning_rate=1e-2", f"dpo.beta={BETA}", *extra])


def _trainer(tiny_model_dir, tmp_path, sft_adapter):
    from physr3.models.loading import load_model

    cfg = _cfg(tiny_model_dir, tmp_path, f"dpo.sft_adapter={sft_adapter}", "dpo.max_steps=1")
    base, tok = load_model(cfg.model)
    pairs, _ = build_pairs(_rows(_short_pairs()), seed=0)
    return make_trainer(cfg, base, tok, pairs, tmp_path / "trainer")


def _manual_logps(model, inputs):
    """Σ log p over completion tokens and the completion token counts, by a plain forward pass."""
    from physr3.train.logprobs import SequenceBatch, token_logprobs

    batch = SequenceBatch(inputs["input_ids"], inputs["attention_mask"], inputs["completion_mask"])
    with torch.no_grad():
        logp, mask, _ = token_logprobs(model, batch)
    return (logp * mask).sum(-1), inputs["completion_mask"].sum(-1).float()


def test_trl_ipo_loss_is_length_averaged_and_finite_on_an_empty_completion(tiny_model_dir, tmp_path, sft_adapter):
    from trl.trainer.utils import use_adapter

    trainer = _trainer(tiny_model_dir, tmp_path, sft_adapter)
    model = trainer.model
    with torch.no_grad():  # move the policy away from the reference
        for name, p in model.named_parameters():
            if ".default." in name and "lora_B" in name:
                p.add_(torch.randn_like(p) * 0.05)
    model.train()
    # Rows: chosen 0, chosen 1, rejected 0, rejected 1 (TRL's layout); completions of different lengths, and
    # rejected 1 with an EMPTY completion mask.
    torch.manual_seed(0)
    ids = torch.randint(5, 1000, (4, 12))
    attention = torch.ones_like(ids)
    completion = torch.zeros_like(ids)
    completion[0, 4:12] = 1
    completion[1, 4:7] = 1
    completion[2, 4:10] = 1
    inputs = {"input_ids": ids, "attention_mask": attention, "completion_mask": completion}
    loss = trainer.compute_loss(model, dict(inputs))
    assert math.isfinite(loss.item())

    policy, lengths = _manual_logps(model, inputs)
    with use_adapter(model, "ref"):
        ref, _ = _manual_logps(model, inputs)
    score = (policy - ref) / lengths.clamp(min=1.0)  # per-token average log-ratio; the empty row gives 0
    delta = score[:2] - score[2:]
    expected = ((delta - 1 / (2 * BETA)) ** 2).mean()
    assert loss.item() == pytest.approx(expected.item(), rel=1e-4, abs=1e-5)
    summed = (((policy - ref)[:2] - (policy - ref)[2:] - 1 / (2 * BETA)) ** 2).mean()
    assert abs(summed.item() - expected.item()) > 1e-3  # the test can tell averaged from summed log-ratios


def test_dpo_command_trains_against_the_frozen_sft_reference_and_serves_the_dpo_condition(tiny_model_dir, tmp_path,
                                                                                          sft_adapter):
    from safetensors.torch import load_file

    from physr3.cli import main
    from physr3.eval.runner import run_eval

    data = tmp_path / "pairs.jsonl"
    write_jsonl(data, _short_pairs())
    rc = main(["dpo", "--data", str(data), "--sft-adapter", sft_adapter, f"model.name_or_path={tiny_model_dir}",
               "model.dtype=float32", f"run.output_dir={tmp_path}", "run.name=dpo1", "dpo.batch_size=2",
               "dpo.grad_accum=1", "dpo.max_steps=2", "dpo.learning_rate=1e-2"])
    assert rc == 0
    run_dir = tmp_path / "dpo1"
    summary = json.loads((run_dir / "dpo_summary.json").read_text())
    assert summary["steps"] == 2 and summary["pairs"] == 4 and math.isfinite(summary["train_loss"])
    assert summary["sft_adapter"] == sft_adapter
    # At step 1 the policy equals the reference (TRL's "ref" copy of the SFT adapter): Δ = 0, so the IPO loss is
    # (0 - 1/(2β))² exactly.
    assert summary["first_log"]["loss"] == pytest.approx((1 / (2 * BETA)) ** 2, rel=1e-5)
    adapter = run_dir / "adapter"
    assert (adapter / "adapter_config.json").is_file() and not (adapter / "ref").exists()
    # The trainer checkpoint holds both adapters: "ref" is still the SFT adapter, the policy has moved.
    sft = load_file(f"{sft_adapter}/adapter_model.safetensors")
    (checkpoint,) = (run_dir / "trainer").glob("checkpoint-*")
    ref = load_file(checkpoint / "ref" / "adapter_model.safetensors")
    policy = load_file(adapter / "adapter_model.safetensors")
    assert set(ref) == set(sft) == set(policy)
    assert all(torch.equal(ref[k], sft[k]) for k in sft)
    assert any(not torch.equal(policy[k], sft[k]) for k in sft)

    problems = tmp_path / "test.jsonl"
    write_jsonl(problems, list(generate_problems(2, seed=5, split="test")))
    cfg = _cfg(tiny_model_dir, tmp_path, "run.name=ev", "generation.max_new_tokens=4", "eval.conditions=dpo",
               f"eval.dpo_adapter={adapter}")
    cfg.eval.benchmarks = ["synth-test"]
    ev = run_eval(cfg, progress=False, benchmark_paths={"synth-test": str(problems)})
    rows = (ev / "results" / "dpo__synth-test.jsonl").read_text().splitlines()
    assert len(rows) == 2
