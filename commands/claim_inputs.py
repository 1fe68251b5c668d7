"""Inputs of the claim operations (SPEC §4.6) and the domain rules they are checked against.

A claim is proven on the listing's **registrable domain**: the name a company
registers, found with the public suffix list (`tldextract` with the list
bundled in the package, never fetched at run time; private suffixes such as
`github.io` count, so `acme.github.io` is its own domain and not GitHub's).
A website on an IP address has that address as its domain.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Literal
from urllib.parse import urlsplit

import tldextract
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from aggregates.listing import ListingState
from commands.draft_inputs import OPTIONAL_EMAIL_PATTERN, optional_email
from events.errors import FieldProblem, InvalidInput

SLUG_PATTERN = r"^[a-z0-9][a-z0-9-]{0,219}$"

_SUFFIXES = tldextract.TLDExtract(
    cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True, include_psl_private_domains=True,
)
"""The bundled public suffix list only: no cache directory, no download, ever."""


class ClaimListing(BaseModel):
    """Claim a listed product as yours: answers what to publish (TXT record, meta tag or file) or where the link went.

    Then publish it and call verify_claim (an email claim verifies when the emailed link is opened).
    Repeating the same claim while it is pending answers the same claim.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(max_length=220, pattern=SLUG_PATTERN, description="The listing's slug (as in get_listing).")
    method: Literal["dns", "meta", "file", "email"] = Field(
        description="`dns` (TXT record), `meta` (tag on the homepage), `file` (under /.well-known/) or `email`.")
    email: Annotated[str | None, AfterValidator(optional_email)] = Field(
        None, max_length=254, json_schema_extra={"pattern": OPTIONAL_EMAIL_PATTERN},
        description="For method `email`: an address at the listing's domain (subdomains allowed).",
        examples=["founder@example.com"])

    def address(self) -> str:
        """The email address, trimmed and lower-cased ("" when none); 400 when it does not fit the method."""
        email = (self.email or "").strip().lower()
        if self.method == "email" and not email:
            raise InvalidInput("the email method needs an address",
                               [FieldProblem("email", "required", "Give an address at the listing's domain.")])
        if self.method != "email" and email:
            raise InvalidInput("an address is only for the email method",
                               [FieldProblem("email", "not_allowed", "Only send `email` with method `email`.")])
        return email


class VerifyClaim(BaseModel):
    """Check a pending claim now (TXT record, meta tag or file); answers the claim with its status and, if not verified, why."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    claim_id: int = Field(ge=1, le=2_147_483_647, description="Claim id (from claim_listing or list_my_claims).")


def host_of(url: str) -> str:
    """The URL's host in lower case, without a trailing dot ("" when there is none)."""
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""
    host = host.rstrip(".").lower()
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def registrable_domain(url: str) -> str:
    """The registrable domain of `url`'s host ("" when it has none, e.g. `localhost` or an unknown suffix)."""
    host = host_of(url)
    if not host:
        return ""
    if is_ip(host):
        return host
    return _SUFFIXES(host).top_domain_under_public_suffix.lower()


def listing_website(state: ListingState) -> str:
    """The listing's own website: `profile.website_url`, else its `website` link ("" when it has neither)."""
    url = state.profile.get("website_url") or state.socials.get("website") or ""
    return str(url).strip()


def on_domain(host: str, domain: str) -> bool:
    """`host` is the domain itself or one of its subdomains."""
    host = host.rstrip(".").lower()
    return bool(domain) and (host == domain or (not is_ip(domain) and host.endswith("." + domain)))


def check_address(email: str, domain: str) -> None:
    """An email claim's address must be at the listing's domain (subdomains allowed): else a 400 naming the rule."""
    at = email.rsplit("@", 1)[-1]
    try:
        at = at.encode("idna").decode("ascii")
    except UnicodeError:
        pass
    if not on_domain(at, domain):
        raise InvalidInput(
            f"the address must be at {domain}",
            [FieldProblem("email", "domain", f"Use an address at {domain} or one of its subdomains.")],
        )
