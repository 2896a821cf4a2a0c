"""The database layer (SQLAlchemy 2 + Alembic): SQLite by default, PostgreSQL by URL.

>>> db = Database("sqlite:///var/majiang.db"); db.migrate()
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///var/majiang.db"


def normalize_url(url: str) -> str:
    """Accept ``postgresql://`` (use psycopg 3) and plain paths (SQLite files)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


class Database:
    def __init__(self, url: str | None = None, echo: bool = False) -> None:
        self.url = normalize_url(url or os.environ.get("MAJIANG_DB", DEFAULT_URL))
        kwargs: dict[str, Any] = {"echo": echo, "future": True}
        if self.url.startswith("sqlite"):
            path = self.url.split("sqlite:///", 1)[-1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_size"] = 10
            kwargs["max_overflow"] = 20
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _sqlite_begin)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A unit of work: committed at the end, rolled back on error."""
        s = self.sessions()
        try:
            yield s
            s.commit()
        except BaseException:
            s.rollback()
            raise
        finally:
            s.close()

    def migrate(self) -> None:
        """Bring the schema to the latest Alembic revision."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        if self.is_sqlite:
            cfg.attributes["engine"] = self.engine
            command.upgrade(cfg, "head")
            return
        # several hall processes may start at once: one migrates, the others wait for it
        with self.engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(7465300)"))
            try:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                conn.commit()
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(7465300)"))
                conn.commit()

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # let SQLAlchemy decide where transactions begin (pysqlite's own handling would turn a
    # SAVEPOINT outside BEGIN into a transaction that RELEASE commits on its own)
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _sqlite_begin(conn: Any) -> None:
    # IMMEDIATE: take the write lock up front, so that a transaction that reads and then writes waits
    # for another writer (the 30 s busy timeout) instead of failing with "database is locked" when
    # its snapshot went stale (SQLITE_BUSY_SNAPSHOT, which no busy timeout retries)
    conn.exec_driver_sql("BEGIN IMMEDIATE")
