"""A hall table's turn loop: dealing a hand, delivering its events with the claim window, prompts
and their timers, bots and 托管, and each decision applied.  A part of
:class:`~majiang.hall.table.TableRunner`."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from functools import partial

from majiang.engine.hand import IllegalAction
from majiang.engine.log import WINDOW_EVENTS
from majiang.engine.protocol import DISCARD, PASS_ACTION, WIN, Action
from majiang.engine.session import Session
from majiang.engine.view import SeatView, action_from_json, action_json, seat_events
from majiang.hall import botprocs
from majiang.hall.settings import Prefs, autoplay_bot, preset_action
from majiang.hall.states import TableState
from majiang.hall.tablecore import Msg, Prompt, TableCore
from majiang.rulesets import make_ruleset

log = logging.getLogger("majiang.table")


class TurnLoop(TableCore):
    # ---- playing -------------------------------------------------------------------------------
    async def maybe_start(self) -> None:
        ready = self.between.all_ready()  # the ready step: every seated human (bots always are)
        if (
            self.state in (TableState.WAITING, TableState.BETWEEN)
            and self.free_seats() == 0
            and self.humans()
            and ready
        ):
            self.disarm_fill()
            self.between.close()
            await self.start_hand()

    async def start_hand(self) -> None:
        for i in self.humans():
            info = self.seats[i]
            assert info is not None
            ok, why = await self.host.may_enter(info.account_id, self.room, playing=True)
            if not ok:
                self.send(info.account_id, {"type": "stood_up", "reason": why})
                self.seats[i] = None
                self.host.left(info.account_id, self)
        if self.free_seats():
            self.state = TableState.WAITING
            if self.humans():
                self.arm_fill()
            self.broadcast_table()
            if not self.humans():
                self.state = TableState.ENDED
            return
        if self.session is None or self.session.over:
            self.session = self.new_session()
            # the seed is kept here and in the database, never in the (Redis) snapshot: Redis is untrusted
            self.session_row = await self.host.run_db(self.host.store.save_session, self.id, self.session.seed.hex())
        # seats at this table are fixed; the session's seat changes are not applied to real chairs
        self.session.seat_of = [0, 1, 2, 3]
        hand = self.session.new_hand()
        assert hand is not None
        hand = await self.items.before_hand(hand)  # 乾坤大挪移: the same hand, dealt with the item's swaps
        self.hand = hand
        self.shown = 0
        self.release_at = 0.0
        self.spectator_sent = 0
        self.spectator_from = {}
        self.false_wins = {}
        self.auto_events = {}
        self.state = TableState.PLAYING
        players = [s.account_id if s else None for s in self.seats]
        self.hand_id = await self.host.run_db(
            self.host.store.start_hand,
            self.id,
            self.room.id,
            self.hands_played,
            self.room.rules,
            hand.events[0]["seed_hash"],
            players,
        )
        self.broadcast_table()
        self.items.notify()
        await self.flush()

    def new_session(self) -> Session:
        """The table's next session: a fresh secret seed, or the event's (复式) starting at ``first_hand``
        (dealer and round as after that many hands: the deal passes every hand)."""
        ses = Session(
            make_ruleset(self.room.rules, self.room.options or None), self.deal_seed or secrets.token_bytes(32)
        )
        for _ in range(self.first_hand if self.hands_played == self.first_hand else 0):
            ses.hand_no += 1
            ses.dealer = (ses.dealer + 1) % 4
            ses.passes += 1
            if ses.passes == 4:
                ses.passes, ses.round = 0, ses.round + 1
        return ses

    async def flush(self) -> None:
        """Write, then send (each seat its view of them), the events not yet shown, then prompt whoever
        must act; the same way whether or not anyone could claim (a pause only when someone could would
        tell the others that someone can): each discard (and added kong, for the robbing win) ends a
        message and opens a claim window of ``room.claim_window()`` for everyone; what follows it (a
        claim, the next draw) is written and sent when the window ends, and only then is the next seat
        asked.  Claimers are asked at once (their prompts are their own).  Written at the window's end
        even where the engine went on at once: a write begun in the window only when nobody could claim
        would let a slow database tell the two apart."""
        hand = self.hand
        assert hand is not None and self.hand_id is not None
        if self.release_timer is not None:
            return  # a window is open: its end delivers
        loop = asyncio.get_running_loop()
        end = len(hand.events)
        now = time.monotonic()
        if now < self.release_at and self.shown < end:
            self.release_timer = loop.call_later(self.release_at - now, self.put, "release")
            return
        first, upto = self.shown, end
        window = False
        for i in range(first, end):
            if hand.events[i].get("type") in WINDOW_EVENTS:
                upto, window = i + 1, True
                break
        new = hand.events[first:upto]
        await self.host.events.write(self.hand_id, first, new)
        now = time.monotonic()
        self.shown = upto
        for seat, info in enumerate(self.seats):
            if info is None or not info.human or info.escaped:
                continue
            out = seat_events(new, seat, self.sealed)
            if out:
                self.send(info.account_id, {"type": "events", "hand": self.hand_id, "from": first, "events": out})
        # spectators see the same public events, delayed
        public = seat_events(new, -1, self.sealed)
        msg = {"type": "events", "hand": self.hand_id, "from": first, "events": public, "delayed": True}
        loop.call_later(self.room.spectate_delay_s, self._to_spectators, msg, upto)
        if window:
            self.release_at = now + self.room.claim_window()
            if self.shown < end:  # nobody may claim: the engine went on; what came next waits
                self.release_timer = loop.call_later(self.room.claim_window(), self.put, "release")
                return
        if hand.over:
            await self.end_hand()
            return
        await self.prompt_all()
        self.items.changed()

    async def on_release(self, m: Msg) -> None:
        self.release_timer = None
        self.host.metrics.held_until_now(self.id)
        if self.hand is not None and self.state == TableState.PLAYING:
            await self.flush()

    async def prompt_all(self) -> None:
        hand = self.hand
        assert hand is not None
        for seat in hand.prompted():
            if seat in self.prompts:
                continue
            info = self.seats[seat]
            assert info is not None
            self.seq += 1
            legal = hand.legal(seat)
            timeout = self._timeout_for(seat)
            kept = self.keep_deadline.pop(seat, None)
            if kept is not None:
                timeout = max(0.5, kept - time.monotonic())
            prompt = Prompt(self.seq, legal, time.monotonic() + timeout, false_won=seat in self.keep_false_won)
            self.keep_false_won.discard(seat)
            self.prompts[seat] = prompt
            loop = asyncio.get_running_loop()
            if info.bot is not None:
                delay = self.host.bot_delay()
                if delay <= 0:
                    self.put("bot", seat=seat, seq=prompt.seq)
                else:
                    prompt.timer = loop.call_later(delay, partial(self.put, "bot", seat=seat, seq=prompt.seq))
            elif info.auto or not info.online or self.false_wins.get(seat, 0) >= self.room.auto_after_false_wins:
                pause = self.host.auto_delay_s if self.room.auto_delay_s is None else self.room.auto_delay_s
                play = partial(self.put, "timeout", seat=seat, seq=prompt.seq, auto=True)
                prompt.timer = loop.call_later(pause, play)
            elif preset_action(SeatView(hand, seat), legal, info.prefs) is not None:
                prompt.preset = True  # a toggle answers at once (on_preset): no timer, nothing sent
                self.put("preset", seat=seat, seq=prompt.seq)
            else:
                prompt.timer = loop.call_later(timeout, partial(self.put, "timeout", seat=seat, seq=prompt.seq))
                prompt.sent = True
                msg = {
                    "type": "prompt",
                    "seq": prompt.seq,
                    "hand": self.hand_id,
                    "legal": [action_json(a) for a in legal],
                    "timeout_ms": int(timeout * 1000),
                    "view": SeatView(hand, seat).to_dict(),
                }
                if self.items.enabled:
                    msg["items"] = self.items.told[seat] = self.items.usable(seat)
                # complete, but no win: say why — on the seat's own turn only: worked out in a claim window,
                # the extra time would tell an observer that some seat was asked (the claim side channel)
                if any(a.type == DISCARD for a in legal) and (refusal := hand.win_refusal(seat)) is not None:
                    msg["no_win"] = refusal
                self.send(info.account_id, msg)
                self.host.metrics.prompt_sent(self.id, seat)

    def reprompt(self, seat: int) -> None:
        """Withdraw ``seat``'s prompt so that the next flush asks again (with the legal actions of the
        changed hand) under a new seq, keeping the old deadline."""
        p = self.prompts.pop(seat, None)
        if p is not None:
            if p.timer is not None:
                p.timer.cancel()
            self.keep_deadline[seat] = p.deadline
            if p.false_won:
                self.keep_false_won.add(seat)

    def _timeout_for(self, seat: int) -> float:
        hand = self.hand
        assert hand is not None
        if hand.phase.value in ("claim", "rob"):
            return self.room.timer("claim")
        if hand.first_turn and seat == hand.dealer:
            return self.room.timer("first_discard")
        return self.room.timer("action")

    async def on_bot(self, m: Msg) -> None:
        seat, seq = m.data["seat"], m.data["seq"]
        p = self.prompts.get(seat)
        info = self.seats[seat]
        if p is None or p.seq != seq or info is None or info.bot is None or self.hand is None:
            return
        if isinstance(info.bot, botprocs.ProcessBot):  # its program is asked on a thread: other tables play on
            hand = self.hand
            action = await info.bot.decide(hand, seat, p.legal, lambda: self.prompts.get(seat) is p)
            if action is None or self.prompts.get(seat) is not p or self.hand is not hand:
                return
        else:
            action = info.bot.choose(SeatView(self.hand, seat), p.legal)
        await self.apply(seat, action)

    async def on_timeout(self, m: Msg) -> None:
        seat, seq = m.data["seat"], m.data["seq"]
        p = self.prompts.get(seat)
        if p is None or p.seq != seq:
            return
        info = self.seats[seat]
        assert info is not None
        was_auto = info.auto
        if not m.data.get("auto"):
            info.timeouts += 1
            if info.timeouts >= self.room.auto_after_timeouts and not info.auto:
                info.auto = True
                self.send(info.account_id, {"type": "auto", "on": True, "reason": "timeouts"})
                self.broadcast_table()
        if not was_auto and PASS_ACTION in p.legal:
            # a claim window that ran out is 过, as at 天凤, 雀魂 and QQ: nobody claims for a player
            # who did not choose to (a pung he never wanted would cost him 门前清); 托管 decides only
            # once it is on (docs/protocol.md)
            self.mark_auto(seat)
            await self.apply(seat, PASS_ACTION)
            return
        await self.act_for(seat, default=True)

    async def act_for(self, seat: int, default: bool) -> None:
        """托管 (and a single timeout): the room's fan-aware bot decides for the player."""
        hand = self.hand
        info = self.seats[seat]
        assert hand is not None and info is not None
        action = hand.default_action(seat)
        try:
            if info.autobot is None:
                info.autobot = autoplay_bot(
                    self.room.bots, self.room.rules, seed=hash((self.id, seat, "auto")) & 0xFFFF
                )
            chosen = info.autobot.choose(SeatView(hand, seat), hand.legal(seat))
            if chosen in hand.legal(seat):
                action = chosen
        except Exception:  # the engine's default (discard the drawn tile, pass) is always legal
            log.exception("table %s: 托管 bot failed for seat %d", self.id, seat)
        self.mark_auto(seat)
        await self.apply(seat, action)

    def mark_auto(self, seat: int) -> None:
        """The decision about to be applied for ``seat`` is 托管's, not the player's."""
        if self.hand is not None:
            self.auto_events.setdefault(seat, []).append(len(self.hand.events))

    async def on_preset(self, m: Msg) -> None:
        """A toggle (自动和, 不吃碰杠, 摸切) answers the seat's prompt: not a timeout, never toward 托管."""
        seat, seq = m.data["seat"], m.data["seq"]
        p = self.prompts.get(seat)
        info = self.seats[seat]
        if p is None or p.seq != seq or info is None or self.hand is None or self.state != TableState.PLAYING:
            return
        decided = preset_action(SeatView(self.hand, seat), p.legal, info.prefs)
        if decided is None or info.auto or not info.online:  # changed meanwhile: ask as usual
            self.prompts.pop(seat, None)
            await self.prompt_all()
            return
        toggle, action = decided
        self.send(
            info.account_id,
            {"type": "preset", "hand": self.hand_id, "seq": seq, "toggle": toggle, "action": action_json(action)},
        )
        await self.apply(seat, action)

    async def on_prefs(self, m: Msg) -> None:
        """The player changed its toggles: they apply from the prompt open now on."""
        seat = self.seat_of(m.account)
        if seat is None:
            return
        info = self.seats[seat]
        assert info is not None
        info.prefs = Prefs.from_dict(m.data)
        p = self.prompts.get(seat)
        if (
            p is None
            or p.preset
            or info.auto
            or not info.online
            or self.hand is None
            or self.state != TableState.PLAYING
        ):
            return
        if preset_action(SeatView(self.hand, seat), p.legal, info.prefs) is not None:
            p.preset = True
            if p.timer is not None:
                p.timer.cancel()
                p.timer = None
            self.put("preset", seat=seat, seq=p.seq)

    async def on_action(self, m: Msg) -> None:
        acc = m.account
        seat = self.seat_of(acc)
        if seat is None or self.hand is None or self.state != TableState.PLAYING:
            self.error(acc, "not_playing", "you are not playing at this table now")
            return
        p = self.prompts.get(seat)
        seq = m.data.get("seq")
        if self.false_wins.get(seat, 0) >= self.room.auto_after_false_wins:
            self.error(acc, "not_playing", "after repeated false wins your seat plays in 托管 to the end of the hand")
            return
        if p is None or seq != p.seq:
            self.error(acc, "stale", f"no decision pending with seq {seq!r}; this reply was ignored", seq=seq)
            return
        try:
            action = action_from_json(m.data.get("action"))
        except ValueError as e:
            self.error(acc, "bad_action", str(e), seq=seq)
            return
        info = self.seats[seat]
        assert info is not None
        false_win = action not in p.legal and action.type == WIN
        if action not in p.legal:
            if false_win:  # the engine rules on a false win (错和/诈和): one a turn, the turn's clock runs on
                if p.false_won:
                    self.error(
                        acc,
                        "illegal",
                        "one false win a turn: this one was ignored",
                        seq=seq,
                        legal=[action_json(a) for a in p.legal],
                    )
                    return
                self.keep_deadline[seat] = p.deadline
                self.keep_false_won.add(seat)
            else:
                self.error(
                    acc,
                    "illegal",
                    f"{action.type} is not a legal choice now",
                    seq=seq,
                    legal=[action_json(a) for a in p.legal],
                )
                return
        info.timeouts = 0
        if info.auto and not false_win:
            info.auto = False
            self.send(acc, {"type": "auto", "on": False})
            self.broadcast_table()
        before = len(self.hand.events)
        await self.apply(seat, action)
        if false_win:
            if seat not in self.prompts:  # not asked again: what was kept for it goes
                self.keep_deadline.pop(seat, None)
                self.keep_false_won.discard(seat)
            if len(self.hand.events) > before and self.state == TableState.PLAYING:
                await self.false_won(seat)

    async def false_won(self, seat: int) -> None:
        """After a false win: the seat's count for this hand; at the room's threshold, 托管."""
        self.false_wins[seat] = n = self.false_wins.get(seat, 0) + 1
        info = self.seats[seat]
        assert info is not None
        if n >= self.room.auto_after_false_wins and not info.auto:
            info.auto = True
            self.send(info.account_id, {"type": "auto", "on": True, "reason": "false_wins"})
            self.broadcast_table()
            if seat in self.prompts:
                p = self.prompts.pop(seat)
                if p.timer is not None:
                    p.timer.cancel()
                await self.prompt_all()  # asked again in 托管: the default after the auto delay

    async def apply(self, seat: int, action: Action) -> None:
        hand = self.hand
        assert hand is not None
        p = self.prompts.get(seat)
        self.host.metrics.action_received(self.id)
        try:
            hand.act(seat, action)
        except IllegalAction as e:
            info = self.seats[seat]
            if info is not None and info.human and p is not None:
                self.error(info.account_id, "illegal", str(e), seq=p.seq)
                return
            hand.act(seat, hand.default_action(seat))  # a bot's mistake: play the default
        self.actions += 1
        if p is not None and p.timer is not None:
            p.timer.cancel()
        self.prompts.pop(seat, None)
        # prompts of seats whose options vanished (a claim window that resolved) are withdrawn
        still = set(hand.prompted())
        for s in list(self.prompts):
            if s not in still or hand.legal(s) != self.prompts[s].legal:
                old = self.prompts.pop(s)
                if old.timer is not None:
                    old.timer.cancel()
        await self.flush()
