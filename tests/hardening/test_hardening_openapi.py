"""Schemathesis against the hall's OpenAPI schema (``/openapi.json``) on a real ``majiang serve``.

Every operation gets generated inputs (path and query parameters, headers, bodies — valid and
invalid), each case is sent twice: as generated (unauthenticated, or with whatever Authorization
header Schemathesis made up) and with a valid session token.  No response may be a 5xx, a 4xx
must say why (JSON with ``detail``), and the server's log must hold no traceback.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections import Counter
from typing import Any

import pytest
from hardening_harness import Serve
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable

schemathesis = pytest.importorskip("schemathesis")  # a dev dependency (pyproject: [project.optional-dependencies] dev)

MAX_EXAMPLES = int(os.environ.get("HARDENING_OPENAPI_EXAMPLES", "14"))  # per operation (half for negative mode)
SLOW = {"POST /api/register": 8, "POST /api/login": 8}  # argon2: ~50 ms a hash
FIGURES: Counter[str] = Counter()


def _post(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    req = urllib.request.Request(
        url,
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Any:
    srv = Serve(tmp_path_factory.mktemp("openapi")).wait_up()
    yield srv
    log = srv.stop()
    problems = [line for line in log.splitlines() if '"level": "error"' in line or "Traceback" in line]
    assert not problems, "the server logged errors during the schemathesis run:\n" + "\n".join(problems[:5])


@pytest.fixture(scope="module")
def token(server: Any) -> str:
    return str(_post(server.base + "/api/guest")["token"])


def run_operation(op: Any, mode: Any, base: str, token: str, examples: int, session: Any) -> None:
    label = f"{op.method.upper()} {op.path}"

    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(case=op.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        FIGURES[f"cases:{label}"] += 1
        FIGURES[f"mode:{mode.value}"] += 1
        # logging out revokes the token: that operation gets a throwaway account of its own
        own = str(_post(base + "/api/guest")["token"]) if label == "POST /api/logout" else token
        for how, headers in (("as generated", None), ("authenticated", {"Authorization": f"Bearer {own}"})):
            r = case.call(base_url=base, headers=headers, timeout=30, session=session)
            FIGURES["requests"] += 1
            FIGURES[f"status:{r.status_code // 100}xx"] += 1
            assert r.status_code < 500, f"{label} ({how}) → {r.status_code}: {r.text[:500]}\n{case.as_curl_command()}"
            if 400 <= r.status_code < 500 and "json" in r.headers.get("content-type", ""):
                assert "detail" in r.json(), f"{label} ({how}) → {r.status_code} without a reason: {r.text[:300]}"

    try:
        run()
    except Unsatisfiable:
        assert mode == schemathesis.GenerationMode.NEGATIVE, f"{label}: no valid input could be generated"
        FIGURES["negative_impossible"] += 1  # nothing in this operation can violate the schema


def test_every_operation_without_5xx(server: Any, token: str) -> None:
    """Every operation of /openapi.json, schema-conforming (positive) and violating (negative) inputs."""
    import requests

    schema = schemathesis.openapi.from_url(server.base + "/openapi.json")
    session = requests.Session()
    ops = []
    for result in schema.get_all_operations():
        op = result.ok()
        ops.append(f"{op.method.upper()} {op.path}")
        slow = SLOW.get(ops[-1])
        modes = [schemathesis.GenerationMode.POSITIVE]
        if op.body or any(True for _ in op.iter_parameters()):  # else nothing can violate the schema
            modes.append(schemathesis.GenerationMode.NEGATIVE)
        for mode in modes:
            n = slow or MAX_EXAMPLES
            run_operation(
                op,
                mode,
                server.base,
                token,
                n if mode == schemathesis.GenerationMode.POSITIVE else max(1, n // 2),
                session,
            )
    cases = sum(v for k, v in FIGURES.items() if k.startswith("cases:"))
    print(
        f"\nschemathesis {schemathesis.SCHEMATHESIS_VERSION}: {len(ops)} operations, {cases} cases, "
        f"{dict(sorted((k, v) for k, v in FIGURES.items() if not k.startswith('cases:')))}"
    )
    assert len(ops) >= 20 and all(FIGURES[f"cases:{o}"] for o in ops), "an operation got no case"
