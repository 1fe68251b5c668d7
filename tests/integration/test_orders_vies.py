"""VIES through its adapter against a stand-in on 127.0.0.1: registered, not registered, down; and the quote's VAT
decision with VIES asked (reverse charge only for a registered number, the check named)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from commands.orders import OrderSettings
from events.errors import InvalidInput, Unavailable
from workers.adapters.vies import Vies

REGISTERED = {"DE": {"136695976"}}


class StandIn(BaseHTTPRequestHandler):
    asked: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        parts = self.path.strip("/").split("/")[1:]  # rest-api/ms/{country}/vat/{number}
        self.asked.append(self.path)
        if parts[:1] != ["ms"] or len(parts) != 4:
            self.send_error(404)
            return
        country, number = parts[1], parts[3]
        if country == "FR":  # the member state's service is down
            body = {"isValid": False, "userError": "MS_UNAVAILABLE"}
        else:
            body = {"isValid": number in REGISTERED.get(country, set()), "userError": "VALID"}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def vies_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rest-api"
    server.shutdown()


def test_the_adapter_reads_registered_and_not_registered(vies_url: str) -> None:
    vies = Vies(vies_url)
    assert vies.is_registered("DE136695976") is True
    assert vies.is_registered("DE000000000") is False
    assert StandIn.asked[-2:] == ["/rest-api/ms/DE/vat/136695976", "/rest-api/ms/DE/vat/000000000"]


def test_a_registry_that_does_not_answer_is_unavailable(vies_url: str) -> None:
    with pytest.raises(Unavailable):
        Vies(vies_url).is_registered("FR40303265045")  # the member state's service is down
    with pytest.raises(Unavailable):
        Vies("http://127.0.0.1:9/rest-api", timeout=1).is_registered("DE136695976")  # nothing listens there


def test_the_quote_asks_vies_and_says_so(vies_url: str) -> None:
    settings = OrderSettings(seller_country="IE", vies=Vies(vies_url))
    decided = settings.vat("DE", "DE136695976")
    assert (decided.treatment, decided.check) == ("reverse_charge", "vies")
    assert OrderSettings(seller_country="IE").vat("DE", "DE136695976").check == "format"
    with pytest.raises(InvalidInput) as refused:
        OrderSettings(seller_country="IE", vies=Vies(vies_url)).vat("DE", "DE 136 695 978")
    assert refused.value.problems[0].field == "vat_number"
