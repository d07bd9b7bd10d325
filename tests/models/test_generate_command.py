"""`physr3 generate` end to end on the tiny model, the solve prompt, and its one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from physr3.cli import main
from physr3.problems import Problem, write_jsonl
from physr3.prompts import FORMAT_INSTRUCTION, build_solve_conversation, render_question
from physr3.solution import TAGS, validate


def problems(n: int) -> list[Problem]:
    rows = [Problem(id=f"p{i}", question=f"A ball falls for {i + 1} s from rest. How far does it fall?",
                    answer=f"{4.9 * (i + 1) ** 2:.1f} m") for i in range(n)]
    rows.append(Problem(id="mcq", question="Which is a unit of force?", answer="B", answer_type="mcq",
                        options=["joule", "newton", "watt"]))
    return rows


def test_solve_prompt_shape() -> None:
    mcq = problems(0)[0]
    (message,) = build_solve_conversation(mcq, format_instruction=True)
    assert message["role"] == "user"
    assert "\nA) joule\nB) newton\nC) watt" in message["content"]
    assert FORMAT_INSTRUCTION in message["content"]
    assert all(f"<{t}>" in FORMAT_INSTRUCTION for t in TAGS)
    example = FORMAT_INSTRUCTION[FORMAT_INSTRUCTION.index("<given>\n"):]
    assert validate(example).compliant
    (plain,) = build_solve_conversation(problems(1)[0], format_instruction=False)
    assert plain["content"] == render_question(problems(1)[0]) and "<given>" not in plain["content"]


def run(tmp_path: Path, model_dir: str, *extra: str) -> int:
    return main(["generate", "--input", str(tmp_path / "in.jsonl"), "--out", str(tmp_path / "out.jsonl"), *extra,
                 f"model.name_or_path={model_dir}", "model.dtype=float32", "model.device=cpu",
                 "generation.max_new_tokens=6", "generation.batch_size=2"])


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_generate_writes_rows_and_resumes(tmp_path: Path, tiny_model_dir: str) -> None:
    write_jsonl(tmp_path / "in.jsonl", problems(4))
    assert run(tmp_path, tiny_model_dir, "--limit", "2") == 0
    first = read(tmp_path / "out.jsonl")
    assert [r["id"] for r in first] == ["p0", "p1"]
    row = first[0]
    assert set(row) == {"id", "prompt", "completion", "n_tokens", "finish_reason"}
    assert 0 < row["n_tokens"] <= 6 and row["finish_reason"] in {"stop", "length"}
    assert row["prompt"].startswith("A ball falls for 1 s") and FORMAT_INSTRUCTION in row["prompt"]

    assert run(tmp_path, tiny_model_dir) == 0  # resume: only the missing ids are generated
    rows = read(tmp_path / "out.jsonl")
    assert [r["id"] for r in rows] == ["p0", "p1", "p2", "p3", "mcq"]
    assert rows[:2] == first
    assert "A) joule" in rows[-1]["prompt"]

    assert run(tmp_path, tiny_model_dir, "--overwrite", "--limit", "1") == 0
    assert [r["id"] for r in read(tmp_path / "out.jsonl")] == ["p0"]


def test_generate_bad_inputs_exit_2_with_one_line(tmp_path: Path, tiny_model_dir: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    write_jsonl(tmp_path / "in.jsonl", problems(1))
    assert run(tmp_path, str(tmp_path / "no-model")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("physr3 generate: error: model.name_or_path=") and "no such folder" in err
    assert "\n" not in err and "Traceback" not in err

    (tmp_path / "in.jsonl").write_text('{"id": "x", "question": "q", "answer": "1"}\n{"id": 2,\n')
    assert run(tmp_path, tiny_model_dir) == 2
    err = capsys.readouterr().err.strip()
    assert "in.jsonl:2" in err and "invalid JSON" in err and "\n" not in err

    write_jsonl(tmp_path / "in.jsonl", problems(1))
    assert run(tmp_path, tiny_model_dir, "model.dtype=fp8") == 2
    err = capsys.readouterr().err.strip()  # refused by the config or by the loader, in one line either way
    assert "model.dtype" in err and "fp8" in err and "\n" not in err
