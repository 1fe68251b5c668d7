"""The site's name and contact address as the commands read them, for the mails they queue.

A mail says which site it comes from ("... is live on Shipyard") and how to reach
its team. Both are site settings staff change (`commands.catalog`), so a mail
reads them from the catalogue's stream when it is written, with the loader of
the decision that queues it (or the store's own `load`), and names the site as
its pages do.
"""

from __future__ import annotations

from dataclasses import dataclass

from aggregates import catalog
from commands.store import Loader

DEFAULT_NAME = "launchdir"  # a catalogue never loaded has no name yet


@dataclass(frozen=True)
class Site:
    """What a mail says of the site: its name, and the address its team reads ("" when none is set)."""

    name: str
    contact: str = ""

    def reach(self) -> str:
        """How a mail's reader reaches the team: "write to <contact>", or "contact the <name> team" when none is set."""
        return f"write to {self.contact}" if self.contact else f"contact the {self.name} team"

    def signed(self, text: str, why: str = "") -> str:
        """`text` with the team's sign-off, and below it `why` the reader gets the mail (for mails that answer
        no action of theirs), as every mail ends: one shape, so the mails read alike."""
        return signed(text, self.name, why)


def signed(text: str, site: str, why: str = "") -> str:
    """A mail's text ending with a blank line, "The <site> team" and, when given, "--" and why it was sent."""
    ending = f"\n--\n{why}\n" if why else ""
    return f"{text.rstrip()}\n\nThe {site} team\n{ending}"


def site_of(load_: Loader) -> Site:
    """The site's name (setting `name`) and contact address (setting `contact_email`) as they are now."""
    state: catalog.CatalogState = load_(catalog.CATALOG_ID, catalog)
    return Site(str(state.site.get("name") or DEFAULT_NAME), str(state.site.get("contact_email") or ""))


def site_contact(load_: Loader) -> str:
    """The site's contact address, or "" when none is set."""
    return site_of(load_).contact
