"""`physr3 serve` under hostile and heavy traffic, over real HTTP on loopback.

Malformed requests are answered with a 4xx whose body is exactly OpenAI's error object; an over-long
prompt is refused before any model work; 32 concurrent requests to a real (tiny) model all succeed and
the server keeps answering. The model-free `echo` responder (test-only) serves the malformed-request table;
the context-window and concurrency tests use the tiny random Llama behind the real TransformersEngine.
"""

from __future__ import annotations

import concurrent.futures
import json
import time
import urllib.error
import urllib.request

import pytest

from physr3.llm.serve import EngineResponder, OpenAIServer, _TokenStream
from physr3.models.engine import TransformersEngine
from support.responders import EchoResponder

OK_MESSAGES = [{"role": "user", "content": "hi"}]


def http(url: str, body: bytes | None = None, method: str | None = None, timeout: float = 60) -> tuple[int, dict]:
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def chat(srv: OpenAIServer, body: dict | bytes) -> tuple[int, dict]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return http(srv.url + "/chat/completions", raw)


def assert_openai_error(status: int, body: dict, expected_status: int, param: str | None = "any") -> dict:
    assert status == expected_status, (status, body)
    assert set(body) == {"error"} and set(body["error"]) == {"message", "type", "param", "code"}, body
    err = body["error"]
    assert isinstance(err["message"], str) and err["message"] and isinstance(err["type"], str)
    if param != "any":
        assert err["param"] == param, err
    return err


@pytest.fixture(scope="module")
def echo():
    with OpenAIServer(EchoResponder(), port=0, max_body_bytes=64 * 1024) as srv:
        yield srv


MALFORMED = [
    ("not json", b"{not json", None),
    ("empty body", b"", None),
    ("body an array", b"[1, 2]", None),
    ("no messages", {"model": "m"}, "messages"),
    ("messages not a list", {"messages": "hi"}, "messages"),
    ("messages empty", {"messages": []}, "messages"),
    ("message not an object", {"messages": ["hi"]}, "messages[0]"),
    ("message without content", {"messages": [{"role": "user"}]}, "messages[0].content"),
    ("content a number", {"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
    ("image content part", {"messages": [{"role": "user", "content": [{"type": "image_url"}]}]},
     "messages[0].content"),
    ("unknown role", {"messages": [{"role": "wizard", "content": "x"}]}, "messages[0].role"),
    ("negative max_tokens", {"messages": OK_MESSAGES, "max_tokens": -3}, "max_tokens"),
    ("float max_tokens", {"messages": OK_MESSAGES, "max_tokens": 2.5}, "max_tokens"),
    ("string temperature", {"messages": OK_MESSAGES, "temperature": "0.7"}, "temperature"),
    ("temperature out of range", {"messages": OK_MESSAGES, "temperature": 7}, "temperature"),
    ("top_p zero", {"messages": OK_MESSAGES, "top_p": 0}, "top_p"),
    ("n of 2", {"messages": OK_MESSAGES, "n": 2}, "n"),
    ("stop a number", {"messages": OK_MESSAGES, "stop": 3}, "stop"),
    ("five stops", {"messages": OK_MESSAGES, "stop": list("abcde")}, "stop"),
    ("string stream", {"messages": OK_MESSAGES, "stream": "yes"}, "stream"),
    ("tools", {"messages": OK_MESSAGES, "tools": [{"type": "function"}]}, "tools"),
    ("seed a string", {"messages": OK_MESSAGES, "seed": "1"}, "seed"),
    ("not UTF-8", b'{"messages": [{"role": "user", "content": "\xff"}]}', None),
    ("deeply nested", b"[" * 20_000 + b"]" * 20_000, None),
]


@pytest.mark.parametrize("body,param", [(b, p) for _, b, p in MALFORMED], ids=[n for n, _, _ in MALFORMED])
def test_malformed_requests_get_400_in_openai_shape(echo, body, param):
    status, reply = chat(echo, body)
    err = assert_openai_error(status, reply, 400, param if param is not None else "any")
    assert err["type"] == "invalid_request_error"


def test_body_over_the_limit_is_413_and_unknown_paths_404(echo):
    status, reply = chat(echo, {"messages": [{"role": "user", "content": "x" * 100_000}]})
    assert_openai_error(status, reply, 413)
    assert "65536" in reply["error"]["message"]
    for method, path in (("GET", "/nowhere"), ("POST", "/v1/completions"), ("GET", "/v1/chat/completions/x")):
        status, reply = http(echo.url.removesuffix("/v1") + path, b"{}" if method == "POST" else None, method)
        assert_openai_error(status, reply, 404)
    status, reply = http(echo.url + "/models", b"{}", "POST")  # a known path, a wrong method
    assert_openai_error(status, reply, 405)
    assert chat(echo, {"messages": OK_MESSAGES})[0] == 200  # and the server still answers


@pytest.fixture(scope="module")
def engine_server(tiny_model):
    model, tokenizer = tiny_model
    responder = EngineResponder(TransformersEngine(model, tokenizer, batch_size=32), default_max_tokens=8,
                                max_batch=32, batch_wait_s=0.05)
    with OpenAIServer(responder, port=0, default_max_tokens=8) as srv:
        yield srv, responder


def test_a_prompt_longer_than_the_context_window_is_refused_fast_before_model_work(engine_server):
    srv, responder = engine_server
    window = responder.context_window
    assert window == 1024  # the tiny model's max_position_embeddings (tests/conftest.py)
    calls = len(responder.batches)
    long_prompt = "the force on the block " * 2000  # ~10,000 tokens, 46 kB: under the body limit
    t0 = time.perf_counter()
    status, reply = chat(srv, {"messages": [{"role": "user", "content": long_prompt}], "max_tokens": 4})
    elapsed = time.perf_counter() - t0
    err = assert_openai_error(status, reply, 400, "messages")
    assert err["code"] == "context_length_exceeded" and "1024" in err["message"]
    assert elapsed < 1.0, f"refusal took {elapsed:.2f} s"
    # prompt fits, but prompt + the max_tokens asked for does not
    status, reply = chat(srv, {"messages": OK_MESSAGES, "max_tokens": window})
    assert assert_openai_error(status, reply, 400)["code"] == "context_length_exceeded"
    assert len(responder.batches) == calls, "the model ran for a refused request"


def test_32_concurrent_requests_all_succeed_batched_and_the_server_still_answers(engine_server):
    srv, responder = engine_server
    calls = len(responder.batches)

    def ask(i: int) -> tuple[int, dict]:
        return chat(srv, {"messages": [{"role": "user", "content": f"question {i}"}], "max_tokens": 4,
                          "temperature": 0})

    with concurrent.futures.ThreadPoolExecutor(32) as pool:
        results = list(pool.map(ask, range(32)))
    assert [status for status, _ in results] == [200] * 32, [r for s, r in results if s != 200][:2]
    assert all(r["usage"]["completion_tokens"] <= 4 for _, r in results)
    new = responder.batches[calls:]
    assert sum(new) == 32 and max(new) > 1, new  # requests that arrived together shared engine calls
    assert http(srv.url.removesuffix("/v1") + "/health")[0] == 200
    assert chat(srv, {"messages": OK_MESSAGES, "max_tokens": 2})[0] == 200


def test_streaming_is_token_by_token_and_equals_the_plain_reply(engine_server):
    srv, _ = engine_server
    body = {"messages": [{"role": "user", "content": "say something"}], "max_tokens": 12, "temperature": 0}
    status, plain = chat(srv, body)
    assert status == 200
    req = urllib.request.Request(srv.url + "/chat/completions", json.dumps({**body, "stream": True}).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        events = [line[6:] for line in resp.read().decode().split("\n") if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    pieces = [json.loads(e)["choices"][0]["delta"].get("content") for e in events[1:-1]]
    pieces = [p for p in pieces if p]
    assert "".join(pieces) == plain["choices"][0]["message"]["content"]
    n_tokens = plain["usage"]["completion_tokens"]
    assert len(pieces) >= max(2, n_tokens // 2), (len(pieces), n_tokens)  # pieces of tokens, not of words


def test_token_stream_never_sends_a_stop_string_or_what_follows(tiny_model):
    _, tokenizer = tiny_model
    text = "a = F/m = 5 m/s^2</final_answer> and more text"
    sent: list[str] = []
    stream = _TokenStream(tokenizer, ["</final_answer>"], sent.append)
    for token_id in tokenizer.encode(text, add_special_tokens=False):
        stream.push(token_id)
    stream.finish("a = F/m = 5 m/s^2")
    assert "".join(sent) == "a = F/m = 5 m/s^2" and len(sent) > 3
    assert not any("<" in piece for piece in sent)
