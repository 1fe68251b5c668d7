"""Decide whether a URL may be fetched at all (server-side request forgery guard).

Founders submit arbitrary URLs and our servers fetch them, so every URL and
every redirect hop must point at a public internet address.  The rules:

* scheme ``http`` or ``https`` only, a host is required, no ``user:pass@``,
  at most :data:`MAX_URL_LENGTH` characters, a valid port;
* the host is resolved and *every* address it resolves to must be public:
  private, loopback, link-local, multicast, reserved, unspecified,
  carrier-grade NAT (100.64.0.0/10), documentation/benchmark ranges, IPv6
  unique-local/site-local, and cloud metadata addresses are refused.
  IPv6 addresses that embed an IPv4 address (IPv4-mapped, 6to4, NAT64) are
  judged by the embedded address;
* literal IPs in the URL, including legacy numeric spellings such as
  ``2130706433`` or ``0x7f000001``, are judged the same way;
* ``allow_loopback=True`` (tests only) permits 127.0.0.0/8 and ``::1`` and
  nothing else.

The URL is parsed with httpx, the same parser the HTTP client uses, so the
guard and the client cannot disagree about which host a URL names.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable

import httpx
import idna

from .errors import BlockedAddress, SiteUnreachable

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str], Iterable[str]]
"""Maps a host name to the IP address strings it resolves to."""

MAX_URL_LENGTH = 2048
ALLOWED_SCHEMES = frozenset({"http", "https"})

METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200")
)

_LOOPBACK_V4 = ipaddress.ip_network("127.0.0.0/8")
_LOOPBACK_V6 = ipaddress.ip_address("::1")

_BLOCKED_V4: tuple[tuple[ipaddress.IPv4Network, str], ...] = tuple(
    (ipaddress.IPv4Network(net), reason)
    for net, reason in (
        ("0.0.0.0/8", "unspecified_address"),
        ("10.0.0.0/8", "private_address"),
        ("100.64.0.0/10", "carrier_grade_nat_address"),
        ("127.0.0.0/8", "loopback_address"),
        ("169.254.0.0/16", "link_local_address"),
        ("172.16.0.0/12", "private_address"),
        ("192.0.0.0/24", "reserved_address"),
        ("192.0.2.0/24", "reserved_address"),
        ("192.88.99.0/24", "reserved_address"),
        ("192.168.0.0/16", "private_address"),
        ("198.18.0.0/15", "reserved_address"),
        ("198.51.100.0/24", "reserved_address"),
        ("203.0.113.0/24", "reserved_address"),
        ("224.0.0.0/4", "multicast_address"),
        ("240.0.0.0/4", "reserved_address"),
    )
)

_BLOCKED_V6: tuple[tuple[ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.IPv6Network(net), reason)
    for net, reason in (
        ("::/128", "unspecified_address"),
        ("::1/128", "loopback_address"),
        ("64:ff9b:1::/48", "private_address"),
        ("100::/64", "reserved_address"),
        ("2001::/23", "reserved_address"),
        ("2001:db8::/32", "reserved_address"),
        ("3fff::/20", "reserved_address"),
        ("fc00::/7", "private_address"),
        ("fe80::/10", "link_local_address"),
        ("fec0::/10", "private_address"),
        ("ff00::/8", "multicast_address"),
    )
)

_GLOBAL_UNICAST_V6 = ipaddress.ip_network("2000::/3")
_NAT64_V6 = ipaddress.ip_network("64:ff9b::/96")
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
_LOCALHOST_NAMES = ("localhost", "localhost.localdomain")


def check_url_syntax(url: str, *, allow_loopback: bool = False) -> None:
    """Cheap validation without DNS, e.g. when a founder submits a URL.

    Applies the scheme, host, userinfo, port and length rules, and refuses
    literal non-public IPs and ``localhost`` names (both knowable without a
    lookup).  Raises :class:`BlockedAddress`.
    """
    _checked_host(url, allow_loopback=allow_loopback)


def check_url(url: str, *, allow_loopback: bool = False, resolver: Resolver | None = None) -> None:
    """Full check of a URL before connecting: syntax plus every resolved address.

    Raises :class:`BlockedAddress` when the URL is refused and
    :class:`SiteUnreachable` when its host cannot be resolved.
    """
    host = _checked_host(url, allow_loopback=allow_loopback)
    check_host(host, allow_loopback=allow_loopback, resolver=resolver)


def check_host(
    host: str, *, allow_loopback: bool = False, resolver: Resolver | None = None
) -> tuple[IPAddress, ...]:
    """Resolve ``host`` (a URL host, name or literal) and vet every address.

    Returns the vetted addresses so a caller can connect to exactly those and
    not resolve again (which would reopen the door to DNS rebinding).
    """
    ascii_host = _ascii_host(host)
    literal = _literal_ip(ascii_host)
    if literal is not None:
        _raise_if_blocked(literal, allow_loopback=allow_loopback, host=host)
        return (literal,)
    if not allow_loopback and _is_localhost_name(ascii_host):
        raise BlockedAddress("loopback_address", f"{host} is a local name")
    addresses = _resolve(ascii_host, resolver or system_resolver)
    for address in addresses:
        _raise_if_blocked(address, allow_loopback=allow_loopback, host=host)
    return addresses


def address_problem(address: IPAddress, *, allow_loopback: bool = False) -> str | None:
    """Return why ``address`` may not be contacted, or ``None`` if it is public."""
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
        address = ipaddress.IPv6Address(str(address).split("%", 1)[0])
    if address in METADATA_ADDRESSES:
        return "metadata_address"
    embedded = _embedded_ipv4(address)
    if embedded is not None:
        problem = address_problem(embedded)
        return None if problem is None else f"embedded_{problem}"
    if allow_loopback and (address in _LOOPBACK_V4 or address == _LOOPBACK_V6):
        return None
    table = _BLOCKED_V4 if isinstance(address, ipaddress.IPv4Address) else _BLOCKED_V6
    for network, reason in table:
        if address in network:
            return reason
    if isinstance(address, ipaddress.IPv6Address) and address not in _GLOBAL_UNICAST_V6:
        return "reserved_address"
    if not address.is_global:
        return "non_global_address"
    return None


def system_resolver(host: str) -> list[str]:
    """Resolve ``host`` with the operating system, returning all addresses."""
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return [str(info[4][0]) for info in infos]


def _checked_host(url: str, *, allow_loopback: bool) -> str:
    """Apply the syntax rules and return the URL's ASCII host."""
    host = _parse_url(url).raw_host.decode("ascii")
    literal = _literal_ip(host)
    if literal is not None:
        _raise_if_blocked(literal, allow_loopback=allow_loopback, host=host)
    elif not allow_loopback and _is_localhost_name(host):
        raise BlockedAddress("loopback_address", f"{host} is a local name")
    return host


def _parse_url(url: str) -> httpx.URL:
    if not isinstance(url, str) or not url.strip():
        raise BlockedAddress("invalid_url", "the URL is empty")
    if len(url) > MAX_URL_LENGTH:
        raise BlockedAddress("url_too_long", f"the URL is longer than {MAX_URL_LENGTH} characters")
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise BlockedAddress("invalid_url", f"the URL cannot be parsed: {exc}") from None
    if not parsed.scheme:  # "example.com": a host typed without its scheme
        example = f", e.g. https://{url.strip()}" if url.strip() and not any(c.isspace() for c in url.strip()) else ""
        raise BlockedAddress("bad_scheme", f"start the address with https:// (or http://){example}")
    if parsed.scheme not in ALLOWED_SCHEMES:
        raise BlockedAddress("bad_scheme", f"only http and https URLs are allowed, not {parsed.scheme!r}")
    if not parsed.raw_host:
        raise BlockedAddress("missing_host", "the URL has no host")
    if parsed.userinfo:
        raise BlockedAddress("userinfo", "URLs with user names or passwords are not allowed")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise BlockedAddress("invalid_port", f"port {parsed.port} is out of range")
    _validate_host_syntax(parsed.raw_host.decode("ascii", "replace"))
    return parsed


def _validate_host_syntax(host: str) -> None:
    """Accept IP literals and DNS names made of letters, digits, '-' and '_'."""
    if ":" in host:
        if "%" in host:
            raise BlockedAddress("invalid_host", "IPv6 zone identifiers are not allowed")
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise BlockedAddress("invalid_host", f"{host!r} is not a valid IPv6 address") from None
        return
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    if len(name) > 253 or any(not label or len(label) > 63 or not set(label) <= _HOST_CHARS for label in labels):
        raise BlockedAddress("invalid_host", f"{host!r} is not a valid host name")
    if _looks_numeric(labels[-1]) and _legacy_ipv4(name) is None:
        raise BlockedAddress("invalid_host", f"{host!r} is neither an IP address nor a host name")


def _ascii_host(host: str) -> str:
    host = host.strip().strip("[]").lower()
    if host.isascii():
        return host
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        raise BlockedAddress("invalid_host", f"{host!r} is not a valid host name") from None


def _literal_ip(host: str) -> IPAddress | None:
    """Interpret ``host`` as an IP literal, including legacy numeric IPv4 forms."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    name = host[:-1] if host.endswith(".") else host
    if all(_looks_numeric(label) for label in name.split(".")):
        return _legacy_ipv4(name)
    return None


def _looks_numeric(label: str) -> bool:
    lowered = label.lower()
    if lowered.startswith("0x"):
        return all(c in "0123456789abcdef" for c in lowered[2:])
    return bool(lowered) and lowered.isdigit()


def _legacy_ipv4(name: str) -> ipaddress.IPv4Address | None:
    """Parse forms like ``2130706433``, ``0x7f000001`` or ``127.1`` as inet_aton does."""
    try:
        return ipaddress.IPv4Address(socket.inet_aton(name))
    except (OSError, ValueError):
        return None


def _is_localhost_name(host: str) -> bool:
    name = host.rstrip(".")
    return name in _LOCALHOST_NAMES or name.endswith(".localhost")


def _resolve(host: str, resolver: Resolver) -> tuple[IPAddress, ...]:
    try:
        raw = list(resolver(host))
    except (OSError, UnicodeError):  # the resolver's own words ("[Errno -2] Name or service not known") help nobody
        raise SiteUnreachable("dns_error", f"{host} was not found: no address is registered for that name "
                                           "(check its spelling)") from None
    addresses: list[IPAddress] = []
    for item in raw:
        try:
            address = ipaddress.ip_address(str(item).split("%", 1)[0])
        except ValueError:
            raise BlockedAddress("invalid_address", f"{host} resolved to {item!r}") from None
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise SiteUnreachable("dns_error", f"{host} was not found: no address is registered for that name "
                                           "(check its spelling)")
    return tuple(addresses)


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64_V6:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _raise_if_blocked(address: IPAddress, *, allow_loopback: bool, host: str) -> None:
    problem = address_problem(address, allow_loopback=allow_loopback)
    if problem is not None:
        raise BlockedAddress(problem, f"{host} points at {address}, which is not a public address ({problem})")
