"""The organiser's way into online sessions (token-protected routes, ``tournament online``), every group on the
event page, and ``standings | head`` ending quietly."""

import subprocess
import sys
from dataclasses import replace

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from majiang.store import Database
from majiang.tournament import Group, Player, SessionRecord, TableRecord
from majiang.tournament.adapters.repository import TournamentRepository
from majiang.tournament.adapters.web import get_db, router
from majiang.tournament.draw import draw_session
from majiang.tournament.organiser import issue_token
from majiang.tournament.registration import build_group, count_entries, new_event


@pytest.fixture
def hall_client(tmp_path):
    from majiang.cli.serve_cmd import tournament_features
    from majiang.hall.app import create_app
    from majiang.hall.rooms import Room

    app = create_app(
        f"sqlite:///{tmp_path}/hall.db", [Room(id="t", name="t")], bot_delay=(0, 0), **tournament_features()
    )
    with TestClient(app) as c:
        db = app.state.hall.db
        repo = TournamentRepository(db)
        token, key = issue_token()
        event = new_event("cup", "Cup", build_group(count_entries(4)), sessions=1, seed=3)
        repo.save(replace(event, extra={**event.extra, **key}))
        repo.put_session("cup", "A", draw_session(repo.load("cup"), "A", 1))
        acc = app.state.hall.accounts.register("player01", "correct horse")
        repo.set_account("cup", "P01", acc.account_id)
        yield c, repo, token


def test_open_needs_the_organiser_token(hall_client):
    c, repo, token = hall_client
    url = "/tournaments/cup/sessions/1/open"
    r = c.post(url)
    assert r.status_code == 401 and "majiang tournament token" in r.json()["detail"]
    assert c.post(url, headers={"Authorization": "Bearer guess"}).status_code == 403
    assert c.post("/tournaments/nope/sessions/1/open", headers={"Authorization": "Bearer x"}).status_code == 404
    assert not repo.hall_tables("cup")
    r = c.post(url, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    table = r.json()["tables"][0]
    assert table["hall_table"] and table["code"] and not table["engine"]
    assert [s["bot"] for s in table["seats"]] == [s["player"] != "P01" for s in table["seats"]]
    assert list(repo.hall_tables("cup")) == [table["hall_table"]]
    again = c.post(url, headers={"Authorization": f"Bearer {token}"})  # opened again: the live table as it is
    assert again.status_code == 200, again.text
    assert [(t["hall_table"], t["state"]) for t in again.json()["tables"]] == [(table["hall_table"], "playing")]
    assert list(repo.hall_tables("cup")) == [table["hall_table"]]  # no second hall table
    switch = c.post(url, headers={"Authorization": f"Bearer {token}"}, json={"duplicate": True})
    assert switch.status_code == 400 and "duplicate" in switch.json()["detail"]
    assert c.post("/tournaments/cup/sessions/1/sync").status_code == 401
    r = c.post("/tournaments/cup/sessions/1/sync", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["tables"][0]["table"] == 1


def test_the_online_command_calls_the_hall(hall_client, monkeypatch, capsys):
    from majiang.cli.tournament import main
    from majiang.cli.tournament import online as tournament_online

    c, repo, token = hall_client
    calls = []

    def post(url, tok, body):
        calls.append(url)
        r = c.post(url.removeprefix("http://hall"), json=body, headers={"Authorization": f"Bearer {tok}"})
        return r.status_code, r.json()

    monkeypatch.setattr(tournament_online, "post", post)
    monkeypatch.delenv("MAJIANG_ORGANISER_TOKEN", raising=False)
    assert main(["online", "cup", "--session", "1", "--url", "http://hall"]) == 2
    assert "--token TOKEN or $MAJIANG_ORGANISER_TOKEN" in capsys.readouterr().err
    assert main(["online", "cup", "--session", "1", "--url", "http://hall", "--token", "guess"]) == 2
    assert "the hall refused (403)" in capsys.readouterr().err
    monkeypatch.setenv("MAJIANG_ORGANISER_TOKEN", token)
    assert main(["online", "cup", "--session", "1", "--url", "http://hall"]) == 0
    out = capsys.readouterr().out
    assert "online" in out and "P01" in out and "bot" in out
    assert calls[-1] == "http://hall/tournaments/cup/sessions/1/open" and repo.hall_tables("cup")
    assert main(["online", "cup", "--session", "1", "--url", "http://hall", "--sync"]) == 0
    assert "hand(s) entered from the hall" in capsys.readouterr().out
    assert main(["online", "cup", "--session", "1", "--url", "http://hall"]) == 0  # again: the live table
    assert "playing" in capsys.readouterr().out
    assert main(["online", "cup", "--session", "1", "--url", "http://hall", "--duplicate"]) == 2  # the body has it
    assert "without duplicate walls" in capsys.readouterr().err


def test_token_command_replaces_the_token(tmp_path, capsys):
    from majiang.cli.tournament import main
    from majiang.tournament.organiser import is_organiser

    url = f"sqlite:///{tmp_path}/t.db"
    assert main(["new", "Cup", "--count", "4", "--sessions", "1", "--seed", "1", "--db", url]) == 0
    first = capsys.readouterr().err.split("online sessions need it): ")[1].strip()
    assert main(["token", "cup", "--db", url]) == 0
    second = capsys.readouterr().out.strip()
    db = Database(url)
    extra = TournamentRepository(db).load("cup").extra
    db.dispose()
    assert is_organiser(extra, second) and not is_organiser(extra, first)


def test_every_group_is_shown(tmp_path):
    def group(gid: str, first: int) -> Group:
        ids = [f"{gid}{i}" for i in range(first, first + 4)]
        table = TableRecord(no=1, players=tuple(ids), totals=(30, 10, -10, -30))
        return Group(
            id=gid,
            name=f"Group {gid}",
            players=tuple(Player(id=p, name=p) for p in ids),
            sessions=(SessionRecord(no=1, tables=(table,)),),
        )

    db = Database(f"sqlite:///{tmp_path}/g.db")
    db.migrate()
    from majiang.tournament import Event

    TournamentRepository(db).save(Event(id="two", name="Two", groups=(group("A", 1), group("B", 5))))
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_db] = lambda: db
    c = TestClient(app)
    r = c.get("/tournaments/two")
    assert r.status_code == 200
    assert all(p in r.text for p in ("A1", "A4", "B5", "B8")) and "Group B" in r.text
    assert "plot.svg?group=B" in r.text and "/sheet/1/1?group=B" in r.text
    assert c.get("/tournaments/two/sheet/1/1?group=B").status_code == 200
    assert "B5" in c.get("/tournaments/two/standings.csv?group=B").text
    assert c.get("/tournaments/two/plot.svg?group=Z").status_code == 404
    db.dispose()


def test_standings_into_a_closed_pipe_end_quietly(tmp_path):
    url = f"sqlite:///{tmp_path}/p.db"
    cli = [sys.executable, "-m", "majiang.cli.tournament"]
    subprocess.run(
        [*cli, "new", "Cup", "--count", "16", "--sessions", "1", "--seed", "1", "--db", url],
        check=True,
        capture_output=True,
    )
    for extra, status in (("--json", {141}), ("", {1, 141})):  # rich ends a broken pipe itself with status 1
        argv = [*cli, "standings", "cup", "--db", url, *([extra] if extra else [])]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.close()  # the reader is gone before anything is written (… | head -0)
        _, err = proc.communicate(timeout=120)
        assert err.decode() == "" and proc.returncode in status, (extra, err)
