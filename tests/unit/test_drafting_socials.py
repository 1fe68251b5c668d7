"""Social platform keys, platform_for(), profile links and video links."""

from __future__ import annotations

import pytest

from workers.drafting import SOCIAL_KEYS, SOCIAL_PLATFORMS, platform_for
from workers.drafting.socials import is_profile_link
from workers.drafting.vocab import is_video_url


def test_twelve_platforms_plus_website_and_custom() -> None:
    assert len(SOCIAL_PLATFORMS) == 12 == len(set(SOCIAL_PLATFORMS))
    assert SOCIAL_KEYS == (*SOCIAL_PLATFORMS, "website", "custom")


@pytest.mark.parametrize(
    ("url", "platform"),
    [
        ("https://twitter.com/acme", "x"),
        ("https://x.com/acme", "x"),
        ("https://mobile.twitter.com/acme", "x"),
        ("https://www.linkedin.com/company/acme/", "linkedin"),
        ("https://uk.linkedin.com/in/jane", "linkedin"),
        ("https://github.com/acme", "github"),
        ("https://fb.com/acme", "facebook"),
        ("https://m.facebook.com/acme", "facebook"),
        ("https://instagram.com/acme", "instagram"),
        ("https://www.youtube.com/@acme", "youtube"),
        ("https://youtu.be/abc", "youtube"),
        ("https://www.tiktok.com/@acme", "tiktok"),
        ("https://mastodon.social/@acme", "mastodon"),
        ("https://fosstodon.org/@acme", "mastodon"),
        ("https://mastodon.acme.example/@team", "mastodon"),
        ("https://bsky.app/profile/acme.com", "bluesky"),
        ("https://discord.gg/abc", "discord"),
        ("https://discord.com/invite/abc", "discord"),
        ("https://www.reddit.com/r/acme", "reddit"),
        ("https://www.producthunt.com/products/acme", "producthunt"),
        ("https://twitter.example/acme", "x"),  # reserved .example TLD: any platform TLD
        ("https://bsky.example/profile/acme", "bluesky"),
        ("https://twitter.com.evil.example/acme", None),
        ("https://nottwitter.com/acme", None),
        ("https://mastodon.social/about", None),
        ("https://acme.example/about", None),
        ("mailto:hello@acme.example", None),
        ("not a url", None),
        ("", None),
    ],
)
def test_platform_for(url: str, platform: str | None) -> None:
    assert platform_for(url) == platform


@pytest.mark.parametrize(
    ("url", "profile"),
    [
        ("https://twitter.com/acme", True),
        ("https://twitter.com/intent/tweet?text=hi", False),
        ("https://www.facebook.com/sharer/sharer.php?u=x", False),
        ("https://www.linkedin.com/sharing/share-offsite/?url=x", False),
        ("https://github.com/", False),
        ("https://www.youtube.com/@acme", True),
        ("https://www.youtube.com/watch?v=abc", False),
        ("https://acme.example/", False),
    ],
)
def test_profile_links(url: str, profile: bool) -> None:
    assert is_profile_link(url) is profile


@pytest.mark.parametrize(
    ("url", "video"),
    [
        ("https://www.youtube.com/watch?v=abc123", True),
        ("https://youtu.be/abc123", True),
        ("https://www.youtube.com/embed/abc123", True),
        ("https://www.youtube.com/@acme", False),
        ("https://www.youtube.com/watch", False),
        ("https://vimeo.com/123456", True),
        ("https://www.loom.com/share/abcdef", True),
        ("https://cdn.acme.example/demo.mp4", True),
        ("https://vimeo.example/123", True),
        ("https://acme.example/demo", False),
        ("ftp://vimeo.com/1", False),
    ],
)
def test_video_links(url: str, video: bool) -> None:
    assert is_video_url(url) is video
