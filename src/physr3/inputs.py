"""The one reader of users' files: JSON Lines, JSON and text inputs that fail with one line, never a traceback.

Every command that reads a file it was given (datasets, benchmarks, verdicts, configs, code for the
sandbox, run folders' summaries) reads it through this module, so bad input is answered the same way
everywhere: a `UserError` (the CLI prints one line and exits 2) that names the file, and the line, byte
offset and field where there is one. What is refused:

- a missing path, a directory where a file is expected, a file that cannot be read (permissions, a FIFO,
  an I/O error);
- bytes that are not UTF-8 (named by line and by byte offset in the file, so `cmp`/`xxd` finds them); a
  UTF-8 byte-order mark at the start is accepted and skipped;
- an empty file (zero bytes or only blank lines): refused by default, because every command that reads
  JSONL needs at least one record and an empty file is nearly always the wrong file;
- a JSON line that is not valid JSON, or a JSON value that is not an object (an array, a number);
- a line longer than `MAX_LINE_BYTES` (16 MiB; a physics record is a few kB) and a text or JSON file
  larger than the caller's `max_bytes`: memory stays bounded whatever the file, and the message says so
  instead of the process growing until it is killed.

Field types are checked by the record readers that know the fields (`problems.Problem.from_json`, the
commands' own `_check`s) with `InputFormatError(path, line, field, ...)`.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from physr3.errors import InputFormatError, UserError

MAX_LINE_BYTES = 16 * 1024 * 1024
MAX_TEXT_BYTES = 4 * 1024 * 1024  # default cap of read_text / read_json (configs, code, summaries)
_BOM = b"\xef\xbb\xbf"


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def check_file(path: str | os.PathLike, what: str = "file") -> int:
    """Raise UserError unless `path` is an existing, readable regular file; returns its size in bytes."""
    name = str(path)
    try:
        st = os.stat(name)
    except FileNotFoundError:
        raise UserError(f"{name}: {what} not found (no such file)") from None
    except OSError as exc:
        raise UserError(f"{name}: cannot read {what}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError(f"{name}: is a directory, expected a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise UserError(f"{name}: not a regular file, expected a {what}")
    if not os.access(name, os.R_OK):
        raise UserError(f"{name}: cannot read {what}: permission denied")
    return st.st_size


def _decode(raw: bytes, path: str, lineno: int, offset: int) -> str:
    """UTF-8 text of one line; undecodable bytes name the line and the byte offset in the file."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = raw[exc.start]
        raise InputFormatError(path, lineno, None, f"not UTF-8 text (byte 0x{bad:02x} at byte offset "
                                                   f"{offset + exc.start} of the file)") from None


def iter_json_lines(path: str | os.PathLike, *, allow_empty: bool = False,
                    what: str = "JSONL file") -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (1-based line number, object) for each non-blank line of a JSON Lines file.

    Blank lines are skipped. Any problem raises `UserError`/`InputFormatError` naming the file (see the
    module docstring); with `allow_empty=False` (the default) a file without a record is refused too.
    """
    name = str(path)
    check_file(name, what)
    seen = False
    try:
        fh = open(name, "rb")  # noqa: SIM115 - closed below; binary so bad bytes can be located exactly
    except OSError as exc:
        raise UserError(f"{name}: cannot read {what}: {exc.strerror or exc}") from None
    with fh:
        offset = 0
        lineno = 0
        while True:
            try:
                raw = fh.readline(MAX_LINE_BYTES + 1)
            except OSError as exc:
                raise UserError(f"{name}: cannot read {what}: {exc.strerror or exc}") from None
            if not raw:
                break
            lineno += 1
            if len(raw) > MAX_LINE_BYTES:
                raise InputFormatError(name, lineno, None, f"line longer than {_mib(MAX_LINE_BYTES)}; "
                                                           "is this a JSON Lines file?")
            start = offset
            offset += len(raw)
            if lineno == 1 and raw.startswith(_BOM):
                raw, start = raw[len(_BOM):], start + len(_BOM)
            text = _decode(raw, name, lineno, start)
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputFormatError(name, lineno, None, f"invalid JSON ({exc.msg} at column {exc.colno})") from None
            except RecursionError:
                raise InputFormatError(name, lineno, None, "invalid JSON (nested too deeply)") from None
            if not isinstance(obj, dict):
                raise InputFormatError(name, lineno, None, f"expected a JSON object, got {_json_kind(obj)}")
            seen = True
            yield lineno, obj
    if not seen and not allow_empty:
        raise UserError(f"{name}: empty {what} (no JSON lines)")


def read_text(path: str | os.PathLike, *, what: str = "file", max_bytes: int = MAX_TEXT_BYTES,
              allow_empty: bool = False) -> str:
    """The whole UTF-8 text of a small input file (a config, a Python file), with the checks above."""
    name = str(path)
    size = check_file(name, what)
    if size > max_bytes:
        raise UserError(f"{name}: {what} is {_mib(size)}, larger than the limit of {_mib(max_bytes)}")
    try:
        raw = Path(name).read_bytes()
    except OSError as exc:
        raise UserError(f"{name}: cannot read {what}: {exc.strerror or exc}") from None
    skip = len(_BOM) if raw.startswith(_BOM) else 0
    try:
        text = raw[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        at = skip + exc.start
        raise InputFormatError(name, raw.count(b"\n", 0, at) + 1, None, f"not UTF-8 text (byte 0x{raw[at]:02x} "
                                                                        f"at byte offset {at} of the file)") from None
    if not allow_empty and not text.strip():
        raise UserError(f"{name}: empty {what}")
    return text


def read_json(path: str | os.PathLike, *, what: str = "JSON file", max_bytes: int = MAX_TEXT_BYTES,
              expect: type = dict) -> Any:
    """One JSON document (by default an object) from a file, with the checks above."""
    name = str(path)
    text = read_text(name, what=what, max_bytes=max_bytes)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFormatError(name, exc.lineno, None, f"invalid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise UserError(f"{name}: invalid JSON (nested too deeply)") from None
    if not isinstance(obj, expect):
        raise UserError(f"{name}: expected {_json_kind(expect())}, got {_json_kind(obj)}")
    return obj


def _json_kind(obj: Any) -> str:
    """JSON's name for a parsed value (so messages say 'array', not 'list')."""
    if isinstance(obj, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
            type(None): "null"}.get(type(obj), type(obj).__name__)
