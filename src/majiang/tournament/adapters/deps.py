"""The database dependency of the competition routes (:mod:`.web`, :mod:`.table_entry`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

from majiang.store import Database


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
