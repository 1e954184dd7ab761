"""The worker beside `atout serve` on the embedded default (`make run` plays bots).

`atout serve` starts `atout worker --beat` for bots and clocks, and a second worker for deal
reviews (a review is a second or two of one core: it must not hold a bot's turn), as child
processes with the embedded servers' URLs, and stops them before the servers. The child has its own session (a terminal's Ctrl-C
reaches only `serve`, which stops it in order) and is told by the kernel to stop when its
parent dies (PR_SET_PDEATHSIG), so even `kill -9` of `serve` leaves no worker behind.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from typing import Any

from infra.children import die_with_parent

log = logging.getLogger(__name__)


class EmbeddedWorker:
    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc

    def stop(self, timeout: float = 15.0) -> None:
        if self.proc.poll() is None:
            log.info("stopping the worker")
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
            except ProcessLookupError:
                return
        # The worker's own children (its pool, the embedded beat) share its process group,
        # which is its own session: whatever is left of it once the worker is gone goes too.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            log.warning("the worker (pid %s) did not exit", self.proc.pid)


def start_worker(settings: Any, concurrency: int = 1, queues: str | None = None, beat: bool = True) -> EmbeddedWorker:
    """Start `atout worker [--beat]` on `settings` (URLs resolved), on `queues` (default: all)."""
    env = {**os.environ, "ATOUT_DATABASE_URL": settings.database_url, "ATOUT_REDIS_URL": settings.redis_url,
           "ATOUT_REDIS_PREFIX": settings.redis_prefix, "ATOUT_DATA_DIR": str(settings.data_path),
           "ATOUT_LOG_LEVEL": settings.log_level}
    args = ["worker", "--concurrency", str(concurrency), *(["--beat"] if beat else []),
            *(["--queues", queues] if queues else [])]
    proc = subprocess.Popen([sys.executable, "-m", "services.cli", *args], env=env, start_new_session=True,
                            preexec_fn=die_with_parent(signal.SIGTERM))
    log.info("worker started (pid %s)", proc.pid)
    return EmbeddedWorker(proc)
