"""Invoice PDFs of paid orders (fpdf2, pure Python): seller, buyer, VAT treatment and numbers, lines, totals.

The invoice is drawn from the order's own stream (its frozen lines, billing
details and VAT decision), so it says exactly what was charged. Its number is
the one given when the payment was recorded (`<year>-<sequence>`). Each line
of a postal address is written on a line of its own; an item names the
listing it is for by its name, as the checkout and order pages do. Text uses
the PDF core font, so characters outside Latin-1 are replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import zip_longest

from fpdf import FPDF

from aggregates.order import OrderState


@dataclass(frozen=True)
class Seller:
    name: str
    address: str
    country: str
    vat_number: str


def _latin1(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def address_lines(address: str) -> list[str]:
    """A typed address as its lines: CR LF and lone CR read as line ends, blank lines dropped."""
    text = address.replace("\r\n", "\n").replace("\r", "\n")
    return [line.strip() for line in text.split("\n") if line.strip()]


def _money(cents: int) -> str:
    return f"USD {cents // 100:,}.{cents % 100:02d}"


def _rate(rate_bp: int) -> str:
    whole, rest = divmod(rate_bp, 100)
    return str(whole) if rest == 0 else f"{whole}.{rest:02d}".rstrip("0")


TREATMENT = {
    "standard": "VAT {rate} % ({country})",
    "reverse_charge": "Reverse charge: VAT to be accounted for by the customer (0 %)",
    "outside_scope": "Outside the scope of EU VAT (0 %)",
    "not_determined": "VAT not determined",
}


def render_invoice(state: OrderState, seller: Seller, names: Mapping[int, str] | None = None) -> bytes:
    """The invoice of a paid order as PDF bytes; `names`: the name of each listing the lines are for."""
    pdf = FPDF(format="A4")
    pdf.set_title(f"Invoice {state.invoice_number}")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, _latin1(f"Invoice {state.invoice_number}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=10)
    paid = state.paid_at.strftime("%Y-%m-%d") if state.paid_at else ""
    pdf.cell(0, 6, _latin1(f"Order {state.number} - date of supply and payment {paid}"), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    seller_lines = [seller.name, *address_lines(seller.address), seller.country]
    seller_lines += [f"VAT {seller.vat_number}"] if seller.vat_number else []
    buyer = state.billing
    buyer_lines = [buyer.get("name", ""), *address_lines(buyer.get("address", "")), buyer.get("country", "")]
    if buyer.get("vat_number"):
        buyer_lines.append(f"VAT {buyer['vat_number']}")
    pdf.set_font("Helvetica", "B", 10)
    pdf.cell(95, 6, "Seller")
    pdf.cell(95, 6, "Customer", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=10)
    for left, right in zip_longest(seller_lines, buyer_lines, fillvalue=""):
        if not left and not right:
            continue
        pdf.cell(95, 5, _latin1(left))
        pdf.cell(95, 5, _latin1(right), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.set_font("Helvetica", "B", 10)
    pdf.cell(120, 7, "Item", border="B")
    pdf.cell(70, 7, "Net amount", border="B", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=10)
    for line in state.lines:
        what = str(line["name"])
        if line.get("listing_id"):
            listing_id = int(line["listing_id"])
            what += " - " + (names or {}).get(listing_id, f"listing {listing_id}")
        if line.get("week"):
            what += f", week of {line['week']}"
        pdf.cell(120, 6, _latin1(what))
        pdf.cell(70, 6, _money(int(line["net_cents"])), align="R", new_x="LMARGIN", new_y="NEXT")
    vat = state.vat
    label = TREATMENT.get(str(vat.get("treatment")), "VAT").format(rate=_rate(int(vat.get("rate_bp", 0))),
                                                                  country=vat.get("country", ""))
    pdf.ln(2)
    for name, cents, bold in (("Subtotal (net)", state.subtotal_cents, False), (label, state.vat_cents, False),
                              ("Total paid", state.total_cents, True)):
        pdf.set_font("Helvetica", "B" if bold else "", 10)
        pdf.cell(120, 6, _latin1(name))
        pdf.cell(70, 6, _money(cents), align="R", new_x="LMARGIN", new_y="NEXT")
    if vat.get("note"):
        pdf.ln(4)
        pdf.set_font("Helvetica", "I", 9)
        pdf.multi_cell(0, 5, _latin1(str(vat["note"])))
    if state.refunded_cents:
        pdf.ln(2)
        pdf.multi_cell(0, 5, _latin1(f"Refunded: {_money(state.refunded_cents)}."))
    return bytes(pdf.output())
