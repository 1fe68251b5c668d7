"""Pricing an order body against the catalogue and the caller's listings: every rule of SPEC §4.7's table.

Prices come from the Catalog state handed in (the admin's current prices);
nothing here holds a price. A rule broken by one item is a 400 naming
`items.<i>.<field>` (the dotted path of pydantic's errors) and the rule, and
every rule broken by every item is in the same 400; a listing that is not the caller's is a 404 (the same words as one that does
not exist). Each line costs its product's
price once, except `billboard_min`, which costs the amount chosen (at least
the price). The subtotal is the sum of the lines; VAT is worked out once on
the subtotal (`aggregates.order.vat`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypeVar

from aggregates.catalog import CatalogState, Product
from aggregates.listing import MAX_EXTRA_CATEGORIES, ListingState, require_owner
from aggregates.order.awards import WonAward
from aggregates.order.state import LAUNCH_SECTIONS
from aggregates.order.vat import VatDecision, vat_cents
from aggregates.weeks import is_monday, monday_of
from events.errors import FieldProblem, InvalidInput, NotFound
from events.week_names import week_name

LAUNCH_LIKE = ("launch", "launch_bundle")
LAUNCH_MAX_WEEKS = 52  # a paid launch may be booked up to a year ahead
STAFF_TASKS = ("done_for_you", "trophy_cabinet")
RELAUNCH_AFTER_WEEKS = 8  # a launch week's awards may still be recomputed for 8 weeks (workers/scheduler.py)
TROPHY = "trophy_cabinet"
AWARD = "award"  # the trophy's option naming the award: the Monday of the awarded week
STATUS_WORDS = {
    "draft": "saved but not launched or queued yet", "awaiting_badge": "queued on the free plan, waiting for its badge",
    "scheduled": "scheduled", "live": "live", "unpublished": "taken down",
}
"""A listing's status in the words of a refusal ("this listing is live"), never its code ("awaiting_badge")."""
T = TypeVar("T")


def _named(week: str | None) -> str:
    """A week as people read it in a refusal: "the week of 7–13 Dec 2026" (plain spaces: the API says it too)."""
    return f"the week of {week_name(week, plain=True)}"


def _status(owned: ListingState) -> str:
    """Where the listing stands, in words: "live", "scheduled for the week of 7–13 Dec 2026"."""
    words = STATUS_WORDS.get(owned.status, owned.status.replace("_", " "))
    if owned.status in ("scheduled", "awaiting_badge") and owned.week:
        words += f" ({_named(owned.week)})" if owned.status == "awaiting_badge" else f" for {_named(owned.week)}"
    return words


@dataclass(frozen=True)
class Quote:
    lines: list[dict[str, Any]]
    subtotal_cents: int
    vat: VatDecision
    vat_cents: int
    total_cents: int

    def with_vat(self, vat: VatDecision) -> Quote:
        amount = vat_cents(self.subtotal_cents, vat.rate_bp)
        return Quote(self.lines, self.subtotal_cents, vat, amount, self.subtotal_cents + amount)


def _bad(index: int, field: str, rule: str, message: str) -> InvalidInput:
    where = f"items.{index}.{field}" if field else f"items.{index}"
    return InvalidInput(f"{where}: {message}", [FieldProblem(where, rule, message)])


def offered_weeks(today: date, window: list[int]) -> list[str]:
    """The launch-week Mondays list_products offers for a product with `week_window` (same rule as the read)."""
    start = monday_of(today)
    return [(start + timedelta(weeks=k)).isoformat() for k in range(window[0], window[1] + 1)]


def _week(i: int, item: dict[str, Any], product: Product, today: date) -> str | None:
    week = item.get("week")
    if product.week_window:
        offered = offered_weeks(today, product.week_window)
        span = f"a Monday from {offered[0]} to {offered[-1]} ({_named(offered[0])} to {_named(offered[-1])})"
        if not week:
            raise _bad(i, "week", "required", f"choose a week for {product.code}: {span}")
        if week not in offered:
            raise _bad(i, "week", "enum", f"the weeks {product.code} can take now: {span}")
        return str(week)
    if week is None:
        return None
    if product.code != "launch":
        raise _bad(i, "week", "not_allowed", f"{product.code} does not take a week")
    first, last = monday_of(today), monday_of(today) + timedelta(weeks=LAUNCH_MAX_WEEKS)
    if not is_monday(week) or not first.isoformat() <= week <= last.isoformat():
        raise _bad(i, "week", "format_week", f"a launch-week Monday from {first} to {last}")
    return str(week)


def _amount(i: int, item: dict[str, Any], product: Product) -> int:
    amount = item.get("amount_cents")
    if product.code != "billboard_min":
        if amount is not None:
            raise _bad(i, "amount_cents", "not_allowed", "only billboard_min takes an amount")
        return product.price_cents
    if amount is None:
        return product.price_cents
    if amount < product.price_cents:
        raise _bad(i, "amount_cents", "minimum", f"the billboard minimum is {product.price_cents} cents")
    return int(amount)


def _categories(i: int, item: dict[str, Any], product: Product, catalog: CatalogState,
                owned: ListingState | None) -> list[str]:
    cats = item.get("categories")
    if product.code != "extra_categories":
        if cats is not None:
            raise _bad(i, "categories", "not_allowed", "only extra_categories takes categories")
        return []
    if not cats:
        raise _bad(i, "categories", "required", f"1 to {MAX_EXTRA_CATEGORIES} category slugs")
    if len(cats) > MAX_EXTRA_CATEGORIES:
        raise _bad(i, "categories", "max_items", f"up to {MAX_EXTRA_CATEGORIES} extra categories")
    if len(set(cats)) != len(cats):
        raise _bad(i, "categories", "unique", "each category once")
    unknown = [c for c in cats if c not in catalog.categories]
    if unknown:
        raise _bad(i, "categories", "enum", f"unknown categories: {', '.join(unknown)} (see list_categories)")
    primary = owned.categories[0] if owned and owned.categories else None
    if primary in cats:
        raise _bad(i, "categories", "not_primary", f"{primary} is the listing's primary category already")
    return list(cats)


def _options(i: int, item: dict[str, Any], product: Product) -> dict[str, Any] | None:
    """The options checked against the product's declaration; every option's problem at once."""
    options = item.get("options")
    declared = product.options
    if not declared:
        if options is not None:
            raise _bad(i, "options", "not_allowed", f"{product.code} takes no options")
        return None
    given = dict(options or {})
    out: dict[str, Any] = {}
    found: list[FieldProblem] = []
    for key in given:
        if key not in declared:
            found += _bad(i, f"options.{key}", "unknown_option", f"options of {product.code}: {', '.join(declared)}").problems
    for key, rule in declared.items():
        value = given.get(key, rule.get("default"))
        if value is None:
            continue
        if rule.get("type", "string") == "string" and not isinstance(value, str):
            found += _bad(i, f"options.{key}", "type", "a string").problems
        elif "enum" in rule and value not in rule["enum"]:
            found += _bad(i, f"options.{key}", "enum", f"one of {', '.join(map(str, rule['enum']))}").problems
        elif isinstance(value, str) and len(value) > int(rule.get("maxLength", 10_000)):
            found += _bad(i, f"options.{key}", "max_length", f"at most {rule['maxLength']} characters").problems
        else:
            out[key] = value
    if found:
        raise refused(found)
    return out


def _listing(i: int, item: dict[str, Any], product: Product, listings: Mapping[int, ListingState],
             account_id: str) -> ListingState | None:
    listing_id = item.get("listing_id")
    if not product.needs_listing:
        if listing_id is not None:
            raise _bad(i, "listing_id", "not_allowed", f"{product.code} is not bought for a listing")
        return None
    if listing_id is None:
        raise _bad(i, "listing_id", "required", f"{product.code} is bought for one of your listings")
    state = listings.get(int(listing_id))
    if state is None:
        raise NotFound("no such listing among yours")
    require_owner(state, account_id)
    return state


def _launching(items: list[dict[str, Any]], today: date) -> dict[int, str]:
    """The launch week each listing gets from this order's own launch lines (this week for a launch at once).

    Read before the lines are checked one by one, so a featured line may come
    before the launch it depends on; a malformed launch line is refused later
    by its own check.
    """
    weeks: dict[int, str] = {}
    for item in items:
        if item.get("product") in LAUNCH_LIKE and isinstance(item.get("listing_id"), int):
            week = item.get("week")
            weeks[int(item["listing_id"])] = week if isinstance(week, str) else monday_of(today).isoformat()
    return weeks


def _featured_week(i: int, owned: ListingState, week: str | None, launching: str | None) -> None:
    """A featured week the listing is live in: its launch week or later (docs/orders.md, "Featured placement"),
    and one it is not featured in already (a second placement in the same week would show nothing more)."""
    if week is not None and week in owned.featured_weeks:
        raise _bad(i, "week", "already_featured", f"the listing is featured in {_named(week)} already: choose "
                                                  "another week")
    if week is None or owned.status == "live":
        return
    if owned.status == "scheduled":  # its week is fixed: a launch line of this order cannot move it
        launching = None
    starts = launching or (owned.week if owned.status in ("scheduled", "awaiting_badge") else None)
    if starts is None:
        raise _bad(i, "", "not_launching", "the listing has no launch week yet: a featured placement shows only "
                                           "while it is live, so order it with a launch (launch_bundle includes a "
                                           "featured week) or once the listing has its week")
    if week < starts:
        raise _bad(i, "week", "before_launch", f"the listing launches in {_named(starts)}: a featured placement "
                                               f"shows only while it is live, so choose that week or a later one")


def is_upgrade(product_code: str, owned: ListingState | None) -> bool:
    """A Launch bundle for a free listing that has its launch week (scheduled or live): no second launch, but the
    bundle's featured week and paid sections, the listing staying in its week (docs/orders.md, "Launch bundle")."""
    return (product_code == "launch_bundle" and owned is not None and owned.plan == "free"
            and owned.status in ("scheduled", "live"))


def _upgrade(i: int, owned: ListingState, week: str | None) -> None:
    """What a bundle bought as an upgrade must still add: a paid section not yet unlocked, a featured week it can take."""
    if set(LAUNCH_SECTIONS) <= owned.unlocked:
        raise _bad(i, "", "sections_unlocked", "the listing's story, milestones and media show publicly already: "
                                               "for a featured week alone, buy featured")
    _featured_week(i, owned, week, None)


def _trophy(i: int, item: dict[str, Any], product: Product, owned: ListingState | None, won: list[WonAward],
            found: list[FieldProblem]) -> None:
    """A trophy is made for an award the listing won, named by the `award` option (the awarded week's Monday).

    Skipped for an item whose listing or `award` option was refused already (each mistake is said once).
    """
    where = f"items.{i}.options.{AWARD}"
    if owned is None or any(p.field == where for p in found):
        return
    if not won:
        raise _bad(i, "listing_id", "no_award", f"{product.name} is made for a Launch of the Week award the listing "
                                                "won, and this listing has won none yet")
    options = item.get("options")
    chosen = options.get(AWARD) if isinstance(options, dict) else None
    awards = "; ".join(f"{a.week} ({a.name()})" for a in won)
    if not chosen:
        raise _bad(i, f"options.{AWARD}", "required", f"choose the award the trophy is for: {awards}")
    if chosen not in {a.week for a in won}:
        raise _bad(i, f"options.{AWARD}", "enum", f"the listing won no award in {_named(str(chosen))}; its awards: "
                                                  f"{awards}")


def _applies(i: int, product: Product, owned: ListingState | None, week: str | None, today: date,
             launching: str | None = None) -> None:
    """A line that cannot apply to the listing as it is now: a 400 naming the item and the rule.

    `launching` is the launch week this order itself gives the listing, if any.
    """
    if owned is None:
        return
    status = owned.status
    if status == "unpublished":
        raise _bad(i, "", "listing_unpublished", "the listing was taken down; it cannot be bought for")
    if is_upgrade(product.code, owned):
        _upgrade(i, owned, week)
    elif product.code in LAUNCH_LIKE and status in ("scheduled", "live"):
        raise _bad(i, "", "already_launched", f"the listing is already {_status(owned)}: launch is for listings not "
                                              "yet scheduled (relaunch is for live ones)")
    if product.code == "skip_queue":  # a free listing waiting for its week, badge found or not
        if not (status == "awaiting_badge" or (status == "scheduled" and owned.plan == "free")):
            raise _bad(i, "", "not_in_free_queue", f"{product.name} moves a free listing that waits for its launch "
                                                   f"week to an earlier one; this listing is {_status(owned)}")
        if owned.week is not None and week is not None and week >= owned.week:
            raise _bad(i, "week", "not_earlier", f"the listing is queued for {_named(owned.week)}: choose an "
                                                 "earlier week")
    if product.code == "featured":
        _featured_week(i, owned, week, launching)
    if product.code == "relaunch" and status != "live":
        raise _bad(i, "", "not_live", f"relaunch is for listings that are live; this listing is {_status(owned)}")
    earliest = (monday_of(today) - timedelta(weeks=RELAUNCH_AFTER_WEEKS)).isoformat()
    if product.code == "relaunch" and status == "live" and owned.week is not None and owned.week > earliest:
        raise _bad(i, "", "launched_recently", f"the listing launched in {_named(owned.week)}: a relaunch is for "
                                               f"listings whose launch week is at least {RELAUNCH_AFTER_WEEKS} weeks "
                                               f"past, so from {_named(relaunch_from(owned.week))}")


def relaunch_from(launch_week: str) -> str:
    """The first week a relaunch of a listing launched in `launch_week` can be bought in (the rule above)."""
    return (date.fromisoformat(launch_week) + timedelta(weeks=RELAUNCH_AFTER_WEEKS)).isoformat()


def price_items(items: list[dict[str, Any]], catalog: CatalogState, listings: Mapping[int, ListingState],
                account_id: str, today: date, vat: VatDecision,
                awards: Mapping[int, Sequence[WonAward]] | None = None) -> Quote:
    """Validate every item and price the order; `listings` holds every listing the items name (loaded once), and
    `awards` the awards of those a trophy is bought for (`aggregates.order.awards`; none given: none won).

    Every rule broken is reported in one 400: each line's fields are checked
    one by one (a field refused is taken as absent by the checks after it), so
    three mistakes are three problems, never three rounds.
    """
    lines: list[dict[str, Any]] = []
    found: list[FieldProblem] = []
    seen: set[tuple[str, int | None, str | None]] = set()
    launching = _launching(items, today)

    def attempt(check: Callable[[], T], default: T) -> T:
        try:
            return check()
        except InvalidInput as exc:
            found.extend(exc.problems)
            return default

    for i, item in enumerate(items):
        product = catalog.products.get(str(item.get("product")))
        if product is None:
            found += _bad(i, "product", "enum", f"unknown product {item.get('product')!r} (see list_products)").problems
            continue
        owned = attempt(lambda: _listing(i, item, product, listings, account_id), None)
        week = attempt(lambda: _week(i, item, product, today), None)
        amount = attempt(lambda: _amount(i, item, product), product.price_cents)
        cats: list[str] = attempt(lambda: _categories(i, item, product, catalog, owned), list[str]())
        options = attempt(lambda: _options(i, item, product), None)
        attempt(lambda: _applies(i, product, owned, week, today, launching.get(owned.listing_id) if owned else None),
                None)
        if product.code == TROPHY:
            won = list((awards or {}).get(owned.listing_id, ())) if owned else []
            attempt(lambda: _trophy(i, item, product, owned, won, found), None)
        key = (product.code, owned.listing_id if owned else None, week)
        if key in seen and product.code not in ("billboard_min", "ai_review", "trophy_cabinet"):
            found += _bad(i, "product", "duplicate", f"{product.code} is already in this order for that listing").problems
        seen.add(key)
        lines.append({
            "index": i, "product": product.code, "name": product.name,
            "listing_id": owned.listing_id if owned else None, "week": week,
            "amount_cents": amount if product.code == "billboard_min" else None,
            "categories": cats or None, "options": options, "unit_cents": amount, "net_cents": amount,
        })
    attempt(lambda: _no_double_launch(lines), None)
    if found:
        raise refused(found)
    subtotal = sum(int(line["net_cents"]) for line in lines)
    amount_vat = vat_cents(subtotal, vat.rate_bp)
    return Quote(lines, subtotal, vat, amount_vat, subtotal + amount_vat)


def refused(found: list[FieldProblem]) -> InvalidInput:
    """One 400 carrying every problem (the detail names them all; one problem keeps its own words)."""
    if len(found) == 1:
        return InvalidInput(f"{found[0].field}: {found[0].message}", found)
    names = ", ".join(dict.fromkeys(p.field for p in found))
    return InvalidInput(f"invalid value for: {names}", found)


def _no_double_launch(lines: list[dict[str, Any]]) -> None:
    launched: dict[int, int] = {}
    for line in lines:
        if line["product"] in LAUNCH_LIKE and line["listing_id"] is not None:
            if line["listing_id"] in launched:
                raise _bad(int(line["index"]), "product", "duplicate",
                           f"item {launched[line['listing_id']]} already launches this listing")
            launched[line["listing_id"]] = int(line["index"])
