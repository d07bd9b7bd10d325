"""The revision prompt is built from the first attempt's sampled ids, and one policy pass scores y1 and y2.

Real parts: the tiny random Llama with the real SmolLM2 tokenizer and chat template, the real engine and the
symbolic verifier. The shared pass is checked against the separate passes it replaces (same loss, same LoRA
gradients) for every advantage setting and KL estimator.
"""

from __future__ import annotations

import copy

import pytest
import torch

from physr3.config import Config, ModelConfig
from physr3.models.engine import TransformersEngine
from physr3.prompts import (
    build_revision_conversation,
    build_solve_conversation,
    encode_prompt,
    revision_prompt_ids,
    revision_suffix_text,
)
from physr3.synth.generate import generate_problems
from physr3.verify.base import Verdict

FEEDBACK = "Step 1 is wrong: the mass is 3.0 kg."


@pytest.fixture(scope="module")
def policy(tiny_model_dir):
    """A PEFT model whose policy adapter differs from the reference (lora_B drawn at random), fp32."""
    from physr3.models.loading import load_model
    from physr3.train.adapters import policy_and_reference

    model, tok = load_model(ModelConfig(name_or_path=tiny_model_dir, dtype="float32", device="cpu"))
    peft = policy_and_reference(model, None, Config().lora)
    torch.manual_seed(1)
    with torch.no_grad():
        for n, p in peft.named_parameters():
            if p.requires_grad and "lora_B" in n:
                p.normal_(std=0.05)
    return peft, tok


def _step(cfg, peft, tok, engine=None):
    from physr3.eval.answers import score_problem
    from physr3.train.refine import RefineStep
    from physr3.verify.registry import build_verifier

    return RefineStep(cfg, peft, tok, engine, build_verifier("symbolic", cfg), feedback_fn=None,
                      answer_check=lambda p, text: score_problem(p, text).correct)


# -- the revision prompt from the sampled ids ---------------------------------------------------------------

def _ids(tok, text):
    return list(tok(text, add_special_tokens=False)["input_ids"])


@pytest.mark.parametrize("ending", ["eos", "length", "stop_string"])
def test_revision_ids_start_with_the_first_attempt_and_have_one_end_of_turn(policy, ending):
    _, tok = policy
    p = next(iter(generate_problems(1, seed=3)))
    prompt = encode_prompt(tok, build_solve_conversation(p, True))
    body = "<given>\nStep 1: m = 2.0 kg\n</given>\n<final_answer>\n3 m\n</final_answer>"
    completion = {"eos": _ids(tok, body) + [tok.eos_token_id],
                  "length": _ids(tok, body)[:9],  # cut at the token cap, mid-line
                  "stop_string": _ids(tok, body + "\n")}[ending]  # the stop string's last token may carry ">\n"
    ids = revision_prompt_ids(tok, p, prompt, completion, FEEDBACK, True)
    assert ids[: len(prompt) + len(completion)] == prompt + completion
    end_of_turn = tok.convert_tokens_to_ids("<|im_end|>")
    assert end_of_turn == tok.eos_token_id  # SmolLM2: the turn ends with the end-of-sequence token
    tail = ids[len(prompt) + len(completion) - (ending == "eos"):]
    assert tail.count(end_of_turn) == 2  # y1's turn (its own or the suffix's, never both) and the feedback turn
    assert tail[0] == end_of_turn  # y1's turn is closed right after its last sampled token
    assert tok.decode(ids[len(prompt) + len(completion):]).endswith("<|im_start|>assistant\n")
    # What the tokenizer reads from the text is the same context here: the revision conversation's own prompt.
    if ending == "eos":
        conv = build_revision_conversation(p, tok.decode(completion, skip_special_tokens=True), FEEDBACK, True)
        assert ids == encode_prompt(tok, conv)


def _rewriting_tokenizer(tok):
    """The SmolLM2 tokenizer with a template that renders every turn differently once there are several (as
    templates that strip earlier reasoning do): the revision prompt cannot start with the solve prompt."""
    changed = copy.deepcopy(tok)
    changed.chat_template = ("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}"
                             "{% if messages|length > 1 %} (turn {{ loop.index }}){% endif %}<|im_end|>\n"
                             "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
    return changed


def test_rollouts_sample_the_revision_from_the_first_attempts_ids(policy):
    """Through the real loop: y2's prompt ids start with y1's prompt and completion ids (here cut at the token
    cap), the engine sampled from them, and nothing fell back to re-encoding."""
    from physr3.train.refine import summarize

    peft, tok = policy
    cfg = Config()
    cfg.train.max_attempt_tokens, cfg.train.temperature = 5, 1.0
    problems = list(generate_problems(2, seed=8))
    rollouts, _ = _step(cfg, peft, tok, TransformersEngine(peft, tok, batch_size=4)).rollouts(problems, step=1)
    revised = [ro for ro in rollouts if ro.y2 is not None]
    assert revised and all(ro.revision_from_ids for ro in revised)
    for ro in revised:
        n = len(ro.y1.prompt_ids) + len(ro.y1.completion_ids)
        assert ro.y2.prompt_ids[:n] == ro.y1.prompt_ids + ro.y1.completion_ids
        assert ro.y1.truncated
    assert summarize(rollouts)["revision_reencoded"] == 0


def test_a_template_that_rewrites_earlier_turns_falls_back_to_re_encoding_and_is_counted(policy):
    from physr3.train.refine import summarize

    peft, tok = policy
    changed = _rewriting_tokenizer(tok)
    p = next(iter(generate_problems(1, seed=8)))
    assert revision_suffix_text(changed, p, FEEDBACK, True) is None
    assert revision_suffix_text(tok, p, FEEDBACK, True) is not None
    cfg = Config()
    cfg.train.max_attempt_tokens, cfg.train.temperature = 5, 1.0
    rollouts, _ = _step(cfg, peft, changed, TransformersEngine(peft, changed, batch_size=4)).rollouts([p], step=1)
    (ro,) = rollouts
    assert ro.y2 is not None and ro.revision_from_ids is False
    assert ro.y2.prompt_ids == encode_prompt(changed, build_revision_conversation(p, ro.y1.text, ro.feedback_text))
    assert summarize(rollouts)["revision_reencoded"] == 1


# -- one policy pass == two policy passes ---------------------------------------------------------------------

def _attempt(prompt_ids, completion_ids, temperature, reward):
    from physr3.train.attempt import Attempt

    return Attempt(prompt_ids=list(prompt_ids), completion_ids=list(completion_ids), text="t", finish_reason="stop",
                   temperature=temperature, top_p=1.0, verdict=Verdict(1, "MC"), reward=reward)


def _rollouts(tok, t1: float, t2: float):
    """Three revised rollouts of different lengths (y2's prompt built from y1's ids) and, for paper+first, one
    solved first attempt without a revision."""
    from physr3.train.refine import Rollout

    problems = list(generate_problems(4, seed=3))
    gen = torch.Generator().manual_seed(0)
    rand = lambda n: torch.randint(20, 2000, (n,), generator=gen).tolist()  # noqa: E731
    out = []
    for i, (p, n1, n2, r1, r2) in enumerate(zip(problems, (7, 3, 11), (5, 9, 2), (0.1, 0.3, 0.0), (0.25, 0.75, 0.5))):
        y1 = _attempt(rand(6 + i), rand(n1) + ([tok.eos_token_id] if i != 1 else []), t1, r1)
        y2_prompt = revision_prompt_ids(tok, p, y1.prompt_ids, y1.completion_ids, FEEDBACK, True)
        y2 = _attempt(y2_prompt, rand(n2), t2, r2)
        out.append(Rollout(p, y1, feedback_text=FEEDBACK, y2=y2, revision_from_ids=True))
    out.append(Rollout(problems[3], _attempt(rand(5), rand(4), t1, 0.95), skipped="solved"))
    return out


@pytest.mark.parametrize("advantage", ["paper", "improvement", "paper+first"])
@pytest.mark.parametrize("estimator", ["full", "k1", "k3"])
def test_the_shared_pass_gives_the_loss_and_gradients_of_separate_passes(policy, advantage, estimator):
    from physr3.train.adapters import trainable_parameters
    from physr3.train.refine import RefineStep

    peft, tok = policy
    results = {}
    for shared in (True, False):
        cfg = Config()
        cfg.train.beta, cfg.train.temperature, cfg.train.micro_batch_size = 0.3, 0.7, 2
        cfg.train.advantage, cfg.train.kl_estimator, cfg.train.shared_policy_pass = advantage, estimator, shared
        step = RefineStep(cfg, peft, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None)
        peft.zero_grad(set_to_none=True)
        stats = step.backward(_rollouts(tok, 0.7, 0.7))
        results[shared] = stats, [p.grad.clone() for p in trainable_parameters(peft)]
    (s_stats, s_grads), (p_stats, p_grads) = results[True], results[False]
    assert s_stats["update_passes"] == 2 and s_stats["shared_pass"] == 3
    assert p_stats["update_passes"] == 3 and p_stats["shared_pass"] == 0
    for key in ("loss", "kl", "logp_y1", "logp_y2", *(("loss_first",) if advantage == "paper+first" else ())):
        assert s_stats[key] == pytest.approx(p_stats[key], rel=1e-5, abs=1e-6), key
    assert any(g.abs().sum() > 0 for g in p_grads)
    for a, b in zip(s_grads, p_grads, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)


def test_each_span_of_the_shared_pass_is_scored_at_its_own_temperature(policy):
    """y1 sampled at 0.7 and y2 at 1.0: the shared pass scales each span by its own temperature (a single
    temperature for the whole row would change the loss), and the gap metric still compares raw log-probs."""
    from physr3.train.adapters import trainable_parameters
    from physr3.train.refine import RefineStep

    peft, tok = policy
    results = {}
    for shared in (True, False):
        cfg = Config()
        cfg.train.micro_batch_size, cfg.train.shared_policy_pass = 2, shared
        step = RefineStep(cfg, peft, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None)
        rollouts = _rollouts(tok, 0.7, 1.0)
        for ro in rollouts[:3]:  # engine totals (made up) for the sequence-level gap
            ro.y1.sequence_logprob = ro.y2.sequence_logprob = 0.0
        peft.zero_grad(set_to_none=True)
        stats = step.backward(rollouts)
        results[shared] = stats, [p.grad.clone() for p in trainable_parameters(peft)]
    (s_stats, s_grads), (p_stats, p_grads) = results[True], results[False]
    assert s_stats["update_passes"] == 2 and p_stats["update_passes"] == 3
    for key in ("loss", "kl", "logp_y1", "logp_y2", "logp_gap"):
        assert s_stats[key] == pytest.approx(p_stats[key], rel=1e-5, abs=1e-6), key
    for a, b in zip(s_grads, p_grads, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)


def test_a_revision_that_does_not_start_with_the_first_attempt_uses_separate_passes(policy):
    from physr3.train.refine import RefineStep

    peft, tok = policy
    rollouts = _rollouts(tok, 1.0, 1.0)[:3]
    rollouts[1].y2.prompt_ids[len(rollouts[1].y1.prompt_ids)] += 1  # one id of y1 differs in y2's context
    cfg = Config()
    cfg.train.micro_batch_size = 1
    stats = RefineStep(cfg, peft, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None
                       ).backward(rollouts)
    assert stats["shared_pass"] == 2 and stats["update_passes"] == pytest.approx((2 + 3 + 2) / 3)


def test_the_gap_from_the_shared_pass_is_zero_for_an_fp32_mirror(policy):
    """`logp_gap` with per-token engine log-probs, taken from the shared pass: an fp32 policy sampled through an
    fp32 merged mirror at temperature 0.7 gives ~0 for y1 and y2 alike (their spans are aligned right)."""
    from physr3.models.merged import MergedPolicyEngine
    from physr3.train.adapters import POLICY

    peft, tok = policy
    cfg = Config()
    cfg.train.temperature, cfg.train.max_attempt_tokens, cfg.train.micro_batch_size = 0.7, 6, 2
    engine = MergedPolicyEngine(peft, POLICY, tok, batch_size=4, dtype=torch.float32)
    step = _step(cfg, peft, tok, engine)
    rollouts, _ = step.rollouts(list(generate_problems(2, seed=9)), step=1)
    for ro in rollouts:
        ro.y2.reward = 0.5  # a non-zero weight, whatever the verifier made of the random model's text
    stats = step.backward(rollouts)
    assert stats["used"] == 2 and stats["shared_pass"] == 2 and stats["update_passes"] == 2
    assert stats["logp_gap_kind"] == "token" and stats["logp_gap"] < 1e-4


@pytest.mark.parametrize("shared", [True, False])
def test_the_update_of_a_bf16_policy_with_lora_autocast_matches_the_fp32_branch_one(policy, shared):
    """`train.lora_autocast` (on by default) on a bf16 base: the adapters' branches compute in bf16, and the loss
    and the fp32 adapter's gradients equal those of PEFT's fp32 branches up to bf16 rounding."""
    from physr3.train.adapters import trainable_parameters
    from physr3.train.refine import RefineStep

    peft, tok = policy
    bf16 = copy.deepcopy(peft)
    for name, p in bf16.named_parameters():
        if "lora_" not in name:
            p.data = p.data.to(torch.bfloat16)
    assert Config().train.lora_autocast
    results = {}
    for autocast in (True, False):
        cfg = Config()
        cfg.train.beta, cfg.train.temperature, cfg.train.micro_batch_size = 0.3, 0.7, 2
        cfg.train.shared_policy_pass, cfg.train.lora_autocast = shared, autocast
        step = RefineStep(cfg, bf16, tok, engine=None, verifier=None, feedback_fn=None, answer_check=None)
        bf16.zero_grad(set_to_none=True)
        stats = step.backward(_rollouts(tok, 0.7, 0.7))
        results[autocast] = stats, [p.grad.clone() for p in trainable_parameters(bf16)]
    (a_stats, a_grads), (f_stats, f_grads) = results[True], results[False]
    assert all(g.dtype == torch.float32 for g in a_grads)
    # Mean log-probs (~ -13.5 here) within bf16 rounding; the loss is a small difference of them (abs bound).
    for key in ("logp_y1", "logp_y2", "kl"):
        assert a_stats[key] == pytest.approx(f_stats[key], rel=1e-2), key
    assert a_stats["loss"] == pytest.approx(f_stats["loss"], abs=1e-2)
    num = sum(float((a - f).norm() ** 2) for a, f in zip(a_grads, f_grads, strict=True)) ** 0.5
    den = sum(float(f.norm() ** 2) for f in f_grads) ** 0.5
    assert den > 0 and num / den < 0.05
