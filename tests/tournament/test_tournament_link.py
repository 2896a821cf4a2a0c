"""``majiang tournament link``: hall accounts attached to an event's players from the command line."""

import json

from majiang.cli.tournament import main
from majiang.hall.accounts import Accounts
from majiang.store import Database
from majiang.tournament.adapters.online import seating_plan
from majiang.tournament.adapters.repository import TournamentRepository


def test_link_attaches_lists_and_detaches_hall_accounts(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}/cli.db"

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", url])
        out, err = capsys.readouterr()
        return code, out, err

    assert run("new", "Cup", "--count", "16", "--teams", "4", "--sessions", "2", "--id", "cup")[0] == 0
    db = Database(url)
    db.migrate()
    accounts = Accounts(db)
    alice = accounts.register("alice", "correct horse").account_id
    bob = accounts.register("Bob", "correct horse").account_id
    guest = accounts.guest()

    code, out, _ = run("link", "cup", "P01", "alice")
    assert code == 0 and "P01" in out and "alice" in out
    assert run("link", "cup", "P02", "bob")[0] == 0  # usernames are matched without case
    repo = TournamentRepository(db)
    assert repo.accounts("cup") == {"P01": alice, "P02": bob}

    code, out, _ = run("link", "cup", "--json")
    rows = json.loads(out)
    assert len(rows) == 16
    got = {r["player"]: (r["account"], r["username"]) for r in rows}
    assert got["P01"] == (alice, "alice") and got["P02"] == (bob, "Bob") and got["P03"] == (None, None)
    code, out, _ = run("link", "cup")
    assert code == 0 and "2 of 16 players linked" in out

    # clear errors, nothing changed
    code, _, err = run("link", "cup", "P99", "alice")
    assert code == 2 and "no player 'P99'" in err
    code, _, err = run("link", "cup", "P03", "nobody")
    assert code == 2 and "no hall account 'nobody'" in err and "signs up" in err
    code, _, err = run("link", "cup", "P03", guest.username)
    assert code == 2 and "guest account" in err
    code, _, err = run("link", "cup", "P03", "alice")
    assert code == 2 and "linked to P01 already" in err
    code, _, err = run("link", "cup", "P03")
    assert code == 2 and "give the hall username" in err
    code, _, err = run("link", "nope", "P01", "alice")
    assert code == 2 and "nope" in err
    assert repo.accounts("cup") == {"P01": alice, "P02": bob}

    # the online seating follows the links; --remove detaches
    assert run("draw", "cup")[0] == 0
    seats = {s.player: s for t in seating_plan(repo.load("cup"), 1, repo.accounts("cup")) for s in t.seats}
    assert seats["P01"].account == alice and not seats["P01"].bot and seats["P03"].bot
    assert run("link", "cup", "P02", "--remove")[0] == 0
    assert repo.accounts("cup") == {"P01": alice}
    db.dispose()
