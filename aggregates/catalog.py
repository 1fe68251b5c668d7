"""The Catalog decider: the category tree, products and their prices, interview questions, site settings.

One small stream holds it all: staff change it rarely and every change must be
recorded with who and when. Prices live here and nowhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.account import address_problem
from aggregates.base import Emitter, Meta, one
from events.base import Event
from events.catalog import (
    CategoryAdded,
    CategoryChanged,
    InterviewQuestionAdded,
    InterviewQuestionChanged,
    ProductAdded,
    ProductChanged,
    ProductPriceSet,
    SiteSettingsChanged,
)
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

CATALOG_ID = uuid5(NAMESPACE_URL, "launchdir:catalog")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,219}$")
PRODUCT_CODE = re.compile(r"^[a-z0-9][a-z0-9_]{0,59}$")
MAX_PRICE_CENTS = 100_000_000
MAX_SITE_NAME = 100  # the site's name heads every page and mail
MAX_SITE_PURPOSE = 500  # a sentence or two under the home page's heading
MIN_PRICE_CENTS = 100  # $1.00: the lowest price staff can set; no charge at all is the free plan, never a price of 0

SITE_DEFAULTS: dict[str, Any] = {
    "name": "launchdir",
    "purpose": "A directory and launch calendar for software products.",
    "free_queue_min_weeks": 6,
    "free_queue_max_weeks": 8,
    "urls": {},
}
SITE_KEYS = frozenset({"name", "purpose", "free_queue_min_weeks", "free_queue_max_weeks", "urls", "contact_email"})


@dataclass(frozen=True)
class Category:
    slug: str
    name: str
    parent_slug: str | None
    description: str
    faqs: list[dict[str, str]]
    attributes: list[str]
    position: int


@dataclass(frozen=True)
class Product:
    code: str
    name: str
    description: str
    price_cents: int
    needs_listing: bool
    options: dict[str, Any] | None
    week_window: list[int] | None
    position: int


@dataclass(frozen=True)
class CatalogState:
    id: UUID = CATALOG_ID
    version: int = 0
    categories: dict[str, Category] = field(default_factory=dict)
    products: dict[str, Product] = field(default_factory=dict)
    questions: dict[int, str] = field(default_factory=dict)
    site: dict[str, Any] = field(default_factory=lambda: dict(SITE_DEFAULTS))
    site_set: frozenset[str] = frozenset()


def initial(stream_id: UUID = CATALOG_ID) -> CatalogState:
    """The catalogue before any event: no categories, no products, default settings."""
    return CatalogState(id=stream_id)


# ---------------------------------------------------------------- decisions


def decide_load(state: CatalogState, spec: dict[str, Any], meta: Meta, *, update: bool = False) -> list[Event]:
    """Add what the catalogue file has and the catalogue lacks; with `update`, also apply changes.

    Prices already set by staff are kept unless `update` is asked for, so
    reloading the file never silently undoes a staff decision. Every product
    is something people pay for, so every price in the file keeps the rule
    staff prices keep (`price_rule`); one that breaks it refuses the whole
    file before anything is decided, naming each product and the rule.
    """
    _check_prices(spec.get("products", []))
    emit = Emitter(state, meta)
    known = dict(state.categories)
    for pos, raw in enumerate(spec.get("categories", [])):
        cat = _category_from_spec(raw, pos, known)
        if cat.slug not in state.categories:
            emit(CategoryAdded, **_category_fields(cat))
        elif update:
            changes = _diff(_category_fields(state.categories[cat.slug]), _category_fields(cat), skip={"slug"})
            if changes:
                emit(CategoryChanged, slug=cat.slug, changes=changes)
        known[cat.slug] = cat
    for pos, raw in enumerate(spec.get("products", [])):
        prod = _product_from_spec(raw, pos)
        current = state.products.get(prod.code)
        if current is None:
            emit(ProductAdded, **_product_fields(prod))
        elif update:
            changes = _diff(_product_fields(current), _product_fields(prod), skip={"code", "price_cents"})
            if changes:
                emit(ProductChanged, code=prod.code, changes=changes)
            if current.price_cents != prod.price_cents:
                emit(ProductPriceSet, code=prod.code, price_cents=prod.price_cents, previous_cents=current.price_cents)
        elif (options := _with_new_options(current, prod)) is not None:
            emit(ProductChanged, code=prod.code, changes={"options": options})
    for pos, raw in enumerate(spec.get("interview_questions", [])):
        qid, text = int(raw["id"]), _text(raw, "text", 1, 500)
        if qid < 1:
            raise InvalidInput("interview question ids start at 1", [FieldProblem("id", "minimum", "must be >= 1")])
        if qid not in state.questions:
            emit(InterviewQuestionAdded, question_id=qid, text=text, position=pos)
        elif update and state.questions[qid] != text:
            emit(InterviewQuestionChanged, question_id=qid, text=text)
    site = spec.get("site")
    if site:
        wanted = {k: v for k, v in site.items() if k in SITE_KEYS}
        changes = {k: v for k, v in wanted.items() if update or k not in _explicit_site_keys(state)}
        changes = {k: v for k, v in changes.items() if state.site.get(k) != v}
        if changes:
            _check_site(state.site | changes)
            emit(SiteSettingsChanged, changes=changes)
    return emit.events


def _with_new_options(current: Product, wanted: Product) -> dict[str, Any] | None:
    """The stored options plus the option keys the file declares and the product lacks, or None when none is new.

    An option key is part of the code's contract (the pricing rules read `options.award` of a trophy), so a
    plain load brings new keys in, as it brings new products; the keys staff may have changed stay as they are.
    """
    have, declared = current.options or {}, wanted.options or {}
    new = {k: v for k, v in declared.items() if k not in have}
    return {**have, **new} if new else None


def decide_set_price(state: CatalogState, code: str, price_cents: int, meta: Meta) -> list[Event]:
    """Staff set a product's price in USD cents, excluding VAT."""
    product = state.products.get(code)
    if product is None:
        raise NotFound(f"no product with code {code!r}")
    if not MIN_PRICE_CENTS <= price_cents <= MAX_PRICE_CENTS:
        raise InvalidInput("price out of range", [FieldProblem("price_cents", "range", price_rule())])
    if product.price_cents == price_cents:
        return []
    return one(state, meta, ProductPriceSet, code=code, price_cents=price_cents, previous_cents=product.price_cents)


def price_rule() -> str:
    """The rule a price staff set keeps, in one sentence."""
    return (f"A price is ${MIN_PRICE_CENTS // 100}.{MIN_PRICE_CENTS % 100:02d} to ${MAX_PRICE_CENTS // 100:,}; "
            "a product is never free: launching without paying is the free plan.")


def _check_prices(products: list[dict[str, Any]]) -> None:
    """Refuse a catalogue file with any price outside the price rule (a 0, a few cents), naming every such product.

    The file is refused whole: a catalogue loaded in part would sell some
    products at the file's prices and others at the old ones.
    """
    rule = f"{price_rule()} In the file: price_cents {MIN_PRICE_CENTS} to {MAX_PRICE_CENTS} (whole US cents)."
    wrong: list[tuple[int, str]] = []
    for pos, raw in enumerate(products):
        price = raw.get("price_cents") if isinstance(raw, dict) else None
        if not (isinstance(price, int) and not isinstance(price, bool) and MIN_PRICE_CENTS <= price <= MAX_PRICE_CENTS):
            code = str(raw.get("code") or "") if isinstance(raw, dict) else ""
            wrong.append((pos, f"product {code or f'#{pos + 1}'!r} has price_cents {price!r}"))
    if wrong:
        said = "; ".join(text for _, text in wrong)
        raise InvalidInput(f"catalogue file refused, nothing was loaded: {said}. {rule}",
                           [FieldProblem(f"products.{pos}.price_cents", "range", f"{text}. {rule}") for pos, text in wrong])


def decide_change_site(state: CatalogState, changes: dict[str, Any], meta: Meta) -> list[Event]:
    """Staff change site settings (name, purpose, public URLs, free-queue weeks)."""
    unknown = sorted(set(changes) - SITE_KEYS)
    if unknown:
        raise InvalidInput("unknown site setting", [FieldProblem(k, "unknown", "not a site setting") for k in unknown])
    real = {k: v for k, v in changes.items() if state.site.get(k) != v}
    if not real:
        return []
    _check_site(state.site | real)
    return one(state, meta, SiteSettingsChanged, changes=real)


def decide_add_category(state: CatalogState, raw: dict[str, Any], meta: Meta) -> list[Event]:
    """Staff add one category under an existing parent (or at the top)."""
    cat = _category_from_spec(raw, len(state.categories), state.categories)
    if cat.slug in state.categories:
        raise Conflict(f"category {cat.slug!r} exists")
    return one(state, meta, CategoryAdded, **_category_fields(cat))


# ---------------------------------------------------------------- evolution


@singledispatch
def evolve(event: Event, state: CatalogState) -> CatalogState:
    """Apply one event; unknown events only move the version."""
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: CategoryAdded, s: CatalogState) -> CatalogState:
    cat = Category(e.slug, e.name, e.parent_slug, e.description, list(e.faqs), list(e.attributes), e.position)
    return replace(s, version=e.originator_version, categories=s.categories | {e.slug: cat})


@evolve.register
def _(e: CategoryChanged, s: CatalogState) -> CatalogState:
    cat = replace(s.categories[e.slug], **e.changes)
    return replace(s, version=e.originator_version, categories=s.categories | {e.slug: cat})


@evolve.register
def _(e: ProductAdded, s: CatalogState) -> CatalogState:
    prod = Product(
        e.code, e.name, e.description, e.price_cents, e.needs_listing, e.options, e.week_window, e.position
    )
    return replace(s, version=e.originator_version, products=s.products | {e.code: prod})


@evolve.register
def _(e: ProductChanged, s: CatalogState) -> CatalogState:
    prod = replace(s.products[e.code], **e.changes)
    return replace(s, version=e.originator_version, products=s.products | {e.code: prod})


@evolve.register
def _(e: ProductPriceSet, s: CatalogState) -> CatalogState:
    prod = replace(s.products[e.code], price_cents=e.price_cents)
    return replace(s, version=e.originator_version, products=s.products | {e.code: prod})


@evolve.register
def _(e: InterviewQuestionAdded, s: CatalogState) -> CatalogState:
    return replace(s, version=e.originator_version, questions=s.questions | {e.question_id: e.text})


@evolve.register
def _(e: InterviewQuestionChanged, s: CatalogState) -> CatalogState:
    return replace(s, version=e.originator_version, questions=s.questions | {e.question_id: e.text})


@evolve.register
def _(e: SiteSettingsChanged, s: CatalogState) -> CatalogState:
    return replace(s, version=e.originator_version, site=s.site | e.changes, site_set=s.site_set | set(e.changes))


# ---------------------------------------------------------------- helpers


def _explicit_site_keys(state: CatalogState) -> frozenset[str]:
    return state.site_set


def _check_site(site: dict[str, Any]) -> None:
    """The settings as a whole keep these rules; every broken one is named at once (a staff form shows each)."""
    found: list[FieldProblem] = []
    lo, hi = site.get("free_queue_min_weeks"), site.get("free_queue_max_weeks")
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi <= 52):
        found.append(FieldProblem("free_queue_min_weeks", "range",
                                  "Weeks are whole numbers from 1 to 52, the earliest no later than the latest."))
    name = site.get("name")
    if not isinstance(name, str) or not name.strip():
        found.append(FieldProblem("name", "required", "Give the site a name."))
    elif len(name) > MAX_SITE_NAME:
        found.append(FieldProblem("name", "max_length", f"At most {MAX_SITE_NAME} characters."))
    purpose = site.get("purpose")
    if purpose is not None and (not isinstance(purpose, str) or len(purpose) > MAX_SITE_PURPOSE):
        found.append(FieldProblem("purpose", "max_length", f"At most {MAX_SITE_PURPOSE} characters."))
    email = site.get("contact_email")
    if email not in (None, ""):
        reason = address_problem(email) if isinstance(email, str) else "It must be text."
        if reason is not None:
            found.append(FieldProblem("contact_email", "format", f"Enter an address like name@example.com. {reason}"))
    if found:
        raise InvalidInput("; ".join(f"{p.field}: {p.message}" for p in found), found)


def _text(raw: dict[str, Any], key: str, lo: int, hi: int) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str) or not lo <= len(value) <= hi:
        raise InvalidInput(f"{key} must be {lo}..{hi} characters", [FieldProblem(key, "length", f"{lo}..{hi}")])
    return value


def _category_from_spec(raw: dict[str, Any], pos: int, known: dict[str, Category]) -> Category:
    slug = str(raw.get("slug", ""))
    if not SLUG.match(slug):
        raise InvalidInput("bad category slug", [FieldProblem("slug", "pattern", SLUG.pattern)])
    parent = raw.get("parent")
    if parent is not None and parent not in known:
        raise InvalidInput(f"unknown parent {parent!r}", [FieldProblem("parent", "exists", "parent must come first")])
    faqs = [{"question": str(f["question"]), "answer": str(f["answer"])} for f in raw.get("faqs", [])]
    return Category(
        slug=slug,
        name=_text(raw, "name", 1, 200),
        parent_slug=parent,
        description=str(raw.get("description", "")),
        faqs=faqs,
        attributes=[str(a) for a in raw.get("attributes", [])],
        position=int(raw.get("position", pos)),
    )


def _product_from_spec(raw: dict[str, Any], pos: int) -> Product:
    code = str(raw.get("code", ""))
    if not PRODUCT_CODE.match(code):
        raise InvalidInput("bad product code", [FieldProblem("code", "pattern", PRODUCT_CODE.pattern)])
    price = int(raw["price_cents"])  # checked for the whole file first (`_check_prices`)
    window = raw.get("week_window")
    return Product(
        code=code,
        name=_text(raw, "name", 1, 200),
        description=str(raw.get("description", "")),
        price_cents=price,
        needs_listing=bool(raw.get("needs_listing", False)),
        options=raw.get("options"),
        week_window=[int(window[0]), int(window[1])] if window else None,
        position=int(raw.get("position", pos)),
    )


def _category_fields(c: Category) -> dict[str, Any]:
    return {
        "slug": c.slug, "name": c.name, "parent_slug": c.parent_slug, "description": c.description,
        "faqs": c.faqs, "attributes": c.attributes, "position": c.position,
    }


def _product_fields(p: Product) -> dict[str, Any]:
    return {
        "code": p.code, "name": p.name, "description": p.description, "price_cents": p.price_cents,
        "needs_listing": p.needs_listing, "options": p.options, "week_window": p.week_window, "position": p.position,
    }


def _diff(old: dict[str, Any], new: dict[str, Any], *, skip: set[str]) -> dict[str, Any]:
    return {k: v for k, v in new.items() if k not in skip and old.get(k) != v}
