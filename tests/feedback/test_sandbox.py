"""Adversarial tests for the sandbox, one property each: the code is contained, the host unharmed, the result
reported. Limits are kept small so that the whole file runs in a few seconds."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from physr3.cli import main as cli_main
from physr3.feedback.sandbox import SandboxResult, landlock_abi, run_code

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the sandbox needs Linux")

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FAST = {"timeout_s": 5.0, "memory_mb": 512}


def _procs_named(comm: str) -> list[int]:
    """Pids of live processes whose /proc/PID/comm is `comm`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == comm:
                    found.append(int(entry))
            except OSError:
                pass
    return found


def test_normal_computation_returns_stdout():
    result = run_code("import math\nprint(sum(range(10)), math.sqrt(16))", **FAST)
    assert isinstance(result, SandboxResult)
    assert result.ok, result
    assert result.stdout == "45 4.0\n"
    assert result.stderr == "" and result.signal is None and result.stopped_by is None


def test_installed_packages_are_importable():
    """The code channel's code imports sympy: reads stay allowed beneath site-packages."""
    result = run_code("import sympy\nprint(sympy.sqrt(8))", timeout_s=20.0, memory_mb=1024)
    assert result.ok, result.stderr
    assert result.stdout.strip() == "2*sqrt(2)"


def test_exception_is_reported_as_exit_code_and_stderr():
    result = run_code("raise ValueError('boom')", **FAST)
    assert result.exit_code == 1 and result.stopped_by is None
    assert "ValueError: boom" in result.stderr


def test_infinite_loop_is_stopped_by_the_wall_clock():
    result = run_code("while True:\n    pass", timeout_s=1.0)
    assert result.stopped_by == "timeout"
    assert result.exit_code is None and result.signal == 9
    assert 1.0 <= result.wall_s < 4.0


def test_cpu_limit_stops_a_busy_loop():
    result = run_code("while True:\n    pass", timeout_s=10.0, cpu_s=1)
    assert result.stopped_by == "cpu", result


def test_fork_bomb_is_contained_and_cleaned_up():
    marker = "fb" + uuid.uuid4().hex[:12]  # our bomb's processes carry this name, nobody else's do
    code = (
        "import ctypes, os, time\n"
        f"ctypes.CDLL(None).prctl(15, b'{marker}', 0, 0, 0)\n"
        "while True:\n"
        "    try:\n"
        "        os.fork()\n"
        "    except OSError:\n"
        "        time.sleep(0.01)\n"
    )
    result = run_code(code, timeout_s=1.5, max_processes=16)
    assert result.stopped_by == "timeout"
    assert _procs_named(marker) == []  # every bomb process died with the run
    assert subprocess.run(["true"], timeout=10).returncode == 0  # the host can still start processes


def test_background_processes_die_when_the_code_ends():
    marker = "bg" + uuid.uuid4().hex[:12]
    code = (
        "import ctypes, os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()  # leave the process group: only the PID namespace can still catch it\n"
        f"    ctypes.CDLL(None).prctl(15, b'{marker}', 0, 0, 0)\n"
        "    time.sleep(30)\n"
        "    os._exit(0)\n"
        "time.sleep(0.2)\n"
        "print('parent done')\n"
    )
    result = run_code(code, **FAST)
    assert result.ok and result.stdout == "parent done\n", result
    assert _procs_named(marker) == []


def test_memory_bomb_is_stopped():
    code = "chunks = []\nwhile True:\n    chunks.append(bytearray(32 * 2**20))\n"
    result = run_code(code, timeout_s=8.0, memory_mb=256)
    assert result.stopped_by == "memory", result  # not the wall clock: the allocation itself failed


def test_writing_outside_the_working_folder_fails(tmp_path):
    outside = tmp_path / "outside.txt"
    in_project = PROJECT_ROOT / f"sandbox-escape-{uuid.uuid4().hex}.txt"
    code = (
        "import os\n"
        f"for path in [{str(outside)!r}, {str(in_project)!r}, '/tmp/x-' + os.urandom(4).hex()]:\n"
        "    try:\n"
        "        open(path, 'w').write('escaped')\n"
        "        print('WROTE', path)\n"
        "    except OSError as exc:\n"
        "        print('denied', type(exc).__name__)\n"
        "open('inside.txt', 'w').write('fine')\n"
        "print(open('inside.txt').read())\n"
    )
    try:
        result = run_code(code, **FAST)
        assert not outside.exists() and not in_project.exists()
        assert "WROTE" not in result.stdout
        assert result.stdout.count("denied") == 3 and result.stdout.endswith("fine\n"), result
    finally:
        for path in (outside, in_project):
            path.unlink(missing_ok=True)


def test_environment_secrets_do_not_pass_through(monkeypatch):
    secret = "s3cr3t-" + uuid.uuid4().hex
    monkeypatch.setenv("PHYSR3_SANDBOX_TEST_SECRET", secret)
    code = (
        "import os\n"
        "print(dict(os.environ))\n"
        f"for pid in (os.getppid(), {os.getpid()}):\n"
        "    try:\n"
        "        print(open(f'/proc/{pid}/environ', 'rb').read())\n"
        "    except OSError as exc:\n"
        "        print('denied', type(exc).__name__)\n"
    )
    result = run_code(code, **FAST)
    assert result.exit_code == 0, result
    assert secret not in result.stdout + result.stderr
    assert "PHYSR3_SANDBOX_TEST_SECRET" not in result.stdout


def test_network_connection_to_a_listening_local_port_fails():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        port = server.getsockname()[1]
        code = (
            "import ctypes, socket, _socket\n"
            "attempts = {\n"
            f"    'socket': lambda: socket.create_connection(('127.0.0.1', {port}), timeout=1),\n"
            "    '_socket': lambda: _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM),\n"
            "    'ctypes': lambda: ctypes.CDLL(None, use_errno=True).socket(2, 1, 0),\n"
            "}\n"
            "for name, attempt in attempts.items():\n"
            "    try:\n"
            "        print(name, 'GOT', attempt())\n"
            "    except OSError as exc:\n"
            "        print(name, 'denied', exc.errno)\n"
        )
        result = run_code(code, **FAST)
        server.settimeout(0.3)
        with pytest.raises(TimeoutError):
            server.accept()  # nobody connected
    assert result.exit_code == 0, result
    assert "socket denied" in result.stdout and "_socket denied" in result.stdout
    assert "ctypes GOT -1" in result.stdout  # libc's socket() returned -1: refused by seccomp


def test_huge_output_is_truncated_and_bounded():
    code = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n"
    result = run_code(code, timeout_s=8.0, max_output_bytes=10_000)
    assert result.stopped_by == "output"  # stopped at the cap, long before the wall clock
    assert result.stdout_truncated and len(result.stdout) == 10_000


def test_killing_the_parent_fails_and_the_host_survives():
    code = (
        "import os, signal\n"
        f"for pid in (os.getppid(), {os.getpid()}, -1):\n"
        "    try:\n"
        "        os.kill(pid, signal.SIGKILL)\n"
        "    except OSError as exc:\n"
        "        print('denied', pid, type(exc).__name__)\n"
        "print('done')\n"
    )
    result = run_code(code, **FAST)
    assert result.stdout.endswith("done\n"), result  # reported, and we (the test process) are still here
    assert f"denied {os.getpid()}" in result.stdout


def test_ctypes_segfault_is_reported_as_a_signal():
    result = run_code("import ctypes\nctypes.string_at(0)", **FAST)
    assert result.signal == 11 and result.exit_code is None, result
    assert result.stopped_by is None
    assert run_code("print('still fine')", **FAST).stdout == "still fine\n"


def test_working_folder_is_removed_afterwards():
    result = run_code("import os\nprint(os.getcwd())\nopen('big.bin', 'wb').write(b'0' * 1000)", **FAST)
    workdir = result.stdout.strip()
    assert workdir and not os.path.exists(workdir)
    assert not os.path.exists(os.path.dirname(workdir))


@pytest.mark.skipif(os.geteuid() != 0 or not os.path.exists("/usr/bin/python3"), reason="needs root and /usr/bin/python3")
def test_root_runs_code_as_nobody_when_nobody_can_read_python():
    result = run_code("import os\nprint(os.getuid(), os.getgid())", python="/usr/bin/python3", **FAST)
    if not any("nobody" in m for m in result.measures):
        pytest.skip("nobody cannot read /usr/bin/python3's installation here")
    assert result.stdout == "65534 65534\n", result


def test_measures_name_landlock_when_the_kernel_has_it():
    result = run_code("pass", **FAST)
    if landlock_abi():
        assert any(m.startswith("landlock") for m in result.measures)
    else:
        assert any(m.startswith("landlock") for m in result.missing)


def test_cli_prints_the_json_result(tmp_path, capsys):
    script = tmp_path / "hello.py"
    script.write_text("print('hello from the sandbox')\n")
    assert cli_main(["sandbox", str(script), "--timeout", "5"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["stdout"] == "hello from the sandbox\n" and result["exit_code"] == 0


def test_cli_missing_file_is_a_user_error(tmp_path, capsys):
    assert cli_main(["sandbox", str(tmp_path / "missing.py")]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and len(err.strip().splitlines()) == 1


def test_no_sandbox_folders_or_cgroups_are_left_behind():
    before = _leftovers()
    run_code("print(1)", **FAST)
    assert _leftovers() <= before


def _leftovers() -> set[str]:
    import tempfile

    found = {p for p in os.listdir(tempfile.gettempdir()) if p.startswith("physr3-sandbox-")}
    pids = "/sys/fs/cgroup/pids"
    if os.path.isdir(pids):
        for dirpath, dirnames, _ in os.walk(pids):
            found.update(os.path.join(dirpath, d) for d in dirnames if d.startswith(f"physr3-sandbox-{os.getpid()}-"))
    return found

