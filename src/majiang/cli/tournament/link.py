"""``majiang tournament link``: attach hall accounts to an event's players for online sessions (by username),
detach them, list who is linked.  The link is ``tt_players.account_id``; ``tournament online`` seats each
linked player at his chair in the hall, bots play the others."""

from __future__ import annotations

import argparse
import json
from typing import Any

from majiang.cli.tournament.common import DB_HELP, RAW, CliError, describe, open_repo, wrap


def register(tsub: Any) -> None:
    p = tsub.add_parser(
        "link",
        help="attach hall accounts to players for online sessions (by username); list the links",
        description=describe(
            "Link an event's player to his hall account (the username he signed up with in 'majiang serve'), "
            "so that 'tournament online' seats him at his chair; a player without an account is played by a "
            "bot.  Without PLAYER: list every player and his account.  PLAYER is a player id (P01) or his "
            "registered name; --remove detaches him.  Guest and bot accounts cannot be linked, nor one "
            "account to two players of the event."
        ),
        formatter_class=RAW,
        epilog="examples:\n"
        "  majiang tournament link cup P01 alice\n"
        '  majiang tournament link cup "Wang Fang" wangfang\n'
        "  majiang tournament link cup P01 --remove\n"
        "  majiang tournament link cup            # the list\n"
        "  majiang tournament link cup --json",
    )
    p.add_argument("event", help="event id")
    p.add_argument("player", nargs="?", default=None, help="player id or registered name (none: list the links)")
    p.add_argument("username", nargs="?", default=None, help="the hall account's username")
    p.add_argument("--remove", action="store_true", help="detach the player's account")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.set_defaults(func=cmd_link)


def find_player(players: list[Any], event_id: str, given: str) -> Any:
    """A player by id, else by his registered name (case and spacing ignored; it must be unique)."""
    for p in players:
        if p.id == given:
            return p
    key = " ".join(given.split()).casefold()
    named = [p for p in players if p.name and " ".join(p.name.split()).casefold() == key]
    if len(named) == 1:
        return named[0]
    if named:
        raise CliError(
            f"{len(named)} players of {event_id} are named {given!r}: give the id ({', '.join(p.id for p in named)})"
        )
    raise CliError(f"event {event_id} has no player {given!r}; 'majiang tournament link {event_id}' lists them")


def account_of(repo: Any, username: str) -> tuple[int, str]:
    """``(id, username)`` of a registered hall account, or a clear error."""
    from sqlalchemy import func, select

    from majiang.store.models import Account

    with repo.db.session() as s:
        acc = s.scalar(select(Account).where(func.lower(Account.username) == username.strip().lower()))
        if acc is None:
            raise CliError(
                f"no hall account {username!r}: the player signs up in the hall first (majiang serve, 注册 "
                "register), then link him with that username"
            )
        if acc.kind != "player":
            raise CliError(f"{acc.username!r} is a {acc.kind} account: link the player's registered account")
        return int(acc.id), str(acc.username)


def usernames(repo: Any, ids: list[int]) -> dict[int, str]:
    from sqlalchemy import select

    from majiang.store.models import Account

    if not ids:
        return {}
    with repo.db.session() as s:
        return {int(i): str(u) for i, u in s.execute(select(Account.id, Account.username).where(Account.id.in_(ids)))}


def links(repo: Any, event_id: str) -> list[dict[str, Any]]:
    """Every player of the event with his linked account (None: not linked)."""
    event = repo.load(event_id)
    accounts = repo.accounts(event_id)
    names = usernames(repo, sorted(set(accounts.values())))
    return [
        {
            "group": g.id,
            "player": p.id,
            "name": p.name or p.id,
            "account": accounts.get(p.id),
            "username": names.get(accounts[p.id]) if p.id in accounts else None,
        }
        for g in event.groups
        for p in g.players
    ]


@wrap
def cmd_link(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    event = repo.load(args.event)  # an unknown event says which exist
    if args.player is None:
        if args.remove or args.username:
            raise CliError("give the player: majiang tournament link EVENT PLAYER USERNAME (or PLAYER --remove)")
        rows = links(repo, args.event)
        if args.json:
            print(json.dumps(rows, ensure_ascii=False))
            return 0
        for r in rows:
            who = f"{r['username']} (#{r['account']})" if r["account"] is not None else "— (bot 机器人)"
            print(f"{r['player']:<6} {r['name']:<24} {who}")
        n = sum(1 for r in rows if r["account"] is not None)
        print(f"{n} of {len(rows)} players linked to hall accounts")
        return 0
    player = find_player([p for g in event.groups for p in g.players], args.event, args.player)
    if args.remove:
        if args.username:
            raise CliError("--remove takes the player only")
        repo.set_account(args.event, player.id, None)
        print(f"{player.id} ({player.name or player.id}): no hall account; a bot plays his chair online")
        return 0
    if not args.username:
        raise CliError(f"give the hall username: majiang tournament link {args.event} {args.player} USERNAME")
    acc, name = account_of(repo, args.username)
    taken = [p for p, a in repo.accounts(args.event).items() if a == acc and p != player.id]
    if taken:
        raise CliError(
            f"{name!r} is linked to {taken[0]} already: unlink him first (link {args.event} {taken[0]} --remove)"
        )
    repo.set_account(args.event, player.id, acc)
    print(f"{player.id} ({player.name or player.id}) → hall account {name} (#{acc})")
    return 0
