"""`physr3 serve` on the embedded model under hostile and heavy traffic, measured in one run.

    python benchmarks/serve_hostile.py

Starts `physr3 serve --port 0` (embedded SmolLM2, generation.batch_size=32) in a subprocess and prints: the
time to refuse a 6 MB prompt (413, body limit) and a ~10,000-token prompt (400 context_length_exceeded,
before any model work); 32 concurrent requests of 8 tokens (how many got 200, wall time); a streamed reply
of 48 tokens (time to the first content chunk vs. the last, number of chunks: one per token); that the
server still answers; its RSS. Figures depend on the machine; compare them within one run.
"""

from __future__ import annotations

import concurrent.futures
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request


def post(url: str, body: bytes, timeout: float = 600) -> tuple[int, bytes]:
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def main() -> int:
    proc = subprocess.Popen([sys.executable, "-m", "physr3.cli", "serve", "--port", "0",
                             "generation.batch_size=32"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        t0 = time.perf_counter()
        base = proc.stdout.readline().split(" on ", 1)[1].strip()
        print(f"startup {time.perf_counter() - t0:.1f} s")
        chat = base + "/chat/completions"
        for label, content in (("6 MB prompt", "x " * 3_000_000),
                               ("40 kB prompt (~10k tokens)", "the force on the block " * 1800)):
            t = time.perf_counter()
            status, body = post(chat, json.dumps({"messages": [{"role": "user", "content": content}]}).encode())
            print(f"{label}: HTTP {status} in {time.perf_counter() - t:.3f} s: {json.loads(body)['error']['code']}")

        def ask(i: int) -> int:
            return post(chat, json.dumps({"messages": [{"role": "user", "content": f"What is {i} + {i}?"}],
                                          "max_tokens": 8, "temperature": 0}).encode())[0]

        t = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            codes = list(pool.map(ask, range(32)))
        print(f"32 concurrent (max_tokens 8): {codes.count(200)}/32 HTTP 200 in {time.perf_counter() - t:.1f} s")
        body = json.dumps({"messages": [{"role": "user", "content": "Explain Newton's second law."}],
                           "max_tokens": 48, "temperature": 0, "stream": True}).encode()
        req = urllib.request.Request(chat, body, {"Content-Type": "application/json"})
        t, first, chunks = time.perf_counter(), None, 0
        with urllib.request.urlopen(req, timeout=600) as resp:
            for raw in resp:
                if raw.startswith(b"data: {") and b'"content"' in raw and b'"content": ""' not in raw:
                    chunks += 1
                    first = first or time.perf_counter() - t
        print(f"stream of 48 tokens: first content after {first:.2f} s, last after {time.perf_counter() - t:.2f} s, "
              f"{chunks} content chunks")
        print("health after:", urllib.request.urlopen(base.removesuffix("/v1") + "/health", timeout=10).status)
        with open(f"/proc/{proc.pid}/status") as fh:
            rss_mb = int(fh.read().split("VmRSS:")[1].split()[0]) // 1024
        print(f"server RSS {rss_mb} MB")
        return 0 if codes.count(200) == 32 else 1
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
