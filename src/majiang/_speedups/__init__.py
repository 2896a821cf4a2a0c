"""Compiled fast paths (optional).  Each module here has a pure-Python reference elsewhere in
majiang; import through ``majiang._speedups.load(name)`` so a missing build falls back cleanly."""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def load(name: str) -> ModuleType | None:
    """The compiled module ``name``, or None when it was not built or MAJIANG_PURE=1 is set."""
    if os.environ.get("MAJIANG_PURE") == "1":
        return None
    try:
        return importlib.import_module(f"majiang._speedups.{name}")
    except ImportError:
        return None
