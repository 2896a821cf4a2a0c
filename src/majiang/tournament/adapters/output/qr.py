"""QR codes of the tables' entry links, drawn by reportlab's own QR encoder (no other dependency): an
SVG for the web page and a flowable for the printed table cards."""

from __future__ import annotations

from typing import Any


def qr_drawing(text: str, size: float) -> Any:
    """A reportlab Drawing ``size`` points square encoding ``text`` (error correction M, quiet zone kept)."""
    from reportlab.graphics.barcode.qr import QrCodeWidget  # type: ignore[import-untyped]
    from reportlab.graphics.shapes import Drawing  # type: ignore[import-untyped]

    w = QrCodeWidget(text, barLevel="M")
    x0, y0, x1, y1 = w.getBounds()
    d = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    d.add(w)
    return d


def qr_svg(text: str, size: float = 240) -> str:
    """The QR code as an SVG document."""
    from reportlab.graphics import renderSVG  # type: ignore[import-untyped]

    return str(renderSVG.drawToString(qr_drawing(text, size)))
