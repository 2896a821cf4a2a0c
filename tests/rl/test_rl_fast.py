"""The fast paths: the incremental encoder equals ``encode`` (the reference) at every decision, and
the vectorised environment plays the same hands as the single ones with batched arrays."""

import importlib.util

import numpy as np
import pytest

from majiang.engine.view import SeatView
from majiang.rl import ACTION_SIZE, OBS_SHAPE, DiscardLog, encode, incremental, mcr_v0, vector_env
from majiang.rl.actions import action_mask, decode_action
from majiang.rl.incremental import HandEncoder

# the compiled planes (majiang._speedups.obsenc, when built and MAJIANG_PURE is not 1) and numpy's, both
# on the Python engine; and the compiled core's own (rl_core.h), where it plays the ruleset
PATHS = ["compiled", "numpy"]


def _path(monkeypatch, path):
    if path == "numpy":
        monkeypatch.setattr(incremental, "FAST", None)
    if path != "core":
        monkeypatch.setenv("MAJIANG_ENGINE", "python")


def _planes(env, seat):
    """The seat's planes as the environment makes them: the incremental encoder's, or the core's."""
    table = env.table
    return table.encoder.encode(seat) if table.encoder is not None else table.observe(seat)["observation"]


def test_the_compiled_encoder_is_used_when_built_and_not_with_majiang_pure(monkeypatch):
    built = importlib.util.find_spec("majiang._speedups.obsenc") is not None
    monkeypatch.delenv("MAJIANG_PURE", raising=False)
    assert (incremental._compiled() is not None) == built
    monkeypatch.setenv("MAJIANG_PURE", "1")
    assert incremental._compiled() is None


@pytest.mark.parametrize(
    ("rules", "path"),
    [
        ("gb", "core"),
        ("botzone", "core"),
        ("gb", "compiled"),
        ("gb", "numpy"),
        ("nanchang", "compiled"),
        ("nanchang", "numpy"),
    ],
)
def test_the_incremental_encoder_equals_the_reference_at_every_decision_of_every_seat(rules, path, monkeypatch):
    _path(monkeypatch, path)
    env = mcr_v0.raw_env(rules=rules)
    rng = np.random.default_rng(7)
    seen = {"concealed_kong": 0, "claims": 0, "decisions": 0}
    for seed in range(25):
        env.reset(seed=100 + seed)
        while True:
            hand = env.hand
            for s in range(4):
                fresh = encode(SeatView(hand, s), DiscardLog().feed(hand.events))
                assert np.array_equal(_planes(env, s), fresh), (seed, s, hand.events[-1])
            if env.table.over:
                break
            mask = env.observe(env.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            big = legal[legal >= 34]  # prefer kongs, claims and wins: they are what changes blocks
            action = int(rng.choice(big if len(big) and rng.random() < 0.7 else legal))
            env.step(action)
            seen["decisions"] += 1
        seen["concealed_kong"] += any(e["type"] == "kong" and e.get("kind") == "concealed" for e in hand.events)
        seen["claims"] += sum(e["type"] in ("chow", "pung") for e in hand.events)
    assert seen["decisions"] > 1000 and seen["concealed_kong"] > 0 and seen["claims"] > 20


@pytest.mark.parametrize("path", PATHS)
def test_an_encoder_made_mid_hand_catches_up(path, monkeypatch):
    _path(monkeypatch, path)
    env = mcr_v0.raw_env()
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    late = HandEncoder(env.hand)
    out = np.full(OBS_SHAPE, 7, dtype=np.float32)
    for s in range(4):
        assert late.encode(s, out=out) is out
        assert np.array_equal(out, encode(SeatView(env.hand, s), DiscardLog().feed(env.hand.events)))


def test_the_vector_env_batches_observations_masks_and_rewards_and_resets_finished_hands(monkeypatch):
    monkeypatch.setenv("MAJIANG_ENGINE", "python")  # the tables in Python, checked against encode (the core: below)
    n = 6
    env = vector_env(n)
    obs, masks, seats = env.reset(seed=11)
    assert obs.shape == (n, *OBS_SHAPE) and masks.shape == (n, ACTION_SIZE) and seats.shape == (n,)
    rng = np.random.default_rng(1)
    totals = np.zeros((n, 4))
    finished = 0
    for _ in range(900):
        for i, t in enumerate(env.tables):  # each row is the deciding seat's own observation
            s = int(seats[i])
            assert np.array_equal(obs[i], encode(SeatView(t.hand, s), DiscardLog().feed(t.hand.events)))
            assert np.array_equal(masks[i], action_mask(t.hand.legal(s)))
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        actions[masks[:, 107] == 1] = 107  # win whenever possible: random players rarely do
        assert masks[np.arange(n), actions].all()
        obs, masks, seats, rewards, dones = env.step(actions)
        totals += rewards
        finished += int(dones.sum())
        assert rewards.sum(axis=1) == pytest.approx(np.zeros(n))  # zero-sum, settlement included
        assert not env.illegal.any()
    assert finished >= n and env.hands_done == finished
    assert np.abs(totals).sum() > 0


def _vector_run(n, steps, seed, **kwargs):
    """Every array a vector env returns over ``steps`` steps of random actions (some of them illegal)."""
    env = vector_env(n, **kwargs)
    out = [tuple(a.copy() for a in env.reset(seed=seed, options={"scores": [10, -10, 5, -5], "dealer": 2}))]
    rng = np.random.default_rng(seed)
    for k in range(steps):
        _, masks, *_ = out[-1][:3]
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        if k % 50 == 7:
            actions[0] = int(np.flatnonzero(masks[0] == 0)[0])  # an illegal code: replaced, and penalised
        out.append(tuple(a.copy() for a in env.step(actions)) + (env.illegal.copy(),))
    return out, env.hands_done


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
def test_the_core_vector_env_equals_the_reference(monkeypatch):
    """Stepped in one C call (majiang._speedups.core.Batch) or table by table in Python: the same arrays."""
    core, core_hands = _vector_run(5, 700, seed=21)
    monkeypatch.setenv("MAJIANG_ENGINE", "python")
    ref, ref_hands = _vector_run(5, 700, seed=21)
    assert core_hands == ref_hands > 10
    for k, (a, b) in enumerate(zip(core, ref, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y), k


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
@pytest.mark.parametrize(
    "opponents", ["rand", "eff", "fan", ["eff", "rand", "eff"], ["fan", None, "rand"], ["ev", "fan", None]]
)
def test_the_vector_env_against_the_core_s_bots(opponents):
    """Seat 0 (and a seat given None) plays; the other opponents decide inside the core, as a Python
    play of the same hand with the same bots (rand: random.Random(rng_seed + seat)) does."""
    from majiang.bots.base import RandomBot
    from majiang.bots.efficiency import EfficiencyBot
    from majiang.bots.ev import EVBot
    from majiang.bots.fan import FanBot
    from majiang.engine.hand import Hand
    from majiang.rl.table import deal_args
    from majiang.rulesets import make_ruleset

    specs = [opponents] * 3 if isinstance(opponents, str) else opponents
    ours = {0} | {s for s, spec in enumerate(specs, 1) if spec is None}  # the seats the caller plays
    n = 3
    env = vector_env(n, opponents=opponents)
    obs, masks, seats = env.reset(seed=5)
    gens = [np.random.default_rng(5 + i) for i in range(n)]  # as the environment draws its hands
    ruleset = make_ruleset("gb")

    def deal(i):
        args = deal_args(gens[i], None)
        rng_seed = int(gens[i].integers(2**62)) if "rand" in specs else 0  # drawn where a rand bot plays
        made = {
            "rand": lambda s: RandomBot(rng_seed + s),
            "eff": lambda s: EfficiencyBot(),
            "fan": lambda s: FanBot(),
            "ev": lambda s: EVBot(budget_s=float("inf")),  # the core's ev: bounded by its node count alone
        }
        bots = [None] + [made[spec](s) if spec else None for s, spec in enumerate(specs, 1)]
        hand = Hand(ruleset, args.pop("seed"), **args)
        return {"hand": hand, "bots": bots, "loop": [], "last": [0, 0, 0, 0]}

    def advance(t):  # majiang.sim.play_hand's order, stopping at the decisions of the caller's seats
        hand = t["hand"]
        while not hand.over:
            if not t["loop"]:
                t["loop"] = list(hand.prompted())
            s = t["loop"][0]
            if not hand.legal(s):
                t["loop"].pop(0)
                continue
            if s in ours:
                return
            view = SeatView(hand, s)
            hand.act(s, t["bots"][s].choose(view, view.legal))
            t["loop"].pop(0)

    tables = [deal(i) for i in range(n)]
    for t in tables:
        advance(t)
    rng = np.random.default_rng(0)
    ended = 0
    asked = set()
    for _ in range(400):
        for i, t in enumerate(tables):
            seat = t["loop"][0]
            assert seats[i] == seat
            asked.add(seat)
            assert np.array_equal(obs[i], encode(SeatView(t["hand"], seat), DiscardLog().feed(t["hand"].events)))
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        obs, masks, seats, rewards, dones = env.step(actions)
        for i, t in enumerate(tables):
            hand = t["hand"]
            seat = t["loop"].pop(0)
            hand.act(seat, decode_action(int(actions[i]), hand.legal(seat)))
            advance(t)
            assert list(rewards[i]) == [d - b for d, b in zip(hand.deltas, t["last"], strict=True)]
            t["last"] = list(hand.deltas)
            assert bool(dones[i]) == hand.over
            if hand.over:
                ended += 1
                tables[i] = deal(i)
                advance(tables[i])
    assert ended > 5 and asked == ours


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
def test_a_hand_over_before_seat_0_is_asked_is_dealt_again():
    """Hand 26047's opponents finish it before seat 0 has a decision (a win on the dealer's first
    discard): reset and step must return a decision of seat 0's, not an ended hand that the next step
    refuses (it did, after ≈ 50,000 hands of pg_finetune)."""
    env = vector_env(1, opponents="eff")
    _, masks, seats = env.reset(seed=26047)
    assert seats[0] == 0 and masks[0].any()
    for _ in range(200):  # and it steps on
        _, masks, seats, _, _ = env.step(np.array([int(np.flatnonzero(masks[0])[0])]))
        assert seats[0] == 0 and masks[0].any()


def test_the_vector_env_plays_the_hands_the_aec_env_plays():
    """Hand i of a vector env seeded s is the AEC env's hand seeded s + i, step for step."""
    vec = vector_env(2)
    _, masks, seats = vec.reset(seed=40)
    aec = [mcr_v0.raw_env(), mcr_v0.raw_env()]
    for i, e in enumerate(aec):
        e.reset(seed=40 + i)
    for _ in range(60):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        for i, e in enumerate(aec):
            assert e.agent_selection == f"player_{seats[i]}"
            e.step(int(actions[i]))
        obs, masks, seats, _, dones = vec.step(actions)
        if dones.any():
            break
        for i, e in enumerate(aec):
            assert np.array_equal(obs[i], e.observe(e.agent_selection)["observation"])


def test_the_vector_env_checks_its_input():
    env = vector_env(3)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="one action per hand"):
        env.step([0, 1])
    with pytest.raises(ValueError, match="num_envs"):
        vector_env(0)
    env = vector_env(2, illegal="penalty", illegal_reward=-2.0)
    _, masks, seats = env.reset(seed=0)
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in masks])
    seats = seats.copy()  # the env's buffer: the step overwrites it with the next deciding seats
    _, _, _, rewards, _ = env.step(bad)
    assert env.illegal.all() and all(rewards[i, seats[i]] <= -2.0 for i in range(2))


def _session_row(obs, seat_block, col):
    from majiang.rl.features import B_INFO, BLOCK_ROWS, GLOBAL_ROWS

    return obs[GLOBAL_ROWS + seat_block * BLOCK_ROWS + B_INFO, col]


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
@pytest.mark.parametrize("hands", [4, 16])
def test_a_session_episode_deals_its_hands_in_turn_and_pays_the_places(hands):
    """episode="session": hand k of a session is dealt by seat k % 4 in round k // 4 with the scores
    the session has reached; the episode ends after its last hand; reward="rank" pays the places of
    the session's total (what the same play scored in points) and nothing before."""
    from majiang.rl.features import INFO_DEALER, INFO_SCORE, PREVALENT, SCALARS
    from majiang.rl.vector import place_points

    n = 3
    kw = {"opponents": "eff", "episode": "session", "session_hands": hands, "illegal": "raise"}
    points, places = vector_env(n, **kw), vector_env(n, reward="rank", **kw)
    obs, masks, _ = points.reset(seed=11)
    _, masks2, _ = places.reset(seed=11)
    rng = np.random.default_rng(0)
    total, k, sessions = np.zeros((n, 4)), np.zeros(n, dtype=int), 0
    while sessions < 5:
        for i in range(n):  # the hand in play, as seat 0 sees it
            assert round(float(obs[i, SCALARS, 1]) * 15) == k[i]
            assert obs[i, PREVALENT, 27 + k[i] // 4] == 1
            assert [_session_row(obs[i], s, INFO_DEALER) for s in range(4)] == [float(s == k[i] % 4) for s in range(4)]
            want = (np.clip(total[i] / 100, -1, 1) + 1) / 2
            assert np.allclose([_session_row(obs[i], s, INFO_SCORE) for s in range(4)], want)
        assert np.array_equal(masks, masks2)
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        obs, masks, _, rewards, dones = points.step(actions)
        _, masks2, _, rewards2, dones2 = places.step(actions)
        assert np.array_equal(dones, dones2) and np.array_equal(points.hand_over, places.hand_over)
        total += rewards
        k += points.hand_over
        for i in range(n):
            if dones[i]:
                assert k[i] == hands
                assert np.array_equal(rewards2[i], place_points(total[i])) and rewards2[i].sum() == 7
                total[i], k[i] = 0, 0
                sessions += 1
            else:
                assert not rewards2[i].any()
                assert np.array_equal(points.session_scores[i], total[i]) and points.session_hand[i] == k[i]
    assert place_points([10, -10, 0, 0]).tolist() == [4, 0, 1.5, 1.5]


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
def test_a_session_counts_a_hand_its_seat_never_saw():
    """The wall of hand 26047 (see above: dealt by seat 1 in the South round) ends before seat 0 is asked:
    as hand 5 of a session (dealer 1, South) it was still played, so its points go to the session and
    to the step's rewards, and the session goes on to hand 6."""
    env = vector_env(1, opponents="eff", episode="session")
    env.reset(seed=0)
    env.session_hand[0], env.session_scores[0] = 5, [10, -10, 0, 0]
    env.rewards.fill(0)
    env._rngs[0] = np.random.default_rng(26047)  # as the environment draws that wall
    env._deal_and_fill([0])
    played = env.session_scores[0] - [10, -10, 0, 0]
    assert env.session_hand[0] == 6 and env.seats[0] == 0
    assert played.any() and played.sum() == 0 and np.array_equal(env.rewards[0], played)


def test_session_episodes_check_their_arguments():
    with pytest.raises(ValueError, match="with episode='session'"):
        vector_env(1, reward="rank")
    with pytest.raises(ValueError, match="episode"):
        vector_env(1, episode="game")
    if vector_env(1)._batch:
        with pytest.raises(ValueError, match="options apply"):
            vector_env(1, episode="session").reset(seed=0, options={"dealer": 1})
    with pytest.raises(ValueError, match="compiled core"):
        vector_env(1, "nanchang", episode="session")


@pytest.mark.skipif(not vector_env(1)._batch, reason="the compiled core is not built")
def test_places_keep_the_penalty_of_an_illegal_action():
    """reward="rank" pays nothing before a session's end, except an illegal action's penalty to the
    seat that made it — at the end too, beside the places."""
    env = vector_env(2, opponents="eff", episode="session", session_hands=1, reward="rank", illegal_reward=-2.0)
    _, masks, seats = env.reset(seed=3)
    penalised = ended = 0
    for step in range(400):
        illegal = step % 3 == 0
        acts = np.array([int(np.flatnonzero(m == 0 if illegal else m)[0]) for m in masks])
        acting = seats.copy()
        _, masks, seats, rewards, dones = env.step(acts)
        for i in range(2):
            penalty = np.eye(4)[acting[i]] * -2.0 if illegal else np.zeros(4)
            if dones[i]:
                ended += 1
                assert (rewards[i] - penalty).sum() == 7  # the places, beside the penalty
            else:
                assert np.array_equal(rewards[i], penalty)
                penalised += illegal
    assert penalised > 10 and ended > 5
