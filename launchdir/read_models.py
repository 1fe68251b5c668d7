"""The projections the service runs, in one list.

Both the server's container (`launchdir/bootstrap.py`) and the job context of
`launchdir worker` processes (`launchdir/submission.py`) build their projection
runtime from it, so it lives apart from both.
"""

from __future__ import annotations

from projections.accounts_view import AccountsView
from projections.base import Projection
from projections.catalog_view import CatalogView
from projections.content_view import ContentView
from projections.draft_view import DraftView
from projections.launches_view import LaunchesView
from projections.leaderboard_view import LeaderboardView
from projections.listing_view import ListingView
from projections.mail_view import MailView
from projections.oauth_view import OAuthView


def all_projections(timezone: str = "UTC") -> list[Projection]:
    """Every projection the service runs (one line each); `timezone` is the site's (launch weeks follow it)."""
    return [
        CatalogView(),
        ListingView(),
        LaunchesView(timezone),
        LeaderboardView(),
        ContentView(),
        AccountsView(),
        MailView(),
        DraftView(),
        OAuthView(),
    ]
