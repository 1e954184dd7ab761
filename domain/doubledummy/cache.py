"""Where numba keeps the compiled kernel.

numba caches a compiled function beside its source (`__pycache__`), else in the user's cache
directory, and when neither is writable it refuses to compile it at all: on a read-only root
file system (the containers of docker-compose.yml and k8s/) importing the rules would fail.
So when nobody chose (`NUMBA_CACHE_DIR`) and the kernel's own directory is not writable, the
cache goes under the temporary directory, which those containers mount writable.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

HERE = Path(__file__).parent


def cache_dir(environ: Mapping[str, str], package: Path, writable: Callable[[Path], bool]) -> str | None:
    """The directory to give numba, or None to leave its own choice."""
    if environ.get("NUMBA_CACHE_DIR"):
        return None
    beside = package / "__pycache__"
    if writable(beside if beside.exists() else package):
        return None
    return os.path.join(tempfile.gettempdir(), f"atout-numba-{os.getuid()}")


def choose() -> None:
    """Before the kernel is imported: point numba at a writable cache if it has none."""
    chosen = cache_dir(os.environ, HERE, lambda path: os.access(path, os.W_OK))
    if chosen is None:
        return
    os.environ["NUMBA_CACHE_DIR"] = chosen
    config = sys.modules.get("numba.core.config")
    if config is not None:              # numba read its settings already: read them again
        config.reload_config()
