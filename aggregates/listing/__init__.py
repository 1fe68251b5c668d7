"""The Listing decider: profile, categories, status and launch week, paid sections, owners.

Statuses: `draft` (saved, not published), `awaiting_badge` (free plan, queued
for a week, waiting for our badge on the homepage), `scheduled` (a week is
set and nothing else is needed), `live`, `unpublished` (taken down). A
scheduled listing goes live when its week starts; a free listing whose badge
is found after its week began goes live at once.

The package: `state` (states, stream ids, slugs, limits), `create` (creation
and the slug streams), `editing` (content, paid sections, owners,
verification), `publishing` (the status machine above) and `evolve`. The
package itself is the decider of listing streams (`initial`, `evolve`);
`SLUG` folds the slug streams.
"""

from __future__ import annotations

from aggregates.base import StreamKind
from aggregates.listing.create import (
    decide_claim_slug,
    decide_create,
    decide_create_with_extras,
    decide_release_slug,
)
from aggregates.listing.editing import (
    decide_add_milestone,
    decide_add_owner,
    decide_approve_alternatives,
    decide_delete_milestone,
    decide_edit,
    decide_post_update,
    decide_set_evidence,
    decide_set_story,
    decide_unlock,
    decide_verify,
)
from aggregates.listing.evolve import evolve
from aggregates.listing.owners import OWNER_REASON, decide_remove_owner, decide_withdraw_verification, staff_reason
from aggregates.listing.publishing import (
    decide_badge_found,
    decide_feature,
    decide_launch_if_due,
    decide_relaunch,
    decide_queue_free,
    decide_put_back,
    decide_reschedule_free,
    decide_schedule_paid,
    decide_staff_publish,
    decide_unpublish,
)
from aggregates.listing.state import (
    EDITABLE,
    MAX_EXTRA_CATEGORIES,
    PAID_SECTIONS,
    PROFILE_FIELDS,
    SLUG_PATTERN,
    STATUSES,
    ListingState,
    SlugState,
    initial,
    initial_slug,
    listing_stream,
    require_listing,
    require_open,
    require_owner,
    slug_stream,
    slugify,
)

__all__ = [
    "EDITABLE", "MAX_EXTRA_CATEGORIES", "PAID_SECTIONS", "PROFILE_FIELDS", "SLUG", "SLUG_PATTERN", "STATUSES",
    "ListingState", "SlugState",
    "decide_add_milestone", "decide_add_owner", "decide_approve_alternatives", "decide_badge_found",
    "decide_claim_slug", "decide_create", "decide_create_with_extras", "decide_delete_milestone", "decide_edit",
    "decide_feature", "decide_launch_if_due", "decide_relaunch", "decide_post_update", "decide_queue_free", "decide_release_slug",
    "decide_put_back", "decide_reschedule_free", "decide_schedule_paid", "decide_set_evidence", "decide_set_story", "decide_staff_publish", "decide_unlock", "decide_unpublish",
    "OWNER_REASON", "decide_remove_owner", "decide_withdraw_verification", "staff_reason",
    "decide_verify", "evolve", "initial", "initial_slug", "listing_stream", "require_listing", "require_open", "require_owner", "slug_stream", "slugify",
]

SLUG: StreamKind[SlugState] = StreamKind(initial_slug, evolve)
"""The slug streams (`slug_stream(slug)`): which listing holds a slug. The package itself folds listing streams."""
