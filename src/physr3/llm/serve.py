"""An OpenAI-compatible HTTP server (`physr3 serve`) on FastAPI and uvicorn.

Endpoints: `GET /v1/models`, `POST /v1/chat/completions` (non-streaming, and streaming as server-sent
events: `data: {chunk}` lines ending with `data: [DONE]`), `GET /health`. The request and reply bodies are
the pydantic models of `physr3.llm.openai_schema` (OpenAI's shapes). Honoured request fields: `messages`,
`max_tokens` (or `max_completion_tokens`), `temperature`, `top_p`, `stop` (string or list; the stop string
is cut from the reply, as OpenAI does), `seed`, `stream`, `stream_options.include_usage`. Any `model`
name is accepted and the served name is reported back (so a client configured for "gpt-4o" can be
pointed here).

Hostile input: every malformed request is answered with a 4xx whose body is OpenAI's error object
`{"error": {"message", "type", "param", "code"}}` — a body that is not JSON or not an object, missing or
mistyped fields (a message without `content`, an unknown role, a negative `max_tokens`, a string
`temperature`), `n > 1`, tools, a body over `max_body_bytes` (413, default 1 MiB, read no further than
that), and a prompt longer than the model's context window (400 `context_length_exceeded`, checked by
tokenizing in the request's thread before the request is queued, so no model work is spent on it). An
unknown path is a 404 in the same shape. An exception inside a responder is a 500 for that request only.

Who answers is a `Responder`:
- `EngineResponder` — a local model behind the `Engine` interface (the embedded SmolLM2 by default, any
  HF folder or trained policy via `model.name_or_path`/`model.adapter`). One worker thread owns the
  model and batches requests that arrive together (same sampling parameters) into one `generate` call.
  Streaming is token by token: the engine calls back with each new token (`on_token`, when its
  `generate` accepts one, as `TransformersEngine`'s does) and the text decoded so far is sent as it
  grows, holding back a tail that could still become a stop string or is an incomplete UTF-8 character.
  An engine without the callback (vLLM) streams the finished text in word chunks. Token counts are the
  model's.
- Any other object with that `generate`, loaded from a `"module:attr"` target by `load_responder`
  (`physr3 serve --responder MODULE:ATTR [--responder-arg ARG]`, through `physr3.registry.resolve_target`).
  The model-free test doubles (an echo, a stand-in judge that diffs steps against the ground truth, a
  scripted responder that fails with 429/500 on cue) are not part of the package: they live in the
  repository's `tests/support/responders.py`, served as e.g. `--responder support.responders:EchoResponder`
  with `tests/` on PYTHONPATH.

`delay_s` waits that long in every chat request before answering (without holding a thread, so
concurrent requests overlap): a stand-in for a slow remote judge in the concurrency benchmark.

Deviations from OpenAI's API, on purpose: one choice per request; no logprobs; no tools; no auth (the
server binds to 127.0.0.1 by default — put a proxy in front before exposing it). A streamed reply is the
same text as the non-streamed one except in the rare case where decoding a prefix of the tokens gives
text that is not a prefix of the whole decoding (then the stream ends with what had been sent).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import inspect
import json
import queue
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

MAX_BODY_BYTES = 2**20  # a judge prompt with two solutions is a few kB; the context window is far below this

TextCallback = Callable[[str], None]


class HTTPFailure(Exception):
    """Raised by a responder (or the request checks) to answer with an HTTP error status (OpenAI error body)."""

    def __init__(self, status: int, message: str, retry_after: float | None = None, kind: str = "server_error",
                 *, param: str | None = None, code: str | None = None):
        super().__init__(message)
        self.status, self.message, self.retry_after, self.kind = status, message, retry_after, kind
        self.param, self.code = param, code


@dataclass
class RequestParams:
    max_tokens: int | None = None
    temperature: float = 1.0
    top_p: float = 1.0
    stop: list[str] = field(default_factory=list)
    seed: int | None = None
    max_tokens_given: bool = False  # the client asked for max_tokens (else the server's default applies)


@dataclass
class Generated:
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str = "stop"  # "stop" | "length"


class Responder(Protocol):
    """Answers one chat request; `on_text`, when given, receives the reply's text in pieces as it is made
    (their concatenation is `Generated.text`). May raise HTTPFailure. An optional
    `check_request(messages, params) -> RequestParams` refuses (HTTPFailure) or adjusts a request before
    any generation (the context-window check)."""

    def generate(self, messages: list[dict[str, str]], params: RequestParams,
                 on_text: TextCallback | None = None) -> Generated: ...


def apply_stop(text: str, stop: Sequence[str]) -> tuple[str, bool]:
    """Cut `text` before the earliest stop string; (text, whether one was found)."""
    cuts = [text.find(s) for s in stop if s and s in text]
    return (text[: min(cuts)], True) if cuts else (text, False)


class _TokenStream:
    """Turns a request's token ids, as the engine makes them, into text pieces for `on_text`.

    After each token the ids so far are decoded; what is new is sent, except a tail that is an incomplete
    UTF-8 character (decoded as U+FFFD) or could still grow into a stop string (that text must never
    reach the client, as it never does unstreamed). After a stop string nothing more is sent.
    """

    def __init__(self, tokenizer: Any, stop: Sequence[str], on_text: TextCallback):
        self.tokenizer, self.stop, self.on_text = tokenizer, [s for s in stop if s], on_text
        self.ids: list[int] = []
        self.sent = ""
        self.closed = False

    def _safe(self, text: str) -> str:
        cut, stopped = apply_stop(text, self.stop)
        if stopped:
            self.closed = True
            return cut
        text = text.rstrip("\ufffd")
        hold = max((k for s in self.stop for k in range(1, len(s)) if text.endswith(s[:k])), default=0)
        return text[: len(text) - hold]

    def push(self, token_id: int) -> None:
        if self.closed:
            return
        self.ids.append(token_id)
        safe = self._safe(self.tokenizer.decode(self.ids, skip_special_tokens=True))
        if len(safe) > len(self.sent) and safe.startswith(self.sent):
            self.on_text(safe[len(self.sent):])
            self.sent = safe

    def finish(self, text: str) -> None:
        """Send what is left of the final reply text (normally its held-back tail)."""
        if text.startswith(self.sent) and len(text) > len(self.sent):
            self.on_text(text[len(self.sent):])
            self.sent = text


class EngineResponder:
    """A local model behind the Engine interface, with micro-batching of concurrent requests.

    One worker thread owns the engine. It takes the first queued request, waits up to `batch_wait_s`
    for more (up to `max_batch`), and generates each group of requests that share sampling parameters
    in one `engine.generate` call. A request with a `seed` is generated alone, so that its reply does
    not depend on which other requests happened to arrive with it.

    `context_window` (default: the model config's `max_position_embeddings`, when the engine exposes its
    model) bounds prompt plus completion: `check_request` tokenizes the prompt and refuses one that does
    not fit, and lowers a default `max_tokens` to what is left of the window.
    """

    def __init__(self, engine: Any, default_max_tokens: int = 384, max_batch: int = 8, batch_wait_s: float = 0.01,
                 context_window: int | None = None):
        self.engine = engine
        self.default_max_tokens, self.max_batch, self.batch_wait_s = default_max_tokens, max_batch, batch_wait_s
        if context_window is None:
            config = getattr(getattr(engine, "model", None), "config", None)
            window = getattr(config, "max_position_embeddings", None)
            context_window = window if isinstance(window, int) and window > 0 else None
        self.context_window = context_window
        self.batches: list[int] = []  # size of every engine call, for tests and logs
        try:
            self._streams_tokens = "on_token" in inspect.signature(engine.generate).parameters
        except (TypeError, ValueError):
            self._streams_tokens = False
        self._encode_lock = threading.Lock()
        self._queue: queue.Queue = queue.Queue()
        self._worker = threading.Thread(target=self._loop, name="physr3-engine", daemon=True)
        self._worker.start()

    def check_request(self, messages: list[dict[str, str]], params: RequestParams) -> RequestParams:
        """Refuse a prompt that does not fit the context window (400, before any model work)."""
        encode = getattr(self.engine, "encode", None)
        if self.context_window is None or encode is None:
            return params
        with self._encode_lock:  # tokenizers are not safe to share between threads
            n = len(encode(messages))
        window = self.context_window
        wanted = params.max_tokens or self.default_max_tokens
        if n >= window or (params.max_tokens_given and n + wanted > window):
            asked = f"{n} in the messages" + (f" plus {wanted} to generate" if params.max_tokens_given else "")
            raise HTTPFailure(400, f"This model's maximum context length is {window} tokens; the request needs "
                                   f"{asked}. Shorten the messages or lower max_tokens.",
                              kind="invalid_request_error", param="messages", code="context_length_exceeded")
        if n + wanted > window:
            params = dataclasses.replace(params, max_tokens=window - n)
        return params

    def generate(self, messages: list[dict[str, str]], params: RequestParams,
                 on_text: TextCallback | None = None) -> Generated:
        from physr3.models.types import SamplingParams

        sp = SamplingParams(
            max_new_tokens=params.max_tokens or self.default_max_tokens,
            temperature=params.temperature,
            top_p=params.top_p,
            stop=tuple(params.stop),
            seed=params.seed,
        )
        tokenizer = getattr(self.engine, "tokenizer", None)
        stream = None
        if on_text is not None and self._streams_tokens and tokenizer is not None:
            stream = _TokenStream(tokenizer, params.stop, on_text)
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put((messages, sp, future, stream))
        completion = future.result()
        text, stopped = apply_stop(completion.text, params.stop)
        if stream is not None:
            stream.finish(text)
        elif on_text is not None:  # an engine without a token callback: the finished text in word chunks
            for piece in stream_pieces(text):
                on_text(piece)
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
                    outs = self.engine.generate([it[0] for it in items], items[0][1], **self._stream_kwargs(items))
                    for it, out in zip(items, outs, strict=True):
                        it[2].set_result(out)
                except BaseException as exc:  # noqa: BLE001 - handed to the waiting request threads
                    for it in items:
                        if not it[2].done():
                            it[2].set_exception(exc)

    @staticmethod
    def _stream_kwargs(items: list) -> dict[str, Any]:
        streams = [it[3] for it in items]
        if not any(streams):
            return {}

        def on_token(i: int, token_id: int) -> None:
            stream = streams[i]
            if stream is not None:
                try:
                    stream.push(token_id)
                except Exception:  # noqa: BLE001 - a failed decode or callback must not stop the batch
                    streams[i] = None

        return {"on_token": on_token}


def stream_pieces(text: str) -> Iterator[str]:
    """Word-sized pieces that concatenate back to `text` exactly."""
    yield from (p for p in re.findall(r"\s*\S+|\s+$", text) if p)


# ------------------------------------------------------------------------------------------- the server
def _param(loc: Sequence[Any]) -> str | None:
    """Pydantic's error location as OpenAI names a parameter: ("messages", 0, "content") -> messages[0].content."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or None


def parse_chat_request(body: Any, default_max_tokens: int | None) -> tuple[list[dict[str, str]], RequestParams, bool, bool]:
    """Validate a chat request body: (messages, params, stream, include_usage); HTTPFailure(400) if bad."""
    from pydantic import ValidationError

    from physr3.llm.openai_schema import ChatCompletionRequest

    if not isinstance(body, dict):
        raise HTTPFailure(400, f"the request body must be a JSON object, got {type(body).__name__}",
                          kind="invalid_request_error", code="invalid_type")
    try:
        req = ChatCompletionRequest.model_validate(body)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        param = _param(err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        code = "missing_required_parameter" if err["type"] == "missing" else "invalid_value"
        raise HTTPFailure(400, f"{param}: {msg}" if param else msg, kind="invalid_request_error",
                          param=param, code=code) from None
    given = req.max_completion_tokens if req.max_completion_tokens is not None else req.max_tokens
    stop = [req.stop] if isinstance(req.stop, str) else list(req.stop or [])
    params = RequestParams(
        max_tokens=given if given is not None else default_max_tokens,
        temperature=1.0 if req.temperature is None else float(req.temperature),
        top_p=1.0 if req.top_p is None else float(req.top_p),
        stop=stop, seed=req.seed, max_tokens_given=given is not None,
    )
    include_usage = bool(req.stream_options and req.stream_options.include_usage)
    return [m.text() for m in req.messages], params, bool(req.stream), include_usage


def _error_response(exc: HTTPFailure) -> Any:
    from physr3.llm.openai_schema import ErrorBody, ErrorResponse

    body = ErrorResponse(error=ErrorBody(message=exc.message, type=exc.kind, param=exc.param, code=exc.code))
    headers = {"Retry-After": f"{exc.retry_after:g}"} if exc.retry_after is not None else None
    return JSONResponse(body.model_dump(), status_code=exc.status, headers=headers)


class _BodyLimit:
    """ASGI middleware: a request body over `max_bytes` is answered 413 and never held in memory.

    A declared Content-Length over the limit is refused at once; a chunked body is counted as it
    arrives. What is over the limit is read and dropped (up to 64 MiB) before answering, so the client,
    which is still sending, reads the 413 instead of a reset connection.
    """

    def __init__(self, app: Any, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        chunks: list[bytes] = []
        size, more = 0, True
        over = declared.isdigit() and int(declared) > self.max_bytes
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            more = message.get("more_body", False)
            over = over or size > self.max_bytes
            if over:
                chunks = []
                if size > 64 * 2**20:
                    break
            else:
                chunks.append(body)
        if over:
            failure = HTTPFailure(413, f"request body larger than {self.max_bytes} bytes, the server's limit "
                                       "(physr3 serve --max-body-bytes)", kind="invalid_request_error",
                                  code="request_too_large")
            await _error_response(failure)(scope, receive, send)
            return
        whole, replayed = b"".join(chunks), False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def build_app(owner: OpenAIServer) -> Any:
    """The FastAPI application: routes, the body limit, and OpenAI-shaped errors for everything."""
    from physr3.llm.openai_schema import (
        AssistantMessage,
        ChatCompletion,
        ChatCompletionChunk,
        Choice,
        ChunkChoice,
        Delta,
        ModelCard,
        ModelList,
        Usage,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        # Each waiting request holds a worker thread (the responders are blocking): allow bursts of them.
        anyio.to_thread.current_default_thread_limiter().total_tokens = 512
        yield

    app = FastAPI(title="physr3 serve", lifespan=lifespan, docs_url=None, redoc_url=None)

    @app.exception_handler(HTTPFailure)
    async def _failure(request: Request, exc: HTTPFailure) -> Any:
        return _error_response(exc)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Any:
        kind = "not_found" if exc.status_code == 404 else "invalid_request_error"
        message = (f"no route {request.method} {request.url.path}" if exc.status_code in (404, 405)
                   else str(exc.detail))
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code)
        return _error_response(HTTPFailure(exc.status_code, message, kind=kind, code=code))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Any:
        err = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        param = _param(err.get("loc", ()))
        return _error_response(HTTPFailure(400, f"{param}: {err['msg']}" if param else str(err["msg"]),
                                           kind="invalid_request_error", param=param, code="invalid_value"))

    @app.get("/v1/models", response_model=ModelList)
    async def models() -> Any:
        return ModelList(data=[ModelCard(id=owner.model_name, created=owner.created)])

    @app.get("/health")
    @app.get("/v1/health")
    async def health() -> Any:
        return {"status": "ok", "requests": owner.requests}

    @app.post("/v1/chat/completions", response_model=ChatCompletion)
    async def chat(request: Request) -> Any:
        owner.requests += 1
        raw = await request.body()
        try:
            body = json.loads(raw) if raw.strip() else None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise HTTPFailure(400, f"invalid JSON body: {getattr(exc, 'msg', exc)}", kind="invalid_request_error",
                              code="invalid_json") from None
        except RecursionError:
            raise HTTPFailure(400, "invalid JSON body: nested too deeply", kind="invalid_request_error",
                              code="invalid_json") from None
        messages, params, stream, include_usage = parse_chat_request(body, owner.default_max_tokens)
        responder = owner.responder
        check = getattr(responder, "check_request", None)
        if check is not None:  # before any model work: tokenizing a long prompt takes a worker thread
            params = await run_in_threadpool(check, messages, params)
        if owner.delay_s > 0:
            await asyncio.sleep(owner.delay_s)
        cid, created = f"chatcmpl-{uuid.uuid4().hex[:24]}", int(time.time())

        def usage(gen: Generated) -> Usage:
            return Usage(prompt_tokens=gen.prompt_tokens, completion_tokens=gen.completion_tokens,
                         total_tokens=gen.prompt_tokens + gen.completion_tokens)

        if not stream:
            gen = await run_in_threadpool(_generate, responder, messages, params, None)
            reply = ChatCompletion(id=cid, created=created, model=owner.model_name, usage=usage(gen),
                                   choices=[Choice(message=AssistantMessage(content=gen.text),
                                                   finish_reason=gen.finish_reason)])
            return JSONResponse(reply.model_dump())

        loop = asyncio.get_running_loop()
        events: asyncio.Queue = asyncio.Queue()

        def on_text(piece: str) -> None:
            loop.call_soon_threadsafe(events.put_nowait, ("text", piece))

        def run() -> None:
            try:
                result = ("done", _generate(responder, messages, params, on_text))
            except BaseException as exc:  # noqa: BLE001 - delivered to the response
                result = ("error", exc)
            loop.call_soon_threadsafe(events.put_nowait, result)

        threading.Thread(target=run, name="physr3-stream", daemon=True).start()
        first = await events.get()
        if first[0] == "error":  # nothing sent yet: a proper HTTP error status
            raise first[1]

        def sse(chunk: ChatCompletionChunk) -> str:
            return f"data: {json.dumps(chunk.wire(include_usage))}\n\n"

        def chunk(delta: Delta, finish: str | None = None) -> ChatCompletionChunk:
            return ChatCompletionChunk(id=cid, created=created, model=owner.model_name,
                                       choices=[ChunkChoice(delta=delta, finish_reason=finish)])

        async def body_events() -> Any:
            yield sse(chunk(Delta(role="assistant", content="")))
            item = first
            while True:
                kind, value = item
                if kind == "text" and value:
                    yield sse(chunk(Delta(content=value)))
                elif kind == "done":
                    yield sse(chunk(Delta(), value.finish_reason))
                    if include_usage:
                        yield sse(ChatCompletionChunk(id=cid, created=created, model=owner.model_name,
                                                      choices=[], usage=usage(value)))
                    break
                elif kind == "error":  # failed mid-stream: the status is sent already, say so in the stream
                    failure = value if isinstance(value, HTTPFailure) else HTTPFailure(500, _describe(value))
                    yield f"data: {json.dumps({'error': {'message': failure.message, 'type': failure.kind, 'param': None, 'code': failure.code}})}\n\n"
                    break
                item = await events.get()
            yield "data: [DONE]\n\n"

        return StreamingResponse(body_events(), headers={"Content-Type": "text/event-stream",
                                                         "Cache-Control": "no-cache"})

    app.add_middleware(_BodyLimit, max_bytes=owner.max_body_bytes)
    return app


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _generate(responder: Responder, messages: list[dict[str, str]], params: RequestParams,
              on_text: TextCallback | None) -> Generated:
    """Call the responder; an unexpected exception becomes a 500 for this request only."""
    try:
        if on_text is None:
            return responder.generate(messages, params)
        return responder.generate(messages, params, on_text)
    except HTTPFailure:
        raise
    except Exception as exc:  # noqa: BLE001 - a model failure must answer 500, not take the server down
        raise HTTPFailure(500, _describe(exc)) from exc


class OpenAIServer:
    """The HTTP server (uvicorn); `start()` serves from a daemon thread, `serve_forever()` in the caller's.

    The socket is bound in the constructor (an OSError if the port is taken), so `port=0` picks a free
    port and `url` is known at once: the base URL to give a client (`http://host:port/v1`).
    """

    def __init__(self, responder: Responder, *, host: str = "127.0.0.1", port: int = 8000,
                 model_name: str = "physr3", delay_s: float = 0.0, default_max_tokens: int | None = None,
                 verbose: bool = False, max_body_bytes: int = MAX_BODY_BYTES):
        import uvicorn

        self.responder, self.model_name, self.delay_s = responder, model_name, delay_s
        self.default_max_tokens, self.verbose, self.max_body_bytes = default_max_tokens, verbose, max_body_bytes
        self.created = int(time.time())
        self.requests = 0
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # a deep backlog: bursts of concurrent judge calls must not be refused at connect
        self._sock = socket.create_server((host, port), family=family, backlog=2048)
        self.app = build_app(self)
        config = uvicorn.Config(self.app, log_level="info" if verbose else "warning", access_log=verbose,
                                timeout_graceful_shutdown=2, timeout_keep_alive=30)
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return str(self._sock.getsockname()[0])

    @property
    def port(self) -> int:
        return int(self._sock.getsockname()[1])

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/v1"

    def start(self) -> OpenAIServer:
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name="physr3-serve", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("physr3 serve: the HTTP server did not start")
            time.sleep(0.01)
        return self

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted (uvicorn handles SIGINT/SIGTERM here)."""
        try:
            self._server.run(sockets=[self._sock])
        finally:
            self._sock.close()

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._sock.close()

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def load_responder(target: str, arg: str | None = None) -> Responder:
    """The responder named by `"module:attr"`: the attribute is called with `arg` when one is given, else
    with no arguments (a class or a factory function). Anything that cannot be loaded, or that is not a
    responder, is a UserError naming the target."""
    from physr3.errors import UserError
    from physr3.registry import resolve_target

    factory = resolve_target(target, "--responder")
    if not callable(factory):
        raise UserError(f"--responder {target!r}: expected a class or factory, got {type(factory).__name__}")
    args = () if arg is None else (arg,)
    try:
        inspect.signature(factory).bind(*args)
    except TypeError as exc:
        given = "no arguments" if arg is None else f"the argument {arg!r}"
        raise UserError(f"--responder {target!r} cannot be called with {given} ({exc}); see --responder-arg") from None
    except ValueError:  # no signature to inspect (a builtin): just call it
        pass
    responder = factory(*args)
    if not callable(getattr(responder, "generate", None)):
        raise UserError(f"--responder {target!r}: {type(responder).__name__} has no generate(messages, params)")
    return responder
