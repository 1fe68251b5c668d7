"""`read_form` gives the fields Starlette's own parser gives, for every urlencoded body shape the pages meet."""

from __future__ import annotations

import asyncio

import pytest
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request

from api.web_forms import MAX_FIELDS, read_form

BODIES = [b"a=1&b=2", b"a=1;b=2", b"a&b=", b"a=%C3%A9+x&&c=%ZZ", b"=x", b"a=1&a=2", b"", b"a=%ff", b"x=\xe9",
          b"a=1&;b=2", b"next=%2Flistings%2Fnotion&csrf=abc.def-_", b"q=" + "日本".encode() + b"&r=%E6%97%A5"]


def request(body: bytes, content_type: bytes = b"application/x-www-form-urlencoded") -> Request:
    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": body, "more_body": False}

    # "app" in the scope: Starlette then answers a bad form with an HTTP 400, as it does in the served app.
    return Request({"type": "http", "method": "POST", "headers": [(b"content-type", content_type)], "app": None},
                   receive)


async def starlette_form(r: Request) -> FormData:
    return await r.form()


@pytest.mark.parametrize("body", BODIES)
def test_same_fields_as_starlette(body: bytes) -> None:
    ours = asyncio.run(read_form(request(body)))
    theirs = asyncio.run(starlette_form(request(body)))
    assert list(ours.multi_items()) == list(theirs.multi_items())


def test_charset_parameter_is_still_urlencoded() -> None:
    form = asyncio.run(read_form(request(b"a=%C3%A9", b"application/x-www-form-urlencoded; charset=UTF-8")))
    assert form["a"] == "é"


def test_too_many_fields_is_a_400_as_in_starlette() -> None:
    body = b"&".join(b"f%d=1" % i for i in range(MAX_FIELDS + 1))
    with pytest.raises(HTTPException) as ours:
        asyncio.run(read_form(request(body)))
    with pytest.raises(HTTPException) as theirs:
        asyncio.run(starlette_form(request(body)))
    assert ours.value.status_code == theirs.value.status_code == 400


def test_multipart_goes_to_starlette() -> None:
    body = b'--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n'
    form = asyncio.run(read_form(request(body, b"multipart/form-data; boundary=b")))
    assert form["a"] == "1"


def test_a_text_box_s_crlf_line_breaks_come_back_as_lf_in_both_encodings() -> None:
    """Browsers send a textarea's line breaks as CRLF; stored text has LF, so an untouched field must compare equal."""
    form = asyncio.run(read_form(request(b"description=One.%0D%0A%0D%0ATwo.%0DThree.&name=A")))
    assert form["description"] == "One.\n\nTwo.\nThree." and form["name"] == "A"
    body = (b'--b\r\nContent-Disposition: form-data; name="story"\r\n\r\nOne.\r\n\r\nTwo.\r\n'
            b'--b\r\nContent-Disposition: form-data; name="n"\r\n\r\nx\r\n--b--\r\n')
    form = asyncio.run(read_form(request(body, b"multipart/form-data; boundary=b")))
    assert form["story"] == "One.\n\nTwo." and form["n"] == "x"
