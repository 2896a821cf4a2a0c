"""The learned policy without torch: the numpy forward pass against a plain-loop reference, the
tile-efficiency extra planes against the efficiency bot's own choices, the ``net`` bot in play."""

import hashlib
import json
import os

import numpy as np
import pytest

from majiang.bots import make_bot
from majiang.bots.ev import LOOK_ROWS
from majiang.engine.compiled import new_hand
from majiang.rl import extras, selfplay
from majiang.rl.features import ROWS
from majiang.rl.net import PLANES, SHIPPED, TILE_CODES, PolicyNet, _conv3
from majiang.rulesets import make_ruleset
from majiang.sim import simulate


def _weights(rng, channels=5, hidden=7, use_extras=True, blocks=2, look=False):
    cin = ROWS + (extras.EXTRA_ROWS if use_extras else 0) + (LOOK_ROWS if look else 0)
    shapes = {"conv1.weight": (channels, cin, 3), "conv1.bias": (channels,)}
    for i in range(2, blocks + 2):
        shapes |= {f"conv{i}.weight": (channels, channels, 3), f"conv{i}.bias": (channels,)}
    shapes |= {
        "tile.weight": (3, channels, 1),
        "tile.bias": (3,),
        "fc1.weight": (hidden, channels * 34),
        "fc1.bias": (hidden,),
        "fc2.weight": (109 - TILE_CODES, hidden),
        "fc2.bias": (109 - TILE_CODES,),
    }
    return {k: rng.normal(0, 0.3, s).astype(np.float32) for k, s in shapes.items()}


def _conv_loop(x, w, b):
    n, _, length = x.shape
    out = np.zeros((n, w.shape[0], length), dtype=np.float64)
    for j in range(length):
        for k in range(3):
            src = j + k - 1
            if 0 <= src < length:
                out[:, :, j] += np.einsum("oc,nc->no", w[:, :, k], x[:, :, src])
    return out + b[None, :, None]


def _records(hands=3, bots=("eff", "eff", "eff", "eff")):
    players = [make_bot(b, i) for i, b in enumerate(bots)]
    out = []
    for h in range(hands):
        hand = new_hand(make_ruleset("gb"), hashlib.sha256(b"net" + bytes([h])).digest(), dealer=h % 4)
        out.extend(selfplay.play_recorded(hand, players))
    return out


def test_conv3_is_a_same_padded_convolution():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 4, 34)).astype(np.float32)
    w, b = rng.normal(size=(3, 4, 3)).astype(np.float32), rng.normal(size=3).astype(np.float32)
    np.testing.assert_allclose(_conv3(x, w, b), _conv_loop(x, w, b), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("blocks", [2, 4])
def test_forward_pass_equals_a_plain_reference_and_respects_the_mask(blocks):
    rng = np.random.default_rng(1)
    w = _weights(rng, blocks=blocks)
    net = PolicyNet(w, {"extras": True, "blocks": blocks})
    recs = _records(1)[:40]
    obs = np.stack([r.obs for r in recs])
    mask = np.stack([r.mask for r in recs])
    x = np.concatenate([obs, extras.planes(obs)], axis=1).astype(np.float64)
    h = np.maximum(_conv_loop(x, w["conv1.weight"], w["conv1.bias"]), 0)
    for i in range(2, blocks + 2):
        h = np.maximum(_conv_loop(h, w[f"conv{i}.weight"], w[f"conv{i}.bias"]), 0) + h
    tiles = np.einsum("oc,ncl->nol", w["tile.weight"][:, :, 0], h) + w["tile.bias"][None, :, None]
    z = np.maximum(h.reshape(len(h), -1) @ w["fc1.weight"].T + w["fc1.bias"], 0)
    want = np.concatenate([tiles.reshape(len(h), -1), z @ w["fc2.weight"].T + w["fc2.bias"]], axis=1)
    np.testing.assert_allclose(net.logits(obs), want, rtol=1e-4, atol=1e-3)
    acts = net.act(obs, mask)
    assert mask[np.arange(len(acts)), acts].all()


def test_extra_planes_reproduce_the_efficiency_bots_choices():
    """Row 0 (best-shanten discards) with row 2 (unseen useful copies) picks exactly the efficiency
    bot's discard, and row 5 says exactly when it claims: the planes hold what it decides by."""
    recs = _records(12)
    e = extras.planes(np.stack([r.obs for r in recs]))
    discards = claims = 0
    for r, ex in zip(recs, e, strict=True):
        if r.action < 34:
            cand = np.flatnonzero(ex[0])
            assert cand[np.argmax(ex[2, cand])] == r.action
            discards += 1
        elif r.claim and r.mask[102:107].any() and not r.mask[107]:
            lowers = ex[5, :4] * r.mask[[102, 104, 105, 106]]  # pung, the three chows where legal
            assert bool(lowers.any()) == (r.action in (102, 104, 105, 106))
            claims += 1
    assert discards > 500 and claims > 50


def test_net_bot_plays_legal_hands_from_weights(tmp_path):
    rng = np.random.default_rng(2)
    path = tmp_path / "w.npz"
    np.savez(path, config=np.array(json.dumps({"extras": True})), **_weights(rng))
    res = simulate(8, 3, [make_bot(f"net:{path}", 0), make_bot("eff", 1), make_bot("eff", 2), make_bot("fan", 3)])
    assert res.hands == 8 and res.illegal_actions == 0


def test_weights_rewritten_in_place_are_read_again(tmp_path):
    """A training run rewrites its checkpoint at one path and evaluates it as ``net:PATH``: each
    evaluation must play the file as it is now, not the first version read."""
    path = tmp_path / "ckpt.npz"
    versions = [_weights(np.random.default_rng(seed)) for seed in (3, 4)]
    for i, w in enumerate(versions):
        np.savez(path, config=np.array(json.dumps({"extras": True})), **w)
        os.utime(path, ns=(10**18 + i, 10**18 + i))  # a new version, even on a coarse clock
        got = make_bot(f"net:{path}", 0).net.w
        np.testing.assert_array_equal(got["conv1.weight"], w["conv1.weight"])
    assert make_bot(f"net:{path}", 1).net is make_bot(f"net:{path}", 2).net  # one file version: loaded once


def test_shipped_weights_are_small_and_play(monkeypatch):
    """``net`` reads the look-ahead rows, ``net-planes`` the planes alone; both ship, small, and play
    on both engines; under Nanchang rules (no MCR ev bot to look ahead with) ``net`` plays the planes
    weights."""
    assert SHIPPED.stat().st_size + PLANES.stat().st_size < 4_000_000
    assert PolicyNet.load(SHIPPED).look and not PolicyNet.load(PLANES).look
    bots = [make_bot("net", 0), make_bot("net-planes", 1), make_bot("eff", 2), make_bot("eff", 3)]
    nanchang = simulate(2, 4, bots, rules="nanchang")
    assert nanchang.illegal_actions == 0
    seen = 0

    class Both:
        name = "both"

        def choose(self, view, legal):
            nonlocal seen
            seen += 1
            choice = bots[0].choose(view, legal)
            assert choice == bots[1].choose(view, legal)
            return choice

    simulate(2, 4, [Both(), *bots[1:]], rules="nanchang")
    assert seen > 20
    res = simulate(4, 5, [make_bot("net", 0), make_bot("eff", 1), make_bot("eff", 2), make_bot("eff", 3)])
    assert res.illegal_actions == 0
    monkeypatch.setenv("MAJIANG_ENGINE", "python")  # the Python engine: the planes from encode(view)
    res = simulate(2, 5, [make_bot("net", 0), make_bot("eff", 1), make_bot("eff", 2), make_bot("eff", 3)])
    assert res.illegal_actions == 0


def test_look_ahead_weights_read_the_ev_rows_and_play_alike_on_both_engines(tmp_path, monkeypatch):
    """Weights with ``look`` take the ev bot's look-ahead rows as three more channels: the choices
    follow them, weights without them are refused, and a run is the same on the compiled core (the
    core's rows) as on the Python engine (EVBot.look's)."""
    rng = np.random.default_rng(7)
    w = _weights(rng, look=True)
    w["conv1.weight"][:, -LOOK_ROWS:, :] *= 40  # the look rows dominate
    net = PolicyNet(w, {"extras": True, "look": True})
    recs = _records(1)[:30]
    obs, mask = np.stack([r.obs for r in recs]), np.stack([r.mask for r in recs])
    look = rng.uniform(-1, 1, (len(recs), LOOK_ROWS, 34)).astype(np.float32)
    assert (net.act(obs, mask, look) != net.act(obs, mask, -look)).any()
    with pytest.raises(ValueError, match="look-ahead rows"):
        net.act(obs, mask)
    path = tmp_path / "look.npz"
    np.savez(path, config=np.array(json.dumps({"extras": True, "look": True})), **w)
    bots = [f"net:{path}", "eff", "fan", "eff"]
    core = simulate(4, 9, [make_bot(b, i) for i, b in enumerate(bots)])
    monkeypatch.setenv("MAJIANG_ENGINE", "python")
    python = simulate(4, 9, [make_bot(b, i) for i, b in enumerate(bots)])
    assert core.illegal_actions == python.illegal_actions == 0
    timing = ("hands_per_s",)
    assert {k: v for k, v in core.to_dict().items() if k not in timing} == {
        k: v for k, v in python.to_dict().items() if k not in timing
    }


def test_missing_weights_say_how_to_train(tmp_path):
    with pytest.raises(ValueError, match=r"bc_train\.py"):
        PolicyNet.load(tmp_path / "none.npz")
