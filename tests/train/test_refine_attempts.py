"""The refine loop scores exactly what was sampled, through one `Attempt` record per attempt.

Real parts throughout: the tiny random Llama with the real SmolLM2 tokenizer, the real engines (plain and merged
mirror), the symbolic verifier and the CLI in-process.
"""

from __future__ import annotations

import json
import math

import pytest
import torch

from physr3.config import Config, ModelConfig, TrainConfig, load_config
from physr3.models.engine import TransformersEngine
from physr3.models.types import Completion, SamplingParams
from physr3.problems import Problem, write_jsonl
from physr3.prompts import build_revision_conversation, build_solve_conversation, encode_prompt
from physr3.synth.generate import generate_problems
from physr3.verify.base import Verdict


def _policy(model_dir: str, dtype: str = "float32", seed: int = 1):
    """A PEFT model whose policy adapter differs from the reference (lora_B drawn at random)."""
    from physr3.models.loading import load_model
    from physr3.train.adapters import policy_and_reference

    model, tok = load_model(ModelConfig(name_or_path=model_dir, dtype=dtype, device="cpu"))
    peft = policy_and_reference(model, None, Config().lora)
    torch.manual_seed(seed)
    with torch.no_grad():
        for n, p in peft.named_parameters():
            if p.requires_grad and "lora_B" in n:
                p.normal_(std=0.05)
    return peft, tok


class _CountingEngine(TransformersEngine):
    """The real engine; it only records which conversations it was asked to sample."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen: list = []

    def generate(self, conversations, params):
        self.seen.extend(conversations)
        return super().generate(conversations, params)


def _step(cfg, peft, tok, engine=None):
    from physr3.eval.answers import score_problem
    from physr3.train.refine import RefineStep
    from physr3.verify.registry import build_verifier

    engine = engine or TransformersEngine(peft, tok, batch_size=4)
    return RefineStep(cfg, peft, tok, engine, build_verifier("symbolic", cfg), feedback_fn=None,
                      answer_check=lambda p, text: score_problem(p, text).correct)


def _long_problem(tok, target: int) -> Problem:
    """A generated problem whose question is padded with prose until its solve prompt has ~`target` tokens."""
    p = next(iter(generate_problems(1, seed=5)))
    filler = " The block rests on a long, level table in a quiet laboratory."
    while len(encode_prompt(tok, build_solve_conversation(p, True))) < target:
        p = Problem(**{**p.__dict__, "question": p.question + filler})
    return p


# -- one Attempt record; over-long prompts decided once, before sampling -----------------------------

def test_engine_returns_the_prompt_ids_it_sampled_from(tiny_model):
    model, tok = tiny_model
    conv = build_solve_conversation(next(iter(generate_problems(1, seed=3))))
    (out,) = TransformersEngine(model, tok).generate([conv], SamplingParams(max_new_tokens=3))
    assert out.prompt_ids == encode_prompt(tok, conv) and out.prompt_tokens == len(out.prompt_ids)
    assert Completion("t", [1], "stop", 0).prompt_ids is None  # engines that do not say stay valid


def test_a_600_token_prompt_under_a_512_cap_is_skipped_before_sampling_and_counted(tiny_model_dir):
    from physr3.train.refine import summarize

    peft, tok = _policy(tiny_model_dir)
    cfg = Config()
    cfg.train.max_prompt_tokens, cfg.train.max_attempt_tokens, cfg.train.temperature = 512, 6, 1.0
    long = _long_problem(tok, 600)
    assert len(encode_prompt(tok, build_solve_conversation(long, True))) >= 600
    short = next(p for p in generate_problems(20, seed=8)
                 if len(encode_prompt(tok, build_solve_conversation(p, True))) < 480)
    engine = _CountingEngine(peft, tok, batch_size=4)
    rollouts, _ = _step(cfg, peft, tok, engine).rollouts([long, short], step=1)
    by_id = {ro.problem.id: ro for ro in rollouts}
    assert by_id[long.id].skipped == "overlong" and by_id[long.id].y1 is None
    assert all(c[0]["content"] != build_solve_conversation(long)[0]["content"] for c in engine.seen)
    y1 = by_id[short.id].y1
    assert y1.prompt_ids == encode_prompt(tok, build_solve_conversation(short, True))
    assert summarize(rollouts)["skipped_overlong"] == 1
    ro = by_id[short.id]
    if ro.y2 is not None:  # the revision prompt is built from y1's sampled ids (tests/train/test_shared_pass.py)
        from physr3.prompts import revision_prompt_ids

        assert ro.y2.prompt_ids == revision_prompt_ids(tok, short, y1.prompt_ids, y1.completion_ids,
                                                       ro.feedback_text, True)


def test_an_overlong_revision_prompt_is_skipped_and_counted(tiny_model_dir):
    from physr3.train.refine import summarize

    peft, tok = _policy(tiny_model_dir)
    cfg = Config()
    cfg.train.max_attempt_tokens, cfg.train.temperature = 6, 1.0
    p = next(iter(generate_problems(1, seed=8)))
    cfg.train.max_revision_prompt_tokens = len(encode_prompt(tok, build_solve_conversation(p, True))) + 1
    rollouts, _ = _step(cfg, peft, tok).rollouts([p], step=1)
    (ro,) = rollouts
    assert ro.y1 is not None and ro.y2 is None and ro.skipped == "overlong"
    assert summarize(rollouts)["skipped_overlong"] == 1


def test_default_caps_hold_every_shipped_benchmark_item_and_generated_problem():
    """No shipped benchmark item (data/) and no generated problem is over the default prompt cap, with the
    format instruction on, under the embedded model's tokenizer and default system prompt."""
    from transformers import AutoTokenizer

    from physr3.eval.benchmarks import benchmark_names, load_benchmark
    from physr3.models.loading import apply_system_prompt, embedded_tokenizer_dir

    tok = AutoTokenizer.from_pretrained(embedded_tokenizer_dir())
    apply_system_prompt(tok, ModelConfig().system_prompt)
    problems = list(generate_problems(400, seed=0, split="all"))
    shipped = 0
    for name in benchmark_names():
        try:
            items = load_benchmark(name)
        except Exception:  # benchmarks that need a user file (PhysicsQA, synth-test) ship nothing
            continue
        shipped += len(items)
        problems += items
    assert shipped > 500
    longest = max(len(encode_prompt(tok, build_solve_conversation(p, True))) for p in problems)
    assert longest <= TrainConfig().max_prompt_tokens
    assert longest <= load_config("configs/paper.yaml").train.max_prompt_tokens


# -- items 1-3: the loss scores attempt.prompt_ids + completion_ids at the attempt's temperature -------------

def _attempt(prompt_ids, completion_ids, temperature, reward, verdict):
    from physr3.train.attempt import Attempt

    return Attempt(prompt_ids=prompt_ids, completion_ids=completion_ids, text="t", finish_reason="stop",
                   temperature=temperature, top_p=1.0, verdict=verdict, reward=reward)


def test_backward_scores_the_recorded_ids_at_the_sampling_temperature(tiny_model_dir):
    """RefineStep.backward's gradient equals ∇ of −mean_i[(lp2_i − sg(lp1_i))·r2_i − β·KL_i], with every
    log-prob taken under attempt.prompt_ids + attempt.completion_ids (ids no conversation encodes to) and
    logits divided by the attempt's sampling temperature."""
    import torch.nn.functional as F

    from physr3.train.adapters import reference_active, trainable_parameters
    from physr3.train.refine import RefineStep, Rollout

    peft, tok = _policy(tiny_model_dir)
    cfg = Config()
    cfg.train.beta, cfg.train.temperature = 0.3, 0.7
    problems = list(generate_problems(2, seed=3))
    rollouts = []
    for i, (p, r2) in enumerate(zip(problems, (0.25, 0.75))):
        y1 = _attempt([7, 8 + i, 9, 10], [100 + i, 101, 102], 0.7, 0.1, Verdict(1, "MC"))
        y2 = _attempt([11, 12, 13 + i, 14, 15, 16], [200 + i, 201], 0.7, r2, Verdict(2, "CE"))
        rollouts.append(Rollout(p, y1, feedback_text="re-read", y2=y2))
    step = RefineStep(cfg, peft, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None)
    step.backward(rollouts)
    got = [p.grad.clone() for p in trainable_parameters(peft)]
    peft.zero_grad()

    def scored(ids, n_completion):
        x = torch.tensor([ids])
        logits = peft(input_ids=x).logits[0, :-1].float() / 0.7
        return logits[-n_completion:], x[0, 1:][-n_completion:]

    total = 0.0
    for ro in rollouts:
        l1, t1 = scored(ro.y1.prompt_ids + ro.y1.completion_ids, 3)
        l2, t2 = scored(ro.y2.prompt_ids + ro.y2.completion_ids, 2)
        with torch.no_grad(), reference_active(peft):
            q1, _ = scored(ro.y1.prompt_ids + ro.y1.completion_ids, 3)
        lp1 = F.log_softmax(l1, -1).gather(1, t1[:, None]).mean()
        lp2 = F.log_softmax(l2, -1).gather(1, t2[:, None]).mean()
        lp, lq = F.log_softmax(l1, -1), F.log_softmax(q1, -1)
        kl = (lp.exp() * (lp - lq)).sum(-1).mean()
        total = total - ((lp2 - lp1.detach()) * ro.y2.reward - 0.3 * kl) / 2
    total.backward()
    want = [p.grad.clone() for p in trainable_parameters(peft)]
    assert any(w.abs().sum() > 0 for w in want)
    assert all(torch.allclose(a, b, rtol=1e-4, atol=1e-5) for a, b in zip(got, want))  # fp32 sums, O(1) grads


def _sampled_rollouts(step, problems, temperature):
    """Rollouts whose attempts the step's engine really sampled (y2 from a fixed feedback), with rewards."""
    from physr3.train.refine import Rollout

    params = step.sampling_params(seed=3)
    assert params.temperature == temperature and params.return_logprobs
    y1s = step.sample([build_solve_conversation(p) for p in problems], params)
    y2s = step.sample([build_revision_conversation(p, y.text, "Step 1 is wrong.") for p, y in zip(problems, y1s)],
                      params)
    out = []
    for y1, y2 in zip(y1s, y2s):
        y1.reward, y2.reward, y1.verdict, y2.verdict = 0.2, 0.5, Verdict(1, "MC"), Verdict(1, "MC")
        out.append(Rollout(problems[len(out)], y1, feedback_text="Step 1 is wrong.", y2=y2))
    return out


def test_logp_gap_is_zero_for_an_fp32_mirror_and_measured_for_bf16(tiny_model_dir):
    """`logp_gap` (mean |engine − loss| log-prob per completion token, from the loss's own forward)
    and the mean importance ratio. An fp32 model sampled through an fp32 merged mirror gives a gap of ~0, also
    at temperature 0.7 (the gap compares the raw distributions of the same ids, so it checks alignment);
    a bf16 model gives a measured, non-zero, small gap for both mirror dtypes."""
    from physr3.models.merged import MergedPolicyEngine
    from physr3.train.adapters import POLICY

    problems = list(generate_problems(2, seed=9))
    gaps = {}
    for model_dtype, mirror_dtype in (("float32", "float32"), ("bfloat16", "bfloat16"), ("bfloat16", "float32")):
        peft, tok = _policy(tiny_model_dir, model_dtype)
        cfg = Config()
        cfg.train.temperature, cfg.train.max_attempt_tokens, cfg.train.micro_batch_size = 0.7, 8, 2
        cfg.train.mirror_dtype = mirror_dtype
        engine = MergedPolicyEngine(peft, POLICY, tok, batch_size=4, dtype=getattr(torch, mirror_dtype))
        assert next(engine.mirror.model.parameters()).dtype == getattr(torch, mirror_dtype)
        step = _step(cfg, peft, tok, engine)
        stats = step.backward(_sampled_rollouts(step, problems, 0.7))
        assert math.isfinite(stats["loss"]) and stats["used"] == 2
        gaps[(model_dtype, mirror_dtype)] = (stats["logp_gap"], stats["importance_ratio"])
    gap32, ratio32 = gaps[("float32", "float32")]
    assert gap32 < 1e-4 and ratio32 == pytest.approx(1.0, abs=1e-4)
    for key in (("bfloat16", "bfloat16"), ("bfloat16", "float32")):
        gap, ratio = gaps[key]
        assert 0 < gap < 0.5 and 0.5 < ratio < 2.0, (key, gaps)


def test_logp_gap_from_sequence_totals_when_the_engine_gives_no_per_token_logprobs(tiny_model_dir):
    """An engine that reports only log p(completion | prompt) (OpenVINO) still yields a gap: the per-token mean
    difference of each sequence. Sums equal to the loss's give ~0; an offset of 0.4 nats over a sequence of n
    tokens gives 0.4/n, and the metric says it is a sequence-level gap."""
    problems = list(generate_problems(2, seed=9))
    peft, tok = _policy(tiny_model_dir)
    cfg = Config()
    cfg.train.temperature, cfg.train.max_attempt_tokens = 1.0, 8
    step = _step(cfg, peft, tok)
    rollouts = _sampled_rollouts(step, problems, 1.0)
    for ro in rollouts:
        for a in (ro.y1, ro.y2):
            a.sequence_logprob, a.logprobs = sum(a.logprobs), None
    stats = step.backward(rollouts)
    assert stats["logp_gap_kind"] == "sequence" and stats["logp_gap"] < 1e-4
    for ro in rollouts:
        for a in (ro.y1, ro.y2):
            a.sequence_logprob -= 0.4
    peft.zero_grad()
    stats = step.backward(rollouts)
    lengths = [len(a.completion_ids) for ro in rollouts for a in (ro.y1, ro.y2)]
    want = sum(0.4 / n * n for n in lengths) / sum(lengths)  # each token carries its sequence's mean
    assert stats["logp_gap"] == pytest.approx(want, rel=1e-3)


def test_training_samples_with_train_top_p_and_refuses_top_p_below_one(tiny_model_dir):
    from physr3.errors import UserError
    from physr3.train.refine import check_train_config

    cfg = Config()
    cfg.generation.top_p, cfg.train.temperature = 0.5, 0.7  # the evaluation's nucleus setting is not used
    peft, tok = _policy(tiny_model_dir)
    params = _step(cfg, peft, tok).sampling_params(seed=0)
    assert (params.temperature, params.top_p) == (0.7, 1.0)
    cfg.train.top_p = 0.9
    with pytest.raises(UserError, match=r"^train\.top_p=0\.9: .*not the sampled one") as info:
        check_train_config(cfg)
    assert "\n" not in str(info.value)
    demo = load_config("configs/demo.yaml")
    check_train_config(demo)  # the demo samples at 0.7 and the loss scores at 0.7
    assert (demo.train.temperature, demo.train.top_p) == (0.7, 1.0)


# -- truncated attempts never earn reward 1 -------------------------------------------------------------------

def test_a_truncated_attempt_never_gets_reward_one_and_is_counted(tiny_model_dir):
    from physr3.reward import compute_reward
    from physr3.solution import render_solution
    from physr3.train.attempt import Attempt
    from physr3.train.refine import Rollout, summarize

    text = render_solution({"given": ["m = 2.0 kg"], "find": ["a"], "concept": ["Newton"], "governing_equation":
                            ["a = F / m"], "substitution": ["a = 10 / 2"], "calculation": ["a = 5"]}, "5 m/s^2")
    assert compute_reward(Verdict(0, "none"), text).reward == 1.0
    assert compute_reward(Verdict(0, "none"), text, truncated=True).reward == 0.0  # any verifier's "no error"
    assert compute_reward(Verdict(2, "CE"), text, truncated=True).reward == pytest.approx(2 / 7)

    peft, tok = _policy(tiny_model_dir)
    step = _step(Config(), peft, tok)
    p = next(iter(generate_problems(1, seed=3)))
    cut = Attempt([1, 2], [3, 4], text, "length", 1.0, 1.0)
    step.score(cut, p, Verdict(0, "none"))
    assert cut.truncated and cut.reward == 0.0
    whole = Attempt([1, 2], [3, 4], text, "stop", 1.0, 1.0)
    step.score(whole, p, Verdict(0, "none"))
    assert whole.reward == 1.0
    assert summarize([Rollout(p, cut), Rollout(p, whole, y2=cut)])["truncated"] == 2


# -- items 6-7: an explicit reference, an explicit and checked resume ---------------------------------------

def _train_args(model_dir, out, data, *extra):
    return ["train", "--no-progress", "--data", str(data), f"model.name_or_path={model_dir}", "model.dtype=float32",
            f"run.output_dir={out}", "run.name=r", "train.batch_size=2", "train.max_steps=1",
            "train.max_attempt_tokens=6", "train.checkpoint_every=1", "generation.batch_size=4", *extra]


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_train_needs_an_sft_adapter_or_from_base_and_resume_is_explicit_and_checked(tiny_model_dir, tmp_path,
                                                                                     capsys):
    from physr3.cli import main

    data, other = tmp_path / "train.jsonl", tmp_path / "other.jsonl"
    write_jsonl(data, list(generate_problems(3, seed=2, split="train")))
    write_jsonl(other, list(generate_problems(3, seed=7, split="train")))
    out = tmp_path / "runs"

    assert main(_train_args(tiny_model_dir, out, data)) == 2  # no silent base-model reference
    line = _error_line(capsys)
    assert "--sft-adapter" in line and "--from-base" in line
    assert not (out / "r" / "checkpoints").exists()

    assert main(_train_args(tiny_model_dir, out, data, "--from-base")) == 0
    capsys.readouterr()
    run = out / "r"
    assert json.loads((run / "checkpoints" / "step-000001" / "state.json").read_text())["fingerprint"]

    # A new run in a folder that holds another run's checkpoint refuses, with the way out.
    assert main(_train_args(tiny_model_dir, out, data, "--from-base")) == 2
    line = _error_line(capsys)
    assert "checkpoint" in line and "--resume" in line and "run.name" in line

    # Resuming compares data, SFT adapter and config with what the checkpoint recorded.
    resume = ["train", "--no-progress", "--resume", str(run)]
    assert main([*resume, "--data", str(other), "train.max_steps=2"]) == 2
    assert "train.data" in _error_line(capsys)
    assert main([*resume, "train.max_steps=2", "train.beta=0.5", "train.tau=0.5"]) == 2
    line = _error_line(capsys)
    assert "train.beta" in line and "train.tau" in line and "train.data" not in line
    adapter = tmp_path / "adapter"
    from physr3.models.loading import load_model
    from physr3.train.adapters import new_lora_model

    base, _ = load_model(ModelConfig(name_or_path=tiny_model_dir, dtype="float32", device="cpu"))
    new_lora_model(base, Config().lora, "default").save_pretrained(adapter)
    capsys.readouterr()
    assert main([*resume, "--sft-adapter", str(adapter), "train.max_steps=2"]) == 2
    assert "train.sft_adapter" in _error_line(capsys)
    with open(data, "a") as fh:  # the same path with other contents is other data
        fh.write((tmp_path / "other.jsonl").read_text().splitlines()[0] + "\n")
    assert main([*resume, "train.max_steps=2"]) == 2
    assert "train.data" in _error_line(capsys)
    data.write_text("".join(data.read_text().splitlines(keepends=True)[:3]))

    assert main([*resume, "train.max_steps=2"]) == 0  # what may change on resume: the length of the run
    metrics = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics] == [1, 2]
    for m in metrics:  # the new per-step keys, every step
        assert {"logp_gap", "importance_ratio", "skipped_overlong", "truncated"} <= set(m)


# -- data parallel through accelerate ----------------------------------------------------------------------

def test_trainer_places_and_reduces_through_accelerate(tiny_model_dir, tmp_path):
    from accelerate import Accelerator

    from physr3.train.refine_trainer import RefineTrainer

    peft, tok = _policy(tiny_model_dir)
    cfg = Config()
    trainer = RefineTrainer(cfg, list(generate_problems(2, seed=1)), peft, tok, None, None, None, None, tmp_path)
    assert isinstance(trainer.accelerator, Accelerator)
    assert trainer.accelerator.device == next(peft.parameters()).device
    assert trainer.sum_over_processes(3) == 3  # one process: the identity, through accelerate's reduce


@pytest.mark.skipif(not torch.cuda.is_available(), reason="NCCL needs a CUDA GPU; none here")
def test_collectives_work_under_nccl(tiny_model_dir, tmp_path, monkeypatch):
    """A one-process NCCL group: the hand-written helper all-reduced CPU tensors, which NCCL refuses."""
    for key, value in {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29533", "RANK": "0", "WORLD_SIZE": "1",
                       "LOCAL_RANK": "0"}.items():
        monkeypatch.setenv(key, value)
    torch.distributed.init_process_group("nccl", rank=0, world_size=1)
    try:
        from physr3.train.refine_trainer import RefineTrainer

        peft, tok = _policy(tiny_model_dir)
        peft.to("cuda")
        trainer = RefineTrainer(Config(), list(generate_problems(2, seed=1)), peft, tok, None, None, None, None,
                                tmp_path)
        assert trainer.sum_over_processes(3) == 3
        for p in trainer.params:
            p.grad = torch.ones_like(p)
        trainer.all_reduce_grads()
        assert all(torch.equal(p.grad, torch.ones_like(p)) for p in trainer.params)
    finally:
        torch.distributed.destroy_process_group()


# -- train.advantage=paper+first (not the paper's): Eq. 2 plus REINFORCE on first attempts ----------------------------

def test_paper_plus_first_adds_reinforce_on_every_scored_first_attempt(tiny_model_dir):
    """Gradient = ∇ of Eq. 2 over revised rollouts + coef · mean_j −(r1_j − mean r1)·mean log π(y1_j|x) over every
    scored y1, the one skipped as solved (no revision) included."""
    import torch.nn.functional as F

    from physr3.train.adapters import reference_active, trainable_parameters
    from physr3.train.refine import RefineStep, Rollout, first_attempt_advantages

    peft, tok = _policy(tiny_model_dir)
    cfg = Config()
    cfg.train.beta, cfg.train.temperature = 0.2, 1.0
    cfg.train.advantage, cfg.train.first_attempt_coef = "paper+first", 0.5
    problems = list(generate_problems(3, seed=4))
    rollouts = []
    for i, (p, r1) in enumerate(zip(problems[:2], (0.1, 0.3))):
        y1 = _attempt([7, 8 + i, 9], [100 + i, 101, 102], 1.0, r1, Verdict(1, "MC"))
        y2 = _attempt([11, 12 + i, 13, 14], [200 + i, 201], 1.0, 0.5, Verdict(2, "CE"))
        rollouts.append(Rollout(p, y1, feedback_text="re-read", y2=y2))
    solved = _attempt([7, 30, 9], [300, 301], 1.0, 0.95, Verdict(0, "none"))
    rollouts.append(Rollout(problems[2], solved, skipped="solved"))  # no y2, but the best first attempt
    adv = first_attempt_advantages(rollouts)
    assert sorted(round(a, 6) for a in adv.values()) == sorted(round(r - 0.45, 6) for r in (0.1, 0.3, 0.95))

    step = RefineStep(cfg, peft, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None)
    stats = step.backward(rollouts)
    got = [p.grad.clone() for p in trainable_parameters(peft)]
    peft.zero_grad()
    assert stats["first_used"] == 3 and stats["used"] == 2

    def mean_logp(ids, n_completion, reference=False):
        x = torch.tensor([ids])
        if reference:
            with torch.no_grad(), reference_active(peft):
                logits = peft(input_ids=x).logits[0, :-1].float()
        else:
            logits = peft(input_ids=x).logits[0, :-1].float()
        lp = F.log_softmax(logits[-n_completion:], -1)
        return lp, lp.gather(1, x[0, 1:][-n_completion:, None]).mean()

    total = 0.0
    for ro in rollouts[:2]:  # Eq. 2 with KL along y1
        lp1_all, lp1 = mean_logp(ro.y1.prompt_ids + ro.y1.completion_ids, 3)
        _, lp2 = mean_logp(ro.y2.prompt_ids + ro.y2.completion_ids, 2)
        lq1_all, _ = mean_logp(ro.y1.prompt_ids + ro.y1.completion_ids, 3, reference=True)
        kl = (lp1_all.exp() * (lp1_all - lq1_all)).sum(-1).mean()
        total = total - ((lp2 - lp1.detach()) * ro.y2.reward - 0.2 * kl) / 2
    for ro in rollouts:  # the first-attempt term
        n = len(ro.y1.completion_ids)
        _, lp1 = mean_logp(ro.y1.prompt_ids + ro.y1.completion_ids, n)
        total = total - 0.5 * adv[id(ro)] * lp1 / 3
    total.backward()
    want = [p.grad.clone() for p in trainable_parameters(peft)]
    assert any(w.abs().sum() > 0 for w in want)
    assert all(torch.allclose(a, b, rtol=1e-4, atol=1e-5) for a, b in zip(got, want))


def test_paper_advantage_ignores_first_attempts_without_revision(tiny_model_dir):
    from physr3.train.refine import RefineStep, Rollout

    peft, tok = _policy(tiny_model_dir)
    cfg = Config()
    solved = _attempt([7, 30, 9], [300, 301], 1.0, 0.95, Verdict(0, "none"))
    rollouts = [Rollout(p, solved, skipped="solved") for p in generate_problems(1, seed=4)]
    stats = RefineStep(cfg, peft, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None).backward(rollouts)
    assert "first_used" not in stats and stats["used"] == 0
