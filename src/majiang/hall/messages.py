"""Schemas of what clients may send (WebSocket and HTTP): every input is validated here."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError, field_validator

from majiang.hall.text import clean_chat

MAX_MESSAGE_BYTES = 4096


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", str_max_length=400)


class Hello(_M):
    type: Literal["hello"]
    token: str = Field(max_length=500)


class Lobby(_M):
    type: Literal["lobby"]


class Tables(_M):
    type: Literal["tables"]
    room: str = Field(max_length=40)
    limit: int = Field(default=50, ge=1, le=100)  # a page of the room's public tables
    offset: int = Field(default=0, ge=0, le=1_000_000)


class QuickJoin(_M):
    type: Literal["quick_join"]
    room: str = Field(max_length=40)


class Create(_M):
    type: Literal["create"]
    room: str = Field(max_length=40)
    private: bool = False


class Join(_M):
    type: Literal["join"]
    table: str | None = Field(default=None, max_length=40)
    code: str | None = Field(default=None, max_length=12)
    seat: int | None = Field(default=None, ge=0, le=3)


class Spectate(_M):
    type: Literal["spectate"]
    table: str | None = Field(default=None, max_length=40)
    code: str | None = Field(default=None, max_length=12)  # a private table is watched only with its code


class Stand(_M):
    type: Literal["stand"]


class AddBots(_M):
    type: Literal["add_bots"]
    seat: int | None = Field(default=None, ge=0, le=3)  # one empty seat (default: all of them)


class Ready(_M):
    type: Literal["ready"]  # 准备 / 再来一局: in the ready step after a hand


class LeaveAfter(_M):
    type: Literal["leave_after"]
    on: bool = True  # 本局后离座: stand up, at no cost, when this hand ends


class ActionBody(_M):
    type: Literal["discard", "chow", "pung", "kong", "added_kong", "concealed_kong", "win", "pass"]
    tile: str | None = Field(default=None, max_length=3)
    tiles: list[Annotated[str, Field(max_length=3)]] | None = Field(default=None, max_length=3)


class Act(_M):
    type: Literal["action"]
    seq: int = Field(ge=0, le=2**31)
    action: ActionBody
    table: str | None = Field(default=None, max_length=40)  # the table of the prompt (a prompt's seq is per table)


class Auto(_M):
    type: Literal["auto"]
    on: bool


class Settings(_M):
    """Set some of the account's table toggles (docs/protocol.md, *Settings*); none: just read them."""

    type: Literal["settings"]
    auto_win: StrictBool | None = None
    auto_pass: StrictBool | None = None
    auto_discard: StrictBool | None = None

    def changes(self) -> dict[str, bool]:
        return {k: v for k, v in self.model_dump(exclude={"type"}).items() if v is not None}


class Chat(_M):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=1000)
    scope: Literal["table", "lobby"] = "table"

    @field_validator("text")
    @classmethod
    def _printable(cls, v: str) -> str:
        cleaned = clean_chat(v)  # no control, bidi or zero-width characters; one line; 200 at most
        if not cleaned:
            raise ValueError("a chat line needs some visible text")
        return cleaned


class Mute(_M):
    type: Literal["mute"]
    account: int = Field(ge=1, le=2**63 - 1)  # an account id (one that exists: routes/ws.py)
    on: bool = True


class Ping(_M):
    type: Literal["ping"]


# ---- items (道具, docs/items.md) ----------------------------------------------------------------------
ItemId = Literal["qiankun", "toutian", "yihua", "qianliyan", "shunfenger", "jinshouzhi"]  # engine.items.ITEMS


class ShopList(_M):
    type: Literal["shop"]


class Buy(_M):
    type: Literal["buy"]
    item: ItemId
    count: int = Field(default=1, ge=1, le=99)
    id: str | None = Field(default=None, min_length=1, max_length=64)  # makes a retried purchase a no-op


class Inventory(_M):
    type: Literal["inventory"]


class UseItem(_M):
    type: Literal["use_item"]
    item: ItemId
    tile: str | None = Field(default=None, max_length=3)  # a tile of your hand to give back
    target: str | None = Field(default=None, max_length=20)  # the tile wanted / sought, or 乾坤大挪移's pattern


ClientMessage = Annotated[
    Hello
    | Lobby
    | Tables
    | QuickJoin
    | Create
    | Join
    | Spectate
    | Stand
    | AddBots
    | Ready
    | LeaveAfter
    | Act
    | Auto
    | Settings
    | Chat
    | Mute
    | Ping
    | ShopList
    | Buy
    | Inventory
    | UseItem,
    Field(discriminator="type"),
]
_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)


class BadMessage(ValueError):
    pass


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Validate one WebSocket message; raises :class:`BadMessage` with a clear reason."""
    raw = text.encode() if isinstance(text, str) else text
    if len(raw) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too large ({len(raw)} bytes; the limit is {MAX_MESSAGE_BYTES})")
    try:
        msg: ClientMessage = _adapter.validate_json(raw)
        return msg
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        raise BadMessage(f"invalid message: {where}: {first.get('msg')}") from None


# ---- HTTP bodies --------------------------------------------------------------------------------
class Credentials(_M):
    username: str = Field(min_length=3, max_length=20)
    password: str = Field(min_length=8, max_length=200)


class NewTable(_M):
    room: str = Field(max_length=40)
    private: bool = False


class Purchase(_M):
    item: ItemId
    count: int = Field(default=1, ge=1, le=99)
    id: str | None = Field(default=None, min_length=1, max_length=64)


class SettingsBody(_M):
    """``PUT /api/settings``: the toggles to change (the others stay as they are)."""

    auto_win: StrictBool | None = None
    auto_pass: StrictBool | None = None
    auto_discard: StrictBool | None = None

    def changes(self) -> dict[str, bool]:
        return {k: v for k, v in self.model_dump().items() if v is not None}
