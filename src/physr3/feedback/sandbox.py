"""Run untrusted Python (model-written CE code, `physr3 sandbox FILE.py`) in a contained process.

`run_code(code)` writes the code to a private temporary folder and starts a *launcher* (`python -I -S` on
this very file) in a new session. The launcher joins a pids cgroup and new namespaces, then forks an *init*
that contains itself (limits, privileges, Landlock, seccomp, in that order) and forks the process that runs
the code (`python -I -B [-S] main.py`; `-S` only with `site_packages=False`, because code written for the CE
channel imports sympy); init reports the measures in force and the code's exit status on a private pipe.
The host never calls `preexec_fn`, so `run_code` is safe to use from a multi-threaded training loop.

Covered (each layer is applied when the kernel and our privileges allow it; `SandboxResult.measures`
lists what was in force for that run and `SandboxResult.missing` what was not, with the reason):
- Time: a wall-clock limit (`timeout_s`) after which the launcher kills init (see Cleanup) and the whole
  process group is sent SIGKILL; RLIMIT_CPU (`cpu_s`, per process) as a second line.
- Memory: RLIMIT_AS (`memory_mb`): allocation fails with MemoryError (or the process dies).
- Processes: RLIMIT_NPROC (`max_processes`), which the kernel ignores for uid 0; as root we therefore also
  put the launcher in a fresh cgroup with `pids.max` (cgroup v1 `pids` mount, or a delegated v2 subtree)
  and remove it afterwards.
- Cleanup: a new PID namespace (root, or via an unprivileged user namespace) whose PID 1 is a small
  contained init that forks the code and reports its exit status; when the code ends, or the host asks the
  launcher to stop the run, that init exits and the kernel kills every process the code started, even
  ones that called `setsid()`; the launcher reaps init before it exits, so nothing of the run outlives
  `run_code`. (The code is not PID 1 itself because the kernel ignores SIGXCPU and other default-action
  signals for a namespace's init.) Without the namespace, killing the process group is all we do.
- Files: Landlock (Linux >= 5.13): writes, deletions, renames and new files only beneath the empty working
  folder; reads and executes only beneath the Python installation(s) (prefix, venv, site-packages), /usr,
  /lib*, /bin, /sbin, a few /etc and /dev files and `extra_read_paths` (`restrict_reads=True`). RLIMIT_FSIZE
  (`file_size_mb`) bounds each file; RLIMIT_CORE = 0. The working folder (and the temporary folder holding
  main.py) is deleted afterwards. `HOME` and `TMPDIR` point into it.
- Network: a new, empty network namespace (no interface is up, not even loopback, so the host's
  127.0.0.1 is unreachable) plus a seccomp filter that makes `socket()` fail with EPERM for every address
  family (`socketpair()` stays allowed: it reaches nothing outside) and Landlock's TCP bind/connect denial
  (ABI >= 4). Because seccomp acts on the system call, `_socket`, ctypes and subprocesses cannot bypass it.
- Kernel surface: the seccomp filter also refuses io_uring (whose requests could open sockets without
  calling socket()), ptrace, bpf, perf_event_open, userfaultfd, keyrings, mount/umount/pivot_root,
  unshare/setns, namespace flags to clone(), and clone3 (ENOSYS, so libc falls back to clone); any other ABI
  (i386 `int 0x80`, x32) kills the process. `no_new_privs` is set, so setuid binaries gain nothing.
- Privileges: as root, all capabilities are dropped (bounding, ambient, effective, permitted, inheritable
  sets) and supplementary groups cleared. The code runs as `nobody` when that user can read the Python
  installation (then RLIMIT_NPROC counts and root's processes are out of its reach); otherwise (Python
  under a mode-700 /root, as in this project's environment) it stays uid 0 *without capabilities*, and the
  Landlock rules are what keep it from writing root-owned files.
- Signals and /proc: Landlock's scopes (ABI >= 6) stop the code from signalling processes outside the
  sandbox (killing the parent fails) and from reaching abstract unix sockets; Landlock always stops ptrace
  and /proc/PID/environ|mem access to processes outside. The environment is replaced by a minimal one (PATH,
  locale, HOME/TMPDIR, thread-count variables): no secret of the host environment passes through.
- Output: stdout and stderr are read through pipes with a cap (`max_output_bytes` each); going over the
  cap kills the run (`stopped_by="output"`), so a flood can exhaust neither memory nor disk.

Not covered:
- Reading: with `restrict_reads=False`, or without Landlock, the code can read every file its uid can read.
  Even with it, the allowed roots (e.g. the venv) are readable in full. The price of restricting reads:
  /proc (even /proc/self), /sys (but CPU topology), /etc and /dev/shm are out of reach, so code that
  needs them (`multiprocessing` locks and pools, psutil) fails; plain Python, sympy, numpy and pint work.
- Without Landlock *and* unable to run as `nobody`, the code runs as uid 0 without capabilities: it can
  still write any file whose owner is root and whose mode allows the owner to write. `missing` says so.
- CPU and memory use of the machine as a whole are bounded only per process and by the wall-clock limit
  (up to `max_processes` processes, each up to `memory_mb`); no cgroup memory or CPU controller is used.
- Running as `nobody` without Landlock's signal scope, the code can signal other processes of `nobody`
  (e.g. a concurrent sandbox run); RLIMIT_NPROC then also counts them.
- Side channels, kernel exploits, and resources not named above (e.g. SysV IPC is isolated only with the
  IPC namespace, /dev/shm is not writable under Landlock) are out of scope. This is defence in depth for
  model-written code, not a boundary for deliberately hostile users on a shared machine.
- Linux only (x86-64 and aarch64 for seccomp).

`stopped_by` says why a run ended early: "timeout" (wall clock), "output" (cap exceeded), "cpu" (SIGXCPU),
"memory" (MemoryError as the final error), "file_size" (EFBIG), "killed" (SIGKILL we did not send),
"setup" (the sandbox itself failed to start; see stderr) or None (the code ended on its own).
"""

from __future__ import annotations

import ctypes
import json
import os
import platform
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field

NOBODY = 65534
MEMORY_RE = re.compile(r"^(\S*MemoryError\b|.*Cannot allocate memory)", re.M)  # also numpy's _ArrayMemoryError
EFBIG_RE = re.compile(r"File too large|\[Errno 27\]")
_SETUP_EXIT = 125

# ---------------------------------------------------------------------------------------------- result


@dataclass
class SandboxResult:
    """What one sandboxed execution produced and why it ended."""

    stdout: str
    stderr: str
    exit_code: int | None  # None when the process died from a signal or never reported
    signal: int | None  # the signal that ended it (e.g. 11 for a segfault, 9 for our kill)
    stopped_by: str | None  # None | timeout | output | cpu | memory | file_size | killed | setup
    wall_s: float
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    measures: list[str] = field(default_factory=list)  # containment in force for this run
    missing: list[str] = field(default_factory=list)  # containment that could not be applied, and why

    @property
    def ok(self) -> bool:
        """The code ran to completion and exited with status 0."""
        return self.exit_code == 0 and self.stopped_by is None

    def to_json(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------------------------------------- host side


def run_code(
    code: str,
    *,
    timeout_s: float = 5.0,
    cpu_s: float | None = None,
    memory_mb: int = 1024,
    max_output_bytes: int = 64 * 1024,
    file_size_mb: int = 16,
    max_processes: int = 32,
    python: str | None = None,
    site_packages: bool = True,
    restrict_reads: bool = True,
    extra_read_paths: tuple[str, ...] = (),
) -> SandboxResult:
    """Run `code` as `main.py` in a fresh contained process and return its (capped) output and status.

    `cpu_s` defaults to `timeout_s + 1` so that a busy loop is reported as a wall-clock timeout; set it lower
    to bound CPU time separately. `max_output_bytes` applies to stdout and stderr each. `python` is the
    interpreter to run (default: this one). See the module docstring for what is and is not contained.
    """
    if sys.platform != "linux":
        raise RuntimeError("physr3's sandbox needs Linux (namespaces, seccomp, Landlock)")
    python = python or sys.executable
    cpu_s = timeout_s + 1 if cpu_s is None else cpu_s
    start = time.monotonic()
    root = tempfile.mkdtemp(prefix="physr3-sandbox-")
    cgroup, missing = None, []
    try:
        os.chmod(root, 0o711)  # `nobody` must reach main.py and work/, nothing else
        code_path, workdir = os.path.join(root, "main.py"), os.path.join(root, "work")
        with open(code_path, "w", encoding="utf-8") as fh:
            fh.write(code)
        os.chmod(code_path, 0o644)
        os.mkdir(workdir, 0o700)
        cgroup, why = _make_pids_cgroup(max_processes)
        if why:
            missing.append(why)
        status_r, status_w = os.pipe()
        spec = {
            "parent": os.getpid(), "python": python, "code": code_path, "workdir": workdir,
            "cpu_s": max(1, int(-(-cpu_s // 1))), "memory_bytes": int(memory_mb) << 20,
            "fsize_bytes": int(file_size_mb) << 20, "nproc": int(max_processes), "cgroup": cgroup,
            "status_fd": status_w, "site": bool(site_packages), "restrict_reads": bool(restrict_reads),
            "extra_read": [os.path.abspath(p) for p in extra_read_paths],
        }
        try:
            proc = subprocess.Popen(
                [python, "-I", "-S", os.path.abspath(__file__), json.dumps(spec)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=workdir,
                env=_scrubbed_env(workdir), start_new_session=True, pass_fds=(status_w,), close_fds=True,
            )
        except BaseException:
            os.close(status_r)
            raise
        finally:
            os.close(status_w)
        result = _supervise(proc, status_r, start, timeout_s, max_output_bytes)
        result.missing = missing + result.missing
        return result
    finally:
        shutil.rmtree(root, onerror=_force_remove)
        if cgroup:
            _remove_cgroup(cgroup)


def run_file(path: str, **limits) -> SandboxResult:
    """Run the Python file at `path` in the sandbox (it is copied: the sandbox cannot see the original)."""
    with open(path, encoding="utf-8") as fh:
        return run_code(fh.read(), **limits)


def _scrubbed_env(workdir: str) -> dict[str, str]:
    """A minimal environment built from nothing: no variable of the host passes through."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "HOME": workdir, "TMPDIR": workdir}
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
        env[var] = "1"  # thread pools reserve address space that RLIMIT_AS counts
    return env


def _supervise(proc: subprocess.Popen, status_r: int, start: float, timeout_s: float, cap: int) -> SandboxResult:
    """Read the three pipes with caps until the code ends, the deadline passes or the output overflows."""
    assert proc.stdout is not None and proc.stderr is not None
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    bufs = {out_fd: bytearray(), err_fd: bytearray(), status_r: bytearray()}
    truncated = {out_fd: False, err_fd: False}
    sel = selectors.DefaultSelector()
    for fd in bufs:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    deadline, stopped_by, launcher_done_at = start + timeout_s, None, None

    def pump(timeout: float) -> bool:
        """Read what is ready; False once the output cap is exceeded."""
        for key, _ in sel.select(timeout):
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                sel.unregister(key.fd)
                continue
            buf = bufs[key.fd]
            room = (cap if key.fd in truncated else 1 << 16) - len(buf)
            buf += chunk[: max(0, room)]
            if len(chunk) > room and key.fd in truncated:
                truncated[key.fd] = True
                return False
        return True

    try:
        while sel.get_map():
            now = time.monotonic()
            if now >= deadline:
                stopped_by = "timeout"
                break
            if not pump(min(deadline - now, 0.05)):
                stopped_by = "output"
                break
            if launcher_done_at is None and _exited(proc.pid):
                launcher_done_at = time.monotonic()
            elif launcher_done_at is not None and time.monotonic() - launcher_done_at > 0.5:
                break  # leftovers (no PID namespace) still hold the pipes: stop waiting for them
        wall = time.monotonic() - start
        if stopped_by is not None:
            _request_stop(proc.pid)
        _kill_group(proc.pid)  # stragglers (no PID namespace); before reaping, so the group id is still ours
        drain_until = time.monotonic() + 0.5
        while sel.get_map() and time.monotonic() < drain_until and pump(0.05):
            pass
        for fd in truncated:  # anything beyond the cap that is still queued
            try:
                truncated[fd] = truncated[fd] or bool(os.read(fd, 1))
            except (BlockingIOError, OSError):
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    finally:
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
        os.close(status_r)

    status: dict = {"measures": [], "missing": []}
    for line in bufs[status_r].decode("utf-8", "replace").splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        for key, value in item.items():
            if key in ("measures", "missing"):
                status[key] += value
            else:
                status[key] = value
    out = bufs[out_fd].decode("utf-8", "replace")
    err = bufs[err_fd].decode("utf-8", "replace")
    exit_code, sig = status.get("exit_code"), status.get("signal")
    if "exit_code" not in status and "signal" not in status and stopped_by is None and "setup_error" not in status:
        # init never reported: it was killed (possible only without the PID namespace) or its launcher was
        stopped_by, sig = "killed", (-proc.returncode if proc.returncode and proc.returncode < 0 else None)
    if stopped_by is None:
        stopped_by = _classify(exit_code, sig, err, status)
    if stopped_by in ("timeout", "output"):
        exit_code, sig = None, signal.SIGKILL.value
    if "setup_error" in status:
        err = f"sandbox setup failed: {status['setup_error']}\n" + err
    return SandboxResult(
        stdout=out, stderr=err, exit_code=exit_code, signal=sig, stopped_by=stopped_by, wall_s=round(wall, 3),
        stdout_truncated=truncated[out_fd], stderr_truncated=truncated[err_fd],
        measures=status["measures"], missing=status["missing"],
    )


def _classify(exit_code: int | None, sig: int | None, stderr: str, status: dict) -> str | None:
    if "setup_error" in status:
        return "setup"
    if sig == signal.SIGXCPU:
        return "cpu"
    if sig == signal.SIGKILL:
        return "killed"  # CPU hard limit, the OOM killer, or another process
    if exit_code not in (0, None):
        tail = stderr[-2000:]
        if MEMORY_RE.search(tail):
            return "memory"
        if EFBIG_RE.search(tail):
            return "file_size"
    return None


def _exited(pid: int) -> bool:
    """Whether the launcher has exited, without reaping it (its pid keeps naming the group until reaped)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _request_stop(pid: int, grace_s: float = 2.0) -> None:
    """Ask the launcher to kill the namespace's init and reap it (so nothing is left), then wait a little."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    until = time.monotonic() + grace_s
    while not _exited(pid) and time.monotonic() < until:
        time.sleep(0.005)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _force_remove(func, path, exc_info) -> None:
    """rmtree helper: the code may have made its files read-only; make them writable and retry once."""
    try:
        os.chmod(os.path.dirname(path), 0o700)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass


def _make_pids_cgroup(max_processes: int) -> tuple[str | None, str | None]:
    """As root, a fresh pids cgroup with `pids.max` (RLIMIT_NPROC does not bind uid 0). (path, why-not)."""
    if os.geteuid() != 0:
        return None, None  # RLIMIT_NPROC does bind us
    base = _pids_cgroup_base()
    if base is None:
        return None, "cgroup pids.max: no writable pids controller (root ignores RLIMIT_NPROC)"
    path = os.path.join(base, f"physr3-sandbox-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        os.mkdir(path)
        with open(os.path.join(path, "pids.max"), "w") as fh:
            fh.write(str(max_processes))
    except OSError as exc:
        _remove_cgroup(path)
        return None, f"cgroup pids.max: {exc}"
    return path, None


def _pids_cgroup_base() -> str | None:
    """The folder to create our cgroup in: cgroup v1 `pids` hierarchy, else a v2 one delegating `pids`."""
    try:
        with open("/proc/self/mountinfo") as fh:
            mounts = [line.split() for line in fh]
        with open("/proc/self/cgroup") as fh:
            own = dict((parts[1], parts[2]) for parts in (line.rstrip("\n").split(":", 2) for line in fh))
    except OSError:
        return None
    for fields in mounts:
        sep = fields.index("-")
        fstype, opts, mnt = fields[sep + 1], fields[sep + 3], fields[4]
        if fstype == "cgroup" and "pids" in opts.split(","):
            base = os.path.join(mnt, own.get("pids", "/").lstrip("/"))
            if os.access(base, os.W_OK):
                return base
    for fields in mounts:
        sep = fields.index("-")
        if fields[sep + 1] == "cgroup2":
            base = os.path.join(fields[4], own.get("", "/").lstrip("/"))
            try:
                with open(os.path.join(base, "cgroup.subtree_control")) as fh:
                    if "pids" in fh.read().split() and os.access(base, os.W_OK):
                        return base
            except OSError:
                pass
    return None


def _remove_cgroup(path: str) -> None:
    for _ in range(50):  # the last processes may still be exiting
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)


# ---------------------------------------------------------------------------------------------- kernel API

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 24, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 4, 22, 2
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC = 0x20000, 0x02000000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWTIME = 0x10000000, 0x20000000, 0x40000000, 0x80
NS_FLAGS = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID \
    | CLONE_NEWNET | CLONE_NEWTIME
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446


def _check(ret: int, what: str) -> int:
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return ret


def _prctl(option: int, arg2: int = 0, arg3: int = 0) -> int:
    return _check(_libc.prctl(option, ctypes.c_ulong(arg2), ctypes.c_ulong(arg3), ctypes.c_ulong(0),
                              ctypes.c_ulong(0)), f"prctl({option})")


# Landlock (include/uapi/linux/landlock.h)
LL_EXECUTE, LL_WRITE_FILE, LL_READ_FILE, LL_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
LL_REMOVE_DIR, LL_REMOVE_FILE, LL_MAKE_CHAR, LL_MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
LL_MAKE_REG, LL_MAKE_SOCK, LL_MAKE_FIFO, LL_MAKE_BLOCK, LL_MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
LL_REFER, LL_TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
LL_FILE_RIGHTS = LL_EXECUTE | LL_WRITE_FILE | LL_READ_FILE | LL_TRUNCATE
LL_NET_BIND_TCP, LL_NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
LL_SCOPE_ABSTRACT_UNIX, LL_SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when Landlock is absent or disabled."""
    ret = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(0, ret)


def _landlock_ruleset(abi: int, workdir: str, read_roots: list[str], rw_files: list[str],
                      restrict_reads: bool) -> tuple[int, list[str]]:
    """Build (not yet apply) a ruleset: writes only in `workdir`, reads only in `read_roots` if asked."""
    write = (LL_WRITE_FILE | LL_REMOVE_DIR | LL_REMOVE_FILE | LL_MAKE_CHAR | LL_MAKE_DIR | LL_MAKE_REG
             | LL_MAKE_SOCK | LL_MAKE_FIFO | LL_MAKE_BLOCK | LL_MAKE_SYM)
    write |= (LL_REFER if abi >= 2 else 0) | (LL_TRUNCATE if abi >= 3 else 0)
    read = LL_READ_FILE | LL_READ_DIR | LL_EXECUTE
    handled = write | (read if restrict_reads else 0)
    attr = _RulesetAttr(handled, LL_NET_BIND_TCP | LL_NET_CONNECT_TCP if abi >= 4 else 0,
                        LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    fd = _check(_libc.syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                              ctypes.c_uint32(0)), "landlock_create_ruleset")
    notes = [f"landlock ABI {abi}: writes only in the working folder"
             + ("; reads/executes only in the Python installation and system libraries" if restrict_reads else "")
             + ("; TCP bind/connect denied" if abi >= 4 else "")
             + ("; no signals or abstract unix sockets outside the sandbox" if abi >= 6 else "")]
    rules = [(workdir, handled & ~LL_EXECUTE)] + [(p, LL_READ_FILE | LL_WRITE_FILE | LL_TRUNCATE) for p in rw_files]
    if restrict_reads:
        rules += [(p, read) for p in read_roots]
    for path, rights in rules:
        try:
            pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if not os.path.isdir(path):
                rights &= LL_FILE_RIGHTS
            rule = _PathBeneath(rights & handled, pfd)
            _check(_libc.syscall(SYS_LANDLOCK_ADD_RULE, fd, 1, ctypes.byref(rule), ctypes.c_uint32(0)),
                   f"landlock_add_rule({path})")
        finally:
            os.close(pfd)
    return fd, notes


# seccomp: classic BPF over struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6];}
_SECCOMP_ALLOW, _SECCOMP_ERRNO, _SECCOMP_KILL = 0x7FFF0000, 0x00050000, 0x80000000
_ARCHES = {  # machine: (AUDIT_ARCH, syscall numbers)
    "x86_64": (0xC000003E, {"socket": 41, "ptrace": 101, "mount": 165, "umount2": 166, "pivot_root": 155,
                            "unshare": 272, "setns": 308, "bpf": 321, "perf_event_open": 298,
                            "userfaultfd": 323, "keyctl": 250, "add_key": 248, "request_key": 249,
                            "clone": 56}),
    "aarch64": (0xC00000B7, {"socket": 198, "ptrace": 117, "mount": 40, "umount2": 39, "pivot_root": 41,
                             "unshare": 97, "setns": 268, "bpf": 280, "perf_event_open": 241,
                             "userfaultfd": 282, "keyctl": 219, "add_key": 217, "request_key": 218,
                             "clone": 220}),
}
_COMMON = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "clone3": 435}


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _seccomp_program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) tuples; see the module docstring for what it refuses."""
    arch, nrs = _ARCHES[machine]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    eperm, enosys = _SECCOMP_ERRNO | 1, _SECCOMP_ERRNO | 38
    prog = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, _SECCOMP_KILL), (ld, 0, 0, 0)]
    if machine == "x86_64":
        prog += [(jge, 0, 1, 0x40000000), (ret, 0, 0, _SECCOMP_KILL)]  # x32 ABI
    denied = [(nr, eperm) for name, nr in nrs.items() if name != "clone"]
    denied += [(nr, enosys if name == "clone3" else eperm) for name, nr in _COMMON.items()]
    for nr, action in denied:
        prog += [(jeq, 0, 1, nr), (ret, 0, 0, action)]
    prog += [(jeq, 0, 3, nrs["clone"]), (ld, 0, 0, 16), (jset, 0, 1, NS_FLAGS), (ret, 0, 0, eperm),
             (ret, 0, 0, _SECCOMP_ALLOW)]
    return prog


def _install_seccomp(machine: str) -> None:
    prog = _seccomp_program(machine)
    filters = (_SockFilter * len(prog))(*[_SockFilter(*ins) for ins in prog])
    fprog = _SockFprog(len(prog), filters)
    _prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog))


def _drop_bounding_set() -> None:
    """Empty the bounding set, so that no later exec (of a setuid binary, or as uid 0) regains a capability."""
    try:
        with open("/proc/sys/kernel/cap_last_cap") as fh:
            last = int(fh.read())
    except OSError:
        last = 40
    for cap in range(last + 1):
        _prctl(PR_CAPBSET_DROP, cap)


def _clear_capabilities() -> None:
    """Empty the ambient, effective, permitted and inheritable sets (capset, version 3)."""
    try:
        _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    except OSError:
        pass  # kernels before 4.3 have no ambient set
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "capset")


# ---------------------------------------------------------------------------------------------- launcher


def _read_roots(python: str, site: bool, extra: list[str]) -> list[str]:
    """Where the interpreter, its standard library and (with `site`) its packages live, plus system libraries."""
    import site as site_mod
    import sysconfig

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, os.path.realpath(python)}
    roots.update(v for k, v in sysconfig.get_paths().items() if k in ("stdlib", "platstdlib", "purelib", "platlib"))
    bindir = os.path.dirname(os.path.abspath(python))
    for cfg in (os.path.join(bindir, "pyvenv.cfg"), os.path.join(os.path.dirname(bindir), "pyvenv.cfg")):
        if os.path.exists(cfg):  # a venv: -S hides it from sys.prefix, so find it the way site.py does
            venv = os.path.dirname(cfg)
            roots.add(venv)
            if site:
                roots.update(site_mod.getsitepackages([venv]))
    if site:
        roots.update(site_mod.getsitepackages())
    roots.update(["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/ld.so.cache", "/etc/localtime",
                  "/dev/urandom", "/dev/random", "/dev/zero", "/sys/devices/system/cpu"])
    roots.update(extra)
    return sorted(r for r in roots if r and os.path.exists(r))


def _nobody_can_run(paths: list[str]) -> bool:
    """Whether uid/gid `nobody` can read (and traverse to) the interpreter's files, packages and main.py."""
    ok = True
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        for p in paths:
            if not os.access(p, os.R_OK, effective_ids=True):
                ok = False
                break
    finally:
        os.seteuid(0)
        os.setegid(0)
    return ok


def _unshare_namespaces(measures: list[str], missing: list[str]) -> None:
    """New PID, network, IPC and UTS namespaces; as non-root via a user namespace mapping our own ids."""
    flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    uid, gid = os.getuid(), os.getgid()
    if uid != 0:
        flags |= CLONE_NEWUSER
    if _libc.unshare(flags) != 0:
        missing.append(f"namespaces (pid, net, ipc): unshare failed: {os.strerror(ctypes.get_errno())}; "
                       "network blocked by seccomp only, cleanup by process group only")
        return
    if uid != 0:
        with open("/proc/self/setgroups", "w") as fh:
            fh.write("deny")
        with open("/proc/self/uid_map", "w") as fh:
            fh.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as fh:
            fh.write(f"{gid} {gid} 1")
    measures.append("namespaces: new pid (our init is PID 1; its exit kills all the code started), "
                    "net (no interfaces), ipc, uts" + (", user" if uid != 0 else ""))


def _launch(spec: dict) -> None:
    """Launcher body (runs in `python -I -S sandbox.py SPEC`): contain, fork the code's process, report."""
    status_fd = spec["status_fd"]
    os.set_inheritable(status_fd, False)

    def report(**item) -> None:
        os.write(status_fd, (json.dumps(item) + "\n").encode())

    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the host dies -> we die
    if os.getppid() != spec["parent"]:
        os._exit(_SETUP_EXIT)
    measures, missing = [], []
    is_root = os.geteuid() == 0
    python, workdir = spec["python"], spec["workdir"]
    roots = _read_roots(python, spec["site"], spec["extra_read"]) + [spec["code"]]
    run_as_nobody = False
    if is_root:
        os.setgroups([])
        run_as_nobody = _nobody_can_run(roots)
        if run_as_nobody:
            os.chown(workdir, NOBODY, NOBODY)
        if spec["cgroup"]:
            with open(os.path.join(spec["cgroup"], "cgroup.procs"), "w") as fh:
                fh.write("0")  # us, and everything we start
            measures.append(f"cgroup pids.max={spec['nproc']}")
    _unshare_namespaces(measures, missing)

    init = os.fork()
    if init == 0:
        _init(spec, roots, is_root, run_as_nobody, measures, missing, report)
    # A stop request from the host (SIGTERM): kill the namespace's init, whose exit kills everything in it;
    # reaping it below then guarantees that no process of the run is left when we exit.
    alive = [True]

    def stop(*_) -> None:
        if alive[0]:
            try:
                os.kill(init, signal.SIGKILL)  # not yet reaped, so the pid is still our child's
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    _wait(init)
    alive[0] = False
    os._exit(0)


def _wait(pid: int) -> int:
    while True:
        try:
            return os.waitpid(pid, 0)[1]
        except InterruptedError:
            continue


def _init(spec: dict, roots: list[str], is_root: bool, run_as_nobody: bool, measures: list[str],
          missing: list[str], report) -> None:
    """PID 1 of the new namespace: contain itself, fork the code's process, report how it ended, exit.

    The code does not run as PID 1 itself, because the kernel ignores default-action signals (SIGXCPU from
    RLIMIT_CPU among them) for a namespace's init; our exit kills whatever the code left running.
    """
    try:
        _contain_child(spec, roots, is_root, run_as_nobody, measures, missing)
        report(measures=measures, missing=missing)
        flags = ["-I", "-B"] + ([] if spec["site"] else ["-S"])
        code_pid = os.fork()
        if code_pid == 0:
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # init dies -> the code dies, namespace or not
            os.execve(spec["python"], [spec["python"], *flags, spec["code"]], dict(os.environ))
    except BaseException as exc:  # noqa: BLE001 - report anything, never run uncontained
        try:
            report(setup_error=f"{type(exc).__name__}: {exc}", measures=measures, missing=missing)
        finally:
            os._exit(_SETUP_EXIT)
    status = _wait(code_pid)
    if os.WIFSIGNALED(status):
        report(signal=os.WTERMSIG(status))
    else:
        report(exit_code=os.WEXITSTATUS(status))
    os._exit(0)


def _contain_child(spec: dict, roots: list[str], is_root: bool, run_as_nobody: bool,
                   measures: list[str], missing: list[str]) -> None:
    """In the forked child, before exec: limits, privileges, Landlock, seccomp, in that order."""
    import resource

    cpu = spec["cpu_s"]
    limits = [(resource.RLIMIT_CPU, cpu, cpu + 1), (resource.RLIMIT_AS, spec["memory_bytes"], spec["memory_bytes"]),
              (resource.RLIMIT_FSIZE, spec["fsize_bytes"], spec["fsize_bytes"]), (resource.RLIMIT_CORE, 0, 0),
              (resource.RLIMIT_NPROC, spec["nproc"], spec["nproc"]), (resource.RLIMIT_NOFILE, 256, 256)]
    for which, soft, hard in limits:
        resource.setrlimit(which, (soft, hard))
    measures.append(f"rlimits: cpu={cpu}s as={spec['memory_bytes'] >> 20}MiB fsize={spec['fsize_bytes'] >> 20}MiB "
                    f"nproc={spec['nproc']}{' (ignored for uid 0)' if is_root and not run_as_nobody else ''} "
                    "core=0 nofile=256")

    abi = landlock_abi()
    ruleset = None
    if abi:
        ruleset, notes = _landlock_ruleset(abi, spec["workdir"], roots, ["/dev/null"], spec["restrict_reads"])
        measures.extend(notes)
    else:
        missing.append("landlock: not available in this kernel; file access limited by uid only"
                       + (" (uid 0 without capabilities: root-owned files stay writable)"
                          if is_root and not run_as_nobody else ""))

    if is_root:
        _drop_bounding_set()  # CAP_SETUID/SETGID stay effective until the uid switch below
        if run_as_nobody:
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
            measures.append("uid/gid nobody, no supplementary groups")
        else:
            missing.append("uid: stays 0 (nobody cannot read the Python installation); capabilities dropped")
        _clear_capabilities()
        measures.append("all capabilities dropped")
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the launcher dies -> the code dies (reset by uid change)
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    measures.append("no_new_privs")
    if ruleset is not None:
        _check(_libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)), "landlock_restrict_self")
        os.close(ruleset)
    machine = platform.machine()
    if machine in _ARCHES:
        _install_seccomp(machine)
        measures.append("seccomp: socket, io_uring, ptrace, bpf, perf, userfaultfd, keyrings, mount, "
                        "unshare/setns/clone namespaces refused")
    else:
        missing.append(f"seccomp: no filter for {machine}; sockets blocked only by the network namespace")
    os.chdir(spec["workdir"])


if __name__ == "__main__":
    _spec = json.loads(sys.argv[1])
    try:
        _launch(_spec)
    except BaseException as _exc:  # noqa: BLE001 - the host reads this as stopped_by="setup"
        os.write(_spec["status_fd"], (json.dumps({"setup_error": f"{type(_exc).__name__}: {_exc}"}) + "\n").encode())
        os._exit(_SETUP_EXIT)
