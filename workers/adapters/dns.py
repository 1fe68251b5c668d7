"""DNS: TXT lookups with dnspython, through the nameservers the settings name (the system's by default).

The one adapter that talks DNS. `LAUNCHDIR_DNS_NAMESERVERS` (a comma-separated
list of `host` or `host:port`, `[v6]:port` for IPv6) points it elsewhere, which
is how tests use a DNS server on 127.0.0.1. Answers are never cached here: a
claimant who just published a record wants it seen on the next check.
"""

from __future__ import annotations

from collections.abc import Sequence

import dns.exception
import dns.name
import dns.nameserver
import dns.rdatatype
import dns.resolver

DEFAULT_TIMEOUT = 5.0


class DnsError(Exception):
    """A lookup that gave no answer; `reason` is `record_not_found`, `timeout` or `unreachable`."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def parse_nameserver(entry: str) -> tuple[str, int]:
    """`1.2.3.4`, `1.2.3.4:5353`, `::1`, `[::1]:5353` -> (address, port)."""
    entry = entry.strip()
    if entry.startswith("["):
        address, _, rest = entry[1:].partition("]")
        return address, int(rest[1:]) if rest.startswith(":") else 53
    if entry.count(":") == 1:
        address, port = entry.split(":")
        return address, int(port)
    return entry, 53


class TxtLookup:
    """Reads TXT records of a name, asking the configured nameservers (or the system's)."""

    def __init__(self, nameservers: Sequence[str] = (), timeout: float = DEFAULT_TIMEOUT) -> None:
        self._nameservers = [parse_nameserver(n) for n in nameservers if n.strip()]
        self._timeout = timeout

    def _resolver(self) -> dns.resolver.Resolver:
        try:
            resolver = dns.resolver.Resolver(configure=not self._nameservers)
        except dns.resolver.NoResolverConfiguration as exc:
            raise DnsError("unreachable", f"no DNS resolver is configured on this server: {exc}") from None
        if self._nameservers:
            resolver.nameservers = [dns.nameserver.Do53Nameserver(a, p) for a, p in self._nameservers]
        resolver.timeout = self._timeout
        resolver.lifetime = self._timeout
        resolver.cache = None
        return resolver

    def txt(self, name: str) -> list[str]:
        """Every TXT record of `name` (each record's strings joined); `DnsError` when there are none or no answer."""
        try:
            qname = dns.name.from_text(name)
        except (dns.exception.DNSException, ValueError) as exc:
            raise DnsError("record_not_found", f"{name} is not a valid DNS name: {exc}") from None
        try:
            answer = self._resolver().resolve(qname, dns.rdatatype.TXT, search=False)
        except dns.resolver.NXDOMAIN:
            raise DnsError("record_not_found", f"{name} does not exist in DNS") from None
        except dns.resolver.NoAnswer:
            raise DnsError("record_not_found", f"{name} has no TXT record") from None
        except dns.exception.Timeout:
            raise DnsError("timeout", f"the DNS lookup of {name} timed out after {self._timeout:.0f} s") from None
        except dns.resolver.NoNameservers as exc:
            raise DnsError("unreachable", f"no nameserver answered for {name}: {exc}") from None
        except dns.exception.DNSException as exc:
            raise DnsError("unreachable", f"the DNS lookup of {name} failed: {exc}") from None
        return [b"".join(r.strings).decode("utf-8", "replace") for r in answer]
