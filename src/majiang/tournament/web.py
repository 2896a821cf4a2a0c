"""Competition pages for the hall's web server: a FastAPI :data:`router` (``app.include_router(router)``).

- ``GET /tournaments`` — the events (HTML); ``GET /api/tournaments`` — the same as JSON
- ``GET /tournaments/{id}`` — live standings (HTML, refreshes itself every 30 s), the sessions' tables with
  links to their score sheets, the standings plot
- ``GET /tournaments/{id}/sheet/{session}/{table}`` — the printable score sheet (HTML); ``….pdf`` — as PDF
- ``GET /tournaments/{id}/plot.svg`` — cumulative standard score per session
- ``GET /tournaments/{id}/standings.csv`` — the standings CSV
- ``GET /api/tournaments/{id}/standings`` — the standings as JSON (:func:`.repository.standings_json`)

The database comes from the :func:`get_db` dependency: ``request.app.state.hall.db`` in the hall, or
``request.app.state.tournament_db`` (a plain :class:`~majiang.store.Database`) — or override it with
``app.dependency_overrides[get_db]``.  The handlers are synchronous (FastAPI runs them in its thread pool).
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from majiang.store import Database
from majiang.tournament.output.html import fmt
from majiang.tournament.ranking import GroupResult
from majiang.tournament.repository import EventNotFound, RepositoryError, TournamentRepository

REFRESH_S = 30

router = APIRouter(tags=["tournaments"])


def get_db(request: Request) -> Database:
    """The database: ``app.state.tournament_db``, else the hall's (``app.state.hall.db``)."""
    db = getattr(request.app.state, "tournament_db", None)
    if db is None:
        hall = getattr(request.app.state, "hall", None)
        db = getattr(hall, "db", None)
    if not isinstance(db, Database):
        raise HTTPException(503, "no database configured for competitions")
    return db


DB = Annotated[Database, Depends(get_db)]

_CSS = """
body { font-family: "Noto Sans CJK SC", "Source Han Sans SC", system-ui, sans-serif; margin: 1.2rem; color: #111; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; } h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
p.meta, nav { color: #555; margin: .2rem 0 .8rem; } nav a { margin-right: 1rem; }
table { border-collapse: collapse; margin-bottom: .8rem; }
th, td { border: 1px solid #bbb; padding: .2rem .5rem; text-align: center; }
th { background: #f0f0f0; font-weight: 600; } td.l { text-align: left; } td.b { font-weight: 700; }
tr:nth-child(even) td { background: #fafafa; } small { color: #666; }
img.plot { max-width: 100%; border: 1px solid #ddd; }
""".strip()


def _page(title: str, body: str, refresh: bool = False) -> HTMLResponse:
    meta = f'<meta http-equiv="refresh" content="{REFRESH_S}">' if refresh else ""
    return HTMLResponse(
        f'<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8">{meta}'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>\n{body}\n</body></html>\n")


def _repo(db: Database) -> TournamentRepository:
    return TournamentRepository(db)


def _results(db: Database, event_id: str) -> tuple[Any, GroupResult]:
    try:
        event, results = _repo(db).results(event_id)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    if not event.groups:
        raise HTTPException(404, f"event {event_id!r} has no players")
    return event, results[event.groups[0].id]


@router.get("/api/tournaments", summary="the competitions stored in the database")
def api_list(db: DB) -> list[dict[str, Any]]:
    return [e.to_dict() for e in _repo(db).list_events()]


@router.get("/api/tournaments/{event_id}/standings", summary="a competition's standings (JSON)")
def api_standings(event_id: str, db: DB) -> dict[str, Any]:
    try:
        return _repo(db).standings(event_id)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None


@router.get("/tournaments", response_class=HTMLResponse, summary="competitions (HTML)")
def page_list(db: DB) -> HTMLResponse:
    events = _repo(db).list_events()
    rows = "".join(f'<tr><td class="l"><a href="/tournaments/{escape(e.id)}">{escape(e.name or e.id)}</a></td>'
                   f"<td>{escape(e.id)}</td><td>{e.players}</td><td>{e.sessions}</td><td>{escape(e.scheme)}</td></tr>"
                   for e in events)
    body = ("<h1>比赛 Competitions</h1>"
            + (f"<table><thead><tr><th>名称 Name</th><th>id</th><th>选手 Players</th><th>已抽局 Sessions</th>"
               f"<th>标准分 Scheme</th></tr></thead><tbody>{rows}</tbody></table>" if events else
               "<p>No competitions yet: <code>majiang tournament new NAME --count 16 --teams 4</code></p>"))
    return _page("Competitions", body)


def _std(x: Fraction) -> str:
    return fmt(x)


@router.get("/tournaments/{event_id}", response_class=HTMLResponse, summary="live standings (HTML)")
def page_event(event_id: str, db: DB) -> HTMLResponse:
    event, result = _results(db, event_id)
    group = event.groups[0]
    names = {p.id: p.name or p.id for p in group.players}
    team_names = {t.id: t.name or t.id for t in group.teams}
    n = len(result.sessions)
    heads = "".join(f"<th>第{k}局<br><small>S{k}</small></th>" for k in range(1, n + 1))
    rows = []
    for s in result.standings:
        per = "".join(f"<td>{_std(v)}<br><small>{'缺席' if sc is None else sc}</small></td>"
                      for v, sc in zip(s.session_standards, s.session_scores, strict=True))
        label = escape(names.get(s.player, s.player)) + (f" <small>{escape(s.player)}</small>"
                                                         if names.get(s.player) != s.player else "")
        rows.append(f"<tr><td>{s.rank}{' DQ' if s.disqualified else ''}</td><td class=\"l\">{label}</td>"
                    f"<td>{escape(team_names.get(s.team or '', s.team or ''))}</td>{per}"
                    f'<td class="b">{_std(s.standard_total)}</td><td>{s.match_total}</td></tr>')
    body = [f"<h1>{escape(event.name or event.id)}</h1>",
            f'<p class="meta">标准分 scheme {escape(event.scheme)} · {len(group.players)} players · '
            f"{n}/{len(group.sessions)} sessions with results · refreshes every {REFRESH_S} s</p>",
            f'<nav><a href="/tournaments">all competitions</a><a href="/api/tournaments/{escape(event.id)}/standings">'
            f'JSON</a><a href="/tournaments/{escape(event.id)}/standings.csv">CSV</a></nav>',
            "<h2>个人名次 Individual standings</h2>",
            f"<table><thead><tr><th>名次<br><small>Rank</small></th><th>选手<br><small>Player</small></th>"
            f"<th>队<br><small>Team</small></th>{heads}<th>标准分<br><small>Std total</small></th>"
            f"<th>比赛分<br><small>Score total</small></th></tr></thead><tbody>{''.join(rows)}</tbody></table>"]
    if result.teams:
        trs = "".join(f"<tr><td>{t.rank}</td><td class=\"l\">{escape(team_names.get(t.team, t.team))}</td>"
                      f"<td class=\"l\">{escape(', '.join(names.get(m, m) for m in t.members))}</td>"
                      f'<td class="b">{_std(t.standard_total)}</td><td>{t.match_total}</td></tr>' for t in result.teams)
        body.append("<h2>团体名次 Team standings</h2><table><thead><tr><th>名次<br><small>Rank</small></th>"
                    "<th>队<br><small>Team</small></th><th>队员<br><small>Members</small></th><th>标准分<br><small>"
                    "Std total</small></th><th>比赛分<br><small>Score total</small></th></tr></thead>"
                    f"<tbody>{trs}</tbody></table>")
    if group.sessions:
        body.append("<h2>场次 Sessions</h2><table><thead><tr><th>局 Session</th><th>桌 Table</th><th>东 E</th>"
                    "<th>南 S</th><th>西 W</th><th>北 N</th><th>盘 Hands</th><th>记录表 Sheet</th></tr></thead><tbody>")
        for sess in group.sessions:
            for tb in sess.tables:
                done = "totals" if tb.totals is not None else f"{len(tb.hands)}/16"
                link = f"/tournaments/{escape(event.id)}/sheet/{sess.no}/{tb.no}"
                body.append(f"<tr><td>{sess.no}</td><td>{tb.no}</td>"
                            + "".join(f"<td>{escape(names.get(p, p))}</td>" for p in tb.players)
                            + f'<td>{done}</td><td><a href="{link}">HTML</a> · <a href="{link}.pdf">PDF</a></td></tr>')
        body.append("</tbody></table>")
    if n:
        body.append(f'<h2>走势 Standings by session</h2><img class="plot" alt="standings plot" '
                    f'src="/tournaments/{escape(event.id)}/plot.svg">')
    return _page(event.name or event.id, "\n".join(body), refresh=True)


def _sheet(db: Database, event_id: str, session: int, table: int) -> Any:
    from majiang.tournament.sheet import score_sheet

    repo = _repo(db)
    try:
        event = repo.load(event_id)
        result = repo.full_result(event_id)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    except RepositoryError as e:
        raise HTTPException(404, str(e)) from None
    if not 1 <= session <= len(result.sessions) or not 1 <= table <= len(result.sessions[session - 1].tables):
        raise HTTPException(404, f"event {event_id!r} has no table {table} in session {session}")
    return score_sheet(result, session, table, event=event.name or event.id, rules=event.rules)


@router.get("/tournaments/{event_id}/sheet/{session}/{table}.pdf", summary="a table's score sheet (PDF)")
def sheet_pdf(event_id: str, session: int, table: int, db: DB) -> Response:
    from majiang.tournament.output.pdf import score_sheet_pdf

    data = score_sheet_pdf(_sheet(db, event_id, session, table))
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="sheet-{session}-{table}.pdf"'})


@router.get("/tournaments/{event_id}/sheet/{session}/{table}", response_class=HTMLResponse,
            summary="a table's score sheet (printable HTML)")
def sheet_html(event_id: str, session: int, table: int, db: DB) -> HTMLResponse:
    from majiang.tournament.output.html import score_sheet_html

    return HTMLResponse(score_sheet_html(_sheet(db, event_id, session, table)))


@router.get("/tournaments/{event_id}/plot.svg", summary="cumulative standard score per session (SVG)")
def plot_svg(event_id: str, db: DB) -> Response:
    from majiang.tournament.output.plot import standings_plot

    event, result = _results(db, event_id)
    return Response(standings_plot(result, "svg", title=event.name or event.id), media_type="image/svg+xml")


@router.get("/tournaments/{event_id}/standings.csv", summary="the standings (CSV)")
def standings_csv(event_id: str, db: DB) -> Response:
    from majiang.tournament.output.exports import standings_csv as to_csv

    _, result = _results(db, event_id)
    return Response(to_csv(result), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{event_id}-standings.csv"'})
