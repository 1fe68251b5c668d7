"""Which of a page's images can stand for the product's logo, for the extractive drafter.

The drafter never fetches an image, so it reads what the page says of it. An ``og:image`` is what a link
preview shows: on many sites it is the logo file itself (``/img/acme-logo.svg``, a site builder's
``…/acme-logo.png?format=300w``), on others a wide share card (1200x630, ``og-card.png``, ``acme-share.png``)
with the headline set in it, which a listing must not show as the logo.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import unquote, urlsplit

# the file names share cards are given: "og.png", "og-card.png", "almanac-share.png", "social-preview.jpg", "twitter-card"
_CARD_NAME = re.compile(r"(?:^|[-_.\d])(?:og|opengraph|open-graph|share|sharing|social|card|twitter|preview|cover|banner"
                        r"|hero|thumbnail|thumb)(?:$|[-_.\d])")
_LOGO_NAME = re.compile(r"logo|mark|icon|brand|wordmark|emblem", re.IGNORECASE)
# wider than tall by half again, and large: the 1200x630 (1.91:1) a link preview wants, not a logo's square or strip
_CARD_RATIO = 1.5
_CARD_MIN_WIDTH = 600


def is_share_card(url: str, meta: Mapping[str, str]) -> bool:
    """The ``og:image`` at ``url`` is a link preview's card, not a logo: its stated size is a wide banner, or its
    file name says share card and not logo."""
    width, height = _number(meta.get("og:image:width")), _number(meta.get("og:image:height"))
    if width and height and width >= _CARD_MIN_WIDTH and width / height >= _CARD_RATIO:
        return True
    name = unquote(urlsplit(url).path.rsplit("/", 1)[-1]).lower()
    stem = name.rsplit(".", 1)[0]
    return bool(_CARD_NAME.search(stem)) and not _LOGO_NAME.search(stem)


def _number(value: str | None) -> float:
    try:
        return float(str(value or "").strip())
    except ValueError:
        return 0.0
