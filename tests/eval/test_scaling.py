"""`physr3 scaling` on two real tiny models of different sizes (the conftest tiny model trained here to answer
"3 m" to the CoT prompt, and a smaller random one): accuracy per benchmark from eval's results, parameter
counts from the safetensors headers, a rerun that loads no model, a larger --limit that evaluates only the
new items, bad input."""

from __future__ import annotations

import json

import pytest

from physr3.cli import main
from physr3.eval.scaling import format_params, model_label


@pytest.fixture(scope="module")
def small_random_dir(tiny_model_dir, tmp_path_factory):
    """A smaller random Llama (1 layer, hidden 32) with the same tokenizer: a second size on the x axis."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    torch.manual_seed(1)
    model = LlamaForCausalLM(LlamaConfig(vocab_size=len(tok), hidden_size=32, intermediate_size=64,
                                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1,
                                         max_position_embeddings=1024, bos_token_id=1, eos_token_id=2,
                                         pad_token_id=2, tie_word_embeddings=True))
    folder = tmp_path_factory.mktemp("small-random")
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


ANSWER = "<final_answer>\n3 m\n</final_answer>"
QUESTION = "Find the length, case {i}."


@pytest.fixture(scope="module")
def answering_dir(tiny_model_dir, tmp_path_factory):
    """The tiny Llama trained for a few steps to reply ANSWER to the CoT condition's prompt for our questions."""
    import torch
    from transformers import AutoModelForCausalLM

    from physr3.config import load_config
    from physr3.eval.conditions import get_condition
    from physr3.models.loading import load_tokenizer
    from physr3.problems import Problem
    from physr3.prompts import encode_prompt

    cfg = load_config(None, [f"model.name_or_path={tiny_model_dir}"])
    tok = load_tokenizer(cfg.model)  # with the system prompt installed, as eval loads it
    cot = get_condition("cot")
    prompts = [encode_prompt(tok, cot.build(Problem(id=str(i), question=QUESTION.format(i=i), answer="1 m"), cfg))
               for i in range(4)]
    target = tok(ANSWER, add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    torch.manual_seed(0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(32):
        prompt = prompts[step % len(prompts)]
        loss = model(input_ids=torch.tensor([prompt + target]),
                     labels=torch.tensor([[-100] * len(prompt) + target])).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
    folder = tmp_path_factory.mktemp("answering-tiny")
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


def write(path, golds):
    path.write_text("".join(json.dumps({"id": f"{path.stem}{i}", "question": QUESTION.format(i=i),
                                        "answer": g, "answer_type": "numeric_unit"}) + "\n"
                            for i, g in enumerate(golds)))
    return str(path)


def num_parameters(folder):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(folder).num_parameters()


def test_scaling_table_plot_and_reuse(answering_dir, small_random_dir, tmp_path, capsys):
    easy = write(tmp_path / "easy.jsonl", ["3 m", "7 kg", "3 m", "3 m"])
    hard = write(tmp_path / "hard.jsonl", ["5 s", "3 m", "9 J"])
    out = tmp_path / "scaling"
    argv = ["scaling", "--model", answering_dir, "--model", small_random_dir, "--benchmark",
            f"synth-test={easy}", "--benchmark", f"physicsqa={hard}", "--limit", "2", "--out", str(out),
            "--no-progress", "model.dtype=float32", "model.device=cpu", "generation.max_new_tokens=24"]
    capsys.readouterr()
    assert main(argv) == 0
    cap = capsys.readouterr()
    assert cap.err.count("evaluating 4 items") == 2

    rows = {r["model"]: r for r in json.loads((out / "scaling.json").read_text())}
    big, small = rows[answering_dir], rows[small_random_dir]
    assert big["params"] == num_parameters(answering_dir) and small["params"] == num_parameters(small_random_dir)
    assert small["params"] < big["params"]
    for r in rows.values():  # the figures are what eval's per-item results say
        for bench, fname in (("synth-test", "cot__synth-test.jsonl"), ("physicsqa", "cot__physicsqa.jsonl")):
            items = [json.loads(x) for x in open(f"{r['run_dir']}/results/{fname}")]
            assert r["n"][bench] == len(items) == 2
            assert r["accuracy"][bench] == sum(x["correct"] for x in items) / 2
        assert r["hard_mean"] == r["accuracy"]["physicsqa"] and r["easy_mean"] == r["accuracy"]["synth-test"]
    # the trained model answers "3 m": right on easy item 0 and hard item 1 of the first two, wrong elsewhere
    assert big["accuracy"] == {"synth-test": 0.5, "physicsqa": 0.5}
    assert small["accuracy"] == {"synth-test": 0.0, "physicsqa": 0.0}
    table = cap.out
    assert table.index(model_label(small_random_dir)) < table.index(model_label(answering_dir))  # by size
    assert format_params(big["params"]) in table and "physicsqa (hard)" in table and "50.0 (n=2)" in table
    assert (out / "scaling.png").read_bytes()[:4] == b"\x89PNG"

    # rerun: every result is there, no model is loaded or run (eval's run history gains no line)
    history = {r["model"]: len(open(f"{r['run_dir']}/runs.jsonl").readlines()) for r in rows.values()}
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert err.count("(not re-run)") == 2 and "evaluating" not in err
    assert {r["model"]: len(open(f"{r['run_dir']}/runs.jsonl").readlines()) for r in rows.values()} == history
    # a larger limit evaluates only the new items (eval resumes)
    assert main([*argv[:-4], "--limit", "3", *argv[-4:]]) == 0
    err = capsys.readouterr().err
    assert err.count("evaluating 2 items") == 2
    again = {r["model"]: r for r in json.loads((out / "scaling.json").read_text())}
    assert again[answering_dir]["n"] == {"synth-test": 3, "physicsqa": 3}
    assert again[answering_dir]["accuracy"] == {"synth-test": 2 / 3, "physicsqa": 1 / 3}


def test_bad_input(tmp_path, tiny_model_dir, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": 1, "question": "q"}) + "\n")
    assert main(["scaling", "--model", tiny_model_dir, "--benchmark", f"physicsqa={bad}", "--out",
                 str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.jsonl:1: field 'answer': required field is missing" in err
    assert main(["scaling", "--model", tiny_model_dir, "--model", str(tmp_path / "nope"), "--benchmark", "scieval",
                 "--out", str(tmp_path / "o")]) == 2
    assert "no such folder" in capsys.readouterr().err and not (tmp_path / "o").exists()
    assert main(["scaling", "--benchmark", "scieval"]) == 2
    assert "no model" in capsys.readouterr().err
    assert main(["scaling", "--model", "embedded", "--limit", "0"]) == 2
    assert "scaling.limit must be >= 1" in capsys.readouterr().err
