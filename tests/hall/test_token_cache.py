"""Session tokens verified in the last seconds cost no database read (issue 30: a flood of refused
review requests read an account row each and cost the tables a quarter of their pace); a logout
still takes effect at once in its own process and within ``seen_s`` in the others of a cluster."""

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from majiang.hall.accounts import Accounts, AuthError
from majiang.store import Database


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db(tmp_path: Any) -> Iterator[Database]:
    d = Database(f"sqlite:///{tmp_path}/t.db")
    d.migrate()
    yield d


def statements(db: Database) -> list[str]:
    seen: list[str] = []
    event.listen(db.engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    return seen


def test_a_token_verified_a_moment_ago_reads_no_row(db: Database) -> None:
    clock = Clock()
    accounts = Accounts(db, clock=clock)
    token = accounts.issue(accounts.register("alice", "correct horse"))
    sql = statements(db)
    first = accounts.verify(token)
    assert sql, "the first verification reads the account"
    n = len(sql)
    for _ in range(50):
        assert accounts.verify(token) == first
        assert accounts.peek(token) == first
    assert len(sql) == n, sql[n:]
    clock.now += accounts.seen_s  # the entry is old: the next verification reads the row again
    assert accounts.peek(token) is None
    assert accounts.verify(token) == first and len(sql) == 2 * n


def test_bad_tokens_are_refused_before_any_cache(db: Database) -> None:
    accounts = Accounts(db)
    token = accounts.issue(accounts.register("bob", "correct horse"))
    accounts.verify(token)
    for bad in (token[:-1] + ("0" if token[-1] != "0" else "1"), "x.y", "", None, token + "." + token):
        with pytest.raises(AuthError):
            accounts.peek(bad)
        with pytest.raises(AuthError):
            accounts.verify(bad)


def test_a_logout_is_at_once_here_and_within_seen_s_in_another_process(db: Database) -> None:
    clock = Clock()
    here, there = Accounts(db, clock=clock), Accounts(db, clock=clock)  # two hall processes, one database
    token = here.issue(here.register("carol", "correct horse"))
    assert here.verify(token) == there.verify(token)
    here.revoke(here.verify(token).account_id)
    with pytest.raises(AuthError, match="revoked"):
        here.verify(token)
    assert there.verify(token).username == "carol"  # verified a moment ago: still believed there ...
    clock.now += there.seen_s
    with pytest.raises(AuthError, match="revoked"):  # ... for seen_s at most
        there.verify(token)


def test_the_cache_is_bounded(db: Database) -> None:
    accounts = Accounts(db)
    p = accounts.register("dave", "correct horse")
    tokens = {accounts.issue(p) for _ in range(3)}
    for t in tokens:
        accounts.verify(t)
    assert len(accounts._seen) == len(tokens)
    accounts._seen.update({f"junk{i}": (0.0, p) for i in range(4096)})
    other = accounts.issue(accounts.register("erin", "correct horse"))
    accounts.verify(other)  # a new entry past the bound starts the table afresh
    assert list(accounts._seen) == [other]
