"""The invoice PDF read back: each line of a multi-line billing address on a line of its own (CR LF, CR and LF
alike), and each item naming its listing by name as the checkout and order pages do."""

from __future__ import annotations

import re
import zlib
from datetime import datetime, timezone
from uuid import uuid4

from aggregates.order import OrderState
from workers.invoices import Seller, address_lines, render_invoice

SELLER = Seller(name="launchdir", address="https://launchdir.example", country="IE", vat_number="")
TEXT = re.compile(rb"BT ([\d.]+) ([\d.]+) Td \(((?:[^()\\]|\\.)*)\) Tj ET")


def _texts(pdf: bytes) -> list[tuple[float, float, str]]:
    """Every text run of the PDF's (deflated) content streams: x, y and the text."""
    runs: list[tuple[float, float, str]] = []
    for stream in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            content = zlib.decompress(stream.group(1))
        except zlib.error:
            continue  # not a content stream (fonts are not compressed by fpdf2's core fonts)
        for x, y, raw in TEXT.findall(content):
            text = re.sub(rb"\\(.)", rb"\1", raw).decode("latin-1")
            runs.append((float(x), float(y), text))
    return runs


def _paid_order(address: str) -> OrderState:
    lines = ({"index": 0, "product": "launch", "name": "Launch", "listing_id": 70, "week": None,
              "net_cents": 4900},
             {"index": 1, "product": "billboard_min", "name": "Billboard", "listing_id": 70,
              "amount_cents": 1250, "net_cents": 1250},
             {"index": 2, "product": "ai_review", "name": "Profile review", "listing_id": 71, "net_cents": 1500})
    return OrderState(id=uuid4(), version=3, number="7KQ2M9XAHP", status="paid", lines=lines, subtotal_cents=7650,
                      vat={"treatment": "standard", "rate_bp": 2300, "country": "IE",
                           "note": "Standard VAT of Ireland."},
                      vat_cents=1760, total_cents=9410,
                      billing={"name": "Tallyfox Ltd", "country": "IE", "address": address, "vat_number": ""},
                      paid_at=datetime(2026, 11, 24, 10, 0, tzinfo=timezone.utc), invoice_number="2026-000042")


def test_each_line_of_the_billing_address_is_a_line_of_its_own() -> None:
    address = "Unit 4 (rear)\r\n12 Dock Road\rGrand Canal Quay\n\r\nDublin 2\r\n"
    runs = _texts(render_invoice(_paid_order(address), SELLER, {70: "Quokka Notes"}))
    assert all("\r" not in text and "\n" not in text for _x, _y, text in runs)
    customer_x = next(x for x, _y, text in runs if text == "Customer")
    customer = [(y, text) for x, y, text in runs if x == customer_x and text != "Customer"]
    assert [text for _y, text in customer] == ["Tallyfox Ltd", "Unit 4 (rear)", "12 Dock Road", "Grand Canal Quay",
                                               "Dublin 2", "IE"]
    heights = [y for y, _text in customer]
    assert heights == sorted(heights, reverse=True) and len(set(heights)) == len(heights)  # one below the other


def test_items_name_their_listing_by_its_name() -> None:
    runs = [text for _x, _y, text in _texts(render_invoice(_paid_order("Dublin"), SELLER, {70: "Quokka Notes"}))]
    assert "Launch - Quokka Notes" in runs and "Billboard - Quokka Notes" in runs
    assert "Profile review - listing 71" in runs  # a listing without a known name keeps its number
    assert not any(text.endswith("listing 70") for text in runs)


def test_address_lines_read_every_line_end() -> None:
    assert address_lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]
    assert address_lines("  one line  ") == ["one line"]
    assert address_lines("\r\n\r\n") == []
