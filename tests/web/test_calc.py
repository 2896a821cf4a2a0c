"""The fan calculator page: build a known hand by clicking the palette and read its fans."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the Python package playwright")
expect = sync_api.expect


def mode(page: Any, m: str) -> None:
    page.click(f"#calc-modes button[data-mode={m}]")


def tile(page: Any, t: str) -> None:
    page.click(f"#palette button[data-tile='{t}']")


def test_known_hand_by_clicking(new_page: Any, shots: Path) -> None:
    page = new_page(1440, 1350)
    page.goto("/#calc")
    expect(page.locator("#palette button.pal")).to_have_count(34)
    # [123m1][EEE2]{9999s}456pC C — the hand-json example: 五门齐 门风刻 暗杠 幺九刻 单钓将 = 12
    mode(page, "chow")
    tile(page, "1m")
    mode(page, "pung")
    tile(page, "E")
    page.locator("#calc-melds .calc-meld").nth(1).locator("button.mini", has_text="对家").click()
    mode(page, "ckong")
    tile(page, "9s")
    mode(page, "hand")
    for t in ["4p", "5p", "6p"]:
        tile(page, t)
    expect(page.locator("#calc-status")).to_contain_text("1")  # one concealed tile still missing
    tile(page, "C")
    mode(page, "win")
    tile(page, "C")
    page.select_option("#calc-seat-wind", "E")
    page.select_option("#calc-prevalent-wind", "S")
    expect(page.locator("#calc-total")).to_have_attribute("data-total", "12")
    fans = page.locator("#calc-fans tbody tr.fan")
    expect(fans).to_have_count(5)
    for zh, en in [
        ("五门齐", "All Types"),
        ("门风刻", "Seat Wind"),
        ("暗杠", "Concealed Kong"),
        ("幺九刻", "Pung of Terminals or Honors"),
        ("单钓将", "Single Wait"),
    ]:
        row = page.locator(f"#calc-fans tr[data-fan='{en}']")
        expect(row.locator("td.zh")).to_have_text(zh)
    expect(page.locator("#calc-fans tr[data-fan='Seat Wind'] td.from")).to_contain_text("[EEE]")
    expect(page.locator("#calc-min")).to_have_class("badge ok")
    # the claimed pung's tile lies sideways in the middle (from 对家), the concealed kong is face down
    pung = page.locator("#calc-melds .calc-meld").nth(1).locator(".meld img")
    expect(pung.nth(1)).to_have_class("tile md side claimed")
    expect(page.locator("#calc-melds .calc-meld").nth(2).locator(".meld img.back")).to_have_count(2)
    page.screenshot(path=str(shots / "calculator.png"))

    # self-drawn adds 不求人? no: 自摸 (1) since melds are exposed
    page.check("input[data-flag=self_drawn]")
    expect(page.locator("#calc-total")).to_have_attribute("data-total", "13")
    expect(page.locator("#calc-fans tr[data-fan='Self-Drawn']")).to_be_visible()

    # an example below 8 fan, then a hand that is no win at all: the reason is shown in words
    page.click("#calc-clear")
    mode(page, "hand")
    for t in ["1m", "2m", "4m", "5m", "7m", "8m", "1p", "3p", "5p", "7p", "9p", "E", "S"]:
        tile(page, t)
    mode(page, "win")
    tile(page, "N")
    expect(page.locator("#calc-error")).to_be_visible()
    assert len(page.locator("#calc-error").inner_text()) > 20


def test_examples_and_nanchang(new_page: Any, shots: Path) -> None:
    page = new_page(1440, 1400)
    page.goto("/#calc")
    page.click("button[data-example='1']")  # 清一色 Full Flush
    expect(page.locator("#calc-fans tr[data-fan='Full Flush'] td.zh")).to_have_text("清一色")
    page.click("#calc-rules button[data-rules=nanchang]")
    page.click("button[data-example=nc0]")
    expect(page.locator("#calc-total")).to_have_attribute("data-total", "4")
    for hu in ["杠开", "精钓"]:
        expect(page.locator("#calc-fans")).to_contain_text(hu)
    rows = page.locator("#nc-deltas tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(2).locator("td").nth(1)).to_have_text("+47")
    page.screenshot(path=str(shots / "calculator-nanchang.png"))
