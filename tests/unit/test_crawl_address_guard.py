"""The address guard refuses every URL that does not lead to a public address."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable

import pytest

from workers.adapters.websites.address_guard import (
    MAX_URL_LENGTH,
    address_problem,
    check_host,
    check_url,
    check_url_syntax,
)
from workers.adapters.websites.errors import BlockedAddress, CrawlError, SiteUnreachable

PUBLIC_V4 = "93.184.216.34"
PUBLIC_V6 = "2606:2800:220:1:248:1893:25c8:1946"


def resolver_for(*addresses: str) -> Callable[[str], Iterable[str]]:
    """A resolver answering every name with ``addresses`` and recording the names asked."""

    def resolve(host: str) -> list[str]:
        resolve.calls.append(host)  # type: ignore[attr-defined]
        return list(addresses)

    resolve.calls = []  # type: ignore[attr-defined]
    return resolve


def failing_resolver(host: str) -> list[str]:
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "127.255.255.254", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255",
        "192.168.1.1", "169.254.1.1", "169.254.169.254", "100.64.0.1", "100.127.255.254",
        "100.100.100.200", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "240.0.0.1",
        "255.255.255.255", "192.0.2.10", "198.18.0.1", "198.51.100.7", "203.0.113.9", "192.0.0.8",
        "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "fd00:ec2::254", "ff02::1", "fec0::1",
        "2001:db8::1", "100::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
        "::ffff:100.64.0.1", "64:ff9b::a00:1", "2002:7f00:1::", "2002:a9fe:a9fe::1", "::127.0.0.1",
        "2001::1", "3fff::1",
    ],
)
def test_non_public_addresses_are_refused(address: str) -> None:
    assert address_problem(ipaddress.ip_address(address)) is not None
    with pytest.raises(BlockedAddress):
        check_url("https://site.example/", resolver=resolver_for(address))


@pytest.mark.parametrize("address", [PUBLIC_V4, "8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", PUBLIC_V6,
                                     "::ffff:8.8.8.8", "2002:808:808::1"])
def test_public_addresses_pass(address: str) -> None:
    assert address_problem(ipaddress.ip_address(address)) is None
    check_url("https://site.example/", resolver=resolver_for(address))


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("169.254.169.254", "metadata_address"),
        ("fd00:ec2::254", "metadata_address"),
        ("100.100.100.200", "metadata_address"),
        ("::ffff:169.254.169.254", "embedded_metadata_address"),
        ("100.64.3.4", "carrier_grade_nat_address"),
        ("127.0.0.1", "loopback_address"),
        ("::ffff:127.0.0.1", "embedded_loopback_address"),
        ("10.1.2.3", "private_address"),
        ("fe80::1", "link_local_address"),
        ("ff02::1", "multicast_address"),
        ("0.0.0.0", "unspecified_address"),
    ],
)
def test_refusals_carry_a_specific_reason(address: str, reason: str) -> None:
    with pytest.raises(BlockedAddress) as caught:
        check_url("http://site.example/", resolver=resolver_for(address))
    assert caught.value.reason == reason
    assert str(ipaddress.ip_address(address)) in caught.value.detail
    assert isinstance(caught.value, CrawlError)


def test_one_private_address_among_public_ones_is_enough_to_refuse() -> None:
    with pytest.raises(BlockedAddress) as caught:
        check_url("https://site.example/", resolver=resolver_for(PUBLIC_V4, PUBLIC_V6, "10.0.0.7"))
    assert caught.value.reason == "private_address"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/", "http://127.0.0.1:8080/admin", "http://10.0.0.1/", "http://[::1]/",
        "http://[::ffff:127.0.0.1]/", "http://[fd00:ec2::254]/latest/meta-data/",
        "http://169.254.169.254/latest/meta-data/", "http://100.100.100.200/",
        "http://2130706433/", "http://0x7f000001/", "http://127.1/", "http://0/", "http://167772161/",
        "http://localhost/", "http://LOCALHOST./", "http://api.localhost/",
    ],
)
def test_literal_and_local_hosts_are_refused_without_dns(url: str) -> None:
    resolver = resolver_for(PUBLIC_V4)
    with pytest.raises(BlockedAddress):
        check_url(url, resolver=resolver)
    with pytest.raises(BlockedAddress):
        check_url_syntax(url)
    assert resolver.calls == []  # type: ignore[attr-defined]


def test_decimal_host_that_resolves_to_loopback_is_refused() -> None:
    """Even if a numeric host were handed to DNS, the resolved loopback address is refused."""
    with pytest.raises(BlockedAddress):
        check_url("http://2130706433/", resolver=resolver_for("127.0.0.1"))
    with pytest.raises(BlockedAddress):
        check_host("2130706433", resolver=resolver_for("127.0.0.1"))


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://example.com/", "bad_scheme"),
        ("file:///etc/passwd", "bad_scheme"),
        ("gopher://example.com/", "bad_scheme"),
        ("javascript:alert(1)", "bad_scheme"),
        ("data:text/html,hi", "bad_scheme"),
        ("example.com", "bad_scheme"),
        ("http:///path-only", "missing_host"),
        ("http://user:secret@example.com/", "userinfo"),
        ("http://user@example.com/", "userinfo"),
        ("http://example.com\\@evil.example/", "userinfo"),
        ("http://example.com:99999/", "invalid_port"),
        ("http://exa%6dple.com/", "invalid_host"),
        ("http://1.2.3.4.5/", "invalid_host"),
        ("http://[fe80::1%25eth0]/", "invalid_host"),
        ("", "invalid_url"),
        ("   ", "invalid_url"),
        ("https://example.com/" + "a" * MAX_URL_LENGTH, "url_too_long"),
    ],
)
def test_syntax_rules(url: str, reason: str) -> None:
    with pytest.raises(BlockedAddress) as caught:
        check_url_syntax(url)
    assert caught.value.reason == reason
    with pytest.raises(BlockedAddress):
        check_url(url, resolver=resolver_for(PUBLIC_V4))


@pytest.mark.parametrize(
    "url",
    ["https://example.com", "http://example.com/a/b?c=d#e", "HTTPS://Example.COM:8443/x", "https://bücher.example/",
     "https://example.com/" + "a" * (MAX_URL_LENGTH - 40)],
)
def test_ordinary_urls_pass(url: str) -> None:
    check_url_syntax(url)
    check_url(url, resolver=resolver_for(PUBLIC_V4))


def test_syntax_check_does_not_resolve() -> None:
    resolver = resolver_for("10.0.0.1")
    check_url_syntax("https://internal.example/")
    assert resolver.calls == []  # type: ignore[attr-defined]


def test_names_are_resolved_in_ascii_form() -> None:
    resolver = resolver_for(PUBLIC_V4)
    check_url("https://Bücher.Example/", resolver=resolver)
    assert resolver.calls == ["xn--bcher-kva.example"]  # type: ignore[attr-defined]


def test_allow_loopback_permits_only_loopback() -> None:
    check_url("http://127.0.0.1:8000/", allow_loopback=True)
    check_url("http://127.5.6.7/", allow_loopback=True)
    check_url("http://[::1]:8000/", allow_loopback=True)
    check_url("http://localhost:8000/", allow_loopback=True, resolver=resolver_for("127.0.0.1", "::1"))
    for url, address in [
        ("http://10.0.0.1/", None),
        ("http://192.168.0.1/", None),
        ("http://169.254.169.254/", None),
        ("http://[::ffff:127.0.0.1]/", None),
        ("http://0.0.0.0/", None),
        ("http://internal.example/", "172.16.5.4"),
        ("http://internal.example/", "fe80::1"),
    ]:
        resolver = resolver_for(address) if address else None
        with pytest.raises(BlockedAddress):
            check_url(url, allow_loopback=True, resolver=resolver)


def test_without_allow_loopback_localhost_urls_are_refused() -> None:
    with pytest.raises(BlockedAddress) as caught:
        check_url("http://127.0.0.1:8000/")
    assert caught.value.reason == "loopback_address"


def test_check_host_returns_the_vetted_addresses() -> None:
    addresses = check_host("site.example", resolver=resolver_for(PUBLIC_V4, PUBLIC_V6, PUBLIC_V4))
    assert addresses == (ipaddress.ip_address(PUBLIC_V4), ipaddress.ip_address(PUBLIC_V6))
    assert check_host("[2606:4700::1111]") == (ipaddress.ip_address("2606:4700::1111"),)


def test_unresolvable_host_is_unreachable_not_blocked() -> None:
    with pytest.raises(SiteUnreachable) as caught:
        check_url("https://no-such-host.example/", resolver=failing_resolver)
    assert caught.value.reason == "dns_error"
    # what the founder reads: the name and what to do, not the resolver's errno
    assert caught.value.detail.startswith("no-such-host.example was not found") and "Errno" not in caught.value.detail
    with pytest.raises(SiteUnreachable) as caught:
        check_url("https://empty.example/", resolver=resolver_for())
    assert caught.value.detail.startswith("empty.example was not found")


def test_garbage_from_the_resolver_is_refused() -> None:
    with pytest.raises(BlockedAddress) as caught:
        check_url("https://odd.example/", resolver=resolver_for("not-an-ip"))
    assert caught.value.reason == "invalid_address"


def test_error_serialises_its_reason_and_detail() -> None:
    with pytest.raises(BlockedAddress) as caught:
        check_url("http://10.0.0.1/")
    data = caught.value.to_dict()
    assert data["error"] == "BlockedAddress"
    assert data["kind"] == "blocked_address"
    assert data["reason"] == "private_address"
    assert "10.0.0.1" in data["detail"]
