"""/compare: two listings side by side, and the form that names them.

People type names ("Alder Invoice"), paste a page's address or follow a link
with slugs; each box is read as the slug it stands for (`slug_of`), and a
comparison whose boxes were typed moves (301) to its own address of slugs.

A box that names no live listing is said next to that box, with the form filled
in as it was typed (never the generic 404: the person typed it and wants to fix
it), and the closest listings the site's own search finds for those words
(search_listings, typo tolerant) are offered as links that compare at once.
A box left empty, or the same listing in both boxes, is said the same way.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from api.web_public import PageProblem, PublicSite
from queries import listings as listings_q

BOXES = {"a": "First listing", "b": "Second listing"}
"""Each box's name as its label says it, which its messages are named by ("First listing: ...")."""
SUGGESTIONS = 3  # "did you mean" names offered for a box


def slug_of(typed: str) -> str:
    """The slug a comparison's box means: a slug as it is, a listing's name ("Alder Invoice") or its page's address
    (".../listings/alder-invoice") as the slug they stand for."""
    text = typed.strip()
    if "/listings/" in text:
        text = text.split("/listings/", 1)[1].split("/")[0].split("?")[0].split("#")[0]
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or typed


def based_in(doc: dict[str, Any] | None) -> tuple[str | None, str | None]:
    """(city, country code) of a listing's profile: the "Based in" its own page shows."""
    return (doc.get("city"), doc.get("country")) if doc else (None, None)


def rating_words(doc: dict[str, Any]) -> str:
    """A listing's rating as its page's Community box says it ("4.5 / 5 from 2 genuine reviews")."""
    rating = (doc.get("community") or {}).get("rating") or {}
    count, average = int(rating.get("count") or 0), rating.get("average")
    if not count or average is None:
        return "No genuine reviews yet"
    return f"{float(average):.1f} / 5 from {count} genuine review{'s' if count != 1 else ''}"


class ComparePage(PublicSite):
    """The comparison page's handler, for the reading pages' module (`api/web_content_pages.py`) to route."""

    async def compare(self, request: Request) -> Response:
        raw = {k: request.query_params.get(k) or "" for k in BOXES}
        typed = {k: v.strip() for k, v in raw.items()}
        if not any(typed.values()):
            return await self._form(request, typed, {}, {}, 200)
        if not all(typed.values()):  # a link or a form sent with one box: keep it, ask for the other
            empty = "a" if not typed["a"] else "b"
            other = "second" if empty == "b" else "first"
            return await self._form(request, typed, {empty: f"Type the {other} listing's name too: a comparison "
                                                            "needs two listings."}, {}, 400)
        slugs = {k: slug_of(v) for k, v in typed.items()}
        docs = await run_in_threadpool(lambda: {k: listings_q.live_document(self.s.reads, s) for k, s in slugs.items()})
        unknown = [k for k in BOXES if docs[k] is None]
        if unknown:
            errors, offers = {}, {}
            for k in unknown:
                errors[k] = f"No listing is named “{typed[k]}”."
                other = next(o for o in BOXES if o != k)
                keep = slugs[other] if docs[other] is not None else typed[other]
                offers[k] = [{"name": s["name"], "href": "/compare?" + urlencode(sorted({k: s["slug"], other: keep}.items()))}
                             for s in await self._closest(request, slugs[k], exclude=slugs[other])]
            return await self._form(request, typed, errors, offers, 404)
        if slugs["a"] == slugs["b"]:
            name = (docs["a"] or {}).get("name") or typed["a"]
            return await self._form(request, typed, {"b": f"“{name}” is in both boxes: choose another listing "
                                                          "to compare it with."}, {}, 400)
        if (slugs["a"], slugs["b"]) != (raw["a"], raw["b"]):  # a name, an address or capitals: the comparison's own
            return RedirectResponse("/compare?" + urlencode({"a": slugs["a"], "b": slugs["b"]}), status_code=301)
        cmp = await self.op(request, "compare_listings", {"a": slugs["a"], "b": slugs["b"]})
        pair = [docs["a"] or {}, docs["b"] or {}]
        return await self.show(request, "public/compare.html", {
            "cmp": cmp, "docs": pair, "based": [based_in(d) for d in pair], "ratings": [rating_words(d) for d in pair],
            "typed": {"a": cmp["a"]["name"], "b": cmp["b"]["name"]}, "boxes": BOXES,
            "description": f"{cmp['a']['name']} compared with {cmp['b']['name']}.",
        })

    async def _closest(self, request: Request, slug: str, exclude: str) -> list[dict[str, Any]]:
        """The listings the site's search finds first for a box's words (its slug's words: a name or an address
        reads the same), other than the other box's listing."""
        try:
            found = await self.op(request, "search_listings", {"q": slug.replace("-", " ")[:200],
                                                               "per_page": SUGGESTIONS + 1})
        except PageProblem:
            return []
        return [x for x in found["items"] if x.get("slug") != exclude][:SUGGESTIONS]

    async def _form(self, request: Request, typed: dict[str, str], errors: dict[str, str],
                    offers: dict[str, list[dict[str, Any]]], status: int) -> Response:
        return await self.show(request, "public/compare.html", {
            "cmp": None, "typed": typed, "errors": errors, "offers": offers, "boxes": BOXES, "robots": "noindex",
        }, status)


__all__ = ["BOXES", "ComparePage", "based_in", "rating_words", "slug_of"]
