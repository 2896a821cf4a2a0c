"""What the competition routes (:mod:`.web`, :mod:`.table_entry`) depend on: the database, and the
repository once the organiser's token is shown."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

from majiang.store import Database
from majiang.tournament.adapters.repository import EventNotFound, TournamentRepository
from majiang.tournament.model import Event
from majiang.tournament.sealing import public_view


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


def organiser_repo(db: Database, event_id: str, authorization: str | None) -> TournamentRepository:
    """The repository, once ``Authorization: Bearer TOKEN`` carries the event's organiser token."""
    from majiang.tournament.organiser import is_organiser

    token = authorization.removeprefix("Bearer ").strip() if authorization else ""
    if not token:
        raise HTTPException(
            401,
            "the organiser token is needed: send 'Authorization: Bearer TOKEN' (the token "
            "'majiang tournament new' printed; a new one: 'majiang tournament token EVENT')",
        )
    repo = TournamentRepository(db)
    try:
        event = repo.load(event_id)
    except EventNotFound as e:
        raise HTTPException(404, str(e)) from None
    if not is_organiser(event.extra, token):
        raise HTTPException(
            403,
            f"not the organiser token of event {event_id!r}; issue a new one with "
            f"'majiang tournament token {event_id}'",
        )
    return repo


class PublicRepository(TournamentRepository):
    """What the public pages read: a 复式 session still playing is left out (majiang.tournament.sealing)."""

    def load(self, event_id: str) -> Event:
        return public_view(super().load(event_id))
