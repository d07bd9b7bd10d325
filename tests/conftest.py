"""Shared test fixtures: offline hub, and a tiny random-init Llama with the real SmolLM2 tokenizer.

The tiny model (2 layers, hidden 64) is built once per session in a temporary folder; the tokenizer comes
from the embedded GGUF (extracted once into the user cache, ~5 s the first time; reused from the converted
embedded model when that exists). Real-model tests are marked `slow`.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a hub id otherwise retries for ~46 s before failing
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")

import pytest  # noqa: E402

TINY_SYSTEM_PROMPT = "You are a test assistant. Answer in tags."


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A folder holding a tiny random Llama (fp32, seeded) and the SmolLM2 tokenizer."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    from physr3.models.loading import embedded_tokenizer_dir

    tokenizer = AutoTokenizer.from_pretrained(embedded_tokenizer_dir())
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=2,
        tie_word_embeddings=True,
        initializer_range=0.2,  # peaked next-token distributions: greedy decoding has no near-ties
    )
    torch.manual_seed(0)
    model = LlamaForCausalLM(config)
    folder = tmp_path_factory.mktemp("tiny-llama")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="session")
def tiny_model(tiny_model_dir: str):
    """(model, tokenizer) of the tiny Llama loaded through physr3's loader in fp32 on CPU."""
    from physr3.config import ModelConfig
    from physr3.models.loading import load_model

    return load_model(ModelConfig(name_or_path=tiny_model_dir, dtype="float32", device="cpu",
                                  system_prompt=TINY_SYSTEM_PROMPT))


@pytest.fixture(scope="session")
def tiny_system_prompt() -> str:
    """The system prompt the `tiny_model` fixture was loaded with."""
    return TINY_SYSTEM_PROMPT


# A tiny model that has memorised a short, formatted (and wrong) answer, so the refine loop sees real, non-zero
# rewards from the symbolic verifier: a random tiny model writes no steps at all (reward 0 for every sample,
# hence no gradient), while this one writes `Step 1: ...` and gets an error at step 1 (r = 1/2).
FORMATTED_ANSWER = "<given>\nStep 1: m = 2.0 kg (mass)\n</given>\n<final_answer>\n3 m\n</final_answer>"


@pytest.fixture(scope="session")
def formatted_tiny_dir(tiny_model_dir, tmp_path_factory):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from physr3.prompts import build_revision_conversation, build_solve_conversation, encode_prompt
    from physr3.synth.generate import generate_problems

    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    target = tok(FORMATTED_ANSWER, add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
    prompts = []
    for fmt in (True, False):
        for p in generate_problems(3, seed=1):
            # both the first-attempt and the revision context, so y2 is formatted as well
            for conv in (build_solve_conversation(p, fmt),
                         build_revision_conversation(p, FORMATTED_ANSWER, "Step 1 misreads the problem.", fmt)):
                prompts.append(encode_prompt(tok, conv))
    torch.manual_seed(0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(48):
        prompt = prompts[step % len(prompts)]
        x = torch.tensor([prompt + target])
        labels = torch.tensor([[-100] * len(prompt) + target])
        model(input_ids=x, labels=labels).loss.backward()
        opt.step()
        opt.zero_grad()
    folder = tmp_path_factory.mktemp("formatted-tiny")
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)
