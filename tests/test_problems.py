"""Problem records and JSONL I/O: clear errors naming file/line/field, atomic writes, resumable appends."""

import json
import os

import pytest

from physr3.errors import InputFormatError
from physr3.problems import JsonlAppender, Problem, read_problems, write_jsonl


def _row(**kw):
    row = {"id": "p1", "question": "What is g?", "answer": "9.8 m/s^2", "answer_type": "numeric_unit"}
    row.update(kw)
    return row


def test_round_trip_keeps_unknown_fields(tmp_path):
    path = tmp_path / "p.jsonl"
    write_jsonl(path, [_row(label_error_step=3), _row(id="p2", options=["1", "2", "3", "4"], answer_type="mcq",
                                                       answer="B")])
    problems = read_problems(path)
    assert problems[0].extra == {"label_error_step": 3}
    assert problems[1].options == ["1", "2", "3", "4"]
    assert problems[0].to_json()["label_error_step"] == 3


@pytest.mark.parametrize(
    "line, field, message",
    [
        ('{"id": "x", "answer": "1"}', "question", "required field is missing"),
        ('{"id": "x", "question": 3, "answer": "1"}', "question", "expected a string"),
        ('{"id": "x", "question": "q", "answer": "1", "answer_type": "essay"}', "answer_type", "not one of"),
        ('{"id": "x", "question": "q", "answer": "1", "options": "ABCD"}', "options", "list of strings"),
        ('{"id": "x", "question": "q"', None, "invalid JSON"),
        ('[1, 2]', None, "expected a JSON object"),
    ],
)
def test_malformed_line_names_file_line_and_field(tmp_path, line, field, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(_row()) + "\n\n" + line + "\n")
    with pytest.raises(InputFormatError) as info:
        read_problems(path)
    err = info.value
    assert err.line == 3 and err.field == field
    assert str(path) in str(err) and message in str(err)
    if field:
        assert f"field '{field}'" in str(err)


def test_failed_write_leaves_previous_file_and_no_temp(tmp_path):
    path = tmp_path / "out.jsonl"
    write_jsonl(path, [_row()])

    def rows():
        yield _row(id="new")
        raise RuntimeError("generator failed mid-write")

    with pytest.raises(RuntimeError):
        write_jsonl(path, rows())
    assert read_problems(path)[0].id == "p1"
    assert os.listdir(tmp_path) == ["out.jsonl"]


def test_appender_resumes_and_drops_a_torn_last_line(tmp_path):
    path = tmp_path / "results.jsonl"
    with JsonlAppender(path) as out:
        out.append({"id": "a", "v": 1})
        out.append({"id": "b", "v": 2})
    with open(path, "a") as fh:
        fh.write('{"id": "c", "v"')  # the process died mid-line
    resumed = JsonlAppender(path)
    assert resumed.done == {"a", "b"}
    resumed.append({"id": "c", "v": 3})
    resumed.close()
    assert [json.loads(x)["id"] for x in path.read_text().splitlines()] == ["a", "b", "c"]


def test_problem_from_json_accepts_numeric_id_and_answer():
    p = Problem.from_json({"id": 7, "question": "q", "answer": 4, "answer_type": "integer"})
    assert p.id == "7" and p.answer == "4"
