"""Check-in at the desk, from a phone or a laptop: ``/tournaments/{id}/checkin`` (the organiser token is
typed once and kept in the tab).

- ``GET /tournaments/{id}/checkin`` — the page: the session, a search box, one button per player (tap:
  checked in, tap again: taken back), how many are in; a switch that makes check-in required
- ``GET /api/tournaments/{id}/checkin?session=K`` — the players the session would seat, each with
  ``checked_in``, ``at`` and ``by``; others checked in (``extra``); ``required``
- ``POST /api/tournaments/{id}/checkin`` — ``{"session": K, "players": [...], "undo": false}`` and/or
  ``{"required": true}``; answers as the GET does

Both want the organiser token (``Authorization: Bearer TOKEN``): 401 without it, 403 with another; 409 for
a session whose check-in is closed (it has results) or an unknown player.  The writes are the CLI's
(:meth:`.TournamentRepository.check_in`, logged ``web:desk``).
"""

from __future__ import annotations

from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from majiang.tournament.adapters.deps import DB, organiser_repo
from majiang.tournament.adapters.repository import RepositoryError, TournamentRepository
from majiang.tournament.names import pinyin_keys

checkin_router = APIRouter(tags=["tournaments"])
Auth = Annotated[str | None, Header()]
MAX_PLAYERS = 1000


class CheckinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not a silent no-op

    session: int | None = Field(default=None, ge=1, le=100)
    players: list[Annotated[str, Field(max_length=40)]] = Field(default=[], max_length=MAX_PLAYERS)
    undo: bool = False
    required: bool | None = None


def _state(repo: TournamentRepository, event_id: str, session: int | None) -> dict[str, Any]:
    from majiang.tournament.checkin import expected, next_session, required
    from majiang.tournament.phases import PhaseError

    event = repo.load(event_id)
    if not event.groups:
        raise HTTPException(404, f"event {event_id!r} has no players")
    group = event.groups[0]
    k = session or next_session(group)
    here = repo.checkins(event_id, k)
    try:
        want = expected(event, group, k)
    except PhaseError as e:
        raise HTTPException(409, str(e)) from None
    names = {p.id: p for p in group.players}

    def row(pid: str) -> dict[str, Any]:
        p = names.get(pid)
        rec = here.get(pid) or {}
        name = p.name if p else pid
        pinyin, initials = pinyin_keys(name)  # the desk's search: 赵磊 by "zhaolei" or "zl"
        return {
            "id": pid,
            "name": name,
            "pinyin": pinyin,
            "initials": initials,
            "team": p.team if p else None,
            "checked_in": pid in here,
            "at": rec.get("at"),
            "by": rec.get("by"),
        }

    return {
        "event": event.id,
        "name": event.name,
        "session": k,
        "drawn": len(group.sessions),
        "required": required(event),
        "players": [row(p) for p in want],
        "extra": [row(p) for p in here if p not in set(want)],
        "checked": sum(1 for p in want if p in here),
        "expected": len(want),
    }


@checkin_router.get("/api/tournaments/{event_id}/checkin", summary="who is checked in for a session (organiser token)")
def api_checkin(event_id: str, db: DB, authorization: Auth = None, session: int | None = None) -> dict[str, Any]:
    return _state(organiser_repo(db, event_id, authorization), event_id, session)


@checkin_router.post("/api/tournaments/{event_id}/checkin", summary="check players in or out (organiser token)")
def post_checkin(event_id: str, body: CheckinIn, db: DB, authorization: Auth = None) -> dict[str, Any]:
    repo = organiser_repo(db, event_id, authorization)
    if body.required is not None:
        repo.set_checkin_required(event_id, body.required)
    if body.players:
        k = body.session or _state(repo, event_id, None)["session"]
        try:
            repo.check_in(event_id, k, body.players, by="web:desk", undo=body.undo)
        except RepositoryError as e:
            raise HTTPException(409, str(e)) from None
        return _state(repo, event_id, k)
    return _state(repo, event_id, body.session)


@checkin_router.get("/tournaments/{event_id}/checkin", response_class=HTMLResponse, summary="the check-in desk page")
def page_checkin(event_id: str, session: int | None = None) -> HTMLResponse:
    k = "" if session is None else str(max(1, min(session, 100)))
    return HTMLResponse(
        '<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>签到 Check-in · {escape(event_id)}</title><style>{CSS}</style></head>"
        f'<body data-event="{escape(event_id)}" data-session="{k}">'
        '<h1 id="title">签到 Check-in</h1>'
        '<form id="login" hidden><label for="token">组委会口令 Organiser token</label>'
        '<input id="token" type="password" autocomplete="off"><button id="token-go" class="go">进入 Open</button>'
        '<p id="login-err" class="err"></p></form>'
        '<main id="desk" hidden><div class="bar"><label for="session">局 Session</label>'
        '<input id="session" type="number" min="1" max="100" inputmode="numeric">'
        '<span id="count"></span></div>'
        '<label class="req"><input id="required" type="checkbox"> 签到后才排座 Seat only the players checked in</label>'
        '<input id="filter" type="search" autocomplete="off" '
        'placeholder="找人：姓名、拼音或首字母 Find a player: name, pinyin or initials">'
        '<p id="msg"></p><div id="players"></div><h2 id="extra-h" hidden>其他已签到 Also checked in</h2>'
        '<div id="extra"></div></main>'
        '<script src="/tournaments/assets/checkin.js"></script></body></html>\n'
    )


@checkin_router.get("/tournaments/assets/checkin.js", summary="the check-in page's script")
def checkin_script() -> Response:
    from importlib.resources import files

    js = files("majiang.tournament.adapters").joinpath("checkin.js").read_text(encoding="utf-8")
    return Response(js, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "max-age=300"})


CSS = """
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC", system-ui, sans-serif; margin: 0 auto; padding: 12px; color: #111;
       max-width: 720px; font-size: 17px; }
h1 { font-size: 1.25rem; margin: 0 0 .5rem; } h2 { font-size: 1.05rem; margin: 1rem 0 .4rem; }
input, button { font: inherit; min-height: 44px; border-radius: 8px; }
input[type=password], input[type=search] { width: 100%; padding: 0 10px; border: 1px solid #888; }
button { border: 1px solid #888; background: #f4f4f4; }
button.go { width: 100%; margin-top: 6px; background: #1d4ed8; color: #fff; border-color: #1d4ed8; font-weight: 700; }
.bar { display: flex; align-items: center; gap: 8px; margin-bottom: 8px; }
.bar input { width: 5.5em; padding: 0 8px; border: 1px solid #888; } #count { margin-left: auto; font-weight: 700; }
label.req { display: flex; align-items: center; gap: 8px; min-height: 44px; }
label.req input { width: 24px; min-height: 24px; height: 24px; }
#players, #extra { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 6px; }
#players button, #extra button { width: 100%; text-align: left; padding: 6px 10px; overflow-wrap: anywhere; }
button.in { background: #1c6b3a; color: #fff; border-color: #1c6b3a; }
button small { display: block; font-size: .75rem; opacity: .8; }
.err { color: #b00020; } #msg { min-height: 1.4em; margin: 6px 0; color: #555; }
""".strip()
