"""Demo data, loaded through the commands like any other change."""

from __future__ import annotations

from typing import Any

from commands.catalog import ChangeSiteSettings, change_site_settings


def load_demo(c: Any) -> dict[str, int]:
    """Give the demo site a name and purpose; listings join when the directory exists."""
    meta = c.system_meta(actor="staff:demo", channel="cli")
    change_site_settings(
        c.store,
        ChangeSiteSettings(changes={"name": "launchdir demo", "contact_email": "hello@launchdir.invalid"}),
        meta,
    )
    return {"site_settings": 1}
