"""The SQLite reply cache: stable keys, and no lost or failed writes with concurrent writers."""

import subprocess
import sys
import threading

from physr3.llm.cache import ReplyCache, cache_key

MSG = [{"role": "user", "content": "q"}]


def test_key_is_stable_and_sensitive_to_each_part():
    k = cache_key("http://h/v1/", "m", MSG, {"temperature": 0.0, "max_tokens": None})
    assert k == cache_key("http://h/v1", "m", MSG, {"temperature": 0.0})  # trailing slash, None params
    assert len({k, cache_key("http://other/v1", "m", MSG, {"temperature": 0.0}),
                cache_key("http://h/v1", "m2", MSG, {"temperature": 0.0}),
                cache_key("http://h/v1", "m", [{"role": "user", "content": "q2"}], {"temperature": 0.0}),
                cache_key("http://h/v1", "m", MSG, {"temperature": 0.7})}) == 5


def test_roundtrip_and_persistence(tmp_path):
    path = tmp_path / "c.sqlite"
    with ReplyCache(path) as cache:
        cache.put("k", "reply", base_url="u", model="m", meta={"usage": 3})
        assert cache.get("k") == "reply" and cache.get("missing") is None
    with ReplyCache(path) as cache:
        assert cache.get("k") == "reply" and len(cache) == 1


WRITER = """
import sys
from physr3.llm.cache import ReplyCache
c = ReplyCache(sys.argv[1])
for i in range(150):
    c.put(f"{sys.argv[2]}-{i}", f"reply {i}")
    c.put("shared", sys.argv[2])
    assert c.get(f"{sys.argv[2]}-{i}") == f"reply {i}"
"""


def test_concurrent_writers_threads_and_processes(tmp_path):
    path = tmp_path / "c.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"p{j}"]) for j in range(3)]
    cache = ReplyCache(path)
    errors = []

    def thread_writer(name):
        try:
            for i in range(150):
                cache.put(f"{name}-{i}", f"reply {i}")
        except Exception as exc:  # noqa: BLE001 - the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=thread_writer, args=(f"t{j}",)) for j in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0] and not errors
    assert len(cache) == 6 * 150 + 1 and cache.get("shared") in {"p0", "p1", "p2"}
    assert cache.get("p2-149") == "reply 149" and cache.get("t1-0") == "reply 0"
