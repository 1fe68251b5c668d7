"""Shared pieces of the OAuth tests: accounts, a form-following browser, PKCE, registration, token storage.

`Browser` is a person at a web browser, driven with httpx: it follows the
authorization server's redirects, signs in on the real /signin page and
answers the real consent page, carrying cookies and CSRF tokens like a browser.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit
from uuid import uuid4

import httpx
import pytest
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthToken
from pydantic import SecretStr

from aggregates.base import Meta
from commands import account as account_cmd

PASSWORD = "a good long password"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
REQUEST = re.compile(r'name="request" value="([^"]+)"')
OPS = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")


@dataclass
class Person:
    account_id: str
    email: str
    password: str = PASSWORD


def person(container: Any, verified: bool = True) -> Person:
    """An account with a password, made through the account command (as `launchdir accounts create` does)."""
    email = f"oauth-{uuid4().hex[:10]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=email, password=SecretStr(PASSWORD), verified=verified)
    registered = account_cmd.register_account(container.store, cmd, OPS, None if verified else container.identity.links)
    assert container.runtime.wait_for(["accounts_view"], registered.position, 5)
    return Person(str(registered.account_id), email)


@dataclass
class Pkce:
    verifier: str
    challenge: str

    @classmethod
    def new(cls) -> Pkce:
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
        return cls(verifier, challenge)


def requests_changed(container: Any, after: int) -> list[str]:
    """Events appended after `after` by requests (REST, MCP, OAuth, website), as "Topic by actor": background work
    (the launch scheduler, channel "system") may append meanwhile and does not count."""
    from projections.log import EventLog

    log = EventLog(container.store.app)
    events = log.read(after, log.head(), [], 1000)
    return [f"{type(e).__name__} by {e.actor}" for _, e in events if e.channel in ("rest", "mcp", "oauth", "web")]


def query_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def csrf(page: httpx.Response) -> str:
    m = CSRF.search(page.text)
    assert m, page.text[:800]
    return m.group(1)


class Browser:
    """A person's browser: cookies, forms with their CSRF tokens, redirects followed by hand."""

    def __init__(self, base_url: str, who: Person | None = None) -> None:
        self.base = base_url
        self.who = who
        self.http = httpx.Client(timeout=20, follow_redirects=False)
        self.pages: list[httpx.Response] = []  # every page seen, for assertions
        self.remembered = False  # the last consent was not asked: the app was already connected

    def close(self) -> None:
        self.http.close()

    def get(self, url: str) -> httpx.Response:
        r = self.http.get(url if url.startswith("http") else self.base + url)
        self.pages.append(r)
        return r

    def sign_in(self, next_path: str = "/account") -> httpx.Response:
        assert self.who is not None
        form = self.get("/signin?" + urlencode({"next": next_path}))
        r = self.http.post(self.base + "/signin", data={
            "csrf_token": csrf(form), "email": self.who.email, "password": self.who.password, "next": next_path})
        assert r.status_code == 303, r.text[:500]
        return r

    def authorize(self, url: str, decision: str = "allow") -> dict[str, str]:
        """Open the authorization URL and answer the consent page; the query the client's redirect URI receives.

        Returns the error query as it is when the server refuses before the consent page.
        """
        self.remembered = False
        r = self.get(url)
        if r.status_code != 302:
            return {"_status": str(r.status_code), **r.json()}
        location = r.headers["location"]
        if not location.startswith(self.base + "/oauth/consent"):
            return query_of(location)  # an error redirected to the client
        page = self.get(location)
        if page.status_code == 303 and page.headers["location"].startswith("/signin?next="):
            # not signed in: the real sign-in page, then back
            nxt = parse_qs(urlsplit(page.headers["location"]).query)["next"][0]
            signed = self.sign_in(nxt)
            page = self.get(signed.headers["location"])
        if page.status_code == 303:  # consent remembered: straight back to the client
            self.remembered = True
            return query_of(page.headers["location"])
        assert page.status_code == 200, page.text[:800]
        m = REQUEST.search(page.text)
        assert m, page.text[:800]
        answer = self.http.post(self.base + "/oauth/consent", data={
            "csrf_token": csrf(page), "request": m.group(1), "decision": decision})
        assert answer.status_code == 303, answer.text[:800]
        return query_of(answer.headers["location"])


def register(base: str, redirect_uri: str, **extra: Any) -> dict[str, Any]:
    body = {"client_name": "Test MCP client", "redirect_uris": [redirect_uri], "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"], **extra}
    r = httpx.post(base + "/oauth/register", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def authorize_url(base: str, client_id: str, redirect_uri: str, pkce: Pkce, *, scope: str = "account:read",
                  resource: str | None = None, state: str = "st-1", **extra: str) -> str:
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "state": state,
              "code_challenge": pkce.challenge, "code_challenge_method": "S256", "scope": scope,
              "resource": resource or base + "/mcp", **extra}
    return base + "/oauth/authorize?" + urlencode({k: v for k, v in params.items() if v is not None})


def exchange(base: str, client_id: str, code: str, redirect_uri: str, pkce: Pkce, **extra: str) -> httpx.Response:
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "client_id": client_id,
            "code_verifier": pkce.verifier, **extra}
    return httpx.post(base + "/oauth/token", data=form, timeout=10)


def refresh(base: str, client_id: str, token: str, **extra: str) -> httpx.Response:
    form = {"grant_type": "refresh_token", "refresh_token": token, "client_id": client_id, **extra}
    return httpx.post(base + "/oauth/token", data=form, timeout=10)


def tokens_for(base: str, who: Person, *, scope: str = "account:read", resource: str | None = None,
               redirect_uri: str = "http://127.0.0.1:9/callback") -> dict[str, Any]:
    """A registered client, a person who signs in and allows it, the token response (plus the client_id)."""
    client = register(base, redirect_uri)
    pkce = Pkce.new()
    browser = Browser(base, who)
    try:
        answer = browser.authorize(authorize_url(base, client["client_id"], redirect_uri, pkce, scope=scope,
                                                 resource=resource))
    finally:
        browser.close()
    assert "code" in answer, answer
    r = exchange(base, client["client_id"], answer["code"], redirect_uri, pkce)
    assert r.status_code == 200, r.text
    return {**r.json(), "client_id": client["client_id"]}


@dataclass
class MemoryStorage:
    """The MCP client's token storage, in memory."""

    tokens: OAuthToken | None = None
    client_info: OAuthClientInformationFull | None = None
    history: list[OAuthToken] = field(default_factory=list)

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.history.append(tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class Redirects:
    """The MCP client's redirect and callback handlers: the browser steps, done by a `Browser`."""

    def __init__(self, browser: Browser, decision: str = "allow") -> None:
        self.browser = browser
        self.decision = decision
        self.answers: list[dict[str, str]] = []
        self.urls: list[str] = []

    async def redirect(self, url: str) -> None:
        import anyio.to_thread

        self.urls.append(url)
        self.answers.append(await anyio.to_thread.run_sync(self.browser.authorize, url, self.decision))

    async def callback(self) -> AuthorizationCodeResult:
        answer = self.answers[-1]
        assert "code" in answer, answer
        return AuthorizationCodeResult(code=answer["code"], state=answer.get("state"), iss=answer.get("iss"))


# ---------------------------------------------------------------- TLS and a local server for client metadata documents


@dataclass
class Tls:
    ca: str  # the test CA's certificate (what the server under test is told to trust)
    cert: str  # a certificate for 127.0.0.1 signed by it
    key: str


def make_tls(directory: str) -> Tls | None:
    """A throw-away CA and a certificate for 127.0.0.1, made with the openssl command (None without it)."""
    import shutil
    import subprocess
    from pathlib import Path

    openssl = shutil.which("openssl")
    if openssl is None:
        return None
    d = Path(directory)
    (d / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                               "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n")
    steps = [
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
         "-subj", "/CN=launchdir test CA", "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
        [openssl, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1"],
        [openssl, "x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
         "-out", "srv.pem", "-days", "2", "-extfile", "ext.cnf"],
    ]
    for step in steps:
        if subprocess.run(step, cwd=d, capture_output=True).returncode != 0:
            return None
    return Tls(str(d / "ca.pem"), str(d / "srv.pem"), str(d / "srv.key"))


@dataclass
class Reply:
    body: bytes
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"content-type": "application/json"})
    delay: float = 0.0


class DocumentServer:
    """HTTPS (or HTTP) on 127.0.0.1 serving canned replies by path; counts requests per path."""

    def __init__(self, tls: Tls | None) -> None:
        import ssl
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.replies: dict[str, Reply] = {}
        self.hits: dict[str, int] = {}
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                import time as _time

                owner.hits[self.path] = owner.hits.get(self.path, 0) + 1
                reply = owner.replies.get(self.path)
                if reply is None:
                    self.send_response(404)
                    self.send_header("content-length", "0")
                    self.end_headers()
                    return
                if reply.delay:
                    _time.sleep(reply.delay)
                self.send_response(reply.status)
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.send_header("content-length", str(len(reply.body)))
                self.end_headers()
                try:
                    self.wfile.write(reply.body)
                except OSError:
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        scheme = "http"
        if tls is not None:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(tls.cert, tls.key)
            self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def serve(self, path: str, reply: Reply) -> str:
        self.replies[path] = reply
        return self.url + path

    def document(self, path: str, redirect_uri: str, name: str = "Test CIMD client", **extra: Any) -> str:
        """Serve a valid client ID metadata document at `path`; returns its URL (the client_id)."""
        import orjson

        url = self.url + path
        doc = {"client_id": url, "client_name": name, "redirect_uris": [redirect_uri],
               "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
               "token_endpoint_auth_method": "none", **extra}
        self.serve(path, Reply(orjson.dumps(doc), headers={"content-type": "application/json",
                                                            "cache-control": "max-age=600"}))
        return url

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


# ---------------------------------------------------------------- fixtures (imported by the OAuth test modules)

CALLBACK = "http://127.0.0.1:9/callback"  # never contacted: the test's browser reads the code from the redirect


@pytest.fixture(scope="module")
def tls() -> Tls:
    import tempfile

    made = make_tls(tempfile.mkdtemp(prefix="launchdir-tls-"))
    if made is None:
        pytest.skip("the openssl command is needed to make a test certificate for https client metadata documents")
    return made


@pytest.fixture(scope="module")
def docs(tls: Tls) -> Iterator[DocumentServer]:
    server = DocumentServer(tls)
    yield server
    server.close()


@pytest.fixture(scope="module")
def oauth_server(databases: Any, tls: Tls) -> Iterator[Any]:
    """A server that may fetch client metadata documents from 127.0.0.1 (test settings) and trusts the test CA."""
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from tests.conftest import RunningServer, free_port
    from tests.conftest import test_settings as settings_for

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, crawl_allow_loopback=True, oauth_cimd_ca_file=tls.ca,
                               rate_limits=False))  # many registrations from one address
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        yield running
    c.close()
