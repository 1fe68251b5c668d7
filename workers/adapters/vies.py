"""The one adapter that asks the EU's VIES whether a VAT number is registered (its REST API, through httpx).

Off by default (`LAUNCHDIR_VIES`): it needs the internet, and the format and
check digits (`python-stdnum`) are checked either way. The base URL is a
setting, so tests point it at a stand-in on 127.0.0.1. A VIES that does not
answer, or answers that the member state's service is down, is `Unavailable`
(a 503 the person may retry), never a guess either way.
"""

from __future__ import annotations

import httpx

from events.errors import Unavailable

DEFAULT_URL = "https://ec.europa.eu/taxation_customs/vies/rest-api"
TIMEOUT = 8.0


class Vies:
    """`is_registered("DE123456789")`: GET {base}/ms/{country}/vat/{number} and read `isValid`."""

    def __init__(self, base_url: str = DEFAULT_URL, timeout: float = TIMEOUT) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def is_registered(self, vat_number: str) -> bool:
        country, number = vat_number[:2].upper(), vat_number[2:]
        try:
            r = httpx.get(f"{self.base_url}/ms/{country}/vat/{number}", timeout=self.timeout,
                          headers={"accept": "application/json"})
            r.raise_for_status()
            answer = r.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise Unavailable(f"the EU VAT registry (VIES) did not answer: {type(exc).__name__}") from exc
        if not isinstance(answer, dict) or not isinstance(answer.get("isValid"), bool):
            raise Unavailable("the EU VAT registry (VIES) gave an answer we could not read")
        if answer.get("userError") not in (None, "VALID", "INVALID"):
            raise Unavailable(f"the EU VAT registry (VIES) could not check the number now: {answer['userError']}")
        return bool(answer["isValid"])
