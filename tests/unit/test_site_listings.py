"""When two websites are one site, for the rule of one public listing per site."""

from __future__ import annotations

import pytest

from queries.site_listings import same_site, site_key


@pytest.mark.parametrize(("a", "b"), [
    ("https://www.Acme.com/", "http://acme.com"),  # www., case, scheme and a trailing slash do not matter
    ("https://acme.com/", "https://acme.com/pricing"),  # the homepage stands for the pages under it
    ("https://github.com/a/one/", "https://github.com/a/one"),
    ("acme.com", "https://acme.com:443/"),  # the scheme's own port is no port
])
def test_one_site(a: str, b: str) -> None:
    assert same_site(a, b) and same_site(b, a)


@pytest.mark.parametrize(("a", "b"), [
    ("https://github.com/a/one", "https://github.com/b/two"),  # two products on a shared host
    ("http://127.0.0.1:8001/", "http://127.0.0.1:8002/"),  # another port is another site
    ("https://acme.com/", "https://acme.co/"),
    ("https://shop.acme.com/", "https://acme.com/"),  # a subdomain is a site of its own
    ("", "https://acme.com/"),
])
def test_two_sites(a: str, b: str) -> None:
    assert not same_site(a, b) and not same_site(b, a)


def test_an_unreadable_address_is_no_site() -> None:
    assert site_key("http://acme.com:99999/") is None and site_key("") is None
