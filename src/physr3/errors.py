"""User-facing errors: the CLI prints them as one line and exits with status 2 (no traceback unless --debug)."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the user (file, config value, model path): a clear message, exit code 2."""


class InputFormatError(UserError):
    """A malformed record: names the file, the 1-based line number and the field."""

    def __init__(self, path: str, line: int, field: str | None, message: str):
        self.path, self.line, self.field = path, line, field
        where = f"{path}:{line}" + (f": field '{field}'" if field else "")
        super().__init__(f"{where}: {message}")
