"""External bots (docs/bot-protocol.md): the hand_end message, faults, a program that dies."""

import io
import json
import shlex
import sys
import time
from argparse import Namespace
from pathlib import Path

from majiang.bots.base import RandomBot
from majiang.bots.external import ExternalBot
from majiang.cli import main
from majiang.engine import Hand
from majiang.engine.protocol import Action
from majiang.engine.view import SeatView
from majiang.rulesets import make_ruleset
from majiang.sim import play_hand, simulate

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot_discard_first.py"

# answers like the example bot and writes every message it receives, one line each, to LOG
RECORDER = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    msg = json.loads(line)
    log.write(line)
    log.flush()
    if msg["type"] != "request":
        continue
    legal = msg["view"]["legal"]
    choice = next((a for a in legal if a["type"] == "pass"), None) or legal[-1]
    print(json.dumps({"id": msg["id"], "action": choice}), flush=True)
"""

# a reply for every request, never a legal one (kept in step, so every request is one fault)
ILLEGAL = """
import json, sys
log = open(sys.argv[1], "a")
replies = [{"type": "discard", "tile": "9z"}, {"type": "win"}, {"type": "dance"}, "pass", None]
for n, line in enumerate(sys.stdin):
    msg = json.loads(line)
    log.write(msg["type"] + "\\n")
    log.flush()
    if msg["type"] == "request":
        print(json.dumps({"id": msg["id"], "action": replies[n % len(replies)]}), flush=True)
"""

# plays its first five requests properly, then exits in the middle of the hand
CRASHER = """
import json, sys
for n, line in enumerate(sys.stdin):
    if n == 5:
        sys.exit(3)
    legal = json.loads(line)["view"]["legal"]
    choice = next((a for a in legal if a["type"] == "pass"), None) or legal[-1]
    print(json.dumps({"id": json.loads(line)["id"], "action": choice}), flush=True)
"""


def _ext(tmp_path: Path, name: str, source: str, *args: str) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(source)
    return "ext:" + shlex.join([sys.executable, str(script), *args])


def _messages(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


class Counting:
    """Counts the decisions asked of a bot."""

    def __init__(self, bot: ExternalBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.asked = 0

    def choose(self, view, legal):
        self.asked += 1
        return self.bot.choose(view, legal)


def test_example_bot_plays_whole_hands_without_faults():
    assert EXAMPLE.exists()
    r = simulate(3, 5, ["ext:" + shlex.join([sys.executable, str(EXAMPLE)]), "rand", "rand", "rand"]).to_dict()
    assert r["hands"] == 3 and r["illegal_actions"] == 0 and r["zero_sum_violations"] == 0


def test_every_hand_ends_with_a_hand_end_message_holding_the_result_and_seed(tmp_path):
    log = tmp_path / "received.jsonl"
    r = simulate(3, 2, [_ext(tmp_path, "recorder", RECORDER, str(log)), "rand", "rand", "rand"]).to_dict()
    assert r["illegal_actions"] == 0
    msgs = _messages(log)  # complete: simulate closed the bot and waited for it
    ends = [i for i, m in enumerate(msgs) if m["type"] == "hand_end"]
    assert len(ends) == 3 and ends[-1] == len(msgs) - 1
    hand_nos = [msgs[i]["view"]["hand_no"] for i in ends]
    assert hand_nos == [0, 1, 2]
    for i in ends:
        view = msgs[i]["view"]
        assert view["phase"] == "over" and view["legal"] == [] and len(view["seed"]) == 64
        assert sum(view["result"]["deltas"]) == 0 and "win" in view["result"]
    # each hand's requests come before its hand_end, the next hand's after it
    assert all(m["view"]["hand_no"] == 1 for m in msgs[ends[0] + 1 : ends[1]])


def test_play_command_sends_hand_end_and_closes_the_bot(tmp_path):
    from majiang.cli.play_cmd import run

    log = tmp_path / "received.jsonl"
    bots = ",".join([_ext(tmp_path, "recorder", RECORDER, str(log)), "rand", "rand"])
    inp = io.StringIO("\n" * 400)
    out = io.StringIO()
    assert run(Namespace(bots=bots, tiles="letters", seed=3, rules="gb", hands=1), inp, out) == 0
    assert [m["type"] for m in _messages(log)][-1] == "hand_end"


def test_illegal_replies_count_as_illegal_actions(tmp_path):
    log = tmp_path / "received.txt"
    r = simulate(2, 3, [_ext(tmp_path, "illegal", ILLEGAL, str(log)), "rand", "rand", "rand"]).to_dict()
    kinds = log.read_text().split()
    assert kinds.count("hand_end") == 2
    assert kinds.count("request") > 0
    assert r["illegal_actions"] == kinds.count("request")  # the random bots never err


def test_cli_json_reports_the_faults(tmp_path, capsys):
    log = tmp_path / "received.txt"
    bots = ",".join([_ext(tmp_path, "illegal", ILLEGAL, str(log)), "rand", "rand", "rand"])
    assert main(["simulate", "--hands", "1", "--bots", bots, "--json", "--no-progress"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["illegal_actions"] == log.read_text().split().count("request") > 0


def test_a_bot_that_exits_mid_hand_faults_every_later_request_and_the_hand_plays_on(tmp_path):
    spec = _ext(tmp_path, "crasher", CRASHER)
    ext = ExternalBot(spec[4:], timeout=2.0)
    bot = Counting(ext)
    h = Hand(make_ruleset("gb"), bytes(32))
    t0 = time.perf_counter()
    play_hand(h, [bot, RandomBot(1), RandomBot(2), RandomBot(3)])  # hand_over to the dead bot: no error
    assert h.over and bot.asked > 5
    assert ext.faults == bot.asked - 5
    assert time.perf_counter() - t0 < 2.0  # the closed pipe is a fault at once, not after the timeout
    assert ext.proc.wait(timeout=5) == 3
    ext.close()  # closing a bot that is gone is harmless


def test_a_crashing_bot_in_simulate_is_counted_not_fatal(tmp_path):
    r = simulate(2, 4, [_ext(tmp_path, "crasher", CRASHER), "rand", "rand", "rand"]).to_dict()
    assert r["hands"] == 2 and r["illegal_actions"] > 0 and r["zero_sum_violations"] == 0


def test_a_silent_bot_times_out_into_the_default_and_is_killed_on_close(tmp_path):
    spec = _ext(tmp_path, "silent", "import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n")
    ext = ExternalBot(spec[4:], timeout=0.2)
    h = Hand(make_ruleset("gb"), bytes(32))
    legal = h.legal(h.current)
    assert ext.choose(SeatView(h, h.current), legal) == legal[-1]
    assert legal[-1].type == "discard" and not any(a == Action("pass") for a in legal)
    assert ext.faults == 1
    t0 = time.perf_counter()
    ext.close(grace=0.2)
    assert ext.proc.returncode is not None and time.perf_counter() - t0 < 3


# answers its first request too late, then every request at once; its second reply comes in the
# same write as a stray line carrying the late id
LATE_ONCE = """
import json, sys, time
for n, line in enumerate(sys.stdin):
    msg = json.loads(line)
    if msg["type"] != "request":
        continue
    legal = msg["view"]["legal"]
    choice = next((a for a in legal if a["type"] == "pass"), None) or legal[-1]
    if n == 0:
        time.sleep(0.7)
    out = json.dumps({"id": msg["id"], "action": choice}) + "\\n"
    if n == 1:
        out = json.dumps({"id": 1, "action": choice}) + "\\n" + out  # a repeat of the late answer first
    sys.stdout.write(out)
    sys.stdout.flush()
"""


def test_a_late_answer_costs_one_fault_and_the_bot_stays_in_step(tmp_path):
    bot = ExternalBot(_ext(tmp_path, "late", LATE_ONCE)[4:], timeout=0.5)
    try:
        hand = Hand(make_ruleset("gb"), bytes(32), dealer=0)
        play_hand(hand, [bot, RandomBot(1), RandomBot(2), RandomBot(3)])
        assert bot._id > 5  # it was asked many times
        assert bot.faults == 1  # only the late first answer; the stale replies after it were skipped
    finally:
        bot.close()


def test_simulate_json_counts_each_seat_s_faults_by_kind(tmp_path, capsys):
    log = tmp_path / "received.txt"
    bots = ",".join([_ext(tmp_path, "crasher", CRASHER), _ext(tmp_path, "illegal", ILLEGAL, str(log)), "rand", "rand"])
    assert main(["simulate", "--hands", "2", "--bots", bots, "--json", "--no-progress"]) == 0
    seats = json.loads(capsys.readouterr().out)["seats"]
    assert seats[0]["faults"]["crash"] > 0 and seats[0]["faults"]["illegal"] == 0
    assert seats[1]["faults"]["illegal"] > 0 and seats[1]["faults"]["crash"] == 0
    assert seats[2]["faults"] == seats[3]["faults"] == {"timeout": 0, "illegal": 0, "crash": 0}


def test_on_botzone_rules_a_crash_ends_the_hand_with_its_penalty(tmp_path, capsys):
    bots = ",".join([_ext(tmp_path, "crasher", CRASHER), "rand", "rand", "rand"])
    args = ["simulate", "--hands", "1", "--rules", "botzone", "--bots", bots, "--json", "--no-progress"]
    assert main([*args, "--log", str(tmp_path / "logs")]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["seats"][0]["faults"] == {"timeout": 0, "illegal": 0, "crash": 1}
    assert d["seats"][0]["avg_score"] == -30 and [s["avg_score"] for s in d["seats"][1:]] == [10, 10, 10]
    end = json.loads((tmp_path / "logs" / "hand-000000.jsonl").read_text().splitlines()[-1])
    assert end["result"] == "fault" and end["seat"] == 0
    assert main([*args, "--faults", "substitute"]) == 0  # the switch off: the hand plays on
    d = json.loads(capsys.readouterr().out)
    assert d["seats"][0]["faults"]["crash"] > 1 and d["seats"][0]["avg_score"] != -30
