"""A page per player (linked from the standings): his sessions, tables, opponents and scores, his rank and
the tie-break step that decided it (:func:`majiang.tournament.card.player_card`).

- ``GET /tournaments/{id}/players/{player}`` — the page (readable on a phone, 390 px and up)
- ``GET /api/tournaments/{id}/players/{player}`` — the same as JSON

Public, so read through :class:`.deps.PublicRepository`: a 复式 session whose tables are not all finished
is not on it at all (nor is any later session), as on the standings.
"""

from __future__ import annotations

from html import escape
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse

from majiang.tournament.adapters.deps import DB, PublicRepository
from majiang.tournament.adapters.repository import EventNotFound, RepositoryError
from majiang.tournament.card import PlayerNotFound, player_card, player_group

player_router = APIRouter(tags=["tournaments"])

STATES = {
    "played": "完 done",
    "playing": "进行中 playing",
    "not entered": "未录入 not entered",
    "drawn": "已抽签 drawn",
    "absent": "缺席 absent",
    "not seated": "未上场 not seated",
}


def _card(db: Any, event_id: str, player_id: str) -> dict[str, Any]:
    try:
        event, results = PublicRepository(db).results(event_id)
        group = player_group(event, player_id)
        return player_card(event, results[group.id], player_id)
    except (EventNotFound, RepositoryError, PlayerNotFound) as e:
        raise HTTPException(404, str(e.args[0] if isinstance(e, KeyError) else e)) from None


@player_router.get("/api/tournaments/{event_id}/players/{player_id}", summary="a player's sessions and rank (JSON)")
def api_player(event_id: str, player_id: str, db: DB) -> dict[str, Any]:
    return _card(db, event_id, player_id)


def _rank_text(card: dict[str, Any]) -> str:
    if card["rank"] is None:
        return "不排名 not ranked (substitute)" if not card["ranked"] else "未排名 not ranked yet"
    text = f"第 {card['rank']} 名 / {card['field']} · Rank {card['rank']} of {card['field']}"
    if card["disqualified"]:
        text += " · DQ"
    return text


def _tie_text(card: dict[str, Any]) -> str:
    tie = card["tie_break"]
    if tie is None:
        return ""
    who = escape(tie["against_name"])
    if tie["step"] == "tied":
        return (
            f'<p id="tie">标准分相同 level on standard score with {who}: {escape(tie["zh"])} — {escape(tie["en"])}</p>'
        )
    where = "above" if not tie["above"] else "below"
    return (
        f'<p id="tie">标准分与 {who} 相同 level on standard score with {who}; 由 <b>{escape(tie["zh"])}</b> 决定 '
        f"— decided by {escape(tie['en'])} (ranked {where} {who})</p>"
    )


def _session_rows(card: dict[str, Any]) -> str:
    rows = []
    for s in card["sessions"]:
        where = f"第{s['table']}桌 T{s['table']} · {escape(s['wind'])}" if "table" in s else ""
        opps = "".join(
            f'<li>{escape(o["wind"])} <a href="{escape(o["id"])}">{escape(o["name"])}</a>'
            + (f' <span class="n">{o["score"]}</span>' if "score" in o else "")
            + "</li>"
            for o in s.get("opponents", [])
        )
        score = "" if "score" not in s else f"{s['score']} · 第{s['place']}位 place {s['place']}"
        std = "" if s["standard"] is None else f"标准分 std {s['standard']}"
        rows.append(
            f'<section class="sess" data-session="{s["session"]}"><h2>第{s["session"]}局 Session {s["session"]}'
            f" · {escape(STATES[s['state']])}</h2><p>{where}"
            + (f" · {s['hands']} 盘 hands" if isinstance(s.get("hands"), int) else "")
            + (" · 时间到 time called" if s.get("time_called") else "")
            + f'</p><p class="score">{score}{" · " if score and std else ""}{std}</p>'
            + (f"<ul>{opps}</ul>" if opps else "")
            + "</section>"
        )
    return "".join(rows) or "<p>还没有场次 No session drawn yet.</p>"


@player_router.get(
    "/tournaments/{event_id}/players/{player_id}", response_class=HTMLResponse, summary="a player's page (HTML)"
)
def page_player(event_id: str, player_id: str, db: DB) -> HTMLResponse:
    card = _card(db, event_id, player_id)
    title = f"{card['name']} · {card['event_name']}"
    totals = (
        ""
        if card["standard_total"] is None
        else f'<p id="totals">标准分 Std total <b>{card["standard_total"]}</b> · 比赛分 Score total '
        f"<b>{card['match_total']}</b></p>"
    )
    body = (
        f'<nav><a href="/tournaments/{escape(event_id)}">← {escape(card["event_name"])} 名次 Standings</a></nav>'
        f'<h1 id="name">{escape(card["name"])}'
        + (f" <small>{escape(card['id'])}</small>" if card["id"] != card["name"] else "")
        + "</h1>"
        + (f"<p>队 Team {escape(card['team'])}</p>" if card["team"] else "")
        + ("<p>退赛 withdrawn</p>" if card["withdrawn"] else "")
        + f'<p id="rank">{escape(_rank_text(card))}</p>{totals}{_tie_text(card)}'
        + _session_rows(card)
    )
    return HTMLResponse(
        '<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n"
    )


CSS = """
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC", system-ui, sans-serif; margin: 0 auto; padding: 12px; max-width: 640px;
       color: #111; font-size: 16px; overflow-wrap: anywhere; }
h1 { font-size: 1.3rem; margin: .4rem 0; } h1 small { color: #666; font-weight: 400; }
h2 { font-size: 1.05rem; margin: 0 0 .3rem; }
nav a { display: inline-block; min-height: 44px; line-height: 44px; }
#rank { font-size: 1.15rem; font-weight: 700; margin: .3rem 0; }
#tie { background: #f3f6ff; border-left: 4px solid #1d4ed8; padding: 6px 8px; }
.sess { border: 1px solid #ccc; border-radius: 10px; padding: 8px 10px; margin: 8px 0; }
.sess p { margin: .2rem 0; } .score { font-weight: 700; }
ul { list-style: none; padding: 0; margin: .3rem 0 0; } li { min-height: 32px; line-height: 32px; }
li a { color: #1d4ed8; } .n { float: right; font-variant-numeric: tabular-nums; }
""".strip()
