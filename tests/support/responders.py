"""Model-free responders for `physr3 serve`: test doubles, not part of the physr3 package.

They exist because the client, the LLM judge, `physr3 convert` and the server itself must be tested over
real HTTP — retries on 429/500, verdict parsing, batching, streaming, a slow judge — and a real model is too
slow for that and cannot be told to fail on cue. Deterministic and instant: the token counts are
whitespace-separated words and the streams are word chunks. Nothing in `src/` imports them.

- `EchoResponder`: the reply is the last user message;
- `DiffJudgeResponder`: answers the paper's verifier prompt by comparing the solution's steps with the
  ground truth's, step by step (a stand-in judge whose verdicts are predictable; also the slow judge of
  `benchmarks/judge_concurrency.py`);
- `ScriptedResponder`: replies and HTTP failures (429, 500, ...) from a rule list, or from a JSON file
  (`ScriptedResponder.from_file`), to exercise a client's retries.

In-process: `OpenAIServer(EchoResponder(), port=0)`. As a real server process (with `tests/` on
PYTHONPATH, `support.serve_env()`):

    physr3 serve --port 0 --responder support.responders:EchoResponder
    physr3 serve --port 0 --responder support.responders:ScriptedResponder.from_file --responder-arg RULES.json
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from physr3.llm.serve import Generated, HTTPFailure, RequestParams, TextCallback, apply_stop, stream_pieces
from physr3.solution import TAG_ERROR_TYPE, parse_solution


def _words(text: str) -> int:
    return len(text.split())


class _TextResponder:
    """Base for the model-free responders: applies stop strings and max_tokens (counted in words)."""

    def reply(self, messages: list[dict[str, str]]) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def generate(self, messages: list[dict[str, str]], params: RequestParams,
                 on_text: TextCallback | None = None) -> Generated:
        text, stopped = apply_stop(self.reply(messages), params.stop)
        finish = "stop"
        if params.max_tokens is not None and _words(text) > params.max_tokens:
            pieces = re.findall(r"\S+\s*", text)
            text, finish = "".join(pieces[: params.max_tokens]).rstrip(), "length"
        prompt = sum(_words(m.get("content", "")) for m in messages)
        if on_text is not None:
            for piece in stream_pieces(text):
                on_text(piece)
        return Generated(text, prompt, _words(text), finish if not stopped else "stop")


class EchoResponder(_TextResponder):
    """Test double: the reply is the last user message (the server's own tests: shapes, streaming,
    limits and concurrency, where what matters is that the text comes back unchanged)."""

    def reply(self, messages: list[dict[str, str]]) -> str:
        users = [m.get("content", "") for m in messages if m.get("role") == "user"]
        return users[-1] if users else ""


_GT_MARK = "Ground Truth CoT:"
_SOL_MARK = "LLM Generated Solution:"


def _norm_step(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


class DiffJudgeResponder(_TextResponder):
    """Test/benchmark double of the LLM judge: the first step whose text differs from the ground truth's is
    the error, so its verdicts are known in advance (a real judge's are not, and cost a model call).

    Reads the two solutions out of the paper's verifier prompt, compares `Step k:` texts in order and
    answers in the prompt's JSON shape, with the category named as the paper does (from the step's
    tag: given/find -> Problem Miscomprehension, concept/equation -> Conceptual Error, else
    Computational Error). A prompt without the two markers gets a plain-text refusal.
    """

    NAMES = {"MC": "Problem Miscomprehension", "CM": "Conceptual Error", "CE": "Computational Error"}

    def reply(self, messages: list[dict[str, str]]) -> str:
        prompt = "\n".join(m.get("content", "") for m in messages if m.get("role") == "user")
        if _GT_MARK not in prompt or _SOL_MARK not in prompt:
            return "I can only judge the physr3 verifier prompt."
        gt_text = prompt.split(_GT_MARK, 1)[1].split(_SOL_MARK, 1)[0]
        sol_text = prompt.split(_SOL_MARK, 1)[1]
        gt_steps = parse_solution(gt_text).steps
        sol_steps = parse_solution(sol_text).steps
        for i, step in enumerate(sol_steps):
            ref = gt_steps[i] if i < len(gt_steps) else None
            if ref is None or _norm_step(ref.text) != _norm_step(step.text):
                kind = TAG_ERROR_TYPE.get(step.tag or "", "CE")
                expected = f"'{ref.text}'" if ref else "no such step"
                return json.dumps({"error_step": step.number, "error_type": self.NAMES[kind],
                                   "error_explanation": f"Step {step.number} reads '{step.text}'; "
                                                        f"the ground truth has {expected}."})
        return json.dumps({"error_step": 0, "error_type": "no_error",
                           "error_explanation": "No error in your solution."})


@dataclass
class ScriptRule:
    """Reply `reply` to requests whose user text contains `match` (None = any); before that, answer
    the first len(`fail`) matching requests with those HTTP statuses (e.g. [429, 500])."""

    reply: str
    match: str | None = None
    fail: list[int] = field(default_factory=list)
    retry_after: float | None = None


class ScriptedResponder(_TextResponder):
    """Test double: rules tried in order; the first whose `match` is found answers. A real model cannot be
    told to answer 429 twice and then a malformed verdict, which is what a client's retries and the
    judge's reply parsing must be tested against."""

    def __init__(self, rules: Sequence[ScriptRule | dict[str, Any]]):
        self.rules = [r if isinstance(r, ScriptRule) else ScriptRule(**r) for r in rules]
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, path: str) -> ScriptedResponder:
        """Rules from a JSON array of objects with ScriptRule's fields; anything else is a UserError naming it."""
        from physr3.errors import UserError
        from physr3.inputs import read_json

        rules = read_json(path, what="responder script", expect=list)
        names = {f.name for f in dataclasses.fields(ScriptRule)}
        for i, rule in enumerate(rules):
            if not isinstance(rule, dict) or not isinstance(rule.get("reply"), str) or set(rule) - names:
                raise UserError(f"{path}: rule {i}: expected an object with a string 'reply' and only the "
                                f"keys {', '.join(sorted(names))}")
            if not isinstance(rule.get("match"), str | None) or not isinstance(rule.get("retry_after"), int | float | None) or not (
                    isinstance(rule.get("fail", []), list) and all(isinstance(s, int) for s in rule.get("fail", []))):
                raise UserError(f"{path}: rule {i}: 'match' must be a string and 'fail' a list of HTTP statuses")
        return cls(rules)

    def generate(self, messages: list[dict[str, str]], params: RequestParams,
                 on_text: TextCallback | None = None) -> Generated:
        text = "\n".join(m.get("content", "") for m in messages)
        for rule in self.rules:
            if rule.match is None or rule.match in text:
                with self._lock:
                    status = rule.fail.pop(0) if rule.fail else None
                if status is not None:
                    raise HTTPFailure(status, f"scripted failure {status}", rule.retry_after,
                                      "rate_limit_exceeded" if status == 429 else "server_error")
                return _Fixed(rule.reply).generate(messages, params, on_text)
        raise HTTPFailure(400, "no scripted rule matches this request", kind="invalid_request_error")


class _Fixed(_TextResponder):
    def __init__(self, text: str):
        self.text = text

    def reply(self, messages: list[dict[str, str]]) -> str:
        return self.text


