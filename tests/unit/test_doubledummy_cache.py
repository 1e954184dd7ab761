"""Where numba caches the kernel: its own choice while the kernel's directory is writable or
someone chose, else the temporary directory — a read-only install must still import the
rules (numba refuses to compile a cached function with nowhere to write)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from domain.doubledummy.cache import HERE, cache_dir


def test_a_writable_install_keeps_numbas_choice(tmp_path: Path) -> None:
    assert cache_dir({}, tmp_path, lambda path: True) is None


def test_a_chosen_directory_is_kept(tmp_path: Path) -> None:
    assert cache_dir({"NUMBA_CACHE_DIR": "/srv/numba"}, tmp_path, lambda path: False) is None


def test_a_read_only_install_caches_in_the_temporary_directory(tmp_path: Path) -> None:
    asked: list[Path] = []
    chosen = cache_dir({}, tmp_path, lambda path: asked.append(path) or False)
    assert chosen is not None and chosen.startswith(tempfile.gettempdir())
    assert asked == [tmp_path]                     # no __pycache__ yet: the directory itself
    (tmp_path / "__pycache__").mkdir()
    asked.clear()
    cache_dir({}, tmp_path, lambda path: asked.append(path) or False)
    assert asked == [tmp_path / "__pycache__"]


def test_the_kernel_lives_where_the_check_looks() -> None:
    assert (HERE / "kernel.py").exists()
