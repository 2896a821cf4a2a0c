"""Competition pages for the hall's web server: a FastAPI :data:`router` (``app.include_router(router)``).

- ``GET /tournaments`` — the events (HTML); ``GET /api/tournaments`` — the same as JSON
- ``GET /tournaments/{id}`` — live standings (HTML, refreshes itself every 30 s), the sessions' tables with
  links to their score sheets, the standings plot
- ``GET /tournaments/{id}/sheet/{session}/{table}`` — the printable score sheet (HTML); ``….pdf`` — as PDF
- ``GET /tournaments/{id}/plot.svg`` — cumulative standard score per session (``?top=N``, ``?highlight=ID``)
- ``GET /tournaments/{id}/standings.csv`` — the standings CSV
- ``GET /api/tournaments/{id}/standings`` — the standings as JSON (:func:`.repository.standings_json`)
- ``POST /tournaments/{id}/sessions/{k}/open`` — open session k's tables in the hall and seat the players
  (:func:`.online.open_session`); ``POST …/sync`` — enter the hands the hall has finished
  (:func:`.online.sync_session`).  Both want the organiser token (:mod:`.organiser`) as
  ``Authorization: Bearer TOKEN``: 401 without it, 403 with another.
- ``GET /api/tournaments/{id}/entries`` — the entries log (``?session=K&table=T``); ``POST
  /tournaments/{id}/sessions/{k}/tables/{t}/undo`` — undo that table's last entry; ``POST
  /tournaments/{id}/entries/{entry}/undo`` — undo one entry (:meth:`.TournamentRepository.undo`).
  Organiser token as above; 409 when the entry cannot be undone (the message says why).
- ``/tournaments/{id}/t/{session}/{table}`` — entry from the table's phones with its PIN
  (:mod:`.table_entry`)

An event with several groups shows every group (each ranked on its own); the sheet, plot and CSV routes
take ``?group=ID`` (default: the first group).

The database comes from the :func:`get_db` dependency: ``request.app.state.hall.db`` in the hall, or
``request.app.state.tournament_db`` (a plain :class:`~majiang.store.Database`) — or override it with
``app.dependency_overrides[get_db]``.  The handlers are synchronous (FastAPI runs them in its thread pool).
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from majiang.store import Database
from majiang.tournament.adapters.checkin_web import checkin_router
from majiang.tournament.adapters.deps import DB, PublicRepository, get_db, organiser_repo
from majiang.tournament.adapters.output.html import fmt
from majiang.tournament.adapters.player_page import player_router
from majiang.tournament.adapters.repository import EventNotFound, RepositoryError, TournamentRepository
from majiang.tournament.adapters.table_entry import entry_router
from majiang.tournament.model import Event, Group
from majiang.tournament.ranking import TIE_BREAK_TEXT, GroupResult, provisional_note, tie_breaks
from majiang.tournament.roster import late_entries, withdrawals
from majiang.tournament.sealing import duplicate_info, session_finished

REFRESH_S = 30
__all__ = ["DB", "get_db", "router"]

router = APIRouter(tags=["tournaments"])

_CSS = """
body { font-family: "Noto Sans CJK SC", "Source Han Sans SC", system-ui, sans-serif; margin: 1.2rem; color: #111; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; } h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
p.meta, nav { color: #555; margin: .2rem 0 .8rem; } nav a { margin-right: 1rem; }
table { border-collapse: collapse; margin-bottom: .8rem; }
th, td { border: 1px solid #bbb; padding: .2rem .5rem; text-align: center; }
th { background: #f0f0f0; font-weight: 600; } td.l { text-align: left; } td.b { font-weight: 700; }
tr:nth-child(even) td { background: #fafafa; } small { color: #666; }
td.up { color: #1c6b3a; font-weight: 700; } td.down { color: #b00020; font-weight: 700; } td.same { color: #777; }
form.after { margin: .4rem 0 .6rem; }
form.after select, form.after button { font: inherit; min-height: 40px; max-width: 100%; }
img.plot { max-width: 100%; border: 1px solid #ddd; }
@media (max-width: 600px) {  /* a phone: every table the screen's width, no horizontal scrolling */
  body { margin: .6rem; font-size: 15px; }
  table { width: 100%; table-layout: fixed; font-size: .8rem; }
  th, td { padding: .15rem .2rem; overflow-wrap: anywhere; word-break: break-word; }
}
""".strip()


def _page(title: str, body: str, refresh: bool = False) -> HTMLResponse:
    meta = f'<meta http-equiv="refresh" content="{REFRESH_S}">' if refresh else ""
    return HTMLResponse(
        f'<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8">{meta}'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>\n{body}\n</body></html>\n"
    )


def _repo(db: Database) -> TournamentRepository:
    return PublicRepository(db)


def _event_results(db: Database, event_id: str) -> tuple[Event, dict[str, GroupResult]]:
    """The event and every group's result; 404 for an unknown event or one without players."""
    try:
        event, results = _repo(db).results(event_id)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    if not event.groups:
        raise HTTPException(404, f"event {event_id!r} has no players")
    return event, results


def _results(db: Database, event_id: str, group: str | None = None) -> tuple[Any, GroupResult]:
    """The event and one group's result (``group`` None: the first group)."""
    event, results = _event_results(db, event_id)
    gid = event.groups[0].id if group is None else group
    if gid not in results:
        raise HTTPException(
            404, f"event {event_id!r} has no group {gid!r}; groups: {', '.join(g.id for g in event.groups)}"
        )
    return event, results[gid]


@router.get("/api/tournaments", summary="the competitions stored in the database")
def api_list(db: DB) -> list[dict[str, Any]]:
    return [e.to_dict() for e in _repo(db).list_events()]


@router.get("/api/tournaments/{event_id}/standings", summary="a competition's standings (JSON)")
def api_standings(event_id: str, db: DB, after: int | None = None, phase: str | None = None) -> dict[str, Any]:
    """``?after=K``: the standings after session K; ``?phase=NAME``: one phase's.  Each row has its
    ``movement`` since the session before (▲2 ▼1 – 新 new)."""
    try:
        return _repo(db).standings(event_id, after, phase=phase)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    except RepositoryError as e:
        raise HTTPException(404, str(e)) from None


@router.get("/tournaments", response_class=HTMLResponse, summary="competitions (HTML)")
def page_list(db: DB) -> HTMLResponse:
    events = _repo(db).list_events()
    rows = "".join(
        f'<tr><td class="l"><a href="/tournaments/{escape(e.id)}">{escape(e.name or e.id)}</a></td>'
        f"<td>{escape(e.id)}</td><td>{e.players}</td><td>{e.sessions}</td><td>{escape(e.scheme)}</td></tr>"
        for e in events
    )
    body = "<h1>比赛 Competitions</h1>" + (
        f"<table><thead><tr><th>名称 Name</th><th>id</th><th>选手 Players</th><th>已抽局 Sessions</th>"
        f"<th>标准分 Scheme</th></tr></thead><tbody>{rows}</tbody></table>"
        if events
        else "<p>No competitions yet: <code>majiang tournament new NAME --count 16 --teams 4</code></p>"
    )
    return _page("Competitions", body)


def _std(x: Fraction) -> str:
    return fmt(x)


def _selector(event_id: str, scored: int, after: int | None) -> str:
    """The form that picks the session the standings are taken after (a plain GET: works without JS)."""
    options = [f'<option value=""{" selected" if after is None else ""}>最新 latest</option>']
    options += [
        f'<option value="{k}"{" selected" if after == k else ""}>第{k}局后 after session {k}</option>'
        for k in range(1, scored + 1)
    ]
    return (
        f'<form class="after" method="get" action="/tournaments/{escape(event_id)}"><label for="after">名次 Standings'
        f'</label> <select id="after" name="after">{"".join(options)}</select> '
        '<button type="submit">查看 Show</button></form><script src="/tournaments/assets/standings.js"></script>'
    )


STANDINGS_JS = """// the standings page: picking a session shows the standings after it (the button does it without JS)
document.querySelectorAll("form.after").forEach((f) => {
  f.querySelector("button").hidden = true;
  f.querySelector("select").addEventListener("change", () => f.submit());
});
"""


@router.get("/tournaments/assets/standings.js", summary="the standings page's script")
def standings_script() -> Response:
    return Response(STANDINGS_JS, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "max-age=300"})


@router.get("/tournaments/{event_id}", response_class=HTMLResponse, summary="live standings (HTML)")
def page_event(event_id: str, db: DB, after: int | None = None) -> HTMLResponse:
    """``?after=K``: the standings after session K; every table shows each player's movement (▲ ▼ –)
    since the session before."""
    from majiang.tournament.history import arrows, team_arrows

    event, results = _event_results(db, event_id)
    try:
        _, history = _repo(db).history(event_id, after)
    except RepositoryError as e:
        raise HTTPException(404, str(e)) from None
    scored = max((len(r.sessions) for r in results.values()), default=0)
    players = sum(len(g.players) for g in event.groups)
    body = [
        f"<h1>{escape(event.name or event.id)}</h1>",
        f'<p class="meta">标准分 scheme {escape(event.scheme)} · {players} players'
        + (f" in {len(event.groups)} groups" if len(event.groups) > 1 else "")
        + f" · refreshes every {REFRESH_S} s</p>",
        f'<nav><a href="/tournaments">all competitions</a><a href="/api/tournaments/{escape(event.id)}/standings">'
        f'JSON</a><a href="/tournaments/{escape(event.id)}/standings.csv">CSV</a>'
        f'<a href="/tournaments/{escape(event.id)}/projector">投影 Projector</a>'
        f'<a href="/tournaments/{escape(event.id)}/checkin">签到 Check-in</a></nav>',
    ]
    if scored:
        body.append(_selector(event.id, scored, after))
    for group in event.groups:
        now, before = history[group.id]
        body += _group_section(
            event,
            group,
            now,
            titled=len(event.groups) > 1,
            movement=arrows(now, before),
            team_movement=team_arrows(now, before),
            after=after,
            scored=len(results[group.id].sessions),
        )
    return _page(event.name or event.id, "\n".join(body), refresh=True)


def _group_section(
    event: Event,
    group: Group,
    result: GroupResult,
    *,
    titled: bool,
    movement: dict[str, str] | None = None,
    team_movement: dict[str, str] | None = None,
    after: int | None = None,
    scored: int | None = None,
) -> list[str]:
    """One group's standings, team standings, tables and plot (each group is ranked on its own)."""
    names = {p.id: p.name or p.id for p in group.players}
    gone = withdrawals(event)  # 退赛: marked wherever the player is listed
    names |= {p: f"{names.get(p, p)} · 退赛 withdrawn" for p in gone if p in names}
    late = late_entries(event)  # 补报: registered after the event began
    names |= {p: f"{names.get(p, p)} · 补报 late entry (from session {k})" for p, k in late.items() if p in names}
    team_names = {t.id: t.name or t.id for t in group.teams}
    n = len(result.sessions)
    label = f"{group.name or group.id} · " if titled else ""
    body = [f"<h2>{escape(label)}组 Group {escape(group.id)}</h2>"] if titled else []
    waiting = "".join(
        f" · 第{k}局 {'、'.join(f'第{t}桌' for t in tables)} 未录入 (session {k}: table"
        f"{'s' if len(tables) > 1 else ''} {', '.join(map(str, tables))} not entered)"
        for k, tables in result.pending.items()
    )
    when = f" · 第{after}局后 after session {after}" if after is not None else ""
    body.append(
        f'<p class="meta">{len(group.players)} players · {n if scored is None else scored}/{len(group.sessions)} '
        "sessions with results"
        f"{waiting}{when}</p>"
    )
    if note := provisional_note(result):
        body.append(f'<p class="meta provisional"><b>{escape(note)}</b></p>')
    body.append(
        f"<h2>{escape(label)}个人名次 Individual standings</h2>"
        + _standings_table(result, names, team_names, movement, event.id, late)
    )
    if result.teams:
        tm = team_movement
        trs = "".join(
            f"<tr><td>{t.rank}</td>"
            + (_move_cell(tm.get(t.team, "")) if tm is not None else "")
            + f'<td class="l">{escape(team_names.get(t.team, t.team))}</td>'
            f'<td class="l">{escape(", ".join(names.get(m, m) for m in t.members))}</td>'
            f'<td class="b">{_std(t.standard_total)}</td><td>{t.match_total}</td></tr>'
            for t in result.teams
        )
        tm_head = "<th>升降<br><small>Move</small></th>" if tm is not None else ""
        body.append(
            f"<h2>{escape(label)}团体名次 Team standings</h2><table><thead><tr><th>名次<br><small>Rank</small>"
            f"</th>{tm_head}<th>队<br><small>Team</small></th><th>队员<br><small>Members</small></th><th>标准分<br><small>"
            "Std total</small></th><th>比赛分<br><small>Score total</small></th></tr></thead>"
            f"<tbody>{trs}</tbody></table>"
        )
    if group.sessions:
        body.append(_sessions_table(event, group, names))
    if n:
        src = f"/tournaments/{escape(event.id)}/plot.svg" + (f"?group={escape(group.id)}" if titled else "")
        body.append(
            f'<h2>{escape(label)}走势 Standings by session</h2><img class="plot" alt="standings plot" src="{src}">'
        )
    return body


def _move_class(move: str) -> str:
    return "up" if move.startswith("▲") else "down" if move.startswith("▼") else "same"


def _move_cell(move: str) -> str:
    return f'<td class="{_move_class(move)}">{escape(move)}</td>'


def _standings_table(
    result: GroupResult,
    names: dict[str, str],
    team_names: dict[str, str],
    movement: dict[str, str] | None = None,
    event_id: str | None = None,
    late: dict[str, int] | None = None,
) -> str:
    heads = "".join(f"<th>第{sr.no}局<br><small>S{sr.no}</small></th>" for sr in result.sessions)
    m_head = "<th>升降<br><small>Move</small></th>" if movement is not None else ""
    ties = tie_breaks(result.standings)
    rows = []
    for s in result.standings:
        per = "".join(
            f"<td>{_std(v)}<br><small>{escape(sr.cell(s.player, sc, (late or {}).get(s.player)))}</small></td>"
            for v, sc, sr in zip(s.session_standards, s.session_scores, result.sessions, strict=True)
        )
        label = escape(names.get(s.player, s.player)) + (
            f" <small>{escape(s.player)}</small>" if names.get(s.player) != s.player else ""
        )
        if event_id is not None:  # the player's own page: sessions, opponents, the tie-break
            label = f'<a class="player" href="/tournaments/{escape(event_id)}/players/{escape(s.player)}">{label}</a>'

        move = movement.get(s.player, "") if movement is not None else None
        m_cell = "" if move is None else _move_cell(move)
        tie = ""
        if s.player in ties:  # level on standard total: which tie-break placed him (第十一条)
            zh, en = TIE_BREAK_TEXT[ties[s.player]]
            tie = f'<br><small class="tie" title="{escape(en)}">{escape(zh)}</small>'
        rows.append(
            f'<tr><td>{s.rank}{" DQ" if s.disqualified else ""}{tie}</td>{m_cell}<td class="l">{label}</td>'
            f"<td>{escape(team_names.get(s.team or '', s.team or ''))}</td>{per}"
            f'<td class="b">{_std(s.standard_total)}</td><td>{s.match_total}</td></tr>'
        )
    return (
        f"<table><thead><tr><th>名次<br><small>Rank</small></th>{m_head}<th>选手<br><small>Player</small></th>"
        f"<th>队<br><small>Team</small></th>{heads}<th>标准分<br><small>Std total</small></th>"
        f"<th>比赛分<br><small>Score total</small></th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _sessions_table(event: Event, group: Group, names: dict[str, str]) -> str:
    out = [
        "<h2>场次 Sessions</h2><table><thead><tr><th>局 Session</th><th>桌 Table</th><th>东 E</th>"
        "<th>南 S</th><th>西 W</th><th>北 N</th><th>盘 Hands</th><th>记录表 Sheet</th></tr></thead><tbody>"
    ]
    for sess in group.sessions:
        for tb in sess.tables:
            done = "totals" if tb.totals is not None else f"{len(tb.hands)}/16"
            link = f"/tournaments/{escape(event.id)}/sheet/{sess.no}/{tb.no}"
            query = "" if group is event.groups[0] else f"?group={escape(group.id)}"
            out.append(
                f"<tr><td>{sess.no}</td><td>{tb.no}</td>"
                + "".join(f"<td>{escape(names.get(p, p))}</td>" for p in tb.players)
                + f'<td>{done}</td><td><a href="{link}{query}">HTML</a> · '
                + f'<a href="{link}.pdf{query}">PDF</a></td></tr>'
            )
        if sess.absent:
            out.append(
                f'<tr><td>{sess.no}</td><td colspan="7" class="l">缺席 absent: '
                f"{escape(', '.join(names.get(p, p) for p in sess.absent))}</td></tr>"
            )
    out.append("</tbody></table>")
    return "".join(out)


def _sheet(db: Database, event_id: str, session: int, table: int, group: str | None = None) -> Any:
    from majiang.tournament.sheet import score_sheet

    repo = TournamentRepository(db)  # a sealed session's sheet is refused below, with the reason
    try:
        event = repo.load(event_id)
        result = repo.full_result(event_id, group)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    except RepositoryError as e:
        raise HTTPException(404, str(e)) from None
    if not 1 <= session <= len(result.sessions) or not 1 <= table <= len(result.sessions[session - 1].tables):
        raise HTTPException(404, f"event {event_id!r} has no table {table} in session {session}")
    if duplicate_info(event, session) is not None and not session_finished(event, session):
        raise HTTPException(
            403,
            f"复式 duplicate walls: the hands of session {session} are sealed until every table has finished "
            "(a sheet would tell the tables still playing what their walls hold)",
        )
    return score_sheet(result, session, table, event=event.name or event.id, rules=event.rules)


@router.get("/tournaments/{event_id}/sheet/{session}/{table}.pdf", summary="a table's score sheet (PDF)")
def sheet_pdf(event_id: str, session: int, table: int, db: DB, group: str | None = None) -> Response:
    from majiang.tournament.adapters.output.pdf import score_sheet_pdf

    data = score_sheet_pdf(_sheet(db, event_id, session, table, group))
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="sheet-{session}-{table}.pdf"'},
    )


@router.get(
    "/tournaments/{event_id}/sheet/{session}/{table}",
    response_class=HTMLResponse,
    summary="a table's score sheet (printable HTML)",
)
def sheet_html(event_id: str, session: int, table: int, db: DB, group: str | None = None) -> HTMLResponse:
    from majiang.tournament.adapters.output.html import score_sheet_html

    return HTMLResponse(score_sheet_html(_sheet(db, event_id, session, table, group)))


@router.get("/tournaments/{event_id}/plot.svg", summary="cumulative standard score per session (SVG)")
def plot_svg(
    event_id: str, db: DB, group: str | None = None, top: int | None = None, highlight: str | None = None
) -> Response:
    """``?top=N`` the N best in colour (default 10 in a field of more than 16, else all), the others
    faint; ``?highlight=PLAYER`` one player thick and labelled."""
    from majiang.tournament.adapters.output.plot import standings_plot

    event, result = _results(db, event_id, group)
    if top is None and len(result.standings) > 16:
        top = 10
    if highlight is not None and highlight not in {p.id for p in result.group.players}:
        raise HTTPException(404, f"no player {highlight!r} in this group")
    return Response(
        standings_plot(result, "svg", title=event.name or event.id, top=top or None, highlight=highlight),
        media_type="image/svg+xml",
    )


@router.get("/tournaments/{event_id}/standings.csv", summary="the standings (CSV)")
def standings_csv(event_id: str, db: DB, group: str | None = None) -> Response:
    from majiang.tournament.adapters.output.exports import standings_csv as to_csv

    _, result = _results(db, event_id, group)
    return Response(
        to_csv(result),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{event_id}-standings.csv"'},
    )


# ---- organiser routes (online sessions) -----------------------------------------------------------
Organiser = Annotated[str | None, Header()]


class OpenRequest(BaseModel):
    room: str | None = None  # a hall room with the event's rules; default: a room event-RULES made on the fly
    duplicate: bool | None = None  # 复式: the same walls at every table, records sealed until the session ends


@router.post(
    "/tournaments/{event_id}/sessions/{session}/open",
    summary="open a drawn session's tables in the hall and seat the players (organiser token)",
)
async def open_online(
    event_id: str,
    session: int,
    request: Request,
    db: DB,
    authorization: Organiser = None,
    body: OpenRequest | None = None,
) -> dict[str, Any]:
    from majiang.tournament.adapters.online import open_session

    repo = organiser_repo(db, event_id, authorization)
    hall = getattr(request.app.state, "hall", None)
    if hall is None:
        raise HTTPException(503, "online sessions need the hall: run 'majiang serve' and call its URL")
    try:  # a session open already is opened again: live tables as they are, a lost one from its next hand
        tables = await open_session(
            hall,
            repo,
            event_id,
            session,
            room_id=body.room if body else None,
            duplicate=body.duplicate if body else None,
        )
    except (ValueError, KeyError) as e:  # a session not drawn, an unknown room or one with other rules
        raise HTTPException(400, str(e.args[0] if isinstance(e, KeyError) else e)) from None
    return {"event": event_id, "session": session, "tables": [t.to_dict() for t in tables]}


@router.post(
    "/tournaments/{event_id}/sessions/{session}/sync",
    summary="enter the hands the hall has finished at a session's tables (organiser token)",
)
def sync_online(event_id: str, session: int, db: DB, authorization: Organiser = None) -> dict[str, Any]:
    from majiang.tournament.adapters.online import sync_session

    repo = organiser_repo(db, event_id, authorization)
    sessions = repo.load(event_id).groups[0].sessions
    if not 1 <= session <= len(sessions):
        raise HTTPException(404, f"session {session} is not drawn ({len(sessions)} drawn)")
    entered = sync_session(repo, event_id, session)
    tables = repo.load(event_id).groups[0].sessions[session - 1].tables
    return {
        "event": event_id,
        "session": session,
        "entered": entered,
        "tables": [{"table": t.no, "hands": len(t.hands)} for t in tables],
    }


# ---- organiser routes: the entries log and undo --------------------------------------------------
@router.get("/api/tournaments/{event_id}/entries", summary="the entries log: who entered what, when (organiser token)")
def api_entries(
    event_id: str, db: DB, authorization: Organiser = None, session: int | None = None, table: int | None = None
) -> list[dict[str, Any]]:
    return organiser_repo(db, event_id, authorization).entries(event_id, session, table)


def _undo(
    repo: TournamentRepository, event_id: str, session: int | None, table: int | None, entry: int | None
) -> dict[str, Any]:
    try:
        e = repo.undo(event_id, session, table, entry_id=entry, by="web:organiser")
    except RepositoryError as err:
        raise HTTPException(409 if entry is None or "no entry" not in str(err) else 404, str(err)) from None
    t = repo.table(event_id, e["session"], e["table"], e["group"])
    return {
        "undone": e,
        "table": {
            "session": e["session"],
            "table": e["table"],
            "hands": len(t.hands),
            "totals": None if t.totals is None else list(t.totals),
            "penalties": [p.to_dict() for p in t.penalties],
            "time_called": t.time_called,
        },
    }


@router.post(
    "/tournaments/{event_id}/sessions/{session}/tables/{table}/undo",
    summary="undo the last entry of a table (organiser token)",
)
def undo_table(event_id: str, session: int, table: int, db: DB, authorization: Organiser = None) -> dict[str, Any]:
    return _undo(organiser_repo(db, event_id, authorization), event_id, session, table, None)


@router.post("/tournaments/{event_id}/entries/{entry}/undo", summary="undo one entry by its id (organiser token)")
def undo_entry(event_id: str, entry: int, db: DB, authorization: Organiser = None) -> dict[str, Any]:
    return _undo(organiser_repo(db, event_id, authorization), event_id, None, None, entry)


router.include_router(entry_router)  # the phones' entry pages (majiang.tournament.adapters.table_entry)
router.include_router(checkin_router)  # the check-in desk (majiang.tournament.adapters.checkin_web)
router.include_router(player_router)  # a page per player (majiang.tournament.adapters.player_page)
