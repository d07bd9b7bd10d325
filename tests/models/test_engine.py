"""TransformersEngine on the tiny random Llama: padding, stops, log-probs, seeds, ordering."""

from __future__ import annotations

import pytest
import torch

from physr3.models.engine import TransformersEngine, build_engine, params_from_config
from physr3.models.types import SamplingParams

QUESTIONS = [
    "A 2 kg block is pushed with 10 N on a frictionless floor. Find its acceleration.",
    "Why?",
    "A car accelerates uniformly from rest to 20 m/s in 5 s. How far does it travel in that time?",
    "State Ohm's law.",
]


def conv(q: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": q}]


@pytest.fixture(scope="module")
def engine(tiny_model) -> TransformersEngine:
    model, tokenizer = tiny_model
    return TransformersEngine(model, tokenizer, batch_size=4)


def greedy(n: int = 12, **kw) -> SamplingParams:
    return SamplingParams(max_new_tokens=n, stop=kw.pop("stop", ()), **kw)


def test_batched_greedy_equals_single_greedy(engine: TransformersEngine) -> None:
    batched = engine.generate([conv(q) for q in QUESTIONS], greedy())
    for q, b in zip(QUESTIONS, batched):
        (single,) = engine.generate([conv(q)], greedy())
        assert b.token_ids == single.token_ids
        assert b.text == single.text
        assert b.prompt_tokens == single.prompt_tokens == len(engine.encode(conv(q)))


def test_greedy_matches_transformers_generate(engine: TransformersEngine) -> None:
    """Our decoding loop against the ecosystem's reference: same left-padded batch, same greedy tokens."""
    prompts = [engine.encode(conv(q)) for q in QUESTIONS]
    ours = engine.generate([conv(q) for q in QUESTIONS], greedy(10))
    tok = engine.tokenizer
    for ids, mine in zip(prompts, ours):
        reference = engine.model.generate(input_ids=torch.tensor([ids]), attention_mask=torch.ones(1, len(ids)),
                                          do_sample=False, max_new_tokens=10, pad_token_id=engine.pad_id,
                                          eos_token_id=sorted(engine.eos_ids))
        expected = reference[0, len(ids):].tolist()
        if tok.eos_token_id in expected:  # generate pads after end-of-sequence; we stop there
            expected = expected[: expected.index(tok.eos_token_id) + 1]
        assert mine.token_ids == expected


def test_finished_rows_leave_the_batch(engine: TransformersEngine) -> None:
    """A row that hits its stop string stops costing compute: later forward passes have a smaller batch."""
    free = engine.generate([conv(q) for q in QUESTIONS[:2]], greedy(16))
    stop = free[0].text[:3]
    assert stop not in free[1].text, "pick prompts whose outputs differ at the start"
    batch_sizes: list[int] = []
    hook = engine.model.register_forward_pre_hook(
        lambda _m, _a, kw: batch_sizes.append(kw["input_ids"].shape[0]), with_kwargs=True)
    try:
        both = engine.generate([conv(q) for q in QUESTIONS[:2]], greedy(16, stop=(stop,)))
    finally:
        hook.remove()
    assert both[0].finish_reason == "stop" and both[1].token_ids == free[1].token_ids
    assert batch_sizes[0] == 2 and batch_sizes[-1] == 1
    assert batch_sizes == sorted(batch_sizes, reverse=True)
    assert len(batch_sizes) == len(free[1].token_ids)  # one prefill + one pass per further token


def test_chunks_keep_caller_order(tiny_model) -> None:
    model, tokenizer = tiny_model
    small = TransformersEngine(model, tokenizer, batch_size=3)
    big = TransformersEngine(model, tokenizer, batch_size=8)
    convs = [conv(q) for q in QUESTIONS + QUESTIONS[:1]]
    a = small.generate(convs, greedy(6))
    b = big.generate(convs, greedy(6))
    assert [c.token_ids for c in a] == [c.token_ids for c in b]
    assert [c.prompt_tokens for c in a] == [len(small.encode(c)) for c in convs]
    assert small.generate([], greedy()) == []


def test_length_finish_and_token_count(engine: TransformersEngine) -> None:
    (c,) = engine.generate([conv(QUESTIONS[0])], greedy(7))
    if c.finish_reason == "length":
        assert len(c.token_ids) == 7
    else:  # the random model emitted end-of-sequence early
        assert c.token_ids[-1] == engine.tokenizer.eos_token_id


def test_stop_string_cuts_text_and_tokens(engine: TransformersEngine) -> None:
    (free,) = engine.generate([conv(QUESTIONS[2])], greedy(24))
    text = free.text
    assert len(text) > 12, "the tiny model should write some text"
    stop = text[len(text) // 2 : len(text) // 2 + 3]
    cut = text.index(stop) + len(stop)
    (stopped,) = engine.generate([conv(QUESTIONS[2])], greedy(24, stop=(stop,)))
    assert stopped.text == text[:cut]
    assert stopped.finish_reason == "stop"
    assert stopped.token_ids == free.token_ids[: len(stopped.token_ids)]
    assert len(stopped.token_ids) < len(free.token_ids)
    decoded = engine.tokenizer.decode(stopped.token_ids, skip_special_tokens=True)
    assert stop in decoded and stop not in engine.tokenizer.decode(stopped.token_ids[:-1], skip_special_tokens=True)


def test_stop_string_per_sequence_in_a_batch(engine: TransformersEngine) -> None:
    free = engine.generate([conv(q) for q in QUESTIONS[:2]], greedy(24))
    stop = free[0].text[4:7]
    both = engine.generate([conv(q) for q in QUESTIONS[:2]], greedy(24, stop=(stop,)))
    assert both[0].text.endswith(stop) and both[0].finish_reason == "stop"
    if stop not in free[1].text:  # the other row is unaffected by row 0 stopping
        assert both[1].token_ids == free[1].token_ids


def test_logprobs_match_teacher_forced_forward(engine: TransformersEngine) -> None:
    convs = [conv(q) for q in QUESTIONS[:3]]
    for params in (greedy(10, return_logprobs=True), SamplingParams(max_new_tokens=10, temperature=0.7, top_p=0.9,
                                                                    stop=(), seed=3, return_logprobs=True)):
        for c, out in zip(convs, engine.generate(convs, params)):
            assert out.logprobs is not None and len(out.logprobs) == len(out.token_ids)
            prompt = engine.encode(c)
            ids = torch.tensor([prompt + out.token_ids])
            with torch.no_grad():
                logits = engine.model(ids).logits[0, len(prompt) - 1 : -1].float()
            expected = torch.log_softmax(logits, -1).gather(-1, torch.tensor(out.token_ids)[:, None]).squeeze(-1)
            assert torch.allclose(torch.tensor(out.logprobs), expected, atol=1e-4), (out.logprobs, expected)


def test_logprobs_absent_unless_asked(engine: TransformersEngine) -> None:
    (c,) = engine.generate([conv(QUESTIONS[1])], greedy(4))
    assert c.logprobs is None


def test_sampling_is_seeded_and_restores_global_rng(engine: TransformersEngine) -> None:
    params = SamplingParams(max_new_tokens=12, temperature=1.0, top_p=1.0, stop=(), seed=123)
    torch.manual_seed(7)
    before = torch.rand(1)
    torch.manual_seed(7)
    a = engine.generate([conv(q) for q in QUESTIONS], params)
    after = torch.rand(1)
    b = engine.generate([conv(q) for q in QUESTIONS], params)
    assert [c.token_ids for c in a] == [c.token_ids for c in b]
    assert torch.equal(before, after), "a seeded call must not consume the caller's RNG stream"
    params.seed = 124
    c = engine.generate([conv(q) for q in QUESTIONS], params)
    assert [x.token_ids for x in c] != [x.token_ids for x in a]


def test_params_from_config_and_build_engine(tiny_model_dir: str) -> None:
    from physr3.config import Config
    from physr3.errors import UserError
    from physr3.models.types import FINAL_ANSWER_STOP

    cfg = Config()
    assert params_from_config(cfg.generation).stop == (FINAL_ANSWER_STOP,)
    cfg.generation.stop_at_final_answer = False
    assert params_from_config(cfg.generation, seed=5).stop == ()
    cfg.model.name_or_path, cfg.model.dtype, cfg.generation.batch_size = tiny_model_dir, "float32", 2
    cfg.generation.engine = "transformers"  # the default, auto, is OpenVINO where it passes (test_openvino_engine)
    eng = build_engine(cfg)
    assert isinstance(eng, TransformersEngine) and eng.batch_size == 2
    cfg.generation.engine = "nope"
    with pytest.raises(UserError, match="generation.engine"):
        build_engine(cfg)


def test_on_token_streams_each_conversations_tokens_in_caller_order(tiny_model) -> None:
    model, tokenizer = tiny_model
    small = TransformersEngine(model, tokenizer, batch_size=3)  # two chunks, prompts sorted by length
    convs = [conv(q) for q in QUESTIONS + QUESTIONS[:1]]
    seen: dict[int, list[int]] = {i: [] for i in range(len(convs))}
    out = small.generate(convs, greedy(9), on_token=lambda i, tok: seen[i].append(tok))
    assert out == small.generate(convs, greedy(9))  # streaming changes nothing
    for i, completion in enumerate(out):
        assert seen[i][: len(completion.token_ids)] == completion.token_ids
        assert len(seen[i]) == len(completion.token_ids)  # no stop string: every streamed token is kept
