"""The projections the service runs, in one list.

Both the server's container (`launchdir/bootstrap.py`) and the job context of
`launchdir worker` processes (`launchdir/submission.py`) build their projection
runtime from it, so it lives apart from both.
"""

from __future__ import annotations

from projections.accounts_view import AccountsView
from projections.badge_checks_view import BadgeChecksView
from projections.base import Projection
from projections.catalog_view import CatalogView
from projections.claims_view import ClaimsView
from projections.content_view import ContentView
from projections.draft_view import DraftView
from projections.history_view import HistoryView
from projections.interview_view import InterviewView
from projections.launches_view import LaunchesView
from projections.leaderboard_view import LeaderboardView
from projections.listing_view import ListingView
from projections.mail_view import MailView
from projections.notices_view import NoticesView
from projections.oauth_view import OAuthView
from projections.orders_view import OrdersView
from projections.reviews_view import ReviewsView
from projections.search_view import SearchView
from projections.updates_view import UpdatesView
from projections.vote_integrity_view import VoteIntegrityView


def all_projections(timezone: str = "UTC") -> list[Projection]:
    """Every projection the service runs (one line each); `timezone` is the site's (launch weeks follow it)."""
    return [
        CatalogView(),
        ListingView(),
        SearchView(),  # what searches match, filter and order on, and the vocabulary (docs/search.md)
        LaunchesView(timezone),
        LeaderboardView(),
        ContentView(),
        AccountsView(),
        MailView(),
        DraftView(),
        OAuthView(),
        ClaimsView(),
        HistoryView(),
        BadgeChecksView(),
        OrdersView(),
        UpdatesView(),  # listing updates: the latest-updates feed, the follower fan-out
        InterviewView(),  # founder-interview answers and who owns a live listing
        ReviewsView(),  # review texts for listing pages and the staff's review list (docs/reviews.md)
        VoteIntegrityView(),  # votes with their integrity signals: the staff vote report (docs/voting.md)
        NoticesView(),  # what founders are mailed of: scheduled, live, badge missing, order paid (docs/notices.md)
    ]
