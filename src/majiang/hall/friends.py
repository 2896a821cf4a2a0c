"""Friends: requests, the list with presence, blocks and invites to a private table (docs/web-client.md
"Friends").

A request from A to B is a ``pending`` row A→B; B accepts (rows both ways, ``accepted``) or declines
(the row goes).  Either removes the friendship (both rows go).  A block is a ``blocked`` row
blocker→blocked: the blocked account's requests are refused, the blocker vanishes from his list, and
nothing of either reaches the other.  Only registered players have friends (a guest is a throw-away
account).  At most ``MAX_FRIENDS`` friends and ``MAX_PENDING`` open requests an account.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.orm import Session

from majiang.store.models import Account, Friendship

MAX_FRIENDS = 200
MAX_PENDING = 50


class FriendError(ValueError):
    """A friend request the rules refuse; ``code`` for the client, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _row(s: Session, a: int, b: int) -> Friendship | None:
    return s.get(Friendship, (a, b))


def request(s: Session, account: int, username: str) -> dict[str, Any]:
    """Ask ``username`` to be friends (accepting at once when he asked first)."""
    me = s.get(Account, account)
    other = s.scalar(select(Account).where(func.lower(Account.username) == username.strip().lower()))
    if me is None or me.kind != "player":
        raise FriendError("not_player", "only registered players have friends: sign up to add one")
    if other is None or other.kind != "player" or other.id == account:
        raise FriendError("not_found", f"no player {username!r} to add")
    theirs, mine = _row(s, other.id, account), _row(s, account, other.id)
    if theirs is not None and theirs.state == "blocked":
        raise FriendError("blocked", f"{other.username} does not take requests from you")
    if mine is not None and mine.state in ("accepted", "pending"):
        return {"friend": other.id, "state": mine.state}
    if mine is not None and mine.state == "blocked":
        raise FriendError("blocked", f"you blocked {other.username}: unblock first (remove, then add)")
    if theirs is not None and theirs.state == "pending":  # he asked first: now friends
        theirs.state = "accepted"
        s.add(Friendship(account_id=account, friend_id=other.id, state="accepted"))
        return {"friend": other.id, "state": "accepted"}
    counts = dict(
        s.execute(
            select(Friendship.state, func.count()).where(Friendship.account_id == account).group_by(Friendship.state)
        ).all()
    )
    if counts.get("accepted", 0) >= MAX_FRIENDS or counts.get("pending", 0) >= MAX_PENDING:
        raise FriendError("limit", f"at most {MAX_FRIENDS} friends and {MAX_PENDING} open requests")
    s.add(Friendship(account_id=account, friend_id=other.id, state="pending"))
    return {"friend": other.id, "state": "pending"}


def _player(s: Session, account: int) -> Account:
    acc = s.get(Account, account)
    if acc is None or acc.kind != "player":
        raise FriendError("not_found", f"no player {account}")
    return acc


def accept(s: Session, account: int, friend: int) -> None:
    theirs = _row(s, friend, account)
    if theirs is None or theirs.state != "pending":
        raise FriendError("not_found", "no request from that player to accept")
    theirs.state = "accepted"
    mine = _row(s, account, friend)
    if mine is None:
        s.add(Friendship(account_id=account, friend_id=friend, state="accepted"))
    else:
        mine.state = "accepted"


def remove(s: Session, account: int, friend: int) -> None:
    """End a friendship, decline or withdraw a request, or lift one's own block."""
    s.execute(
        delete(Friendship).where(
            or_(
                and_(Friendship.account_id == account, Friendship.friend_id == friend),
                and_(Friendship.account_id == friend, Friendship.friend_id == account, Friendship.state != "blocked"),
            )
        )
    )


def block(s: Session, account: int, other: int) -> None:
    _player(s, other)
    remove(s, account, other)
    s.execute(
        delete(Friendship).where(
            Friendship.account_id == other, Friendship.friend_id == account, Friendship.state != "blocked"
        )
    )
    s.add(Friendship(account_id=account, friend_id=other, state="blocked"))


def are_friends(s: Session, a: int, b: int) -> bool:
    row = _row(s, a, b)
    return row is not None and row.state == "accepted"


def listing(s: Session, account: int) -> dict[str, list[dict[str, Any]]]:
    """``friends`` (accepted), ``incoming`` and ``outgoing`` requests, ``blocked`` — names and ids."""
    out: dict[str, list[dict[str, Any]]] = {"friends": [], "incoming": [], "outgoing": [], "blocked": []}
    rows = s.execute(
        select(Friendship, Account)
        .join(Account, Account.id == Friendship.friend_id)
        .where(Friendship.account_id == account)
        .order_by(Account.username)
    ).all()
    for f, a in rows:
        key = {"accepted": "friends", "pending": "outgoing", "blocked": "blocked"}[f.state]
        out[key].append({"account": a.id, "name": a.username})
    incoming = s.execute(
        select(Account)
        .join(Friendship, Friendship.account_id == Account.id)
        .where(Friendship.friend_id == account, Friendship.state == "pending")
        .order_by(Account.username)
    ).scalars()
    out["incoming"] = [{"account": a.id, "name": a.username} for a in incoming]
    return out
