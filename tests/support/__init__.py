"""Test doubles for physr3's tests and benchmarks, kept out of the installed package.

- `responders`: model-free `physr3 serve` responders (echo, a step-diff stand-in judge, scripted replies
  and HTTP failures), served in-process through `physr3.llm.serve.OpenAIServer` or by a real
  `physr3 serve --responder support.responders:NAME` subprocess (`serve_env()` puts this folder on its
  PYTHONPATH);
- `paraphrase`: programmatic rewrites of ground-truth solutions (writing-style robustness of the symbolic
  verifier; `benchmarks/verifier.py` measures with it too).

Importable as `support` because `tests/` is on sys.path under pytest (`pythonpath` in pyproject.toml);
the benchmarks that use them add `tests/` themselves.
"""

from __future__ import annotations

import os
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parents[1]


def serve_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """`env` (default: this process's environment) with `tests/` first on PYTHONPATH, so that a
    `physr3 serve --responder support.responders:...` subprocess can import the test doubles."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS_DIR), env.get("PYTHONPATH", "")) if p)
    return env
