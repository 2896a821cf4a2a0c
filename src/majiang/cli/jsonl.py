"""The JSON-lines loop shared by ``fan --jsonl`` and ``shanten --jsonl``: one object a line in, one
result a line out, a bad line answered by ``{"error": ...}`` without stopping the run."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any


def run_jsonl(
    handle: Callable[[dict[str, Any]], dict[str, Any]], inp: IO[str] | None = None, out: IO[str] | None = None
) -> int:
    inp = inp or sys.stdin
    out = out or sys.stdout
    write = out.write
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    for lineno, line in enumerate(inp, 1):
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            result: dict[str, Any] = {"error": f"line {lineno}: not JSON ({e.msg} at column {e.colno})"}
        else:
            if not isinstance(d, dict):
                result = {"error": f"line {lineno}: expected a JSON object, got {type(d).__name__}"}
            else:
                try:
                    result = handle(d)
                except Exception as e:
                    result = {"error": f"{type(e).__name__}: {e}"}
                if "error" in result:
                    result = {"error": f"line {lineno}: {result['error']}"}
        write(dumps(result))
        write("\n")
    out.flush()
    return 0
