"""The chat client over real HTTP on loopback: retries with backoff, bounded concurrency, cache, counters.

Failures (429, 500, 503, 400) come from `physr3 serve`'s scripted responder (test-only; see
physr3.llm.serve), so the SDK's real error classes and headers are exercised.
"""

import asyncio
import threading
import time

import pytest

from physr3.config import VerifierConfig
from physr3.errors import UserError
from physr3.llm.client import ChatClient, ChatError
from physr3.llm.serve import OpenAIServer
from support.responders import EchoResponder, ScriptedResponder, ScriptRule

MSG = [{"role": "user", "content": "hello"}]


def client_for(srv, tmp_path=None, **kw):
    kw.setdefault("backoff_base_s", 0.01)
    cache = tmp_path / "cache.sqlite" if tmp_path is not None else None
    return ChatClient(model="m", base_url=srv.url, cache=cache, **kw)


def test_retries_rate_limits_and_server_errors_then_succeeds():
    responder = ScriptedResponder([ScriptRule(reply="fine", fail=[429, 500, 503])])
    with OpenAIServer(responder, port=0) as srv:
        client = client_for(srv, max_retries=5)
        reply = client.chat(MSG)
    assert reply.text == "fine" and reply.attempts == 4
    assert (client.stats.calls, client.stats.retries, client.stats.errors) == (4, 3, 0)


def test_retries_exhausted_and_non_retryable_errors_raise_chat_error():
    with OpenAIServer(ScriptedResponder([ScriptRule(reply="x", fail=[500, 500, 500])]), port=0) as srv:
        client = client_for(srv, max_retries=2)
        with pytest.raises(ChatError) as err:
            client.chat(MSG)
    assert err.value.status == 500 and err.value.attempts == 3 and "retries exhausted" in str(err.value)
    assert (client.stats.calls, client.stats.retries, client.stats.errors) == (3, 2, 1)
    with OpenAIServer(ScriptedResponder([ScriptRule(reply="x", fail=[400])]), port=0) as srv:
        client = client_for(srv, max_retries=5)
        with pytest.raises(ChatError) as err:
            client.chat(MSG)
    assert err.value.status == 400 and client.stats.calls == 1 and client.stats.retries == 0


def test_retry_after_header_is_respected():
    with OpenAIServer(ScriptedResponder([ScriptRule(reply="ok", fail=[429], retry_after=0.4)]), port=0) as srv:
        client = client_for(srv, max_retries=2)
        t0 = time.perf_counter()
        assert client.chat(MSG).text == "ok"
    assert time.perf_counter() - t0 >= 0.4


def test_timeouts_are_retried_then_reported():
    with OpenAIServer(EchoResponder(), port=0, delay_s=0.6) as srv:
        client = client_for(srv, max_retries=1, timeout_s=0.15)
        with pytest.raises(ChatError) as err:
            client.chat(MSG)
    assert "APITimeoutError" in str(err.value) and client.stats.calls == 2 and client.stats.retries == 1


class CountingResponder(EchoResponder):
    """Echo after a pause, recording the most requests it ever served at once."""

    def __init__(self, pause):
        self.pause, self.now, self.peak, self.lock = pause, 0, 0, threading.Lock()

    def generate(self, messages, params):
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        time.sleep(self.pause)
        with self.lock:
            self.now -= 1
        return super().generate(messages, params)


def test_concurrency_is_bounded_and_identical_requests_share_a_call():
    responder = CountingResponder(0.15)
    with OpenAIServer(responder, port=0) as srv:
        client = client_for(srv, concurrency=3)
        convs = [[{"role": "user", "content": f"q{i}"}] for i in range(9)] + [MSG, MSG, MSG]
        t0 = time.perf_counter()
        replies = client.chat_many(convs)
        elapsed = time.perf_counter() - t0
    assert [r.text for r in replies] == [f"q{i}" for i in range(9)] + ["hello"] * 3
    assert responder.peak == 3 and client.stats.calls == 10 and client.stats.shared_inflight == 2
    assert 0.15 * 4 <= elapsed < 1.3  # 10 calls, 3 at a time: 4 waves (in a row: 1.5 s)


def test_cache_makes_a_rerun_free_and_keys_on_endpoint_model_params(tmp_path):
    with OpenAIServer(EchoResponder(), port=0) as srv:
        first = client_for(srv, tmp_path)
        assert first.chat(MSG).cached is False
        first.close()
        again = client_for(srv, tmp_path)
        reply = again.chat(MSG)
        assert reply.cached and reply.text == "hello"
        assert again.stats.calls == 0 and again.stats.cache_hits == 1
        assert again.chat(MSG, temperature=0.5).cached is False  # other params: another entry
        assert again.chat(MSG, use_cache=False).cached is False
        other_model = ChatClient(model="m2", base_url=srv.url, cache=again.cache)
        assert other_model.chat(MSG).cached is False
        assert again.stats.calls == 2


def test_async_form_and_sync_form_inside_a_running_loop():
    with OpenAIServer(EchoResponder(), port=0) as srv:
        client = client_for(srv)

        async def main():
            many = await client.achat_many([[{"role": "user", "content": str(i)}] for i in range(5)])
            inner = client.chat(MSG)  # sync call from inside a loop runs on a worker thread
            await client.aclose()
            return many, inner

        many, inner = asyncio.run(main())
    assert [r.text for r in many] == ["0", "1", "2", "3", "4"] and inner.text == "hello"


def test_api_key_from_the_configured_variable(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("MY_JUDGE_KEY", raising=False)
    with pytest.raises(UserError, match="OPENAI_API_KEY"):
        ChatClient.from_verifier_config(VerifierConfig(), use_cache=False)  # GPT-4o default, no key
    local = ChatClient.from_verifier_config(VerifierConfig(judge_base_url="http://127.0.0.1:9/v1"), use_cache=False)
    assert local._api_key == "EMPTY"
    monkeypatch.setenv("MY_JUDGE_KEY", "sk-test")
    gpt4o = ChatClient.from_verifier_config(VerifierConfig(api_key_env="MY_JUDGE_KEY", concurrency=4),
                                            use_cache=False)
    assert (gpt4o.model, gpt4o.base_url, gpt4o._api_key, gpt4o.concurrency) == ("gpt-4o", None, "sk-test", 4)
    assert gpt4o.endpoint == "https://api.openai.com/v1"
