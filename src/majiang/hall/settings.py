"""The auto toggles at the table and 托管's bot (docs/protocol.md, *Settings*).

Three toggles, remembered per account (:class:`SettingsStore`, table ``account_settings``), acted on
**by the server** the moment a prompt would be sent (:func:`preset_action`):

* **自动和 auto-win** — a win the engine offers is taken at once.  The engine offers a win only when
  the hand scores the ruleset's minimum (MCR: 8 fan), so this never declares a false win.
* **不吃碰杠 auto-pass** — a claim prompt (chow, pung, kong) is passed at once, unless it offers a
  win: that prompt is shown as usual (or taken by auto-win).
* **摸切 auto-discard** — on one's turn the drawn tile is discarded at once, unless a win or a kong
  (concealed or added) is offered, or there is no drawn tile (after a chow or pung): that turn is
  shown as usual.

Server-side, not in the client: the reply needs no round trip, so nobody waits for a claim window
or a timer; a decision the server takes for the player is never a timeout, so it never counts
toward 托管; it holds across reloads, reconnects, other devices and a takeover by another process
(the seat's settings travel in the table's snapshot); and the client cannot get it wrong by
answering a prompt that was already withdrawn.  The player learns of each one (``preset``).

托管 (a seat on auto-play after timeouts, a disconnect or an escape) plays with the room's
fan-aware bot (:func:`autoplay_bot`): it wins when it can, claims and discards as the room's bots
do, instead of the engine's default (discard the drawn tile, pass every claim).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from majiang.bots.base import Bot, make_bot
from majiang.engine.protocol import ADDED_KONG, CONCEALED_KONG, DISCARD, PASS, WIN, Action
from majiang.engine.view import SeatView
from majiang.store import Database
from majiang.store.models import Account, now
from majiang.store.settings_models import AccountSettings

TOGGLES = ("auto_win", "auto_pass", "auto_discard")
#: 托管 plays with the room's bot kind when it is one of these (fan-aware or efficiency), else with FALLBACK
AUTOPLAY_KINDS = ("eff", "fan", "ev", "best")
AUTOPLAY_FALLBACK = "fan"


@dataclass(frozen=True)
class Prefs:
    """One account's toggles (all off by default)."""

    auto_win: bool = False
    auto_pass: bool = False
    auto_discard: bool = False

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Prefs:
        """From a snapshot or a table message: the known toggles, each a real bool (else off)."""
        d = d or {}
        return cls(**{k: d.get(k) is True for k in TOGGLES})

    def with_changes(self, changes: dict[str, bool]) -> Prefs:
        unknown = set(changes) - set(TOGGLES)
        if unknown:
            raise ValueError(f"unknown setting(s) {sorted(unknown)}; known: {list(TOGGLES)}")
        if not all(isinstance(v, bool) for v in changes.values()):
            raise ValueError("each setting is true or false")
        return replace(self, **changes)


def preset_action(view: SeatView, legal: list[Action], prefs: Prefs) -> tuple[str, Action] | None:
    """The action a toggle takes for this prompt at once, with the toggle's name; None: ask the player."""
    win = next((a for a in legal if a.type == WIN), None)
    if win is not None:
        return ("auto_win", win) if prefs.auto_win else None  # a win is never passed nor discarded past
    phase = view.phase
    if phase in ("claim", "rob"):
        if prefs.auto_pass and any(a.type == PASS for a in legal):
            return "auto_pass", Action(PASS)
        return None
    if phase == "turn" and prefs.auto_discard:
        if any(a.type in (CONCEALED_KONG, ADDED_KONG) for a in legal):
            return None  # a kong is the player's choice
        drawn = view.drawn
        if drawn is not None and (a := Action(DISCARD, drawn)) in legal:
            return "auto_discard", a
    return None


def autoplay_kind(room_bots: str) -> str:
    return room_bots if room_bots in AUTOPLAY_KINDS else AUTOPLAY_FALLBACK


def autoplay_bot(room_bots: str, rules: str, seed: int) -> Bot:
    """托管's player: the room's fan-aware bot kind (the ruleset's own bots: Nanchang's for Nanchang)."""
    return make_bot(autoplay_kind(room_bots), seed=seed, rules=rules)


class SettingsStore:
    """The toggles in the database (blocking; the hall calls it off the event loop)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, account: int) -> Prefs:
        with self.db.session() as s:
            row = s.get(AccountSettings, account)
            return _prefs(row) if row is not None else Prefs()

    def update(self, account: int, changes: dict[str, bool]) -> Prefs:
        """Apply ``changes`` (validated: known names, bools) and return the account's settings."""
        try:
            return self._update(account, changes)
        except IntegrityError:  # a first row written at the same moment by another request: once more
            return self._update(account, changes)

    def _update(self, account: int, changes: dict[str, bool]) -> Prefs:
        with self.db.session() as s:
            if s.scalar(select(Account.id).where(Account.id == account)) is None:
                raise ValueError(f"no account {account}")
            row = s.get(AccountSettings, account)
            prefs = (_prefs(row) if row is not None else Prefs()).with_changes(changes)
            if row is None:
                s.add(AccountSettings(account_id=account, **prefs.to_dict(), updated_at=now()))
            else:
                for k, v in prefs.to_dict().items():
                    setattr(row, k, v)
                row.updated_at = now()
            return prefs


def _prefs(row: AccountSettings) -> Prefs:
    return Prefs(auto_win=bool(row.auto_win), auto_pass=bool(row.auto_pass), auto_discard=bool(row.auto_discard))
