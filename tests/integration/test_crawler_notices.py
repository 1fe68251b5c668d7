"""Redirect notices and page regions, crawled over HTTP on 127.0.0.1 by the real crawler.

A page that only says "Redirecting... if nothing happens, click here" is
never kept: the homepage's notice is followed like a redirect (guarded,
robots-checked), another page's notice is skipped and its same-site target
fetched instead; an off-site target is not followed.
"""

from __future__ import annotations

from tests.fixtures.sites.server import Body, FixtureServer
from workers.adapters.websites import CrawlSettings, crawl_site

LOCAL = CrawlSettings(allow_loopback=True, request_timeout=3.0, total_timeout=15.0)
ROBOTS = {"/robots.txt": Body(b"User-agent: *\nDisallow: /private\n", "text/plain")}


def page(body: str, head: str = "", title: str = "Page") -> Body:
    return Body(f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>".encode(),
                "text/html; charset=utf-8")


def notice(target: str) -> Body:
    return page("<p>Redirecting to the app&hellip; If nothing happens, click here.</p>",
                head=f'<meta http-equiv="refresh" content="0; url={target}">', title="Redirecting")


def test_a_homepage_notice_is_followed_to_the_real_homepage() -> None:
    routes = {**ROBOTS, "/": notice("/en/"), "/en/": page("<h1>Acme</h1><p>Acme sorts your invoices for you.</p>", title="Acme")}
    with FixtureServer(routes=routes) as server:
        result = crawl_site(server.url("/"), LOCAL)
        assert result.final_url == server.url("/en/")
        assert result.pages[0].title == "Acme"
        assert all("Redirecting" not in p.text for p in result.pages)


def test_a_script_redirect_page_is_skipped_and_its_target_fetched() -> None:
    routes = {
        **ROBOTS,
        "/": page('<p>Acme sorts your invoices.</p><a href="/start">Start</a><a href="/go">Go</a>', title="Acme"),
        "/start": page('<p>Redirecting&hellip;</p><script>window.location.href = "/pricing";</script>'),
        "/go": notice("https://app.elsewhere.example/signup"),
        "/pricing": page("<h1>Pricing</h1><p>Pro costs $12 per month.</p>", title="Pricing"),
    }
    with FixtureServer(routes=routes) as server:
        result = crawl_site(server.url("/"), LOCAL)
        kept = [p.url.removeprefix(server.base) for p in result.pages]
        skipped = {s.url.removeprefix(server.base): s.reason for s in result.skipped}
        assert kept == ["/", "/pricing"]
        assert skipped["/start"] == skipped["/go"] == "redirect_notice"
        assert not server.requested("/signup")


def test_a_notice_pointing_at_a_robots_forbidden_page_is_not_followed() -> None:
    routes = {**ROBOTS, "/": page('<p>Acme.</p><a href="/old">Old</a>', title="Acme"), "/old": notice("/private/x"),
              "/private/x": page("<p>SECRET-PLAN</p>")}
    with FixtureServer(routes=routes) as server:
        result = crawl_site(server.url("/"), LOCAL)
        assert not server.requested("/private/x")
        assert all("SECRET" not in p.text for p in result.pages)


def test_stylesheet_hidden_text_is_not_visible_and_footers_are_marked_boilerplate() -> None:
    body = ('<style>.w-hidden{display:none} @media (max-width:600px){.desk{display:none}}</style>'
            '<header><a href="/"><img src="/img/acme-logo.svg" alt="Acme"></a><nav><a href="/pricing">Pricing</a></nav></header>'
            '<main><h1>Acme</h1><p class="desk">Acme sorts your invoices.</p>'
            '<p class="w-hidden">Acme was founded in 1999.</p><h2>Install<a class="headerlink" href="#install">\u00b6</a></h2>'
            '<a rel="tag" href="/tag/vat">VAT</a></main>'
            '<footer><p>\u00a9 2025 Acme Ltd \u00b7 Dublin, Ireland</p></footer>'
            '<div class="cookie-banner">We use cookies. <button>OK</button></div>')
    with FixtureServer(routes={**ROBOTS, "/": page(body, title="Acme")}) as server:
        home = crawl_site(server.url("/"), LOCAL).pages[0]
        assert "1999" not in home.text  # hidden by a class rule of the page's own stylesheet
        assert "Acme sorts your invoices." in home.text  # a rule inside @media is not applied
        assert "Install\u00b6" not in home.text and "Install" in home.text
        assert "\u00a9 2025 Acme Ltd \u00b7 Dublin, Ireland" in home.text  # still visible text...
        assert home.structured["boilerplate"] == ["Pricing", "\u00a9 2025 Acme Ltd \u00b7 Dublin, Ireland", "We use cookies. OK"]
        assert home.structured["logos"] == [server.url("/img/acme-logo.svg")]
        assert home.structured["tags"] == ["VAT"]


def test_a_descriptive_page_linked_only_from_a_second_page_is_crawled_but_an_undescriptive_one_is_not() -> None:
    routes = {
        **ROBOTS,
        "/": page('<p>Acme keeps lab notes.</p><a href="/docs/intro/">Docs</a>', title="Acme"),
        "/docs/intro/": page('<p>Start here.</p><a href="/docs/faq/">Questions</a><a href="/docs/api/x7/">x7</a>'),
        "/docs/faq/": page("<h1>FAQ</h1><h3>Where is my data kept?</h3><p>In Milan.</p>"),
        "/docs/api/x7/": page("<p>Reference.</p>"),
    }
    with FixtureServer(routes=routes) as server:
        result = crawl_site(server.url("/"), LOCAL)
        kept = [p.url.removeprefix(server.base) for p in result.pages]
        assert kept == ["/", "/docs/intro/", "/docs/faq/"]
        assert not server.requested("/docs/api/x7/")
