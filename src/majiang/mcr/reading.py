"""What the fan predicates look at: one hand (:class:`HandContext`) and one reading of it
(:class:`Reading`: four sets and a pair, by pack index), and the fan table they write into."""

from __future__ import annotations

from dataclasses import dataclass

from majiang.mcr.combos import Inst
from majiang.mcr.fans import Fan
from majiang.mcr.rules import Rules
from majiang.mcr.shapes import Pack
from majiang.tiles import Tile

#: the fans of one reading, each with the instances (pack indices or markers) it was counted from
FanTable = dict[Fan, list[Inst]]

# instance markers besides pack indices 0–4
WHOLE = "whole hand"
WIN = "winning tile"


@dataclass(slots=True)
class HandContext:
    win: Tile
    self_drawn: bool
    last_tile: bool  # 和绝张
    kong: bool  # 杠上开花 / 抢杠和
    wall_last: bool  # 妙手回春 / 海底捞月
    seat: int
    prevalent: int
    fixed: list[Pack]
    standing: list[int]  # concealed tiles incl. the winning tile
    merged: list[int]  # standing + declared (kongs as four)
    unique: list[Tile]  # kinds present, ascending
    rules: Rules


@dataclass(slots=True)
class Reading:
    """One regular decomposition: ``packs`` (declared melds first, the pair among them) sorted into
    its sets; ``concealed_pungs`` already leaves out a pung completed by a discard (明刻)."""

    h: HandContext
    packs: list[Pack]
    chows: list[int]
    pungs: list[int]  # pungs and kongs
    concealed_pungs: list[int]
    melded_kongs: list[int]
    concealed_kongs: list[int]
    pair: int

    @property
    def pair_tile(self) -> Tile:
        return self.packs[self.pair].tile

    @property
    def dark(self) -> tuple[int, ...]:
        """暗刻, concealed kongs included."""
        return tuple(self.concealed_pungs + self.concealed_kongs)

    @property
    def kongs(self) -> tuple[int, ...]:
        return tuple(self.melded_kongs + self.concealed_kongs)


def add(t: FanTable, fan: Fan, inst: Inst) -> None:
    t.setdefault(fan, []).append(inst)


def put(t: FanTable, fan: Fan, inst: Inst) -> None:
    t[fan] = [inst]
