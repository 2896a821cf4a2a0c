"""What the server sends the web client's language switch (docs/web-client.md, Languages): every room's
name and every item's name and effect in Chinese and in English."""

from __future__ import annotations

import re

from majiang.hall.items import shop_list
from majiang.hall.rooms import Room, load_rooms

CJK = re.compile(r"[\u3400-\u9fff]")


def test_every_built_in_room_has_a_name_in_each_language() -> None:
    for room in load_rooms():
        d = room.to_dict()
        assert CJK.search(d["name_zh"]), room.id
        assert d["name_en"] and not CJK.search(d["name_en"]), room.id
    botzone = next(r for r in load_rooms() if r.id == "botzone")
    assert botzone.names() == ("Botzone 规则场", "Botzone rules")


def test_a_room_name_is_split_or_given() -> None:
    assert Room(id="a", name="新手场 Beginners").names() == ("新手场", "Beginners")
    assert Room(id="b", name="东风战 East-round match").names() == ("东风战", "East-round match")
    assert Room(id="c", name="Botzone 规则场", name_en="Botzone rules").names() == ("Botzone 规则场", "Botzone rules")
    assert Room(id="d", name="Plain").names() == ("Plain", "Plain")


def test_every_item_has_its_name_and_effect_in_each_language() -> None:
    for it in shop_list():
        assert CJK.search(it["zh"]) and CJK.search(it["effect_zh"]), it["item"]
        assert not CJK.search(it["en"]) and not CJK.search(it["effect"]), it["item"]
        for p in it.get("patterns", []):
            assert CJK.search(p["zh"]) and p["en"] and not CJK.search(p["en"])
