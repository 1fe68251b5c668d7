"""The founder's pages, assembled: listings, their posts and free launch, claims, orders, and the staff's extra pages.

`launchdir/bootstrap.py` adds `founder_routes(...)` to the website with one
line. The badge check on demand is a port (`CheckBadgeNow`): the composition
root hands in the badge watch's check, so `api/` never imports a worker.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from api.identity import Identity
from api.web_my_claims import my_claim_routes
from api.services import CheckBadgeNow
from api.web_my_free import my_free_routes
from api.web_my_listing_edit import my_listing_edit_routes
from api.web_my_listing_posts import my_listing_post_routes
from api.web_my_listings import my_listing_routes
from api.web_my_orders import my_order_routes
from api.web_staff_blog import staff_blog_routes
from api.web_staff_founders import staff_founder_routes
from api.web_staff_orders import staff_order_routes
from api.web_staff_settings import staff_settings_routes


def founder_routes(identity: Identity, check_badge: CheckBadgeNow) -> list[BaseRoute]:
    """Every founder page and the staff's orders, tasks, prices, blog, founder-profile and settings pages."""
    return [*my_listing_routes(identity), *my_listing_edit_routes(identity), *my_listing_post_routes(identity), *my_free_routes(identity, check_badge),
            *my_claim_routes(identity), *my_order_routes(identity), *staff_order_routes(identity),
            *staff_blog_routes(identity), *staff_founder_routes(identity),
            *staff_settings_routes(identity)]
