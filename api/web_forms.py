"""Reading a page's form: urlencoded bodies parsed in one call, everything else by Starlette.

Starlette parses `application/x-www-form-urlencoded` with a streaming parser
driven by Python callbacks; for the website's small forms that was about a
tenth of the server's interpreter time under a burst of votes
(docs/performance.md, "Reads in autocommit, forms in one call, and the votes' threads").
`urllib.parse.parse_qsl` gives the same fields (names and values decoded the
same way: percent escapes as UTF-8, other bytes as Latin-1, `+` as a space,
blank values kept) in one C-assisted pass. The body is already bounded by the
body limit; the field count keeps Starlette's bound and its 400.

Line breaks come back as `\n`: browsers submit a text box's line breaks as
CRLF whatever the page sent, so without this an untouched multi-paragraph
field would differ from its stored text and every save would record it as
edited (dropping its evidence and queueing a review).
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request

MAX_FIELDS = 1000  # Starlette's default bound on a form's fields
URLENCODED = "application/x-www-form-urlencoded"


async def read_form(request: Request) -> FormData:
    """The request's form fields, in order, repeated names kept."""
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != URLENCODED:
        form = await request.form()  # multipart (uploads) and anything else: Starlette's parsers and bounds
        if not any(isinstance(v, str) and "\r" in v for v in form.values()):
            return form
        return FormData([(k, unix_lines(v) if isinstance(v, str) else v) for k, v in form.multi_items()])
    body = await request.body()
    try:
        pairs = parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="replace",
                          max_num_fields=MAX_FIELDS)
    except ValueError:
        raise HTTPException(status_code=400,
                            detail=f"Too many fields. Maximum number of fields is {MAX_FIELDS}.") from None
    fields: list[tuple[str, str | UploadFile]] = [(k, unix_lines(v)) for k, v in pairs]
    return FormData(fields)


def unix_lines(text: str) -> str:
    """`text` with CRLF and lone CR line breaks as LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
