"""Entry from the table's phones: a page per table and session, opened on each player's phone with
that player's own seat PIN (:func:`majiang.tournament.organiser.seat_pin`, 8 digits, printed on the
seat slips; ``majiang tournament pins EVENT --session K`` prints the links and PINs).  A PIN is bound
to its seat: a phone proposes, confirms and rejects for its own seat only.  Wrong PINs are limited per
client network (``PIN_FAILS_PER_NETWORK`` in 10 minutes) and per table (``PIN_FAILS_PER_TABLE`` an
hour); while a limit is spent every PIN is refused (429), the right one too, so guessing gets nowhere.
Every proposal, confirmation and rejection is logged with the seat, the device and the time.

- ``GET /tournaments/{id}/t/{session}/{table}`` — the phone page (390 px wide and up, no horizontal
  scrolling, tap targets of at least 44 px)
- ``GET /api/tournaments/{id}/t/{session}/{table}`` — the table: players, hands, scores, the entry
  waiting for confirmation
- ``GET /tournaments/{id}/projector`` — full-screen standings (``?every=SECONDS`` a page, default 12),
  the session clock (``GET /api/tournaments/{id}/clock``; started with ``POST
  /tournaments/{id}/sessions/{k}/clock`` and the organiser token, or ``majiang tournament clock``)
- ``POST …/propose`` — a hand (winner, discarder or self-draw, fan total or names, flowers, false wins,
  penalties), the session totals or a table penalty, from one seat; it waits until the other three seats confirm (``POST
  …/confirm``) or one rejects it (``POST …/reject``).  With the organiser token (``Authorization:
  Bearer TOKEN``) instead of a PIN, the referee's entry is recorded at once (an override).

The PIN travels as ``X-Table-Pin``, the phone's own random device id as ``X-Device``.  Confirmed
entries go through the repository as the CLI's do
(:meth:`.TournamentRepository.enter_hand`, :meth:`~.TournamentRepository.enter_totals`), so the same
checks (order of hands, the 1998 rules, a time call) apply; the entries log records them as
``web:table`` or ``web:referee``.  The entry waiting for confirmation is kept in the event's
``extra["pending"]`` (one per table).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import UTC, datetime
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from majiang.hall.limits import Buckets, client_address, network_of
from majiang.mcr.rules import get_rules
from majiang.store import Database
from majiang.tournament.adapters.deps import DB, organiser_repo
from majiang.tournament.adapters.repository import EventNotFound, RepositoryError, TournamentRepository
from majiang.tournament.clock import hand_in_play
from majiang.tournament.model import HANDS_PER_SESSION, Event
from majiang.tournament.organiser import is_organiser, pin_seat
from majiang.tournament.penalties import Penalty, PenaltyCode
from majiang.tournament.scoring import EntryError
from majiang.tournament.seating import dealer, prevalent_wind, seat_winds

entry_router = APIRouter(tags=["tournaments"])

Pin = Annotated[str | None, Header(alias="X-Table-Pin")]
Auth = Annotated[str | None, Header()]
log = logging.getLogger("majiang.tournament.entry")

PIN_FAILS_PER_NETWORK = 10  # wrong PINs from one client network (IPv4 /24, IPv6 /64) in 10 minutes
PIN_FAILS_PER_TABLE = 30  # wrong PINs for one table of one session in an hour, from anywhere


class PinGuard:
    """The wrong-PIN budgets of one app (kept in ``app.state``)."""

    def __init__(self) -> None:
        self.network = Buckets(PIN_FAILS_PER_NETWORK / 600, PIN_FAILS_PER_NETWORK, name="pin-network")
        self.table = Buckets(PIN_FAILS_PER_TABLE / 3600, PIN_FAILS_PER_TABLE, name="pin-table")

    def locked(self, network: str, table: str) -> float:
        return max(self.network.peek(network), self.table.peek(table))

    def failed(self, network: str, table: str) -> None:
        self.network.take(network)
        self.table.take(table)


def _guard(request: Request) -> PinGuard:
    guard: PinGuard | None = getattr(request.app.state, "pin_guard", None)
    if guard is None:
        guard = request.app.state.pin_guard = PinGuard()
    return guard


class Caller(BaseModel):
    """Who is at the other end: the referee (organiser token) or the phone of one seat."""

    referee: bool
    seat: int | None
    device: str  # a short hash of the phone's device id and network, for the log


def _device(request: Request) -> tuple[str, str]:
    network = network_of(client_address(request))
    raw = f"{request.headers.get('x-device', '')[:64]}|{network}"
    return network, hashlib.sha256(raw.encode()).hexdigest()[:8]


class PenaltyIn(BaseModel):
    seat: int = Field(ge=0, le=3)
    code: str = Field(max_length=30)  # a PenaltyCode value: warning, late, empty_call, misconduct …
    points: int = Field(default=0, ge=0, le=100)
    note: str = Field(default="", max_length=200)


class HandIn(BaseModel):
    winner: int | None = Field(default=None, ge=0, le=3)  # None: an exhaustive draw (荒牌)
    discarder: int | None = Field(default=None, ge=0, le=3)  # None: self-drawn
    points: int | None = Field(default=None, ge=0, le=1000)
    fans: list[str] = []
    flowers: int = Field(default=0, ge=0, le=8)
    false_wins: list[int] = []  # seats that declared a false win (错和) in this hand
    penalties: list[PenaltyIn] = []  # other penalties given in this hand


class ProposalIn(BaseModel):
    seat: int = Field(ge=0, le=3)  # who proposes (first-round seat)
    hand: HandIn | None = None
    totals: list[int] | None = None
    penalty: PenaltyIn | None = None  # a table penalty (late arrival …), not tied to a hand


class SeatIn(BaseModel):
    seat: int = Field(ge=0, le=3)
    id: str


def _access(
    request: Request, db: Database, event_id: str, session: int, table: int, pin: str | None, authorization: str | None
) -> tuple[TournamentRepository, Event, Caller]:
    """The repository, the event and the caller; 401 without a PIN or token, 403 with a wrong one,
    429 while the wrong-PIN limits are spent, 404 for a table not drawn."""
    repo = TournamentRepository(db)
    try:
        event = repo.load(event_id)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    try:
        repo.table(event_id, session, table)
    except RepositoryError as e:
        raise HTTPException(404, str(e)) from None
    network, device = _device(request)
    token = authorization.removeprefix("Bearer ").strip() if authorization else ""
    if token and is_organiser(event.extra, token):
        return repo, event, Caller(referee=True, seat=None, device=device)
    if not pin and not token:
        raise HTTPException(
            401,
            "type your seat's PIN (on your seat slip; the organiser prints them with "
            f"'majiang tournament pins {event_id} --session {session}')",
        )
    guard, where = _guard(request), f"{event_id}:{session}:{table}"
    wait = guard.locked(network, where)
    if wait > 0:
        raise HTTPException(
            429,
            f"too many wrong PINs; try again in {int(wait) + 1} s (or ask the referee)",
            headers={"Retry-After": str(int(wait) + 1)},
        )
    seat = pin_seat(event.extra, session, table, pin)
    if seat is None:
        guard.failed(network, where)
        raise HTTPException(403, f"not a seat PIN of session {session} table {table}")
    return repo, event, Caller(referee=False, seat=seat, device=device)


def _own_seat(caller: Caller, seat: int) -> None:
    """A phone acts for the seat of its PIN only."""
    if not caller.referee and caller.seat != seat:
        raise HTTPException(
            403, f"this phone holds the PIN of seat {'ESWN'[caller.seat or 0]}: each seat confirms on its own phone"
        )


def _trail(caller: Caller, action: str) -> dict[str, Any]:
    return {
        "seat": caller.seat,
        "action": action,
        "device": caller.device,
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _by(session: int, table: int, p: dict[str, Any]) -> str:
    """The entries log's ``by``: the table and each seat's device (the full trail goes to the log)."""
    seats = " ".join(f"{'ESWN'[t['seat']]}@{t['device']}" for t in p.get("trail", []) if t["seat"] is not None)
    return f"web:table {session}-{table} {seats}".strip()[:100]


def _key(session: int, table: int) -> str:
    return f"{session}-{table}"


def _pending(event: Event, session: int, table: int) -> dict[str, Any] | None:
    p = (event.extra.get("pending") or {}).get(_key(session, table))
    return p if isinstance(p, dict) else None


def _set_pending(
    repo: TournamentRepository, event: Event, session: int, table: int, value: dict[str, Any] | None
) -> None:
    pending = dict(event.extra.get("pending") or {})
    if value is None:
        pending.pop(_key(session, table), None)
    else:
        pending[_key(session, table)] = value
    repo.set_extra(event.id, pending=pending)


def _state(repo: TournamentRepository, event: Event, session: int, table: int) -> dict[str, Any]:
    group = event.groups[0]
    t = repo.table(event.id, session, table, group.id)
    names = {p.id: p.name or p.id for p in group.players}
    res = repo.table_result(event.id, session, table, group.id)
    clock = repo.clock(event.id, session)
    in_play = hand_in_play(clock["time_call"], table) if t.time_called else None
    last = in_play if in_play == len(t.hands) + 1 else None  # the hand in play at the call, not yet entered
    playing = t.totals is None and len(t.hands) < HANDS_PER_SESSION and (not t.time_called or last is not None)
    return {
        "event": event.id,
        "name": event.name,
        "session": session,
        "table": table,
        "players": [
            {"seat": i, "wind": "ESWN"[i], "id": pid, "name": names.get(pid, pid)} for i, pid in enumerate(t.players)
        ],
        "hands": len(t.hands),
        "next_hand": _next_hand(len(t.hands) + 1) if playing else None,
        "totals": None if t.totals is None else list(t.totals),
        "scores": list(res.seat_scores),
        "time_called": t.time_called,
        # 第六条: at the call the hand in play is finished (``hand_in_play``, None when it is entered or
        # none was in play), no new hand starts; the session is scored as it stands
        "time_call": {"at": (clock["time_call"] or {}).get("at"), "hand_in_play": last} if t.time_called else None,
        "clock": {k: clock[k] for k in ("phase", "remaining_s", "ends", "minutes", "warn")},
        "pending": _pending(repo.load(event.id), session, table),
        "min_fan": get_rules(event.rules).min_fan,
    }


def _next_hand(no: int) -> dict[str, Any]:
    """The hand being entered: its dealer (a first-round seat) and each first-round seat's wind in it
    (the 1998 rotation moves the seats after hands 4, 8 and 12), and the prevalent wind."""
    return {"no": no, "dealer": dealer(no), "winds": list(seat_winds(no)), "prevalent": prevalent_wind(no)}


def _apply(
    repo: TournamentRepository, event: Event, session: int, table: int, proposal: dict[str, Any], by: str
) -> None:
    """Record a proposal through the repository (409 with the reason when it is refused)."""
    from majiang.tournament.scoring import enter_hand

    try:
        if proposal.get("totals") is not None:
            repo.enter_totals(event.id, session, table, proposal["totals"], by=by)
            return
        if proposal.get("penalty") is not None:
            repo.add_table_penalty(event.id, session, table, _penalty(PenaltyIn(**proposal["penalty"])), by=by)
            return
        h = HandIn(**proposal["hand"])
        no = len(repo.table(event.id, session, table).hands) + 1
        pens = [Penalty(s, PenaltyCode.FALSE_WIN) for s in h.false_wins] + [_penalty(p) for p in h.penalties]
        if h.winner is None:
            hand = enter_hand(no, penalties=pens, rules=event.rules)
        else:
            hand = enter_hand(
                no,
                h.winner,
                h.discarder,
                fans=h.fans,
                points=None if h.fans else h.points,
                flowers=h.flowers,
                penalties=pens,
                rules=event.rules,
            )
        repo.enter_hand(event.id, session, table, hand, source="web", by=by)
    except (RepositoryError, EntryError, ValueError, KeyError) as e:
        raise HTTPException(409, str(e.args[0] if isinstance(e, KeyError) else e)) from None


def _checked_hand(h: HandIn) -> dict[str, Any]:
    """A proposed hand as it will wait for confirmation: fans named are checked against the fan table
    now (409), not at the fourth confirmation, and the fan total is theirs — a total sent with them
    must be their sum (flowers apart: 花牌 goes in ``flowers``)."""
    from majiang.mcr.fans import FAN_INFO, Fan, fan_by_name

    hand = h.model_dump()
    if not h.fans:
        return hand
    try:
        fans = [fan_by_name(n) for n in h.fans]
    except ValueError as e:
        raise HTTPException(409, str(e)) from None
    if Fan.FLOWER_TILES in fans:
        raise HTTPException(409, "花牌 Flower Tiles: enter them as flowers (they do not count toward the minimum)")
    total = sum(FAN_INFO[f].points for f in fans)
    if h.points is not None and h.points != total:
        raise HTTPException(409, f"the fan total {h.points} is not the sum of the fans named ({total})")
    return {**hand, "fans": [FAN_INFO[f].zh for f in fans], "points": total}


def _penalty(p: PenaltyIn) -> Penalty:
    try:
        code = PenaltyCode(p.code)
    except ValueError:
        raise ValueError(f"unknown penalty code {p.code!r}: one of {', '.join(c.value for c in PenaltyCode)}") from None
    return Penalty(p.seat, code, p.points, note=p.note)


@entry_router.get("/api/tournaments/{event_id}/t/{session}/{table}", summary="a table for the phones (PIN)")
def api_table(
    request: Request, event_id: str, session: int, table: int, db: DB, pin: Pin = None, authorization: Auth = None
) -> dict[str, Any]:
    repo, event, caller = _access(request, db, event_id, session, table, pin, authorization)
    return {**_state(repo, event, session, table), "referee": caller.referee, "you": caller.seat}


@entry_router.get("/api/tournaments/{event_id}/fans", summary="the 81 MCR fans for the phones' fan search")
def api_fans(event_id: str, db: DB, q: str = "") -> dict[str, Any]:
    """``{"min_fan", "fans": [{"no", "zh", "pinyin", "initials", "en", "points", "flowers"}]}``: every
    fan, or with ``?q=`` those the query matches (Chinese, pinyin initials such as ``qys``, pinyin,
    English) — the phone page fetches the list once and searches it with the same rule."""
    from majiang.tournament.adapters.fan_picker import fan_rows, search

    try:
        event = TournamentRepository(db).load(event_id)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    return {"min_fan": get_rules(event.rules).min_fan, "fans": search(q[:40]) if q else list(fan_rows())}


@entry_router.post(
    "/api/tournaments/{event_id}/t/{session}/{table}/propose",
    summary="propose a hand or the totals (PIN); the referee's token records it at once",
)
def api_propose(
    request: Request,
    event_id: str,
    session: int,
    table: int,
    body: ProposalIn,
    db: DB,
    pin: Pin = None,
    authorization: Auth = None,
) -> dict[str, Any]:
    repo, event, caller = _access(request, db, event_id, session, table, pin, authorization)
    _own_seat(caller, body.seat)
    if sum(x is not None for x in (body.hand, body.totals, body.penalty)) != 1:
        raise HTTPException(422, "propose a hand, the totals or a table penalty (one of them)")
    proposal: dict[str, Any] = {
        "id": secrets.token_hex(4),
        "seat": body.seat,
        "confirmed": [body.seat],
        "hand": None if body.hand is None else body.hand.model_dump(),
        "totals": body.totals,
        "penalty": None if body.penalty is None else body.penalty.model_dump(),
        "trail": [_trail(caller, "propose")],
    }
    log.info("%s %s-%s propose %s", event_id, session, table, proposal["trail"][0])
    if body.hand is not None:
        proposal["hand"] = _checked_hand(body.hand)
    if caller.referee:
        _apply(repo, event, session, table, proposal, "web:referee")
        _set_pending(repo, repo.load(event_id), session, table, None)
    else:
        if _pending(event, session, table) is not None:
            raise HTTPException(409, "an entry is waiting for confirmation: confirm or reject it first")
        _set_pending(repo, event, session, table, proposal)
    return _state(repo, repo.load(event_id), session, table)


@entry_router.post(
    "/api/tournaments/{event_id}/t/{session}/{table}/confirm",
    summary="confirm the waiting entry from one seat (that seat's PIN); the fourth seat records it",
)
def api_confirm(
    request: Request,
    event_id: str,
    session: int,
    table: int,
    body: SeatIn,
    db: DB,
    pin: Pin = None,
    authorization: Auth = None,
) -> dict[str, Any]:
    repo, event, caller = _access(request, db, event_id, session, table, pin, authorization)
    _own_seat(caller, body.seat)
    p = _pending(event, session, table)
    if p is None or p["id"] != body.id:
        raise HTTPException(409, "that entry is no longer waiting (recorded or rejected): reload")
    confirmed = sorted({*p["confirmed"], body.seat})
    step = _trail(caller, "confirm")
    log.info("%s %s-%s confirm %s %s", event_id, session, table, p["id"], step)
    p = {**p, "confirmed": confirmed, "trail": [*p.get("trail", []), step]}
    if caller.referee or len(confirmed) == 4:
        _set_pending(repo, event, session, table, None)
        try:
            _apply(repo, event, session, table, p, "web:referee" if caller.referee else _by(session, table, p))
        except HTTPException:
            _set_pending(repo, repo.load(event_id), session, table, p)
            raise
    else:
        _set_pending(repo, event, session, table, p)
    return _state(repo, repo.load(event_id), session, table)


@entry_router.post("/api/tournaments/{event_id}/t/{session}/{table}/reject", summary="reject the waiting entry (PIN)")
def api_reject(
    request: Request,
    event_id: str,
    session: int,
    table: int,
    body: SeatIn,
    db: DB,
    pin: Pin = None,
    authorization: Auth = None,
) -> dict[str, Any]:
    repo, event, caller = _access(request, db, event_id, session, table, pin, authorization)
    _own_seat(caller, body.seat)
    p = _pending(event, session, table)
    if p is not None and p["id"] == body.id:
        log.info("%s %s-%s reject %s %s", event_id, session, table, p["id"], _trail(caller, "reject"))
        _set_pending(repo, event, session, table, None)
    return _state(repo, repo.load(event_id), session, table)


@entry_router.get(
    "/tournaments/{event_id}/t/{session}/{table}",
    response_class=HTMLResponse,
    summary="enter a table's results from a phone",
)
def page_table(event_id: str, session: int, table: int) -> HTMLResponse:
    cfg = escape(f"{event_id}|{session}|{table}")
    return HTMLResponse(
        '<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>第{session}局 第{table}桌 · {escape(event_id)}</title><style>{CSS}</style></head>"
        f'<body data-table="{cfg}"><main id="app"><p>…</p></main>'
        '<script src="/tournaments/assets/table-entry.js"></script></body></html>\n'
    )


@entry_router.get("/tournaments/{event_id}/t/{session}/{table}/qr.svg", summary="the entry page's link as a QR code")
def page_qr(event_id: str, session: int, table: int, request: Request) -> Response:
    from majiang.tournament.adapters.output.qr import qr_svg

    url = str(request.url_for("page_table", event_id=event_id, session=session, table=table))
    return Response(qr_svg(url), media_type="image/svg+xml")


@entry_router.get("/tournaments/assets/table-entry.js", summary="the phone page's script")
def page_script() -> Response:
    from importlib.resources import files

    js = files("majiang.tournament.adapters").joinpath("table_entry.js").read_text(encoding="utf-8")
    return Response(js, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "max-age=300"})


CSS = """
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC", system-ui, sans-serif; margin: 0; padding: 12px; color: #111;
       max-width: 560px; margin-inline: auto; font-size: 17px; }
h1 { font-size: 1.2rem; margin: 0 0 .4rem; } h2 { font-size: 1.05rem; margin: .9rem 0 .4rem; }
button, select, input { font: inherit; min-height: 44px; width: 100%; border-radius: 8px; }
button { border: 1px solid #888; background: #f4f4f4; margin: 3px 0; }
button.on { background: #1c6b3a; color: #fff; border-color: #1c6b3a; }
button.go { background: #1d4ed8; color: #fff; border-color: #1d4ed8; font-weight: 700; }
.row { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 6px; }
.row4 { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 6px; }
.row4 button { font-size: .85rem; overflow-wrap: anywhere; }
.box { border: 1px solid #ccc; border-radius: 10px; padding: 10px; margin: 8px 0; }
.err { color: #b00020; } .ok { color: #1c6b3a; } .warn { background: #fff3cd; }
table { width: 100%; border-collapse: collapse; } td { padding: 4px; border-bottom: 1px solid #eee; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } label { display: block; margin: 6px 0 2px; }
button.fan { text-align: left; padding: 0 10px; overflow-wrap: anywhere; }
#fan-chips { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 6px; margin-top: 4px; }
button.chip { background: #e6f0ff; border-color: #1d4ed8; color: #1d4ed8; font-weight: 700; }
input[readonly] { background: #eee; }
#clock { font-size: 1.1rem; font-weight: 700; font-variant-numeric: tabular-nums; margin: .2rem 0; }
#clock.warning { color: #a15c00; } #clock.over { color: #b00020; }
.called { background: #fde2e2; border-color: #b00020; } .called h2 { color: #b00020; margin-top: 0; }
""".strip()


# ---- the session clock and the projector ---------------------------------------------------------
@entry_router.get("/api/tournaments/{event_id}/clock", summary="the session clock and the tables where time is called")
def api_clock(event_id: str, db: DB, session: int | None = None) -> dict[str, Any]:
    try:
        return TournamentRepository(db).clock(event_id, session)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None


class ClockIn(BaseModel):
    minutes: int = Field(default=180, ge=1, le=600)
    warn: int = Field(default=15, ge=0, le=120)


@entry_router.post(
    "/tournaments/{event_id}/sessions/{session}/clock", summary="start (or restart) a session's clock (organiser token)"
)
def start_clock(
    event_id: str, session: int, db: DB, authorization: Auth = None, body: ClockIn | None = None
) -> dict[str, Any]:
    repo = organiser_repo(db, event_id, authorization)
    b = body or ClockIn()
    try:
        repo.start_clock(event_id, session, minutes=b.minutes, warn=b.warn)
    except (RepositoryError, ValueError) as e:
        raise HTTPException(409, str(e)) from None
    return repo.clock(event_id, session)


@entry_router.post(
    "/tournaments/{event_id}/sessions/{session}/time",
    summary="call time at every table still playing (organiser token): the hand in play finishes, no new hand",
)
def call_time(event_id: str, session: int, db: DB, authorization: Auth = None) -> dict[str, Any]:
    """The referee's time call (as ``majiang tournament clock EVENT --session K --call``), logged as
    ``web:referee``; answers the clock with ``just_called``: the tables called now."""
    repo = organiser_repo(db, event_id, authorization)
    try:
        called = repo.call_time(event_id, session, by="web:referee")
    except RepositoryError as e:
        raise HTTPException(409, str(e)) from None
    return {**repo.clock(event_id, session), "just_called": called}


@entry_router.get(
    "/tournaments/{event_id}/projector",
    response_class=HTMLResponse,
    summary="full-screen standings for a projector: pages on a timer, the clock, time called",
)
def page_projector(event_id: str, every: int = 12, after: int | None = None) -> HTMLResponse:
    """``?after=K``: the standings after session K (the page's selector changes it); the 升降 column is
    each player's movement since the session before."""
    k = "" if after is None else str(max(1, min(after, 100)))
    return HTMLResponse(
        '<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(event_id)} · 名次 Standings</title><style>{PROJECTOR_CSS}</style></head>"
        f'<body data-event="{escape(event_id)}" data-every="{max(1, min(every, 600))}" data-after="{k}">'
        '<header id="top"><h1 id="title"></h1><select id="after" aria-label="名次 after session"></select>'
        '<div id="clock"></div></header>'
        '<div id="banner" hidden></div><p id="what"></p>'
        '<table><thead id="head"></thead><tbody id="rows"></tbody></table><div id="pager"></div>'
        '<script src="/tournaments/assets/projector.js"></script></body></html>\n'
    )


@entry_router.get("/tournaments/assets/projector.js", summary="the projector page's script")
def projector_script() -> Response:
    from importlib.resources import files

    js = files("majiang.tournament.adapters").joinpath("projector.js").read_text(encoding="utf-8")
    return Response(js, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "max-age=300"})


PROJECTOR_CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; overflow: hidden; background: #0b1d13; color: #f4f4f4;
             font-family: "Noto Sans CJK SC", system-ui, sans-serif; }
body { padding: 16px 32px; }
header { display: flex; justify-content: space-between; align-items: baseline; }
h1 { font-size: 40px; margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#clock { font-size: 44px; font-variant-numeric: tabular-nums; font-weight: 700; }
#clock.warning { color: #ffcc33; } #clock.over { color: #ff6b6b; }
#banner { background: #b91c1c; color: #fff; font-size: 30px; font-weight: 700; padding: 6px 16px; margin: 6px 0; }
#what { font-size: 22px; color: #cde; margin: 6px 0; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
th { font-size: 20px; text-align: left; color: #9bc; border-bottom: 2px solid #9bc; padding: 4px 10px; }
td { font-size: 28px; height: 46px; padding: 0 10px; border-bottom: 1px solid #264; white-space: nowrap;
     overflow: hidden; text-overflow: ellipsis; }
td.n, th:nth-child(1), th:nth-child(5), th:nth-child(6) { text-align: right; font-variant-numeric: tabular-nums; }
td.m, th:nth-child(2) { text-align: center; }
th:nth-child(1) { width: 8%; } th:nth-child(2) { width: 8%; } th:nth-child(3) { width: 38%; }
th:nth-child(4) { width: 20%; }
td.up { color: #5ee08a; font-weight: 700; } td.down { color: #ff8a8a; font-weight: 700; } td.same { color: #9bc; }
#after { font-size: 20px; background: #0b1d13; color: #cde; border: 1px solid #264; margin: 0 16px; max-width: 16em; }
td.b { font-weight: 700; color: #ffe08a; } td.members { font-size: 20px; }
#pager { position: fixed; right: 24px; bottom: 12px; font-size: 18px; color: #9bc; }
""".strip()
