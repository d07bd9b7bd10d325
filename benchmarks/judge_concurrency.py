"""Judge throughput with a slow judge: 64 verifications at concurrency 16 against a 1 s/call server.

    .venv/bin/python benchmarks/judge_concurrency.py [--n 64] [--concurrency 16] [--delay-s 1.0]

Starts `physr3 serve --responder support.responders:DiffJudgeResponder --delay-s 1 --port 0` in a subprocess
(the stand-in judge from tests/support, on the server's PYTHONPATH: every call takes `delay_s`, like a
remote GPT-4o call), verifies `n` distinct erroneous
solutions through `LLMJudge.verify_batch` with a fresh SQLite cache, then verifies them again with a new
judge over the same cache. Targets (set with the LLM judge): the first run within 6 s for 64 x 1 s calls at
concurrency 16 (ideal: ceil(64/16) x 1 s = 4 s), the second run with 0 judge calls. Prints the measured
figures and exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from physr3.llm.client import ChatClient
from physr3.problems import Problem
from physr3.solution import render_solution
from physr3.verify.llm_judge import LLMJudge

TESTS_DIR = Path(__file__).resolve().parents[1] / "tests"  # the stand-in judge is a test double: tests/support

SECTIONS = {
    "given": ["m = 2.0 kg", "F = 10 N"], "find": ["a, the acceleration"], "concept": ["Newton's second law"],
    "governing_equation": ["a = F / m"], "substitution": ["a = (10 N) / (2.0 kg)"], "calculation": ["a = 5.0 m/s^2"],
}


def items(n: int) -> list[tuple[Problem, str]]:
    gt = render_solution(SECTIONS, "5.0 m/s^2")
    problem = Problem(id="bench", question="A 2.0 kg block is pushed by 10 N. Find a.", answer="5.0 m/s^2",
                      solution=gt)
    return [(problem, render_solution({**SECTIONS, "calculation": [f"a = {i + 6} m/s^2"]}, f"{i + 6} m/s^2"))
            for i in range(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--delay-s", type=float, default=1.0)
    ap.add_argument("--target-s", type=float, default=6.0)
    args = ap.parse_args()

    pythonpath = os.pathsep.join(p for p in (str(TESTS_DIR), os.environ.get("PYTHONPATH", "")) if p)
    proc = subprocess.Popen([sys.executable, "-m", "physr3.cli", "serve", "--port", "0", "--responder",
                             "support.responders:DiffJudgeResponder", "--delay-s", str(args.delay_s)],
                            stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=pythonpath))
    try:
        line = proc.stdout.readline()
        if " on " not in line:
            print(f"serve did not start: {line!r}", file=sys.stderr)
            return 1
        url = line.split(" on ", 1)[1].strip()
        work = items(args.n)
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "judge.sqlite"

            def run() -> tuple[float, dict[str, int], list]:
                client = ChatClient(model="stand-in", base_url=url, cache=cache, concurrency=args.concurrency,
                                    timeout_s=args.delay_s * 10 + 5)
                judge = LLMJudge(client)
                t0 = time.perf_counter()
                verdicts = judge.verify_batch(work)
                elapsed = time.perf_counter() - t0
                counters = judge.counters()
                judge.close()
                return elapsed, counters, verdicts

            t1, c1, v1 = run()
            t2, c2, v2 = run()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    ideal = math.ceil(args.n / args.concurrency) * args.delay_s
    found = sum(v.ok and v.error_step == 7 and v.error_type == "CE" for v in v1)
    print(f"judge_concurrency: {args.n} verifications, concurrency {args.concurrency}, judge delay {args.delay_s:g} s/call")
    print(f"  first run : {t1:6.2f} s wall (ideal {ideal:.2f} s, serial {args.n * args.delay_s:.0f} s; "
          f"target <= {args.target_s:g} s), {c1['calls']} calls, {c1['cache_hits']} cache hits, "
          f"{c1['retries']} retries, {c1['parse_failures']} parse failures; {found}/{args.n} verdicts correct")
    print(f"  second run: {t2:6.2f} s wall, {c2['calls']} calls, {c2['cache_hits']} cache hits; "
          f"verdicts identical: {[v.to_json()['error_step'] for v in v1] == [v.to_json()['error_step'] for v in v2]}")
    print(f"  speed-up over serial: {args.n * args.delay_s / t1:.1f}x; second run {t1 / max(t2, 1e-9):.0f}x faster")
    ok = t1 <= args.target_s and c2["calls"] == 0 and found == args.n
    print("  targets: " + ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
