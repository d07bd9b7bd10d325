"""A tiny model that has memorised a short, formatted (and wrong) answer, so the refine loop sees real,
non-zero rewards from the symbolic verifier: a random tiny model writes no steps at all (reward 0 for every
sample, hence no gradient), while this one writes `Step 1: ...` and gets an error at step 1 (r = 1/2)."""

import pytest

ANSWER = "<given>\nStep 1: m = 2.0 kg (mass)\n</given>\n<final_answer>\n3 m\n</final_answer>"


@pytest.fixture(scope="session")
def formatted_tiny_dir(tiny_model_dir, tmp_path_factory):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from physr3.prompts import build_solve_conversation
    from physr3.synth.generate import generate_problems

    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    target = tok(ANSWER, add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
    prompts = []
    for fmt in (True, False):
        for p in generate_problems(3, seed=1):
            text = tok.apply_chat_template(build_solve_conversation(p, fmt), tokenize=False, add_generation_prompt=True)
            prompts.append(tok(text, add_special_tokens=False)["input_ids"])
    torch.manual_seed(0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(36):
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
