"""``majiang tournament standings | export``: the standings, score sheets and exports."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, fmt_score, open_repo, wrap

if TYPE_CHECKING:
    from majiang.tournament.adapters.repository import TournamentRepository

FORMATS = ("csv", "hands", "ema", "players", "html", "pdf", "png", "svg", "seating")
BINARY = ("pdf", "png", "seating")


def register(tsub: Any) -> None:
    s = tsub.add_parser(
        "standings",
        help="individual and team standings",
        description=describe(
            "Standings by Σ standard scores, then Σ session scores, best session, high sessions (第十一条); "
            "teams by their members' Σ.  Sessions drawn but still empty are left out."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament standings spring-cup\n"
        "  majiang tournament standings spring-cup --json\n"
        "  majiang tournament standings spring-cup --after 2        (▲/▼/– since session 1)\n"
        "  majiang tournament standings open --phase final",
    )
    s.add_argument("event", help="event id")
    s.add_argument(
        "--after",
        type=int,
        default=None,
        metavar="K",
        help="the standings after session K (default: the last with results), with each player's movement since K−1",
    )
    s.add_argument("--phase", default=None, metavar="NAME", help="one phase's standings (majiang tournament phase)")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("--db", default=None, help=DB_HELP)
    s.set_defaults(func=cmd_standings)

    x = tsub.add_parser(
        "export",
        help="standings CSV, EMA results, HTML/PDF standings or score sheets, PNG/SVG plots",
        description=describe(
            "Write an export.  csv: standings; hands: every hand; ema: the EMA results file (table points "
            "4/2/1/0 per table, mahjong points Σ (score − 500); --order ema ranks by them, --order official "
            "keeps the event's 1998 ranking positions; names from the family/given columns); players: the "
            "player list (id, name, family, given, romanised, team, ema_id, country, reserve: 'new "
            "--players' reads it back); html/pdf: "
            "the standings, or with --session and --table the score sheet (比赛成绩记录表) of that table; "
            "png/svg: cumulative standard score per session; pdf with --session K --all-tables: every "
            "score sheet of the session, one page each; seating: the PDF to print for session K (table "
            "cards, seat slips, the alphabetical find-your-seat list).  The format defaults to the "
            "file's suffix (seating.pdf or …-seating.pdf → seating)."
        ),
        formatter_class=RAW,
        epilog="examples:\n  majiang tournament export cup --format csv -o standings.csv\n"
        "  majiang tournament export cup --format pdf --session 2 --table 1 -o sheet-2-1.pdf\n"
        "  majiang tournament export cup --session 2 --all-tables -o sheets-2.pdf\n"
        "  majiang tournament export cup --format seating --session 2 -o seating-2.pdf\n"
        "  majiang tournament export cup -o standings.svg\n  majiang tournament export cup --format ema -o -",
    )
    x.add_argument("event", help="event id")
    x.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="default: from the -o name (hands.csv → hands, ema.csv → ema, players.csv → players, other .csv → "
        "standings)",
    )
    x.add_argument(
        "--order",
        choices=("ema", "official"),
        default="ema",
        help="ema: the EMA file by table points then mahjong points (default); official: by the event's ranking",
    )
    x.add_argument("--session", type=int, default=None, metavar="K", help="score sheet: the session")
    x.add_argument("--table", type=int, default=None, metavar="T", help="score sheet: the table")
    x.add_argument("--all-tables", action="store_true", help="score sheets: every table of --session K in one PDF")
    x.add_argument(
        "--url",
        default=None,
        metavar="URL",
        help="seating: the hall's address as phones reach it; each table card gets its entry QR code and PIN",
    )
    x.add_argument(
        "--after", type=int, default=None, metavar="K", help="csv/html/pdf standings after session K, with movement"
    )
    x.add_argument("--phase", default=None, metavar="NAME", help="csv/html/pdf standings of one phase")
    x.add_argument("-o", "--output", required=True, metavar="FILE", help="output file ('-' = stdout, text formats)")
    x.add_argument("--db", default=None, help=DB_HELP)
    x.set_defaults(func=cmd_export)


# ---- standings -----------------------------------------------------------------------------------
@wrap
def cmd_standings(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    data = repo.standings(args.event, args.after, phase=args.phase)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    con = Console()
    for g in data["groups"]:
        n = g["sessions_scored"]
        when = (
            f"第{data['after']}局后 after session {data['after']}"
            if data["after"]
            else f"{n}/{g['sessions_drawn']} sessions"
        )
        phase = f" · 阶段 phase {data['phase']}" if data["phase"] else ""
        final = "" if g["final"] else " · 暂定 PROVISIONAL"
        t = Table(
            title=f"{data['name']} · 个人名次 Individual standings · 标准分 {data['scheme']} · {when}{phase}{final}"
        )
        t.add_column("名次\nRank", justify="right")
        t.add_column("升降\nMove", justify="center")
        t.add_column("选手\nPlayer")
        t.add_column("队\nTeam")
        for k in g["sessions"]:
            t.add_column(f"第{k}局\nS{k}", justify="right")
        t.add_column("标准分\nStd total", justify="right", style="bold")
        t.add_column("比赛分\nScore total", justify="right")
        for r in g["standings"]:
            per = [
                (note if sc is None else f"{fmt_score(v)} ({sc})")
                for v, sc, note in zip(r["session_standards"], r["session_scores"], r["session_notes"], strict=True)
            ]
            who = r["player"] if r["name"] in ("", r["player"]) else f"{r['player']} {r['name']}"
            who += " · 退赛" if r.get("withdrawn") else ""
            who += f" · 补报 from S{r['late_entry']}" if r.get("late_entry") else ""
            rank = str(r["rank"]) + (" DQ" if r["disqualified"] else "")
            t.add_row(
                rank, r["movement"], who, r["team"] or "", *per, fmt_score(r["standard_total"]), str(r["match_total"])
            )
        con.print(t)
        if g["teams"]:
            tt = Table(title="团体名次 Team standings")
            tt.add_column("名次\nRank", justify="right")
            tt.add_column("升降\nMove", justify="center")
            tt.add_column("队\nTeam")
            tt.add_column("队员\nMembers")
            tt.add_column("标准分\nStd total", justify="right", style="bold")
            tt.add_column("比赛分\nScore total", justify="right")
            for r in g["teams"]:
                tt.add_row(
                    str(r["rank"]),
                    r["movement"],
                    r["name"] or r["team"],
                    ", ".join(r.get("member_names") or r["members"]),
                    fmt_score(r["standard_total"]),
                    str(r["match_total"]),
                )
            con.print(tt)
        if not g["final"]:
            con.print(f"暂定 provisional, not final: {incomplete(g['provisional'])}")
    if not any(g["sessions_scored"] for g in data["groups"]):
        con.print(f"no results yet: enter hands with 'majiang tournament enter {data['event']} --session 1 …'")
    return 0


# ---- export --------------------------------------------------------------------------------------
def format_of(path: str) -> str:
    """The export a file name asks for: its suffix (``.csv`` the standings), or the ``hands`` or
    ``ema`` export for a ``….csv`` whose stem names it (``hands.csv``, ``spring-ema.csv``)."""
    p = Path(path)
    suffix = p.suffix.lower().lstrip(".")
    stem = p.stem.lower()
    for special in {"csv": ("hands", "ema", "players"), "pdf": ("seating",)}.get(suffix, ()):
        if (
            stem == special
            or stem.endswith((f"-{special}", f"_{special}", f".{special}"))
            or stem.startswith((f"{special}-", f"{special}_"))
        ):
            return special
    if suffix not in FORMATS:
        raise CliError(f"give --format ({', '.join(FORMATS)}); it cannot be told from {path!r}")
    return suffix


@wrap
def cmd_export(args: argparse.Namespace) -> int:
    fmt = args.format
    if fmt is None:
        fmt = format_of(args.output)
    if args.all_tables:
        if args.session is None or args.table is not None:
            raise CliError("--all-tables prints every table of a session: give --session K, not --table")
        if fmt != "pdf":
            raise CliError(f"--all-tables writes one PDF, not {fmt}")
    elif fmt == "seating":
        if args.table is not None:
            raise CliError("the seating PDF is for a whole session: give --session K (default the last drawn)")
    elif (args.session is None) != (args.table is None):
        raise CliError("a score sheet needs both --session K and --table T (or --all-tables)")
    if args.session is not None and fmt not in ("html", "pdf", "seating"):
        raise CliError(f"score sheets are html or pdf, not {fmt}")
    if (args.after is not None or args.phase) and (fmt not in ("csv", "html", "pdf") or args.session is not None):
        raise CliError("--after and --phase go with the standings: csv, html or pdf (not score sheets)")
    if args.output == "-" and fmt in BINARY:
        raise CliError(f"{fmt} is binary: write it to a file with -o FILE")
    if fmt in ("csv", "ema", "html", "pdf") and args.session is None and args.after is None:
        from majiang.tournament.ranking import provisional_note

        for r in open_repo(args).results(args.event)[1].values():
            if note := provisional_note(r):
                print(f"warning: {note}", file=sys.stderr)
    data = render_export(
        open_repo(args),
        args.event,
        fmt,
        args.session,
        args.table,
        all_tables=args.all_tables,
        url=args.url,
        after=args.after,
        phase=args.phase,
        order=args.order,
    )
    if args.output == "-":
        sys.stdout.write(data if isinstance(data, str) else data.decode())
        return 0
    out = Path(args.output)
    if isinstance(data, str):
        out.write_text(data, encoding="utf-8")
    else:
        out.write_bytes(data)
    print(f"wrote {out} ({fmt})", file=sys.stderr)
    return 0


def render_export(
    repo: TournamentRepository,
    event_id: str,
    fmt: str,
    session: int | None = None,
    table: int | None = None,
    *,
    all_tables: bool = False,
    url: str | None = None,
    after: int | None = None,
    phase: str | None = None,
    order: str = "ema",
) -> str | bytes:
    """One export of a stored event as text or bytes: with ``all_tables`` every score sheet of
    ``session`` in one PDF; ``seating`` the session's table cards, seat slips and list."""
    from majiang.tournament.adapters.output import exports, html, pdf, plot
    from majiang.tournament.sheet import score_sheet

    event, results = repo.results(event_id)
    group = event.groups[0]
    result = results[group.id]
    title = f"{event.name} 个人名次"
    if fmt == "seating":
        if not group.sessions:
            raise CliError(f"no session drawn yet: majiang tournament draw {event.id}")
        k = session or len(group.sessions)
        if not 1 <= k <= len(group.sessions):
            raise CliError(f"sessions 1–{len(group.sessions)} are drawn, not {k}")
        links = pins = None
        if url:
            from majiang.cli.tournament.online import table_links

            got = table_links(repo, event_id, k, url)
            links, pins = {x["table"]: x["url"] for x in got}, {x["table"]: x["pins"] for x in got}
        return pdf.seating_pdf(group, k, event=event.name, links=links, pins=pins)
    if session is not None and all_tables:
        full = repo.full_result(event_id, group.id)
        if not 1 <= session <= len(full.sessions):
            raise CliError(f"session {session} is not drawn ({len(full.sessions)} drawn)")
        n = len(full.sessions[session - 1].tables)
        return pdf.score_sheets_pdf(
            [score_sheet(full, session, t, event=event.name, rules=event.rules) for t in range(1, n + 1)]
        )
    if session is not None and table is not None:
        full = repo.full_result(event_id, group.id)
        if not 1 <= session <= len(full.sessions):
            raise CliError(f"session {session} is not drawn ({len(full.sessions)} drawn)")
        if not 1 <= table <= len(full.sessions[session - 1].tables):
            raise CliError(f"session {session} has tables 1–{len(full.sessions[session - 1].tables)}")
        sheet = score_sheet(full, session, table, event=event.name, rules=event.rules)
        return html.score_sheet_html(sheet) if fmt == "html" else pdf.score_sheet_pdf(sheet)
    if fmt in ("csv", "html", "pdf"):
        from majiang.tournament.history import arrows, team_arrows

        _, history = repo.history(event_id, after, phase=phase)
        now, before = history[group.id]
        moves = arrows(now, before) if after is not None else None
        team_moves = team_arrows(now, before) if after is not None else None
        if after is not None:
            title += f" · 第{after}局后 after session {after}"
        if phase:
            title += f" · {phase}"
        if fmt == "csv":
            return exports.standings_csv(now, movement=moves)
        from majiang.tournament.roster import late_entries, withdrawals

        marks = {p: " · 退赛 withdrawn" for p in withdrawals(event)}
        late = late_entries(event)
        marks |= {p: f" · 补报 late entry (S{k})" for p, k in late.items()}
        if fmt == "html":
            return html.standings_html(now, title, movement=moves, team_movement=team_moves, marks=marks, late=late)
        return pdf.standings_pdf(now, title, movement=moves, team_movement=team_moves, marks=marks, late=late)
    if fmt == "hands":
        return exports.hands_csv(result)
    if fmt == "ema":
        return exports.ema_csv(result, order)
    if fmt == "players":
        return exports.players_csv(group)
    return plot.standings_plot(result, "svg" if fmt == "svg" else "png", title=event.name or event.id)


def incomplete(rows: list[dict[str, Any]]) -> str:
    """What keeps the standings provisional: 'session 2: table 3 3/16 hands, table 4 not entered'."""
    by: dict[int, list[str]] = {}
    for x in rows:
        what = "not entered" if x["hands"] is None else f"{x['hands']}/16 hands"
        by.setdefault(x["session"], []).append(f"table {x['table']} {what}")
    return "; ".join(f"session {k}: {', '.join(v)}" for k, v in by.items())
