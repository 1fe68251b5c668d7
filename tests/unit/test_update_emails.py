"""Unsubscribe tokens (signed, bound to one account and one listing) and the follower email of a listing update."""

from __future__ import annotations

from commands.account import AccountLinks
from commands.updates import UnsubscribeTokens, UpdateToTell, dedupe_key, update_email

SECRET = b"s" * 32


def test_a_token_names_the_account_and_the_listing_it_was_made_for() -> None:
    tokens = UnsubscribeTokens(SECRET)
    token = tokens.sign("acct-1", 42)
    assert tokens.read(token) == ("acct-1", 42)
    assert tokens.sign("acct-1", 43) != token and tokens.sign("acct-2", 42) != token
    assert all(c.isalnum() or c in "-_." for c in token)  # one URL path segment, nothing to escape


def test_a_changed_or_foreign_token_is_not_read() -> None:
    tokens = UnsubscribeTokens(SECRET)
    token = tokens.sign("acct-1", 42)
    payload, signature = token.rsplit(".", 1)
    forged = UnsubscribeTokens(b"another secret").sign("acct-1", 42)
    tampered = payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    email_link = AccountLinks(SECRET, "http://site/").sign("verify", {"a": "acct-1", "l": 42})  # same key, other purpose
    for bad in (forged, tampered, email_link, "", "x", "x" * 600, token + "x"):
        assert tokens.read(bad) is None, bad


def test_a_token_whose_payload_is_not_account_and_listing_is_not_read() -> None:
    tokens = UnsubscribeTokens(SECRET)
    serializer = tokens._serializer  # noqa: SLF001 - sign odd payloads with the real key
    for payload in ({"a": "x"}, {"a": 1, "l": 2}, {"a": "x", "l": "2"}, {"a": "x", "l": True}, ["x", 2]):
        assert tokens.read(str(serializer.dumps(payload))) is None


def test_the_email_names_the_product_and_carries_the_update_and_both_links() -> None:
    update = UpdateToTell(listing_id=4, update_id=2, slug="invoicely", name="Invoicely", title="Dark  mode\nis here",
                          body="Line one.\nLine two.")
    subject, text = update_email(update, "http://site/listings/invoicely", "http://site/unsubscribe/tok", "Shipyard")
    assert subject == "Invoicely on Shipyard: Dark mode is here"
    assert "Invoicely posted an update on Shipyard." in text and "you follow Invoicely on Shipyard" in text
    assert "Dark  mode\nis here" in text and "Line one.\nLine two." in text
    assert "http://site/listings/invoicely" in text and "http://site/unsubscribe/tok" in text
    long = UpdateToTell(listing_id=4, update_id=2, slug="x", name="N" * 150, title="T" * 200, body="b")
    assert len(update_email(long, "u", "v", "Shipyard")[0]) == 200
    assert dedupe_key(4, 2, "acct") == "listing-update:4:2:acct"
