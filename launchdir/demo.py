"""Demo data: a realistic directory grown through the commands, like any other change (never SQL).

Deterministic (one seeded random generator, names fixed by position) and
safe to run again: a finished demo is recognised by its last step (the
published post `about-this-demo`) and skipped; a run that stopped half way
picks up where it stopped, because every listing, profile and post has a
fixed slug and votes, launches and week closes are idempotent.

What it makes (times relative to now, in the site's timezone):

* 8 past launch weeks of 6-7 launches each and 6 launches this week, across
  the category tree, with founders (profiles linked by `founder_slug`),
  stories (some unlocked), FAQs and example.com-style websites;
* 10 upcoming listings: paid ones and free ones scheduled for the next
  weeks, and two free ones still waiting for their badge;
* votes from 240 demo accounts (`demo-voter-N`) spread over each launch week
  and after, follows, view tallies, reviews (most approved, some pending),
  featured and verified listings;
* Domain Rating snapshots, revenue records (verified and self-reported) and
  billboard contributions;
* the past weeks closed with their awards, through the close-week command
  (a week that `launchdir serve` closed before the demo filled it gets its
  awards recomputed from the demo's votes);
* six published blog posts with FAQs and one unpublished draft.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any

from aggregates.base import Meta
from aggregates.listing import slugify
from aggregates.weeks import monday_of
from commands import community, metrics
from commands import content as content_cmd
from commands import listing as listing_cmd
from commands.catalog import ChangeSiteSettings, change_site_settings
from events.errors import Conflict
from workers.scheduler import close_week

SEED = 20261118
SENTINEL = "about-this-demo"
PAST_WEEKS = 8
VOTERS = 240

CATEGORIES: dict[str, tuple[list[str], str]] = {
    "developer-tools": (["Forge", "Toolbox", "Workbench"], "a faster inner loop for {who}"),
    "apis-sdks": (["API", "SDK", "Gateway"], "typed clients and webhooks for {who}"),
    "devops": (["Deploy", "Ops", "Pipelines"], "zero-downtime deploys for {who}"),
    "testing": (["Test", "QA", "Checks"], "flaky-test detection for {who}"),
    "ai": (["AI", "Mind", "Brain"], "an AI copilot for {who}"),
    "ai-assistants": (["Assist", "Copilot", "Helper"], "an assistant that drafts replies for {who}"),
    "ai-infrastructure": (["Inference", "Vector", "Serve"], "GPU inference at cost for {who}"),
    "productivity": (["Flow", "Focus", "Day"], "calm planning for {who}"),
    "project-management": (["Boards", "Tasks", "Roadmap"], "roadmaps people actually update, for {who}"),
    "notes-docs": (["Notes", "Docs", "Wiki"], "notes that link themselves, for {who}"),
    "marketing": (["Launch", "Growth", "Reach"], "campaigns on autopilot for {who}"),
    "seo": (["Rank", "Crawl", "Search"], "technical SEO audits for {who}"),
    "email-marketing": (["Mail", "Inbox", "Letters"], "newsletters that land in the inbox, for {who}"),
    "design": (["Canvas", "Pixel", "Sketch"], "design handoff without the meetings, for {who}"),
    "finance": (["Ledger", "Books", "Invoice"], "bookkeeping that closes itself, for {who}"),
    "analytics": (["Metrics", "Insights", "Stats"], "privacy-first analytics for {who}"),
    "security": (["Guard", "Shield", "Vault"], "secrets scanning for {who}"),
    "no-code": (["Builder", "Blocks", "Apps"], "internal tools without code, for {who}"),
    "education": (["Academy", "Learn", "Course"], "cohort courses that finish, for {who}"),
    "ecommerce": (["Shop", "Cart", "Store"], "one-page checkout for {who}"),
}
PREFIXES = [
    "Nimbus", "Quill", "Orbit", "Pylon", "Beacon", "Atlas", "Cobalt", "Ember", "Fathom", "Granite", "Harbor", "Iris",
    "Juniper", "Kestrel", "Lumen", "Meridian", "Nectar", "Onyx", "Prism", "Quartz", "Raven", "Sable", "Tidal", "Umber",
    "Vertex", "Willow", "Xenon", "Yarrow", "Zephyr", "Aurora", "Basil", "Cedar", "Delta", "Echo", "Fjord", "Glacier",
    "Halcyon", "Indigo", "Jasper", "Kelp", "Lattice", "Mosaic", "Nova", "Opal", "Pebble", "Quasar", "Ripple", "Sierra",
    "Tundra", "Upland", "Velvet", "Wren", "Yonder", "Zenith", "Alder", "Birch", "Comet", "Dune", "Ether", "Flint",
    "Gale", "Heron", "Inlet", "Jetty", "Kite", "Lark", "Maple", "Nook", "Oriole", "Pine",
]
AUDIENCES = ["small teams", "indie hackers", "agencies", "startups", "freelancers", "data teams", "remote teams",
             "solo founders", "support teams", "students"]
FIRST = ["Ada", "Grace", "Linus", "Margaret", "Alan", "Radia", "Ken", "Barbara", "Dennis", "Frances", "Tim", "Hedy",
         "Guido", "Katherine", "Edsger", "Sophie", "Yukihiro", "Anita", "Bjarne", "Karen", "Leslie", "Shafi", "Donald",
         "Mary", "John", "Jean", "Niklaus", "Adele", "Tony", "Evelyn"]
LAST = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Turing", "Perlman", "Thompson", "Liskov", "Ritchie", "Allen",
        "Berners", "Lamarr", "Rossum", "Johnson", "Dijkstra", "Wilson", "Matsumoto", "Borg", "Stroustrup", "Jones",
        "Lamport", "Goldwasser", "Knuth", "Keller", "Backus", "Sammet", "Wirth", "Goldberg", "Hoare", "Boyd"]
COUNTRIES = ["US", "GB", "DE", "FR", "NL", "SE", "ES", "PT", "CA", "IN", "SG", "JP", "BR", "AU", "EE"]
PRICING = ["free", "freemium", "subscription", "one-time", "usage-based"]
DEMO_STAGES = ("launched", "beta", "launched", "alpha", "launched", "pre-launch")  # the search page's Stage menu finds each

POSTS: list[dict[str, Any]] = [
    {"slug": "how-launch-weeks-work", "title": "How launch weeks work",
     "summary": "Weeks run Monday to Sunday; launches are ranked by community votes cast during the week.",
     "tags": ["launch", "guides"],
     "markdown": "# How launch weeks work\n\nEvery launch belongs to a **launch week**, Monday to Sunday in the site's "
                 "timezone. During the week, people vote on the website; the week's page ranks launches by the votes "
                 "cast before the week ends.\n\nWhen the week ends, the top three become *Launch of the Week* "
                 "#1, #2 and #3.\n",
     "faqs": [{"question": "Can I buy a better rank?", "answer": "No. Rankings and awards follow community votes "
               "only; the billboard is a separate, clearly labelled paid ranking."},
              {"question": "When does a week close?", "answer": "At Monday 00:00 in the site's timezone."}]},
    {"slug": "launch-day-checklist", "title": "A launch-day checklist",
     "summary": "Twelve things to prepare before your listing goes live.",
     "tags": ["launch", "checklist"],
     "markdown": "# A launch-day checklist\n\n1. A clear tagline.\n2. Screenshots that show the product.\n"
                 "3. The badge on your homepage (free plan).\n4. A founder story that says why you built it.\n",
     "faqs": [{"question": "Do I need the badge?", "answer": "On the free plan, yes: the listing goes live once the "
               "badge is found on your homepage."}]},
    {"slug": "writing-a-founder-story", "title": "Writing a founder story people finish",
     "summary": "Why you started, the problem, the journey: a structure that works.",
     "tags": ["founders", "writing"],
     "markdown": "# Writing a founder story\n\nStart with the problem, not the product. Then the moment you decided "
                 "to build it, what went wrong, and what you learned.\n",
     "faqs": [{"question": "How long should it be?", "answer": "Five to eight short paragraphs."}]},
    {"slug": "domain-rating-explained", "title": "Domain Rating, explained",
     "summary": "What the Domain Rating leaderboard measures and what it does not.",
     "tags": ["seo", "rankings"],
     "markdown": "# Domain Rating, explained\n\nDomain Rating (0-100) estimates the strength of a site's backlink "
                 "profile. It comes from an SEO data provider and says nothing about product quality.\n",
     "faqs": [{"question": "How often is it updated?", "answer": "Monthly snapshots; the leaderboard shows the latest "
               "with its change since the previous one."}]},
    {"slug": "verified-vs-self-reported-revenue", "title": "Verified versus self-reported revenue",
     "summary": "How the revenue leaderboard labels its numbers.",
     "tags": ["revenue", "rankings"],
     "markdown": "# Verified versus self-reported revenue\n\nEvery revenue figure carries its source: *verified* "
                 "figures come from a payment provider connection, *self-reported* ones from the founders.\n",
     "faqs": [{"question": "Which ranks higher?", "answer": "The board ranks by amount; the label tells you how much "
               "to trust it."}]},
    {"slug": "embedding-your-badge", "title": "Embedding your badge",
     "summary": "Five shapes, three colour modes, three sizes: pick one and paste the snippet.",
     "tags": ["badges", "guides"],
     "markdown": "# Embedding your badge\n\nOpen your listing's badges, choose a shape, a colour mode and a size, "
                 "and paste the snippet into your homepage. `auto` follows the reader's light or dark scheme.\n",
     "faqs": [{"question": "Will an upcoming badge break after launch?", "answer": "No: the image switches to "
               "\"Launched on\" by itself once the listing is live."}]},
]
DRAFT_POST = {"slug": "what-we-learned-from-1000-launches", "title": "What we learned from 1,000 launches",
              "summary": "Coming soon.", "tags": ["data"], "markdown": "# Draft\n\nNumbers to come.\n", "faqs": []}


def _sentence_case(text: str) -> str:
    """The first letter upper-cased, the rest as written (`str.capitalize` would turn "GPU" into "Gpu")."""
    return text[:1].upper() + text[1:]


class _Demo:
    def __init__(self, c: Any) -> None:
        self.c = c
        self.store = c.store
        self.rng = random.Random(SEED)
        self.now: datetime = c.services.now()
        self.tz = self.now.tzinfo
        self.this_week = monday_of(self.now.date())
        self.counts: dict[str, int] = {k: 0 for k in (
            "listings", "live", "scheduled", "awaiting_badge", "founders", "votes", "reviews", "weeks_closed",
            "weeks_recomputed", "blog_posts")}

    # ------------------------------------------------------------ helpers

    def meta(self, at: datetime, actor: str = "staff:demo", channel: str = "cli") -> Meta:
        return Meta(at=min(at, self.now), actor=actor, channel=channel)

    def at(self, day: date, hour: float) -> datetime:
        return datetime.combine(day, time(0), tzinfo=self.tz) + timedelta(hours=hour)

    # ------------------------------------------------------------ steps

    def founders(self) -> list[str]:
        slugs = []
        for i in range(len(FIRST)):
            first, last = FIRST[i], LAST[(i * 7) % len(LAST)]
            slug = f"{first}-{last}".lower()
            slugs.append(slug)
            if content_cmd.founder_exists(self.store, slug):
                continue
            content_cmd.create_founder_profile(self.store, content_cmd.CreateFounderProfile(
                slug=slug, name=f"{first} {last}", country=self.rng.choice(COUNTRIES),
                bio=f"{first} has built software for {self.rng.choice(AUDIENCES)} for {self.rng.randint(3, 20)} years.",
                socials={"linkedin": f"https://linkedin.example.com/in/{slug}", "x": f"https://x.example.com/{slug}"},
                avatar_url=f"https://avatars.example.com/{slug}.png"), self.meta(self.at(self.this_week, 0) - timedelta(weeks=12)))
            self.counts["founders"] += 1
        return slugs

    def listing(self, n: int, founder_slugs: list[str], created: datetime) -> tuple[int, bool]:
        """Listing number `n` (fixed name and slug); returns (listing_id, created_now)."""
        category = list(CATEGORIES)[n % len(CATEGORIES)]
        nouns, template = CATEGORIES[category]
        name = f"{PREFIXES[n % len(PREFIXES)]} {nouns[(n // len(CATEGORIES)) % len(nouns)]}"
        slug = slugify(name)
        existing = listing_cmd.listing_id_for_slug(self.store, slug)
        who = self.rng.choice(AUDIENCES)
        team = self.rng.sample(founder_slugs, self.rng.choice([1, 1, 2]))
        if existing is not None:
            return existing, False
        site = f"https://{slug}.example.com/"
        profile = {
            "name": name, "tagline": _sentence_case(template.format(who=who)),
            "short_description": f"{name} gives {who} {template.format(who=who).split(' for ')[0].rstrip(',')}.",
            "description": f"{name} is built for {who}. It started as an internal tool and grew into a product "
                           f"used by teams in {self.rng.randint(5, 60)} countries.",
            "website_url": site, "logo_url": f"{site}logo.png", "pricing_model": self.rng.choice(PRICING),
            "stage": DEMO_STAGES[n % len(DEMO_STAGES)],  # by number, not drawn: the draws of every later value stay as they were
            "country": self.rng.choice(COUNTRIES), "founded_year": self.rng.randint(2015, 2026),
            "features": ["Fast set-up", "Team workspaces", "An open API"][: self.rng.randint(1, 3)],
            "keywords": [category, who.split()[0]],
        }
        names = {s: " ".join(p.capitalize() for p in s.split("-")) for s in team}
        cmd = listing_cmd.CreateListing(
            profile=profile, categories=[category], source="demo", slug=slug,
            socials={"website": site, "x": f"https://x.example.com/{slug}"},
            faqs=[{"question": f"Is there a free plan for {who}?", "answer": "Yes, up to three seats."}],
            founders=[{"name": names[s], "title": ("CEO", "CTO")[i], "founder_slug": s} for i, s in enumerate(team)],
            story={"title": f"Why we built {name}", "story": f"We were {who} ourselves and kept losing hours.",
                   "why_started": "No tool did this without a week of set-up.", "lessons": "Ship the boring parts first."},
        )
        try:
            created_listing = listing_cmd.create_listing(self.store, cmd, self.meta(created))
        except Conflict:  # made by a concurrent run: use it
            return int(listing_cmd.listing_id_for_slug(self.store, slug) or 0), False
        self.counts["listings"] += 1
        return created_listing.listing_id, True

    def launch_week(self, week: date, listing_ids: list[tuple[int, bool]]) -> None:
        for listing_id, fresh in listing_ids:
            launched_at = self.at(week, self.rng.uniform(0, 10))
            if launched_at > self.now:
                launched_at = self.now - timedelta(minutes=5)
            listing_cmd.staff_publish(self.store, listing_id, self.meta(launched_at), week=week.isoformat(),
                                      plan=self.rng.choice(["free", "free", "paid"]))
            self.counts["live"] += 1
            if fresh:
                self.community(listing_id, week, launched_at)
                self.extras(listing_id, week, launched_at)

    def community(self, listing_id: int, week: date, launched_at: datetime) -> None:
        popularity = min(int(self.rng.paretovariate(1.2) * 6), 160)
        voters = self.rng.sample(range(1, VOTERS + 1), min(popularity, VOTERS))
        end = min(self.at(week, 24 * 7 + 48), self.now)  # mostly during the week, some after it
        span = max((end - launched_at).total_seconds(), 60)
        for voter in voters:
            when = launched_at + timedelta(seconds=span * self.rng.random() ** 1.6)
            community.cast_vote(self.store, listing_id, f"demo-voter-{voter}",
                                self.meta(when, actor=f"account:demo-voter-{voter}", channel="web"))
            self.counts["votes"] += 1
        for voter in voters[: len(voters) // 3]:
            community.follow(self.store, listing_id, f"demo-voter-{voter}",
                             self.meta(launched_at + timedelta(hours=2), actor=f"account:demo-voter-{voter}", channel="web"))
        community.count_views(self.store, {listing_id: popularity * self.rng.randint(20, 90)}, self.meta(end))
        for i in range(self.rng.choice([0, 0, 1, 2, 3, 4])):
            rating = self.rng.choice([5, 5, 4, 4, 3, 2])
            review_id, _ = community.write_review(
                self.store, listing_id, f"demo-voter-{voters[i] if i < len(voters) else i + 1}", rating,
                "Does what it says; set-up took minutes." if rating >= 4 else "Promising, but rough edges.",
                self.meta(launched_at + timedelta(hours=6 + i), actor="account:demo-reviewer", channel="web"))
            if self.rng.random() < 0.8:
                community.moderate_review(self.store, review_id, "approved", self.meta(launched_at + timedelta(days=1)))
            self.counts["reviews"] += 1

    def extras(self, listing_id: int, week: date, launched_at: datetime) -> None:
        m = self.meta(launched_at)
        r = self.rng.random()
        if r < 0.3:
            listing_cmd.unlock(self.store, listing_id, ["story"], "demo: founder story add-on", m)
        if self.rng.random() < 0.25:
            listing_cmd.verify(self.store, listing_id, "dns", m)
        if self.rng.random() < 0.6:
            for months_back in (2, 1):
                day = (launched_at - timedelta(days=30 * months_back)).date()
                metrics.record_domain_rating(self.store, listing_id, self.rng.randint(5, 80), "staff", day.isoformat(), m)
        if self.rng.random() < 0.35:
            period = (launched_at.date().replace(day=1) - timedelta(days=1)).strftime("%Y-%m")
            metrics.record_revenue(self.store, listing_id, self.rng.randint(50, 4000) * 1000, period,
                                   self.rng.choice(["verified", "self_reported"]), m)
        if self.rng.random() < 0.12:
            metrics.contribute_billboard(self.store, listing_id, self.rng.choice([5_000, 10_000, 25_000, 50_000]),
                                         None, m)

    def upcoming(self, listing_ids: list[tuple[int, bool]]) -> None:
        for i, (listing_id, fresh) in enumerate(listing_ids):
            state = listing_cmd.load(self.store, listing_id)
            if not fresh and state.status != "draft":
                continue
            week = (self.this_week + timedelta(weeks=1 + i % 4)).isoformat()
            m = self.meta(self.now - timedelta(hours=1))
            if i % 5 == 4:  # free plan, badge not on the homepage yet
                listing_cmd.queue_free(self.store, listing_id, (self.this_week + timedelta(weeks=7)).isoformat(), m)
                self.counts["awaiting_badge"] += 1
            elif i % 2:
                listing_cmd.queue_free(self.store, listing_id, week, m)
                listing_cmd.badge_found(self.store, listing_id, f"https://{state.slug}.example.com/", m)
                self.counts["scheduled"] += 1
            else:
                listing_cmd.schedule_paid(self.store, listing_id, week, m)
                self.counts["scheduled"] += 1

    def posts(self) -> None:
        for i, post in enumerate([*POSTS, DRAFT_POST]):
            if content_cmd.blog_post_state(self.store, post["slug"]).exists:
                continue
            written = self.now - timedelta(days=7 * (len(POSTS) - i) + 3)
            m = self.meta(written, actor="staff:demo-editor")
            content_cmd.write_blog_post(self.store, content_cmd.WriteBlogPost.model_validate(post | {"author": "The launchdir team"}), m)
            if post is not DRAFT_POST:
                content_cmd.publish_blog_post(self.store, post["slug"], m)
            self.counts["blog_posts"] += 1

    def close_past_weeks(self) -> None:
        for k in range(PAST_WEEKS, 0, -1):
            week = self.this_week - timedelta(weeks=k)
            m = self.meta(self.now, actor="staff:demo")
            outcome = close_week(self.store, self.c.services.reads, self.c.runtime, week, m)
            if outcome == "closed":
                self.counts["weeks_closed"] += 1
            elif outcome == "recomputed":  # closed (by the scheduler) before its launches and votes were loaded
                self.counts["weeks_recomputed"] += 1

    def feature(self, weekly: dict[date, list[tuple[int, bool]]]) -> None:
        for week, ids in weekly.items():
            listing_id = ids[0][0]
            if ids[0][1]:
                listing_cmd.feature(self.store, listing_id, week.isoformat(), self.meta(self.at(week, 1)))

    def run(self) -> dict[str, int]:
        change_site_settings(self.store, ChangeSiteSettings(changes={
            "name": "launchdir demo", "contact_email": "hello@launchdir.example"}), self.meta(self.now))
        founder_slugs = self.founders()
        n = 0
        weekly: dict[date, list[tuple[int, bool]]] = {}
        for k in range(PAST_WEEKS, -1, -1):  # 8 past weeks, then this week
            week = self.this_week - timedelta(weeks=k)
            count = 6 if k == 0 else self.rng.choice([6, 7])
            ids = []
            for _ in range(count):
                ids.append(self.listing(n, founder_slugs, self.at(week, 0) - timedelta(days=self.rng.randint(3, 20))))
                n += 1
            weekly[week] = ids
            self.launch_week(week, ids)
        self.feature(weekly)
        upcoming = []
        for _ in range(10):
            upcoming.append(self.listing(n, founder_slugs, self.now - timedelta(days=self.rng.randint(1, 10))))
            n += 1
        self.upcoming(upcoming)
        self.close_past_weeks()
        self.posts()
        if not content_cmd.blog_post_state(self.store, SENTINEL).published:  # the last step marks the demo complete
            content_cmd.write_blog_post(self.store, content_cmd.WriteBlogPost.model_validate({
                "slug": SENTINEL, "title": "About this demo directory", "summary": "Every listing here is made up.",
                "markdown": "# About this demo\n\nEverything on this site was made by `launchdir demo` through the "
                            "same commands the website and staff tools use. Websites live under example.com.\n",
                "faqs": [{"question": "Are these real products?", "answer": "No, they are generated demo data."}],
                "tags": ["demo"], "author": "The launchdir team"}), self.meta(self.now))
            content_cmd.publish_blog_post(self.store, SENTINEL, self.meta(self.now))
            self.counts["blog_posts"] += 1
        return self.counts


def load_demo(c: Any) -> dict[str, int]:
    """Grow the demo directory through the commands; skipped when a complete demo is already there."""
    if content_cmd.blog_post_state(c.store, SENTINEL).published:
        return {"skipped": 1}
    return _Demo(c).run()
