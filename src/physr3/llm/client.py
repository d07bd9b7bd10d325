"""OpenAI-compatible chat client for the judge (and teacher models): retries, bounded concurrency, cache.

Built on the `openai` SDK's `AsyncOpenAI`, so any OpenAI-compatible endpoint works by configuration:
GPT-4o with the defaults (`base_url=None`, key in `OPENAI_API_KEY`), a vLLM or `physr3 serve` endpoint
with `judge_base_url=http://127.0.0.1:8000/v1`. Without the key variable set, a custom base URL gets the
placeholder key "EMPTY" (local servers ignore it); the OpenAI default endpoint refuses to start.

What this adds to the SDK call:
- **Retries** of our own (the SDK's are switched off so that each one is counted): rate limits (429),
  timeouts, connection errors, 408/409 and 5xx are retried up to `max_retries` times with exponential
  backoff and jitter (`delay = min(cap, base·2^attempt) · U(0.5, 1)`), never shorter than the server's
  `Retry-After`. Other 4xx (bad request, auth, unknown model) fail at once with `ChatError`.
- **Bounded concurrency**: an `asyncio.Semaphore(concurrency)` per event loop around each request.
  Identical requests in flight at the same time share one call.
- **Cache**: an SQLite `ReplyCache` keyed by (base_url, model, messages, params); a hit costs no call.
- **Counters** (`ClientStats`): API calls sent, cache hits, retries, failed requests, tokens.

The sync forms (`chat`, `chat_many`, and the judge's `verify_batch`) run the async ones on a background
event loop owned by the client (a daemon thread), so connections are kept alive between sync calls;
`close()` stops it.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from physr3.errors import UserError
from physr3.llm.cache import ReplyCache, cache_key, default_cache_path

Messages = list[dict[str, str]]
T = TypeVar("T")


@dataclass
class ClientStats:
    """Counters over the client's lifetime; `calls` counts HTTP requests sent, retries included."""

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    errors: int = 0
    shared_inflight: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def to_json(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class ChatReply:
    text: str
    cached: bool = False
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    attempts: int = 0


class ChatError(Exception):
    """A request that failed for good (non-retryable status, or retries exhausted)."""

    def __init__(self, message: str, status: int | None = None, attempts: int = 0):
        super().__init__(message)
        self.status, self.attempts = status, attempts


_RETRYABLE_STATUS = {408, 409, 429}


def _is_retryable(exc: BaseException) -> tuple[bool, int | None]:
    import openai

    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
        return True, None
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        return (status in _RETRYABLE_STATUS or status >= 500), status
    return False, None


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


class ChatClient:
    """Chat completions against one (base_url, model), with retries, a concurrency bound and a cache."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 120.0,
        max_retries: int = 5,
        concurrency: int = 16,
        cache: ReplyCache | str | os.PathLike | None = None,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
    ):
        if concurrency < 1:
            raise UserError(f"concurrency must be >= 1, got {concurrency}")
        if max_retries < 0:
            raise UserError(f"max_retries must be >= 0, got {max_retries}")
        import openai  # ~1.5 s the first time: paid here, not inside the first timed batch

        self._openai = openai
        self.model, self.base_url = model, base_url
        key = api_key if api_key is not None else os.environ.get(api_key_env)
        if not key:
            if base_url is None:
                raise UserError(f"the judge's API key is missing: set the environment variable {api_key_env} "
                                "(verifier.api_key_env names another), or point verifier.judge_base_url "
                                "at a local OpenAI-compatible server")
            key = "EMPTY"
        self._api_key = key
        self.timeout_s, self.max_retries, self.concurrency = timeout_s, max_retries, concurrency
        self.backoff_base_s, self.backoff_max_s = backoff_base_s, backoff_max_s
        self.cache = ReplyCache(cache) if isinstance(cache, str | os.PathLike) else cache
        self.stats = ClientStats()
        self._bg: tuple[asyncio.AbstractEventLoop, threading.Thread] | None = None  # loop for sync calls
        self._bg_lock = threading.Lock()
        # Per event loop: the SDK client (its connections belong to one loop), the semaphore, in-flight calls.
        self._per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Any]] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def from_verifier_config(cls, cfg: Any, *, use_cache: bool = True, **overrides: Any) -> ChatClient:
        """Build from a `VerifierConfig` (base URL, model, key variable, timeouts, concurrency, cache)."""
        cache: ReplyCache | None = None
        if use_cache:
            cache = ReplyCache(cfg.cache_path or default_cache_path())
        kwargs: dict[str, Any] = dict(
            model=cfg.judge_model, base_url=cfg.judge_base_url, api_key_env=cfg.api_key_env,
            timeout_s=cfg.timeout_s, max_retries=cfg.max_retries, concurrency=cfg.concurrency, cache=cache,
        )
        kwargs.update(overrides)
        return cls(**kwargs)

    @property
    def endpoint(self) -> str:
        return self.base_url or "https://api.openai.com/v1"

    # ----------------------------------------------------------------------------------------- async API
    def _state(self) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        state = self._per_loop.get(loop)
        if state is None:
            state = {
                "client": self._openai.AsyncOpenAI(api_key=self._api_key, base_url=self.base_url, max_retries=0,
                                             timeout=self.timeout_s),
                "sem": asyncio.Semaphore(self.concurrency),
                "inflight": {},
            }
            self._per_loop[loop] = state
        return state

    def _params(self, temperature: float | None, max_tokens: int | None, stop: Sequence[str] | str | None,
                seed: int | None, extra: dict[str, Any]) -> dict[str, Any]:
        params: dict[str, Any] = {"temperature": temperature, "max_tokens": max_tokens, "seed": seed}
        if stop:
            params["stop"] = [stop] if isinstance(stop, str) else list(stop)
        params.update(extra)
        return {k: v for k, v in params.items() if v is not None}

    async def achat(
        self,
        messages: Messages,
        *,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        stop: Sequence[str] | str | None = None,
        seed: int | None = None,
        use_cache: bool = True,
        **extra: Any,
    ) -> ChatReply:
        """One chat completion; raises ChatError when it fails for good."""
        params = self._params(temperature, max_tokens, stop, seed, extra)
        key = cache_key(self.endpoint, self.model, messages, params)
        if use_cache and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.stats.cache_hits += 1
                return ChatReply(text=hit, cached=True)
        state = self._state()
        inflight: dict[str, asyncio.Future[ChatReply]] = state["inflight"]
        if key in inflight:
            self.stats.shared_inflight += 1
            return await asyncio.shield(inflight[key])
        future: asyncio.Future[ChatReply] = asyncio.get_running_loop().create_future()
        inflight[key] = future
        try:
            reply = await self._request(state, messages, params)
            if use_cache and self.cache is not None:
                self.cache.put(key, reply.text, base_url=self.endpoint, model=self.model,
                               meta={"finish_reason": reply.finish_reason, "usage": reply.usage})
            future.set_result(reply)
            return reply
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: sharers re-raise it, nobody else needs to
            raise
        finally:
            inflight.pop(key, None)

    async def _request(self, state: dict[str, Any], messages: Messages, params: dict[str, Any]) -> ChatReply:
        client, sem = state["client"], state["sem"]
        attempt = 0
        while True:
            attempt += 1
            try:
                async with sem:
                    self.stats.calls += 1
                    resp = await client.chat.completions.create(model=self.model, messages=messages, **params)
            except Exception as exc:  # noqa: BLE001 - classified below; anything unknown is not retried
                retryable, status = _is_retryable(exc)
                if not retryable or attempt > self.max_retries:
                    self.stats.errors += 1
                    what = "retries exhausted" if retryable else "not retryable"
                    raise ChatError(f"{type(exc).__name__} ({what} after {attempt} attempt(s)): {exc}",
                                    status, attempt) from exc
                self.stats.retries += 1
                delay = min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0)
                after = _retry_after(exc)
                if after is not None:
                    delay = max(delay, min(after, self.backoff_max_s))
                await asyncio.sleep(delay)
                continue
            choice = resp.choices[0] if resp.choices else None
            text = (choice.message.content if choice and choice.message else None) or ""
            usage = {}
            if resp.usage is not None:
                usage = {"prompt_tokens": resp.usage.prompt_tokens or 0,
                         "completion_tokens": resp.usage.completion_tokens or 0}
                self.stats.prompt_tokens += usage["prompt_tokens"]
                self.stats.completion_tokens += usage["completion_tokens"]
            return ChatReply(text=text, cached=False, finish_reason=choice.finish_reason if choice else None,
                             usage=usage, attempts=attempt)

    async def achat_many(self, conversations: Sequence[Messages], **params: Any) -> list[ChatReply | ChatError]:
        """Many chats at once (at most `concurrency` in flight); a failed one is returned as its ChatError."""

        async def one(messages: Messages) -> ChatReply | ChatError:
            try:
                return await self.achat(messages, **params)
            except ChatError as exc:
                return exc

        return list(await asyncio.gather(*(one(m) for m in conversations)))

    async def aclose(self) -> None:
        """Close this loop's HTTP connections (the cache stays open)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - only called from a loop
            return
        state = self._per_loop.pop(loop, None)
        if state is not None:
            await state["client"].close()

    # ------------------------------------------------------------------------------------------ sync API
    def run_sync(self, make: Callable[[], Awaitable[T]]) -> T:
        """Run the awaitable made by `make()` on the client's background event loop and wait for it.

        The loop lives in a daemon thread for the client's lifetime, so sync callers (a training loop
        calling `verify_batch` every step) keep their HTTP connections alive between calls, and a sync
        call from inside another running loop works too.
        """
        with self._bg_lock:
            if self._bg is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="physr3-llm-client", daemon=True)
                thread.start()
                self._bg = (loop, thread)
            loop = self._bg[0]
        future = asyncio.run_coroutine_threadsafe(make(), loop)  # type: ignore[arg-type]
        try:
            return future.result()
        except BaseException:
            future.cancel()  # e.g. KeyboardInterrupt: stop the batch's outstanding calls
            raise

    def chat(self, messages: Messages, **params: Any) -> ChatReply:
        return self.run_sync(lambda: self.achat(messages, **params))

    def chat_many(self, conversations: Sequence[Messages], **params: Any) -> list[ChatReply | ChatError]:
        return self.run_sync(lambda: self.achat_many(conversations, **params))

    def close(self) -> None:
        """Close the background loop's connections, stop it, and close the cache."""
        with self._bg_lock:
            bg, self._bg = self._bg, None
        if bg is not None:
            loop, thread = bg
            try:
                asyncio.run_coroutine_threadsafe(self.aclose(), loop).result(timeout=10)
            except Exception:  # noqa: BLE001 - best effort at shutdown
                pass
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
            loop.close()
        if self.cache is not None:
            self.cache.close()
