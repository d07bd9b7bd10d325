"""The refine loop on a tiny random model with the real symbolic verifier, feedback router and sandbox."""

import json
import math

import pytest
import torch

from physr3.config import load_config
from physr3.problems import write_jsonl
from physr3.synth.generate import generate_problems
from physr3.train.refine_trainer import run_refine


def _cfg(tiny_model_dir, tmp_path, data, name, *extra):
    return load_config(None, [
        f"model.name_or_path={tiny_model_dir}", "model.dtype=float32", f"run.output_dir={tmp_path}",
        f"run.name={name}", f"train.data={data}", "train.batch_size=2", "train.max_steps=3",
        "train.max_attempt_tokens=12", "train.checkpoint_every=1", "train.learning_rate=1e-2", "train.tau=0.9",
        "generation.batch_size=4", "verifier.kind=symbolic", *extra])


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("refine") / "train.jsonl"
    write_jsonl(path, list(generate_problems(5, seed=2, split="train")))
    return path


def _rows(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_refine_runs_logs_metrics_and_updates_the_policy(tiny_model_dir, tmp_path, data):
    run_dir = run_refine(_cfg(tiny_model_dir, tmp_path, data, "r1"), progress=False)
    metrics = _rows(run_dir / "metrics.jsonl")
    assert [m["step"] for m in metrics] == [1, 2, 3]
    for m in metrics:
        assert set(m) >= {"loss", "kl", "r1", "r2", "skip_rate", "acc_y1", "acc_y2", "transitions", "error_types_y1",
                          "verifier_failures", "n_steps_y1", "tokens_per_s", "time"}
        assert set(m["time"]) >= {"generation", "verification", "feedback", "update", "step"}
        assert m["problems"] == 2 and math.isfinite(m["loss"])
    samples = _rows(run_dir / "samples.jsonl")
    assert len(samples) == 6 and all("feedback" in s and "v1" in s for s in samples)
    assert (run_dir / "adapter" / "adapter_config.json").exists() and (run_dir / "checkpoints" / "latest").exists()
    # The policy moved away from the reference whenever a sample carried a non-zero weight.
    used = sum(m["used"] for m in metrics)
    if used and any(r for m in metrics for r in m["r2"]):
        assert any(m["kl"] > 0 for m in metrics[1:])


def test_backward_matches_eq2_by_hand(tiny_model):
    """RefineStep.backward's gradient equals ∇ of −mean_i[(lp2_i − sg(lp1_i))·r2_i − β·KL_i] computed by hand."""
    from physr3.config import Config
    from physr3.models.types import Completion
    from physr3.prompts import build_revision_conversation, build_solve_conversation
    from physr3.train.adapters import policy_and_reference, reference_active, trainable_parameters
    from physr3.train.logprobs import build_batch, kl_per_row, masked_mean, prompt_ids, token_logprobs
    from physr3.train.refine import RefineStep, Rollout
    from physr3.verify.base import Verdict

    model, tok = tiny_model
    cfg = Config()
    cfg.train.beta = 0.3
    peft = policy_and_reference(model, None, cfg.lora)
    torch.manual_seed(1)
    for n, p in peft.named_parameters():
        if p.requires_grad and "lora_B" in n:
            torch.nn.init.normal_(p, std=0.05)  # policy != reference, so the KL term has a gradient
    problems = list(generate_problems(2, seed=3))
    rollouts = []
    for i, (p, r2) in enumerate(zip(problems, (0.25, 0.75))):
        y1 = Completion("first", [100 + i, 101, 102], "length", 0)
        y2 = Completion("second", [200 + i, 201], "length", 0)
        rollouts.append(Rollout(p, y1, Verdict(1, "MC"), 0.1, feedback_text="re-read", y2=y2, v2=Verdict(2, "CE"),
                                r2=r2))
    step = RefineStep(cfg, peft, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None)
    step.backward(rollouts)
    got = [p.grad.clone() for p in trainable_parameters(peft)]
    peft.zero_grad()

    total = 0.0
    for ro in rollouts:
        x = prompt_ids(tok, build_solve_conversation(ro.problem), 512)
        xr = prompt_ids(tok, build_revision_conversation(ro.problem, ro.y1.text, ro.feedback_text), 4096)
        b1, b2 = build_batch(tok, [x], [ro.y1.token_ids]), build_batch(tok, [xr], [ro.y2.token_ids])
        with torch.no_grad(), reference_active(peft):
            _, _, ref_logits = token_logprobs(peft, b1)
        lp1, m1, logits1 = token_logprobs(peft, b1)
        lp2, m2, _ = token_logprobs(peft, b2)
        kl = kl_per_row(logits1, ref_logits, m1)
        total = total - ((masked_mean(lp2, m2) - masked_mean(lp1, m1).detach()) * ro.r2 - 0.3 * kl).sum() / 2
    total.backward()
    want = [p.grad.clone() for p in trainable_parameters(peft)]
    assert any(w.abs().sum() > 0 for w in want)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(got, want))


def test_summary_counts_revisions_better_same_worse():
    from physr3.models.types import Completion
    from physr3.train.refine import Rollout, summarize
    from physr3.verify.base import Verdict

    p = next(iter(generate_problems(1, seed=4)))
    y = Completion("text", [1, 2], "length", 0)

    def ro(r1, r2):
        return Rollout(p, y, Verdict(1, "MC"), r1, y2=y if r2 is not None else None, v2=Verdict(2, "CE"), r2=r2,
                       correct2=False)

    s = summarize([ro(0.2, 0.5), ro(0.5, 0.1), ro(0.3, 0.3), ro(0.4, 0.0), ro(0.95, None)])
    assert s["revisions"] == {"better": 1, "same": 1, "worse": 2}
    assert s["r2"] == [0.5, 0.1, 0.3, 0.0] and s["transitions"]["WW"] == 4
