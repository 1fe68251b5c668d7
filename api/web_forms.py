"""Reading a page's form: urlencoded bodies parsed in one call, everything else by Starlette.

Starlette parses `application/x-www-form-urlencoded` with a streaming parser
driven by Python callbacks; for the website's small forms that was about a
tenth of the server's interpreter time under a burst of votes
(docs/performance.md, "Reads in autocommit, forms in one call, and the votes' threads").
`urllib.parse.parse_qsl` gives the same fields (names and values decoded the
same way: percent escapes as UTF-8, other bytes as Latin-1, `+` as a space,
blank values kept) in one C-assisted pass. The body is already bounded by the
body limit; the field count keeps Starlette's bound and its 400.
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
        return await request.form()  # multipart (uploads) and anything else: Starlette's parsers and bounds
    body = await request.body()
    try:
        pairs = parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="replace",
                          max_num_fields=MAX_FIELDS)
    except ValueError:
        raise HTTPException(status_code=400,
                            detail=f"Too many fields. Maximum number of fields is {MAX_FIELDS}.") from None
    fields: list[tuple[str, str | UploadFile]] = list(pairs)
    return FormData(fields)
