"""`physr3 serve`: the OpenAI-compatible endpoints, checked with the `openai` SDK and raw HTTP on loopback.

Most tests serve the model-free `echo` responder (test-only, see physr3.llm.serve); the Engine path is
checked with a deterministic fake engine here and with a real tiny model in tests/verify/test_llm_judge.py.
"""

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import openai
import pytest

from physr3.llm.serve import EngineResponder, OpenAIServer
from physr3.models.types import Completion
from support import serve_env
from support.responders import EchoResponder


@pytest.fixture
def echo_server():
    with OpenAIServer(EchoResponder(), port=0, model_name="echo-model") as srv:
        yield srv


def sdk(srv, **kw):
    return openai.OpenAI(base_url=srv.url, api_key="EMPTY", max_retries=0, **kw)


def test_models_endpoint(echo_server):
    assert [m.id for m in sdk(echo_server).models.list()] == ["echo-model"]


def test_non_streaming_reply_with_usage(echo_server):
    resp = sdk(echo_server).chat.completions.create(
        model="anything", messages=[{"role": "system", "content": "be brief"},
                                    {"role": "user", "content": "hello there world"}])
    assert resp.model == "echo-model" and resp.object == "chat.completion"
    assert resp.choices[0].message.content == "hello there world"
    assert resp.choices[0].finish_reason == "stop"
    assert resp.usage.completion_tokens == 3 and resp.usage.prompt_tokens == 5 and resp.usage.total_tokens == 8


def test_max_tokens_and_stop_are_honoured(echo_server):
    client = sdk(echo_server)
    msgs = [{"role": "user", "content": "one two three four five"}]
    cut = client.chat.completions.create(model="m", messages=msgs, max_tokens=2)
    assert cut.choices[0].message.content == "one two" and cut.choices[0].finish_reason == "length"
    stopped = client.chat.completions.create(model="m", messages=msgs, stop=[" four", "zzz"])
    assert stopped.choices[0].message.content == "one two three" and stopped.choices[0].finish_reason == "stop"


def test_streaming_with_the_sdk(echo_server):
    text = "Step 1: m = 2 kg\nStep 2: a = F/m  "
    stream = sdk(echo_server).chat.completions.create(
        model="m", messages=[{"role": "user", "content": text}], stream=True,
        stream_options={"include_usage": True})
    chunks = list(stream)
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert content == text
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens == 11


def test_streaming_wire_format_is_sse_ending_with_done(echo_server):
    body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "a b"}]}).encode()
    req = urllib.request.Request(echo_server.url + "/chat/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        assert resp.headers["Content-Type"] == "text/event-stream"
        events = [line for line in resp.read().decode().split("\n") if line]
    assert all(e.startswith("data: ") for e in events) and events[-1] == "data: [DONE]"
    first = json.loads(events[0][6:])
    assert first["object"] == "chat.completion.chunk" and first["choices"][0]["delta"]["role"] == "assistant"


def test_errors_in_openai_shape(echo_server):
    client = sdk(echo_server)
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}], n=2)
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="m", messages=[])
    req = urllib.request.Request(echo_server.url + "/chat/completions", b"{not json", {})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=10)
    assert err.value.code == 400 and "invalid JSON" in json.loads(err.value.read())["error"]["message"]
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(echo_server.url + "/nowhere", timeout=10)
    assert err.value.code == 404


def test_injected_delay_overlaps_across_concurrent_requests():
    with OpenAIServer(EchoResponder(), port=0, delay_s=0.3) as srv:
        client = sdk(srv)
        t0 = time.perf_counter()
        threads = [threading.Thread(target=client.chat.completions.create,
                                    kwargs={"model": "m", "messages": [{"role": "user", "content": str(i)}]})
                   for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        assert srv.requests == 6
    assert 0.3 <= elapsed < 1.2  # six 0.3 s requests side by side (in a row: 1.8 s)


class FakeEngine:
    """Deterministic Engine: replies with a fixed text that contains a stop string, records its params."""

    tokenizer = None

    def __init__(self):
        self.calls = []

    def generate(self, conversations, params):
        self.calls.append((conversations, params))
        time.sleep(0.05)
        text = "The answer is 5 m/s^2.</final_answer> trailing"
        return [Completion(text=text, token_ids=list(range(9)), finish_reason="stop", prompt_tokens=21)
                for _ in conversations]


def test_engine_responder_passes_params_and_cuts_stop_strings():
    engine = FakeEngine()
    with OpenAIServer(EngineResponder(engine, default_max_tokens=77), port=0) as srv:
        resp = sdk(srv).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "q"}], temperature=0.7, top_p=0.9, seed=3,
            stop="</final_answer>")
        plain = sdk(srv).chat.completions.create(model="m", messages=[{"role": "user", "content": "q"}])
    assert resp.choices[0].message.content == "The answer is 5 m/s^2."
    assert resp.usage.prompt_tokens == 21 and resp.usage.completion_tokens == 9
    params = engine.calls[0][1]
    assert (params.temperature, params.top_p, params.seed, params.stop) == (0.7, 0.9, 3, ("</final_answer>",))
    assert params.max_new_tokens == 77 and engine.calls[0][0] == [[{"role": "user", "content": "q"}]]
    assert plain.choices[0].message.content.endswith("trailing")  # no stop requested: nothing cut


def test_physr3_serve_command_in_a_subprocess():
    env = serve_env(dict(os.environ, PYTHONUNBUFFERED="1"))  # tests/ on PYTHONPATH: the test doubles
    proc = subprocess.Popen([sys.executable, "-m", "physr3.cli", "serve", "--port", "0", "--responder",
                             "support.responders:EchoResponder"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert line.startswith("physr3 serve: serving physr3-EchoResponder on http://127.0.0.1:"), line
        url = line.split(" on ", 1)[1].strip()
        client = openai.OpenAI(base_url=url, api_key="EMPTY", max_retries=0)
        reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "ping"}])
        assert reply.choices[0].message.content == "ping"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()


@pytest.mark.parametrize("argv,words", [
    (["echo"], "'echo' is not a 'module:attr' target"),
    (["no_such_module_xyz:Thing"], "cannot load 'no_such_module_xyz:Thing': no module named 'no_such_module_xyz'"),
    (["support.responders:NoSuchResponder"], "support.responders has no attribute 'NoSuchResponder'"),
    (["support.responders:TAG_ERROR_TYPE"], "expected a class or factory, got dict"),
    (["support.responders:ScriptRule"], "cannot be called with no arguments"),
    (["support.responders:EchoResponder", "--responder-arg", "x"], "cannot be called with the argument 'x'"),
    (["support.responders:ScriptRule", "--responder-arg", "x"], "ScriptRule has no generate(messages, params)"),
])
def test_serve_refuses_a_responder_it_cannot_load_in_one_line(argv, words, capsys):
    from physr3.cli import main

    code = main(["serve", "--port", "0", "--responder", *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and words in err and err.startswith("physr3 serve: error: ")


def test_engine_responder_batches_concurrent_requests_with_equal_params():
    engine = FakeEngine()
    responder = EngineResponder(engine, max_batch=8, batch_wait_s=0.2)
    with OpenAIServer(responder, port=0) as srv:
        client = sdk(srv)

        def ask(i, seed=None):
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": f"q{i}"}],
                                           temperature=0, seed=seed)

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(4)]
        threads.append(threading.Thread(target=ask, args=(9, 123)))  # seeded: generated alone
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sum(responder.batches) == 5 and max(responder.batches) >= 2 and len(engine.calls) < 5
    seeded = [conv for conv, p in engine.calls if p.seed == 123]
    assert seeded == [[[{"role": "user", "content": "q9"}]]]


@pytest.mark.slow
def test_physr3_serve_over_a_real_tiny_model_streams(tiny_model_dir):
    env = dict(os.environ, PYTHONUNBUFFERED="1", HF_HUB_OFFLINE="1")
    cmd = [sys.executable, "-m", "physr3.cli", "serve", "--port", "0", "--model", tiny_model_dir,
           "model.dtype=float32", "model.device=cpu"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert " on http://127.0.0.1:" in line, line
        client = openai.OpenAI(base_url=line.split(" on ", 1)[1].strip(), api_key="EMPTY", max_retries=0)
        plain = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], max_tokens=6)
        assert plain.usage.completion_tokens <= 6 and plain.usage.prompt_tokens > 1
        stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}],
                                                max_tokens=6, stream=True)
        text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
        assert text == plain.choices[0].message.content  # greedy: the same reply, streamed
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        proc.stdout.close()
