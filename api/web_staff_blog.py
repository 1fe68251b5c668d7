"""The staff's blog pages: every post, writing one, and revising, publishing and unpublishing it.

- `/staff/blog`: every post, drafts too, newest written first, with its state
  and its last change (when, what, by whom), 50 a page.
- `/staff/blog/new`: write a post (slug, title, summary, tags, the text in
  Markdown, "publish now"), as `launchdir staff blog write` does.
- `/staff/blog/{slug}`: revise its title, summary, tags and text; publish or
  unpublish it; what was recorded on it, newest first.

Each form calls the command the CLI calls (`commands.content`), recorded as
`staff:<email>` through the website (channel `web`), and its refusals are shown
next to the fields, worded by `api.web_errors` (a taken slug is the slug's
problem). A revision to the values the post has, publishing a published post
or unpublishing one that is not published records nothing, and the notice
says so. The text is taken as the CLI reads a file: a browser's CRLF line ends
become LF, so sending an unchanged text changes nothing. Staff only, with the
refusal every staff page gives (`WebPages._staff_only`). `new` is this form's
address, so it is no post's slug here.
"""

from __future__ import annotations

from urllib.parse import urlencode

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates import content
from api import web_errors
from api.identity import Identity
from api.sessions import WebSession
from api.web_founder_pages import NEW_IS_THE_FORM, FounderPages
from commands import content as content_cmd
from commands.content import ReviseBlogPost, WriteBlogPost
from events import text as text_rule
from events.errors import Conflict, InvalidInput, NotFound
from queries import content as content_q

VIEWS = ["content_view"]
PER_PAGE = 50
FIELDS = ("slug", "title", "summary", "tags", "markdown")
LABELS = {"slug": "Slug", "title": "Title", "summary": "Summary", "tags": "Tags", "markdown": "Text"}
TAKEN = "A post has this slug already; choose another."
NOTICES = {
    "written": "The post is written. It is not on the site until you publish it.",
    "written-published": "The post is written and published.",
    "revised": "The changes are saved.",
    "published": "The post is published: it is on the blog now.",
    "unpublished": "The post is taken off the site. Its address answers 404 until you publish it again.",
    "unchanged": "Nothing changed: the post already has this title, summary, tags and text, so nothing was recorded.",
    "unchanged-published": "Nothing changed: the post is published already, so nothing was recorded.",
    "unchanged-unpublished": "Nothing changed: the post is not published, so there was nothing to take off the site "
                             "and nothing was recorded.",
}


class StaffBlogPages(FounderPages):
    """/staff/blog and its forms, for staff accounts only."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/staff/blog", page(self.list_page), methods=["GET"]),
            Route("/staff/blog/new", page(self.new_page), methods=["GET"]),
            Route("/staff/blog/new", page(self.write, form=True, invalid=self._new_invalid), methods=["POST"]),
            Route("/staff/blog/{slug}", page(self.post_page), methods=["GET"]),
            Route("/staff/blog/{slug}", page(self.revise, form=True, invalid=self._post_invalid), methods=["POST"]),
            Route("/staff/blog/{slug}/publish", page(self.publish, form=True), methods=["POST"]),
            Route("/staff/blog/{slug}/unpublish", page(self.unpublish, form=True), methods=["POST"]),
        ]

    # ------------------------------------------------------------ every post

    def list_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        paging = self._paging(request, PER_PAGE)
        posts = content_q.staff_blog_posts(self.s.reads, paging, content.post_stream)
        more = f"/staff/blog?{urlencode({'page': paging.page + 1})}" if posts["has_more"] else None
        ctx = {"posts": posts, "more": more, "staff_here": "blog"}
        return self._render(request, "staff/blog.html", ctx, session)

    # ------------------------------------------------------------ writing a post

    def new_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._new(request, session, {}, {}, 200)

    def write(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        values = self._values(data)
        if values["slug"] == "new":
            return self._new(request, session, values, {"slug": NEW_IS_THE_FORM},
                             400)
        meta = self._staff_meta(session)
        try:
            command = WriteBlogPost.model_validate({"slug": values["slug"], "title": values["title"],
                                                    "summary": values["summary"], "tags": tag_list(values["tags"]),
                                                    "markdown": values["markdown"]})
            position = content_cmd.write_blog_post(self.s.store, command, meta)
        except (ValidationError, InvalidInput) as exc:
            errors = problems(exc)
            if "slug" not in errors and self._taken(values["slug"]):  # every problem at once, the slug's too
                errors = {"slug": TAKEN} | errors
            return self._new(request, session, values, errors, 400)
        except Conflict:
            return self._new(request, session, values, {"slug": TAKEN}, 409)
        if values["publish"]:
            position = content_cmd.publish_blog_post(self.s.store, command.slug, meta).position
        self._wait(position, VIEWS)
        return self._redirect(f"/staff/blog/{command.slug}?done=written{'-published' if values['publish'] else ''}")

    def _taken(self, slug: str) -> bool:
        return bool(content.SLUG.match(slug)) and content_cmd.blog_post_state(self.s.store, slug).exists

    def _new(self, request: Request, session: WebSession | None, values: dict[str, str], errors: dict[str, str],
             status: int) -> Response:
        ctx = {"values": values, "errors": errors, "error_labels": LABELS, "staff_here": "blog"}
        return self._render(request, "staff/blog_new.html", ctx, session, status)

    def _new_invalid(self, request: Request, data: FormData, session: WebSession | None,
                     errors: dict[str, str]) -> Response:
        """A field that breaks the text rule: the form again with the message, once the person is known as staff."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._new(request, session, self._values(data), errors, 400)

    # ------------------------------------------------------------ one post

    def post_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        post = self._staff_post(request, session)
        if isinstance(post, Response):
            return post
        values = {"title": post.fields.get("title", ""), "summary": post.fields.get("summary", ""),
                  "tags": ", ".join(post.fields.get("tags") or []), "markdown": post.fields.get("markdown", "")}
        return self._post_form(request, session, post, values, {}, 200)

    def revise(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        post = self._staff_post(request, session)
        if isinstance(post, Response):
            return post
        assert session is not None
        values = self._values(data)
        changes = {"title": values["title"], "summary": values["summary"], "tags": tag_list(values["tags"]),
                   "markdown": values["markdown"]}
        try:
            done = content_cmd.revise_blog_post(self.s.store, ReviseBlogPost(slug=post.slug, changes=changes),
                                                self._staff_meta(session))
        except (ValidationError, InvalidInput) as exc:
            return self._post_form(request, session, post, values, problems(exc), 400)
        except NotFound:
            return self._no_post(request, session)
        if not done.events:
            return self._redirect(f"/staff/blog/{post.slug}?done=unchanged")
        self._wait(done.position, VIEWS)
        return self._redirect(f"/staff/blog/{post.slug}?done=revised")

    def publish(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._switch(request, session, publish=True)

    def unpublish(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._switch(request, session, publish=False)

    def _switch(self, request: Request, session: WebSession | None, publish: bool) -> Response:
        """Publish or unpublish with the command the CLI uses; one that changes nothing says so."""
        post = self._staff_post(request, session)
        if isinstance(post, Response):
            return post
        assert session is not None
        command = content_cmd.publish_blog_post if publish else content_cmd.unpublish_blog_post
        try:
            done = command(self.s.store, post.slug, self._staff_meta(session))
        except NotFound:
            return self._no_post(request, session)
        word = "published" if publish else "unpublished"
        if not done.events:
            return self._redirect(f"/staff/blog/{post.slug}?done=unchanged-{word}")
        self._wait(done.position, VIEWS)
        return self._redirect(f"/staff/blog/{post.slug}?done={word}")

    def _post_form(self, request: Request, session: WebSession | None, post: content.PostState,
                   values: dict[str, str], errors: dict[str, str], status: int) -> Response:
        changes = content_q.post_changes(self.s.reads, post.id)
        was_published = any(c["what"] == "published" for c in changes)
        ctx = {"post": post, "slug": post.slug, "title": post.fields.get("title", ""), "changes": changes,
               "state": "published" if post.published else ("unpublished" if was_published else "draft"),
               "values": values, "errors": errors, "error_labels": LABELS, "staff_here": "blog",
               "notice": self._notice(request, NOTICES)}
        return self._render(request, "staff/blog_post.html", ctx, session, status)

    def _post_invalid(self, request: Request, data: FormData, session: WebSession | None,
                      errors: dict[str, str]) -> Response:
        """A field that breaks the text rule: the post's form again with the message and what was typed."""
        post = self._staff_post(request, session)
        if isinstance(post, Response):
            return post
        return self._post_form(request, session, post, self._values(data), errors, 400)

    def _staff_post(self, request: Request, session: WebSession | None) -> content.PostState | Response:
        """The post of the address, for staff only: the refusal or the not-found page when there is none."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        post = self._post(request)
        return self._no_post(request, session) if post is None else post

    def _post(self, request: Request) -> content.PostState | None:
        """The post of the address's slug as the commands see it, or None when there is none."""
        slug = str(request.path_params.get("slug", ""))
        if not content.SLUG.match(slug):
            return None
        post = content_cmd.blog_post_state(self.s.store, slug)
        return post if post.exists else None

    def _no_post(self, request: Request, session: WebSession | None) -> Response:
        return self._message(request, session, "No such post", "There is no blog post with this slug.", 404,
                             [("/staff/blog", "Blog posts")])

    @staticmethod
    def _values(data: FormData) -> dict[str, str]:
        """The form as typed (storable), the text with LF line ends; "publish" is "yes" when ticked."""
        raw = {name: text_rule.storable(str(data.get(name) or "")) for name in FIELDS}
        return {"slug": raw["slug"].strip(), "title": raw["title"].strip(), "summary": raw["summary"],
                "tags": raw["tags"].strip(), "markdown": raw["markdown"].replace("\r\n", "\n"),
                "publish": "yes" if data.get("publish") else ""}


def tag_list(typed: str) -> list[str]:
    """Tags as typed, separated by commas, as the list the commands take (empty entries dropped)."""
    return [tag.strip() for tag in typed.split(",") if tag.strip()]


def problems(exc: ValidationError | InvalidInput) -> dict[str, str]:
    """Form field -> its first problem, worded for people; one tag's problem names the tag by its place."""
    out: dict[str, str] = {}
    for path, message in web_errors.worded(exc):
        field, _, rest = path.partition(".")
        if field == "tags" and rest.isdigit():
            message = f"Tag {int(rest) + 1}: {message[:1].lower()}{message[1:]}"
        out.setdefault(field, message)
    return out


def staff_blog_routes(identity: Identity) -> list[BaseRoute]:
    return StaffBlogPages(identity).routes()
