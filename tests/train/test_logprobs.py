"""Log-probs of completions and the KL estimators used by the refine loss."""

import pytest
import torch
import torch.nn.functional as F
from transformers import LlamaConfig, LlamaForCausalLM

from physr3.train.logprobs import SequenceBatch, build_batch, kl_per_row, masked_mean, token_logprobs


class _Tok:
    pad_token_id = 0
    eos_token_id = 1


def _tiny(seed=0):
    torch.manual_seed(seed)
    return LlamaForCausalLM(LlamaConfig(vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                        num_attention_heads=4, num_key_value_heads=2)).eval()


def test_build_batch_marks_completion_and_scores_an_empty_completion():
    batch = build_batch(_Tok(), [[5, 6, 7], [8]], [[9, 10], []])
    assert batch.input_ids.tolist() == [[5, 6, 7, 9, 10], [8, 1, 0, 0, 0]]
    assert batch.completion_mask.tolist() == [[0, 0, 0, 1, 1], [0, 1, 0, 0, 0]]
    assert batch.attention_mask.tolist() == [[1, 1, 1, 1, 1], [1, 1, 0, 0, 0]]


def test_token_logprobs_match_unpadded_forward():
    model = _tiny()
    batch = build_batch(_Tok(), [[5, 6, 7], [8, 3]], [[9, 10], [11, 12, 13]])
    logp, mask, _ = token_logprobs(model, batch)
    seq = torch.tensor([[8, 3, 11, 12, 13]])
    ref = F.log_softmax(model(seq).logits[0, :-1].float(), -1).gather(1, seq[0, 1:, None]).squeeze(1)
    got = logp[1][mask[1].bool()]
    assert torch.allclose(got, ref[-3:], atol=1e-5)
    assert mask.sum(-1).tolist() == [2.0, 3.0]


def test_masked_mean_never_nan_on_empty_mask():
    values = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert masked_mean(values, torch.tensor([[1.0, 1.0], [0.0, 0.0]])).tolist() == [1.5, 0.0]


def test_kl_estimators_agree_in_expectation_and_full_is_zero_for_equal_models():
    torch.manual_seed(0)
    p_logits = torch.randn(1, 4000, 6)
    q_logits = p_logits + 0.3 * torch.randn(1, 4000, 6)
    mask = torch.ones(1, 4000)
    full = kl_per_row(p_logits, q_logits, mask, estimator="full")
    # sample tokens from p to check the sampled estimators are unbiased for the same quantity
    samples = torch.distributions.Categorical(logits=p_logits).sample()
    lp = F.log_softmax(p_logits, -1).gather(2, samples[..., None]).squeeze(-1)
    lq = F.log_softmax(q_logits, -1).gather(2, samples[..., None]).squeeze(-1)
    k1 = kl_per_row(p_logits, q_logits, mask, lp, lq, estimator="k1")
    k3 = kl_per_row(p_logits, q_logits, mask, lp, lq, estimator="k3")
    assert abs(k1.item() - full.item()) < 0.01 and abs(k3.item() - full.item()) < 0.01
    assert kl_per_row(p_logits, p_logits.clone(), mask, estimator="full").abs().item() < 1e-6


def test_sequence_batch_is_a_plain_record():
    assert SequenceBatch.__dataclass_fields__.keys() == {"input_ids", "attention_mask", "completion_mask"}


def test_token_logprobs_skip_the_prompts_but_score_what_a_full_pass_scores():
    """Only positions from the earliest completion on are projected; masked values equal a full pass's."""
    model = _tiny(1)
    batch = build_batch(_Tok(), [[5, 6, 7, 8, 9, 4], [8, 3, 2, 7]], [[9, 10], [11, 12, 13]])
    logp, mask, logits = token_logprobs(model, batch)
    assert logp.shape == mask.shape == (2, 4) and logits.shape[:2] == (2, 4)  # width 8, earliest completion at 4
    full = F.log_softmax(model(batch.input_ids, attention_mask=batch.attention_mask).logits[:, :-1].float(), -1)
    full = full.gather(2, batch.input_ids[:, 1:, None]).squeeze(-1)
    full_mask = batch.completion_mask[:, 1:].float()
    for row in range(2):
        assert torch.allclose(logp[row][mask[row].bool()], full[row][full_mask[row].bool()], atol=1e-5)


def test_each_kl_estimator_as_a_loss_term_has_the_exact_kl_gradient():
    """KL estimators: with tokens sampled from π_θ, the gradient of every estimator's loss term averages to
    ∇ KL(π_θ ‖ π_ref), the gradient of the exact full-vocabulary KL (k1 written plainly averages to zero, k3
    written plainly gives the reverse KL's gradient)."""
    model = _tiny(0)
    with torch.no_grad():
        ref_logits = _tiny(1)(torch.tensor([[5, 6, 7, 8]])).logits[:, 1:].float()
    params = [p for p in model.parameters() if p.requires_grad]

    def grad_of(loss):
        model.zero_grad()
        loss.backward()
        return torch.cat([p.grad.flatten() for p in params])

    logits = model(torch.tensor([[5, 6, 7, 8]])).logits[:, 1:].float()  # 3 positions, vocab 50
    mask = torch.ones(1, 3)
    exact = grad_of(kl_per_row(logits, ref_logits, mask, estimator="full").sum())
    n = 400_000
    generator = torch.Generator().manual_seed(0)
    for estimator in ("k1", "k3"):
        logits = model(torch.tensor([[5, 6, 7, 8]])).logits[:, 1:].float()
        lp_all, lq_all = F.log_softmax(logits, -1)[0], F.log_softmax(ref_logits, -1)[0]
        samples = torch.multinomial(lp_all.detach().exp(), n, replacement=True, generator=generator).T  # (n, 3)
        pos = torch.arange(3)
        lp, lq = lp_all[pos, samples], lq_all[pos, samples]
        value = kl_per_row(None, None, torch.ones(n, 3), lp, lq, estimator=estimator).mean()
        got = grad_of(value)
        full_value = kl_per_row(logits, ref_logits, mask, estimator="full").item()
        assert value.item() == pytest.approx(full_value, rel=0.05), estimator  # the value is still the KL
        cosine = F.cosine_similarity(got, exact, dim=0).item()
        rel = ((got - exact).norm() / exact.norm()).item()
        assert cosine > 0.99 and rel < 0.1, (estimator, cosine, rel)
