"""Child processes that cannot outlive their parent: the embedded servers and the worker that
`atout serve` starts. Each is a plain child, stopped explicitly, and (on Linux) told by the
kernel to shut down if its parent dies, so even `kill -9` of the parent leaves no orphan; a
server a dead owner left behind is stopped at the next start.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import subprocess
import threading
from pathlib import Path

import psutil

log = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1


class EmbeddedError(RuntimeError):
    """An embedded server could not be started; the message carries its log tail."""


def die_with_parent(sig: int):
    """preexec_fn: ask the kernel to send `sig` to the child when its parent goes.

    Only safe from the main thread: PDEATHSIG fires when the *thread* that forked
    exits, so a server forked from a worker thread would die with that thread.
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return None
    parent = os.getpid()

    def preexec() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, sig)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return preexec


def tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def terminate(proc: subprocess.Popen, sig: int, timeout: float) -> None:
    """Signal `proc`, wait, then kill it and any children it left behind."""
    if proc.poll() is not None:
        return
    children: list[psutil.Process] = []
    with contextlib.suppress(psutil.NoSuchProcess):
        children = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(sig)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        log.warning("pid %s ignored signal %s for %ss, killing it", proc.pid, sig, timeout)
        proc.kill()
        proc.wait()
    _gone, alive = psutil.wait_procs(children, timeout=5)
    for child in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.kill()


def stop_stale(pid: int, home: Path) -> None:
    """Stop a server left running in `home` by an owner that died (pid files may be stale,
    so the process must also be a server working in that very directory)."""
    try:
        proc = psutil.Process(pid)
        if proc.name() not in ("postgres", "redis-server") or Path(proc.cwd()).resolve() != home:
            return
        log.warning("stopping a leftover %s (pid %s) in %s", proc.name(), pid, home)
        proc.send_signal(signal.SIGINT if proc.name() == "postgres" else signal.SIGTERM)
        proc.wait(15)
    except psutil.TimeoutExpired:
        proc.kill()
    except (psutil.NoSuchProcess, psutil.AccessDenied, OSError):
        pass
