"""The Draft decider: a product profile drafted from its website, then edited by its owners.

Status: ``crawling`` -> ``drafting`` -> ``ready``, or ``failed`` (with a
reason) from either of the first two. ``ready`` is where people edit; a draft
stays editable after it became a listing (edits then flow to the listing).

Profile parts are *slots*: the eighteen fields of SPEC §4.4 and the sections
``faqs``, ``founders`` and ``company_socials``. Each slot has a value, a
state (SPEC §3.2) and evidence quotes, and remembers the AI's latest value so
``restore`` can put it back:

=========================  ===========================================
move                       resulting state
=========================  ===========================================
drafted with evidence      ``ai``
drafted without evidence   ``not_found`` (listed in not_found_on_website)
user sets a value          ``edited`` if the AI had a value, else ``manual``;
                           a locked slot keeps ``override``
user sets null / "" / []   ``deleted``
lock_fields                ``override`` (regenerate never touches it)
restore                    the AI's value: ``ai``, or ``not_found``
regenerate (a job)         the AI's new value: ``ai`` or ``not_found``
=========================  ===========================================

Deciders are pure: ids, hashes and times come in from the handler.

The package: `state` (states, streams, limits), `slots` (slot values and
completeness), `patch` (the update_draft input), `pipeline` (submission and
the jobs' progress), `editing` (update_draft and its results), `invites`,
`to_listing` (the draft's side of becoming a listing) and `evolve`. The field
vocabulary lives in `events.draft_fields`, shared with the drafter and the
draft projection.
"""

from __future__ import annotations

from aggregates.draft.editing import (
    decide_competitor_compared,
    decide_competitor_failed,
    decide_regenerated,
    decide_regeneration_failed,
    decide_update,
)
from aggregates.base import StreamKind
from aggregates.draft.evolve import evolve
from aggregates.draft.invites import decide_accept_invite, decide_invite
from aggregates.draft.patch import Patch
from aggregates.draft.pipeline import (
    decide_crawl_attempt_failed,
    decide_crawled,
    decide_fail,
    decide_ready,
    decide_start_crawl,
    decide_start_drafting,
    decide_submit,
    decide_timeouts,
)
from aggregates.draft.slots import drafted_slot, summary_of
from aggregates.draft.state import (
    INVITE_TTL,
    MAX_EVIDENCE,
    MAX_INVITES,
    REQUIRED_FOR_LISTING,
    Competitor,
    DraftState,
    Invite,
    Regeneration,
    SiteIndexState,
    Slot,
    draft_stream,
    initial,
    initial_site,
    require_ready,
    site_key,
    site_stream,
)
from aggregates.draft.to_listing import (
    check_listable,
    decide_link_listing,
    decide_resubmitted,
    listing_content,
)
from events.draft_fields import (
    COMPLETENESS_WEIGHTS,
    FIELD_NAMES,
    IN_PROGRESS,
    LIST_FIELDS,
    SECTIONS,
    SLOTS,
    STATES,
    STATUSES,
    STRING_FIELDS,
)

__all__ = [
    "COMPLETENESS_WEIGHTS", "FIELD_NAMES", "INVITE_TTL", "IN_PROGRESS", "LIST_FIELDS",
    "MAX_EVIDENCE", "MAX_INVITES", "REQUIRED_FOR_LISTING", "SECTIONS", "SLOTS", "STATES", "STATUSES",
    "STRING_FIELDS", "Competitor", "DraftState", "Invite", "Patch", "Regeneration", "SiteIndexState", "Slot",
    "check_listable", "decide_accept_invite", "decide_competitor_compared", "decide_competitor_failed",
    "decide_crawl_attempt_failed", "decide_crawled", "decide_fail", "decide_invite", "decide_link_listing",
    "decide_ready", "decide_regenerated", "decide_regeneration_failed", "decide_resubmitted", "decide_start_crawl",
    "decide_start_drafting", "decide_submit", "decide_timeouts", "decide_update",
    "draft_stream", "drafted_slot", "evolve", "initial", "initial_site", "listing_content", "require_ready", "site_key",
    "site_stream", "summary_of", "SITE_INDEX",
]

SITE_INDEX: StreamKind[SiteIndexState] = StreamKind(initial_site, evolve)
"""The decider of an (account, site) stream: which draft is the account's draft of that site."""

