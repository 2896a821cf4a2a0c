"""For operators: the coin audit, the health check, Prometheus metrics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from majiang.hall.ledger import audit
from majiang.hall.routes.deps import HallDep
from majiang.hall.states import TableState

router = APIRouter()


@router.get("/api/ledger/audit", summary="prove coin conservation (every transaction balances)")
async def ledger_audit(h: HallDep) -> dict[str, Any]:
    return (await h.run_db(audit, h.db)).to_dict()


@router.get("/healthz")
async def healthz(h: HallDep) -> dict[str, Any]:
    return {
        "ok": True,
        "node": h.cluster.node,
        "tables": len(h.tables),
        "connections": len(h.hub.conns),
        "takeovers": h.takeovers,
    }


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(h: HallDep) -> str:
    from majiang.hall.ledger import totals

    circulation, house = await h.run_db(totals, h.db)
    gauges = {
        "majiang_coins_in_circulation": (circulation, "Coins held by players, bots and the house."),
        "majiang_coins_house": (house, "Coins the house holds (fees, penalties)."),
        "majiang_takeovers": (h.takeovers, "Tables this process took over from a dead one."),
        "majiang_tables": (len(h.tables), "Tables open on this process."),
        "majiang_tables_playing": (
            sum(1 for t in h.tables.values() if t.state == TableState.PLAYING),
            "Tables playing a hand.",
        ),
        "majiang_connections": (len(h.hub.conns), "Connected accounts."),
        "majiang_players_seated": (sum(len(t.humans()) for t in h.tables.values()), "Humans seated."),
        "majiang_event_commits": (h.events.commits, "Group commits of hand events."),
    }
    return h.metrics.render(gauges)
