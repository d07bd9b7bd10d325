"""SFT data: prompt-completion records from problems, and a clear error when max_length leaves nothing to train."""

import pytest
from transformers import AutoTokenizer

from physr3.errors import UserError
from physr3.synth.generate import generate_problems
from physr3.train.sft import _check_lengths, sft_records


def test_records_pair_the_solve_prompt_with_the_solution():
    problems = list(generate_problems(2, seed=1))
    rows = sft_records(problems, format_instruction=False)
    assert rows[0]["prompt"][-1]["role"] == "user" and problems[0].question.strip() in rows[0]["prompt"][-1]["content"]
    assert rows[0]["completion"] == [{"role": "assistant", "content": problems[0].solution}]
    problems[1].solution = None
    with pytest.raises(UserError, match="field 'solution' is empty"):
        sft_records(problems, format_instruction=False)


def test_max_length_shorter_than_every_prompt_is_refused(tiny_model_dir, capsys):
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    rows = sft_records(list(generate_problems(2, seed=1)), format_instruction=True)
    with pytest.raises(UserError, match="sft.max_length=64 is shorter than every prompt"):
        _check_lengths(rows, tok, 64, "sft.max_length")
    _check_lengths(rows, tok, 600, "sft.max_length")  # prompts fit, some solutions are cut: a warning
    assert "truncated" in capsys.readouterr().out
    _check_lengths(rows, tok, 4096, "sft.max_length")
    assert capsys.readouterr().out == ""
