"""The one reader of users' files (physr3.inputs) and the appender that must never lose what was written."""

import json

import pytest

from physr3.errors import InputFormatError, UserError
from physr3.inputs import MAX_LINE_BYTES, iter_json_lines, read_json, read_text
from physr3.problems import JsonlAppender


def test_undecodable_bytes_name_line_and_byte_offset(tmp_path):
    path = tmp_path / "x.jsonl"
    first = b'{"id": 1}\n'
    second = b'{"id": "caf\xe9"}\n'  # Latin-1 e-acute on line 2
    path.write_bytes(first + second)
    with pytest.raises(InputFormatError) as err:
        list(iter_json_lines(path))
    assert err.value.line == 2
    offset = len(first) + second.index(0xE9)
    assert f"byte 0xe9 at byte offset {offset} of the file" in str(err.value)
    assert str(err.value).startswith(f"{path}:2: not UTF-8")


def test_byte_order_mark_blank_lines_and_objects_only(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": 1}\n\n   \n{"id": 2}\n')
    assert [(n, r["id"]) for n, r in iter_json_lines(path)] == [(1, 1), (4, 2)]
    path.write_text('{"id": 1}\n[1, 2]\n')
    with pytest.raises(InputFormatError, match=r":2: expected a JSON object, got an array"):
        list(iter_json_lines(path))


def test_empty_directory_missing_and_overlong(tmp_path):
    empty = tmp_path / "e.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(UserError, match="empty JSONL file"):
        list(iter_json_lines(empty))
    assert list(iter_json_lines(empty, allow_empty=True)) == []
    with pytest.raises(UserError, match="is a directory"):
        list(iter_json_lines(tmp_path))
    with pytest.raises(UserError, match="not found"):
        list(iter_json_lines(tmp_path / "nope.jsonl"))
    long = tmp_path / "long.jsonl"
    long.write_bytes(b'{"q": "' + b"x" * MAX_LINE_BYTES + b'"}\n{"id": 2}\n')
    with pytest.raises(InputFormatError, match=r"long.jsonl:1: line longer than 16.0 MiB"):
        list(iter_json_lines(long))


def test_read_text_and_json_limits(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"a: 1\nb: \xff\n")
    with pytest.raises(InputFormatError, match=r"c.yaml:2: not UTF-8 text \(byte 0xff at byte offset 8"):
        read_text(path)
    path.write_text("x" * 2000)
    with pytest.raises(UserError, match="larger than the limit"):
        read_text(path, max_bytes=1000)
    path.write_text("[1]")
    with pytest.raises(UserError, match="expected an object, got an array"):
        read_json(path)
    assert read_json(path, expect=list) == [1]


def test_appender_drops_only_a_torn_last_line(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps({"id": "a"}) + "\n" + '{"id": "b", "te')
    with JsonlAppender(path) as out:
        assert out.done == {"a"}
        out.append({"id": "c"})
    assert [json.loads(x)["id"] for x in path.read_text().splitlines()] == ["a", "c"]


def test_appender_refuses_a_file_that_is_not_its_output_and_leaves_it_untouched(tmp_path):
    for content in (b"\xff\xfe binary \x00\x01", b'{"id": "a"}\nnot json\n{"id": "b"}\n', b"[1, 2]\n"):
        path = tmp_path / "out.jsonl"
        path.write_bytes(content)
        with pytest.raises(InputFormatError, match="left untouched"):
            JsonlAppender(path)
        assert path.read_bytes() == content
    with pytest.raises(UserError, match="is a directory"):
        JsonlAppender(tmp_path)


def test_appender_completes_a_last_line_without_newline(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text('{"id": "a"}')  # valid, only the newline is missing
    with JsonlAppender(path) as out:
        out.append({"id": "b"})
    assert path.read_text() == '{"id": "a"}\n{"id": "b"}\n'
