"""A small OpenAI-compatible HTTP server (`physr3 serve`) on the standard library.

Endpoints: `GET /v1/models`, `POST /v1/chat/completions` (non-streaming, and streaming as server-sent
events: `data: {chunk}` lines ending with `data: [DONE]`), `GET /health`. Honoured request fields:
`messages`, `max_tokens` (or `max_completion_tokens`), `temperature`, `top_p`, `stop` (string or list;
the stop string is cut from the reply, as OpenAI does), `seed`, `stream`, `stream_options.include_usage`.
`n > 1`, tools and images are refused with a 400 in OpenAI's error shape. Any `model` name is accepted
and the served name is reported back (so a client configured for "gpt-4o" can be pointed here).

Who answers is a `Responder`:
- `EngineResponder` — a local model behind the `Engine` interface (the embedded SmolLM2 by default, any
  HF folder or trained policy via `model.name_or_path`/`model.adapter`). One worker thread owns the
  model and batches requests that arrive together (same sampling parameters) into one `generate` call;
  streaming sends the finished text in word chunks, because the Engine interface has no token callback.
  Token counts are the model's.
- For tests and benchmarks only (no model, deterministic, instant): `EchoResponder` (replies with the
  last user message), `DiffJudgeResponder` (answers the paper's verifier prompt by comparing the
  solution's steps with the ground truth's, step by step — a stand-in judge whose verdicts are
  predictable), and `ScriptedResponder` (replies and HTTP failures — 429, 500 — from a rule list, to
  exercise a client's retries over real HTTP). Their token counts are whitespace-separated words.

`delay_s` sleeps that long in every chat request before answering (each request has its own thread, so
concurrent requests overlap): a stand-in for a slow remote judge in the concurrency benchmark.

Deviations from OpenAI's API, on purpose: one choice per request; no logprobs; no tools; no auth (the
server binds to 127.0.0.1 by default — put a proxy in front before exposing it).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import queue
import re
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from physr3.solution import TAG_ERROR_TYPE, parse_solution


class HTTPFailure(Exception):
    """Raised by a responder to answer with an HTTP error status (OpenAI error body)."""

    def __init__(self, status: int, message: str, retry_after: float | None = None, kind: str = "server_error"):
        super().__init__(message)
        self.status, self.message, self.retry_after, self.kind = status, message, retry_after, kind


@dataclass
class RequestParams:
    max_tokens: int | None = None
    temperature: float = 1.0
    top_p: float = 1.0
    stop: list[str] = field(default_factory=list)
    seed: int | None = None


@dataclass
class Generated:
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str = "stop"  # "stop" | "length"


class Responder(Protocol):
    def generate(self, messages: list[dict[str, str]], params: RequestParams) -> Generated: ...


def apply_stop(text: str, stop: Sequence[str]) -> tuple[str, bool]:
    """Cut `text` before the earliest stop string; (text, whether one was found)."""
    cuts = [text.find(s) for s in stop if s and s in text]
    return (text[: min(cuts)], True) if cuts else (text, False)


def _words(text: str) -> int:
    return len(text.split())


class _TextResponder:
    """Base for the model-free responders: applies stop strings and max_tokens (counted in words)."""

    def reply(self, messages: list[dict[str, str]]) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def generate(self, messages: list[dict[str, str]], params: RequestParams) -> Generated:
        text, stopped = apply_stop(self.reply(messages), params.stop)
        finish = "stop"
        if params.max_tokens is not None and _words(text) > params.max_tokens:
            pieces = re.findall(r"\S+\s*", text)
            text, finish = "".join(pieces[: params.max_tokens]).rstrip(), "length"
        prompt = sum(_words(m.get("content", "")) for m in messages)
        return Generated(text, prompt, _words(text), finish if not stopped else "stop")


class EchoResponder(_TextResponder):
    """Test responder: the reply is the last user message."""

    def reply(self, messages: list[dict[str, str]]) -> str:
        users = [m.get("content", "") for m in messages if m.get("role") == "user"]
        return users[-1] if users else ""


_GT_MARK = "Ground Truth CoT:"
_SOL_MARK = "LLM Generated Solution:"


def _norm_step(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


class DiffJudgeResponder(_TextResponder):
    """Test/benchmark judge: the first step whose text differs from the ground truth's is the error.

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
    """Test responder: rules tried in order; the first whose `match` is found answers."""

    def __init__(self, rules: Sequence[ScriptRule | dict[str, Any]]):
        self.rules = [r if isinstance(r, ScriptRule) else ScriptRule(**r) for r in rules]
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, path: str) -> ScriptedResponder:
        with open(path, encoding="utf-8") as fh:
            return cls(json.load(fh))

    def generate(self, messages: list[dict[str, str]], params: RequestParams) -> Generated:
        text = "\n".join(m.get("content", "") for m in messages)
        for rule in self.rules:
            if rule.match is None or rule.match in text:
                with self._lock:
                    status = rule.fail.pop(0) if rule.fail else None
                if status is not None:
                    raise HTTPFailure(status, f"scripted failure {status}", rule.retry_after,
                                      "rate_limit_exceeded" if status == 429 else "server_error")
                return _Fixed(rule.reply).generate(messages, params)
        raise HTTPFailure(400, "no scripted rule matches this request", kind="invalid_request_error")


class _Fixed(_TextResponder):
    def __init__(self, text: str):
        self.text = text

    def reply(self, messages: list[dict[str, str]]) -> str:
        return self.text


class EngineResponder:
    """A local model behind the Engine interface, with micro-batching of concurrent requests.

    One worker thread owns the engine. It takes the first queued request, waits up to `batch_wait_s`
    for more (up to `max_batch`), and generates each group of requests that share sampling parameters
    in one `engine.generate` call. A request with a `seed` is generated alone, so that its reply does
    not depend on which other requests happened to arrive with it.
    """

    def __init__(self, engine: Any, default_max_tokens: int = 384, max_batch: int = 8, batch_wait_s: float = 0.01):
        self.engine = engine
        self.default_max_tokens, self.max_batch, self.batch_wait_s = default_max_tokens, max_batch, batch_wait_s
        self.batches: list[int] = []  # size of every engine call, for tests and logs
        self._queue: queue.Queue = queue.Queue()
        self._worker = threading.Thread(target=self._loop, name="physr3-engine", daemon=True)
        self._worker.start()

    def generate(self, messages: list[dict[str, str]], params: RequestParams) -> Generated:
        from physr3.models.types import SamplingParams

        sp = SamplingParams(
            max_new_tokens=params.max_tokens or self.default_max_tokens,
            temperature=params.temperature,
            top_p=params.top_p,
            stop=tuple(params.stop),
            seed=params.seed,
        )
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put((messages, sp, future))
        completion = future.result()
        text, stopped = apply_stop(completion.text, params.stop)
        finish = "stop" if stopped else completion.finish_reason
        return Generated(text, completion.prompt_tokens, len(completion.token_ids), finish)

    def _loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            deadline = time.monotonic() + self.batch_wait_s
            while len(batch) < self.max_batch and batch[0][1].seed is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    batch.append(self._queue.get(timeout=left))
                except queue.Empty:
                    break
            groups: dict[Any, list] = {}
            for item in batch:
                sp = item[1]
                key = ("seeded", id(item)) if sp.seed is not None else dataclasses.astuple(sp)
                groups.setdefault(key, []).append(item)
            for items in groups.values():
                self.batches.append(len(items))
                try:
                    outs = self.engine.generate([m for m, _, _ in items], items[0][1])
                    for (_, _, fut), out in zip(items, outs, strict=True):
                        fut.set_result(out)
                except BaseException as exc:  # noqa: BLE001 - handed to the waiting request threads
                    for _, _, fut in items:
                        if not fut.done():
                            fut.set_exception(exc)


# ------------------------------------------------------------------------------------------- the server
def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # [{"type": "text", "text": ...}, ...]
        parts = []
        for part in content:
            if not isinstance(part, dict) or part.get("type") != "text":
                raise HTTPFailure(400, "only text content parts are supported", kind="invalid_request_error")
            parts.append(str(part.get("text", "")))
        return "".join(parts)
    if content is None:
        return ""
    raise HTTPFailure(400, "message content must be a string or a list of text parts", kind="invalid_request_error")


def parse_chat_request(body: Any, default_max_tokens: int | None) -> tuple[list[dict[str, str]], RequestParams, bool, bool]:
    """Validate a chat request body: (messages, params, stream, include_usage); HTTPFailure(400) if bad."""

    def bad(msg: str) -> HTTPFailure:
        return HTTPFailure(400, msg, kind="invalid_request_error")

    if not isinstance(body, dict):
        raise bad("request body must be a JSON object")
    msgs = body.get("messages")
    if not isinstance(msgs, list) or not msgs:
        raise bad("'messages' must be a non-empty list")
    messages = []
    for i, m in enumerate(msgs):
        if not isinstance(m, dict) or m.get("role") not in ("system", "user", "assistant", "developer", "tool"):
            raise bad(f"messages[{i}] needs a role of system, user or assistant")
        role = "system" if m["role"] == "developer" else m["role"]
        messages.append({"role": role, "content": _content_text(m.get("content"))})
    if body.get("n", 1) not in (1, None):
        raise bad("only n=1 is supported")
    if body.get("tools"):
        raise bad("tools are not supported")
    max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
    if max_tokens is not None and (not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1):
        raise bad("'max_tokens' must be a positive integer")
    temperature = body.get("temperature", 1.0)
    temperature = 1.0 if temperature is None else temperature
    if not isinstance(temperature, int | float) or not 0 <= temperature <= 2:
        raise bad("'temperature' must be a number in [0, 2]")
    top_p = body.get("top_p", 1.0)
    top_p = 1.0 if top_p is None else top_p
    if not isinstance(top_p, int | float) or not 0 < top_p <= 1:
        raise bad("'top_p' must be a number in (0, 1]")
    stop = body.get("stop") or []
    stop = [stop] if isinstance(stop, str) else stop
    if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop) or len(stop) > 4:
        raise bad("'stop' must be a string or a list of up to 4 strings")
    seed = body.get("seed")
    params = RequestParams(max_tokens if max_tokens is not None else default_max_tokens, float(temperature),
                           float(top_p), stop, seed if isinstance(seed, int) else None)
    stream = bool(body.get("stream", False))
    include_usage = bool((body.get("stream_options") or {}).get("include_usage", False))
    return messages, params, stream, include_usage


def _stream_pieces(text: str) -> Iterator[str]:
    """Word-sized pieces that concatenate back to `text` exactly."""
    yield from (p for p in re.findall(r"\s*\S+|\s+$", text) if p)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: OpenAIServer._HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.owner.verbose:
            super().log_message(format, *args)

    def _send_json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _send_error(self, exc: HTTPFailure) -> None:
        headers = {"Retry-After": f"{exc.retry_after:g}"} if exc.retry_after is not None else None
        self._send_json(exc.status, {"error": {"message": exc.message, "type": exc.kind, "param": None,
                                               "code": exc.status}}, headers)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        owner = self.server.owner
        path = self.path.split("?", 1)[0].rstrip("/")
        if path == "/v1/models":
            self._send_json(200, {"object": "list", "data": [
                {"id": owner.model_name, "object": "model", "created": owner.created, "owned_by": "physr3"}]})
        elif path in ("/health", "/v1/health"):
            self._send_json(200, {"status": "ok", "requests": owner.requests})
        else:
            self._send_error(HTTPFailure(404, f"no route GET {self.path}", kind="not_found"))

    def do_POST(self) -> None:  # noqa: N802
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0].rstrip("/")
        if path != "/v1/chat/completions":
            self._send_error(HTTPFailure(404, f"no route POST {self.path}", kind="not_found"))
            return
        with owner._lock:
            owner.requests += 1
        try:
            try:
                body = json.loads(raw or b"null")
            except json.JSONDecodeError as exc:
                raise HTTPFailure(400, f"invalid JSON body: {exc.msg}", kind="invalid_request_error") from None
            messages, params, stream, include_usage = parse_chat_request(body, owner.default_max_tokens)
            if owner.delay_s > 0:
                time.sleep(owner.delay_s)
            gen = owner.responder.generate(messages, params)
        except HTTPFailure as exc:
            self._send_error(exc)
            return
        except Exception as exc:  # noqa: BLE001 - a model failure must answer 500, not kill the thread
            self._send_error(HTTPFailure(500, f"{type(exc).__name__}: {exc}"))
            return
        cid, created = f"chatcmpl-{uuid.uuid4().hex[:24]}", int(time.time())
        usage = {"prompt_tokens": gen.prompt_tokens, "completion_tokens": gen.completion_tokens,
                 "total_tokens": gen.prompt_tokens + gen.completion_tokens}
        if not stream:
            self._send_json(200, {
                "id": cid, "object": "chat.completion", "created": created, "model": owner.model_name,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": gen.text},
                             "finish_reason": gen.finish_reason, "logprobs": None}],
                "usage": usage,
            })
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(delta: dict[str, Any], finish: str | None, with_usage: dict | None = None) -> dict:
            obj: dict[str, Any] = {"id": cid, "object": "chat.completion.chunk", "created": created,
                                   "model": owner.model_name,
                                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                                                "logprobs": None}] if with_usage is None else []}
            if include_usage:
                obj["usage"] = with_usage
            return obj

        events = [chunk({"role": "assistant", "content": ""}, None)]
        events += [chunk({"content": piece}, None) for piece in _stream_pieces(gen.text)]
        events.append(chunk({}, gen.finish_reason))
        if include_usage:
            events.append(chunk({}, None, usage))
        try:
            for ev in events:
                self._write_chunk(f"data: {json.dumps(ev)}\n\n".encode())
            self._write_chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client went away mid-stream
            self.close_connection = True

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


class OpenAIServer:
    """The HTTP server; `start()` serves from a daemon thread, `serve_forever()` in the caller's.

    `port=0` binds an ephemeral port; `url` is the base URL to give a client (`http://host:port/v1`).
    """

    class _HTTPServer(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 256  # bursts of concurrent judge calls must not be refused at connect
        owner: OpenAIServer

        def handle_error(self, request: Any, client_address: Any) -> None:
            import sys

            exc = sys.exc_info()[1]
            if isinstance(exc, ConnectionError | TimeoutError):  # a client closed a kept-alive connection
                return
            super().handle_error(request, client_address)

    def __init__(self, responder: Responder, *, host: str = "127.0.0.1", port: int = 8000,
                 model_name: str = "physr3", delay_s: float = 0.0, default_max_tokens: int | None = None,
                 verbose: bool = False):
        self.responder, self.model_name, self.delay_s = responder, model_name, delay_s
        self.default_max_tokens, self.verbose = default_max_tokens, verbose
        self.created = int(time.time())
        self.requests = 0
        self._lock = threading.Lock()
        self._httpd = self._HTTPServer((host, port), _Handler)
        self._httpd.owner = self
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return str(self._httpd.server_address[0])

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> OpenAIServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="physr3-serve", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._httpd.serve_forever()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def build_test_responder(spec: str) -> Responder:
    """`echo`, `diff-judge` or `script:RULES.json` (tests and benchmarks; see the module docstring)."""
    if spec == "echo":
        return EchoResponder()
    if spec == "diff-judge":
        return DiffJudgeResponder()
    if spec.startswith("script:"):
        return ScriptedResponder.from_file(spec.split(":", 1)[1])
    raise ValueError(f"unknown responder {spec!r}; valid: model, echo, diff-judge, script:FILE")
