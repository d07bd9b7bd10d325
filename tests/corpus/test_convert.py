"""`physr3 convert` over real HTTP: the teacher is `physr3 serve` with the scripted test double in a subprocess
(the server's public CLI; the scripted responder is tests/support/responders.py), the inputs are real
OpenStax worked examples plus two synthetic items with a gold answer. Scripted teacher behaviours: compliant,
non-compliant then fixed once its violations are quoted back, a wrong final answer, garbage, an invented value."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from physr3.cli import main
from physr3.corpus.convert import numbers_in, unsupported_numbers
from physr3.paths import data_dir
from physr3.problems import read_problems
from physr3.solution import render_solution, validate
from physr3.train.sft import sft_records
from support import serve_env

SECTIONS = {"given": ["d = 10.0 km", "t = 20.0 min"], "find": ["v, the average speed in km/h and m/s"],
            "concept": ["Average speed is distance over time; convert units with 60 min/h."],
            "governing_equation": ["v = d / t"], "substitution": ["v = (10.0 km) / (20.0 min) = 0.500 km/min"],
            "calculation": ["v = 0.500 km/min x 60 min/h = 30.0 km/h = 8.33 m/s"]}
DRIVE_OK = render_solution(SECTIONS, "(a) 30.0 km/h; (b) 8.33 m/s")
DRIVE_BROKEN = DRIVE_OK.replace("<concept>", "").replace("</concept>", "")  # one tag pair dropped
BROKEN_VIOLATIONS = ["missing <concept>", "step(s) 4 outside any tag"]
assert validate(DRIVE_BROKEN).violations == BROKEN_VIOLATIONS
INVENTED = render_solution(SECTIONS, "42.7 km/h")
BLOCK = render_solution({"given": ["m = 2.0 kg", "F = 10 N"], "find": ["a"], "concept": ["Newton's second law"],
                         "governing_equation": ["a = F / m"], "substitution": ["a = 10 N / 2.0 kg"],
                         "calculation": ["a = 5.0 m/s^2"]}, "5.0 m/s^2")
BLOCK_WRONG = BLOCK.replace("5.0 m/s^2", "50 m/s^2")

# Rules are tried in order against all message texts of a request: the retry rule comes first and only matches
# a request that quotes the checker's single violation back.
RULES = [
    {"match": "checks:\n- missing <concept>\n- step(s) 4 outside any tag\n\n", "reply": DRIVE_OK},
    {"match": "10.0 km from your school", "reply": DRIVE_BROKEN},
    {"match": "weigh the apples each time", "reply": INVENTED.replace("42.7 km/h", "42.7 lb")},
    {"match": "QBLOCK", "reply": BLOCK},
    {"match": "QWRONG", "reply": BLOCK_WRONG},
    {"match": "QGARBAGE", "reply": "Sure! As an AI I think the answer is probably fine."},
]


def openstax_rows(n: int) -> list[dict]:
    with open(Path(data_dir()) / "openstax_worked_examples" / "worked_examples.jsonl", encoding="utf-8") as fh:
        return [json.loads(next(fh)) for _ in range(n)]


def write(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


@pytest.fixture(scope="module")
def teacher(tmp_path_factory):
    """`physr3 serve` with the scripted rules, in a subprocess; yields its base URL."""
    rules = tmp_path_factory.mktemp("teacher") / "rules.json"
    rules.write_text(json.dumps(RULES))
    env = serve_env(dict(os.environ, PYTHONUNBUFFERED="1"))  # tests/ on PYTHONPATH: the test doubles
    proc = subprocess.Popen([sys.executable, "-m", "physr3.cli", "serve", "--port", "0", "--responder",
                             "support.responders:ScriptedResponder.from_file", "--responder-arg", str(rules)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert " on http://" in line, line
        yield line.split(" on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        proc.stdout.close()


def inputs(tmp_path: Path) -> str:
    drive, apples = openstax_rows(2)
    base = {"solution": "Use F = m a: a = 10 N / 2.0 kg = 5.0 m/s^2.", "answer": "5.0 m/s^2", "domain": "Mechanics"}
    return write(tmp_path / "in.jsonl", [
        drive, apples,
        {**base, "id": "block", "question": "QBLOCK: a 2.0 kg block is pushed by 10 N. Find a."},
        {**base, "id": "wrong", "question": "QWRONG: a 2.0 kg block is pushed by 10 N. Find a."},
        {**base, "id": "garbage", "question": "QGARBAGE: a 2.0 kg block is pushed by 10 N. Find a."},
    ])


def run(inp, out, url, tmp_path, *extra):
    return main(["convert", "--input", inp, "--out", str(out), "--teacher-base-url", url, "--teacher-model",
                 "scripted", "--cache", str(tmp_path / "cache.sqlite"), "--no-progress", *extra])


def test_convert_validates_retries_rejects_and_resumes(tmp_path, teacher, capsys):
    inp, out = inputs(tmp_path), tmp_path / "out.jsonl"
    assert run(inp, out, teacher, tmp_path, "--max-retries", "2") == 0
    err = capsys.readouterr().err
    converted = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    rejects = {r["id"]: r for r in map(json.loads, (tmp_path / "out.rejects.jsonl").read_text().splitlines())}
    assert set(converted) == {"m42091/fs-id2747928", "block"}
    assert set(rejects) == {"m42120/fs-id2681377", "wrong", "garbage"}

    drive = converted["m42091/fs-id2747928"]  # non-compliant first, fixed after its violations were quoted back
    assert drive["attempts"] == 2 and drive["solution"] == DRIVE_OK and validate(drive["solution"]).compliant
    assert drive["answer"] == "(a) 30.0 km/h; (b) 8.33 m/s" and drive["answer_checked"] == "source_numbers"
    assert drive["book"] == "College Physics 2e" and drive["source_solution"].startswith("**Strategy**")
    assert converted["block"]["attempts"] == 1 and converted["block"]["answer_checked"] == "source_answer"

    assert rejects["wrong"]["reason"] == "answer" and rejects["wrong"]["attempts"] == 3
    assert "does not match the source's answer '5.0 m/s^2'" in rejects["wrong"]["violations"][0]
    assert rejects["garbage"]["reason"] == "format" and "missing <given>" in rejects["garbage"]["violations"]
    assert rejects["m42120/fs-id2681377"]["reason"] == "answer" and "42.7" in rejects["m42120/fs-id2681377"]["violations"][0]
    assert len(rejects["garbage"]["history"]) == 3 and rejects["garbage"]["last_reply"].startswith("Sure!")

    assert "2 converted (1 on the first try, 1 after violations were quoted back)" in err
    assert "3 rejected (by reason: answer 2, format 1)" in err
    # 2 (drive) + 3 + 3 + 3 (rejects: the first try and two retries each) + 1 (block)
    assert "12 calls, 0 cache hits" in err

    # the output is what physr3 sft reads
    problems = read_problems(out)
    assert len(sft_records(problems, format_instruction=True, path=str(out))) == 2

    # resume: nothing left to do, no call
    assert run(inp, out, teacher, tmp_path) == 0
    err = capsys.readouterr().err
    assert "5 already done" in err and "0 calls, 0 cache hits" in err
    # a fresh output over the same inputs: every reply from the cache
    out2 = tmp_path / "again.jsonl"
    assert run(inp, out2, teacher, tmp_path, "--max-retries", "2") == 0
    assert "0 calls, 12 cache hits" in capsys.readouterr().err
    assert out2.read_text() == out.read_text()


def test_no_retries_rejects_what_a_retry_would_fix(tmp_path, teacher, capsys):
    inp, out = inputs(tmp_path), tmp_path / "out.jsonl"
    assert run(inp, out, teacher, tmp_path, "--max-retries", "0", "--limit", "1") == 0
    assert out.read_text() == ""
    (reject,) = map(json.loads, (tmp_path / "out.rejects.jsonl").read_text().splitlines())
    assert reject["reason"] == "format" and reject["violations"] == BROKEN_VIOLATIONS


def test_endpoint_down_is_not_a_reject(tmp_path, capsys):
    inp, out = inputs(tmp_path), tmp_path / "out.jsonl"
    code = main(["convert", "--input", inp, "--out", str(out), "--teacher-base-url", "http://127.0.0.1:9/v1",
                 "--no-cache", "--no-progress", "--limit", "2", "convert.http_retries=0"])
    assert code == 1
    assert "2 endpoint failures (rerun to retry)" in capsys.readouterr().err
    assert out.read_text() == "" and (tmp_path / "out.rejects.jsonl").read_text() == ""


def test_missing_api_key_for_the_default_endpoint(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PHYSR3_TEST_NO_KEY", raising=False)
    inp = inputs(tmp_path)
    assert main(["convert", "--input", inp, "--out", str(tmp_path / "o.jsonl"), "--no-progress",
                 "convert.api_key_env=PHYSR3_TEST_NO_KEY"]) == 2
    assert "the teacher's API key is missing: set PHYSR3_TEST_NO_KEY" in capsys.readouterr().err


@pytest.mark.parametrize("row, field, message", [
    ({"id": "a", "question": "q"}, "solution", "required field is missing"),
    ({"id": "a", "solution": "s"}, "question", "required field is missing (nor problem)"),
    ({"question": "q", "solution": "s"}, "id", "required field is missing (nor example_id)"),
    ({"id": "a", "question": "q", "solution": "s", "answer_type": "essay"}, "answer_type", "'essay' is not one of"),
    ({"id": "a", "question": "q", "solution": "s", "answer": "fast", "answer_type": "numeric"}, "answer", "fast"),
    ({"id": "x", "question": "q", "solution": "s"}, "id", "duplicate id 'x' (first on line 1)"),
])
def test_bad_input_names_file_line_and_field(tmp_path, capsys, row, field, message):
    inp = write(tmp_path / "bad.jsonl", [{"id": "x", "question": "q", "solution": "s"}, row])
    assert main(["convert", "--input", inp, "--out", str(tmp_path / "o.jsonl"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"bad.jsonl:2: field '{field}': " in err and message in err
    assert not (tmp_path / "o.jsonl").exists()


def test_the_shipped_openstax_file_is_valid_input():
    from physr3.corpus.convert import read_sources

    items = read_sources(str(Path(data_dir()) / "openstax_worked_examples" / "worked_examples.jsonl"))
    assert len(items) == 774 and len({it.id for it in items}) == 774  # example ids repeat across modules
    assert all(it.answer is None and it.question and it.solution for it in items)


def test_numbers_in_reads_openstax_latex():
    drive = openstax_rows(1)[0]
    assert 8.33 in numbers_in(drive["solution"]) and 0.5 in numbers_in(drive["solution"])
    assert numbers_in(r"$3\text{.}\text{00}\times {\text{10}}^{8}\text{ m/s}$") == [3.0e8]
    assert numbers_in("5.0 m/s^2") == [5.0] and numbers_in("(a) 30.0 km/h; (b) 8.33 m/s") == [30.0, 8.33]
    assert unsupported_numbers("8.333 m/s", drive["solution"], 0.01) == []
    assert unsupported_numbers("9.1 m/s", drive["solution"], 0.01) == [9.1]
