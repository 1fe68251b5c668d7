"""Bounded decoding of compressed HTTP bodies.

A few kilobytes of gzip can inflate to gigabytes, so bodies are decompressed
incrementally and never beyond the caller's byte limit.
"""

from __future__ import annotations

import zlib

from .errors import SiteUnreachable

SUPPORTED_ENCODINGS = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
ACCEPT_ENCODING = "gzip, deflate"


class BoundedDecoder:
    """Decode one ``Content-Encoding`` chunk by chunk with an output limit per call."""

    def __init__(self, content_encoding: str) -> None:
        encoding = content_encoding.strip().lower()
        if encoding not in SUPPORTED_ENCODINGS:
            raise SiteUnreachable("unsupported_encoding", f"unsupported Content-Encoding {content_encoding!r}")
        self._encoding = encoding
        self._started = False
        self._zlib = self._new_zlib()

    def _new_zlib(self, raw_deflate: bool = False) -> zlib._Decompress | None:
        if self._encoding in ("gzip", "x-gzip"):
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        if self._encoding == "deflate":
            return zlib.decompressobj(-zlib.MAX_WBITS if raw_deflate else 32 + zlib.MAX_WBITS)
        return None

    def decode(self, data: bytes, limit: int) -> bytes:
        """Decode ``data``, returning at most ``limit`` bytes (the rest is dropped)."""
        if limit <= 0:
            return b""
        if self._zlib is None:
            return data[:limit]
        try:
            out = self._zlib.decompress(data, limit)
        except zlib.error:
            if self._encoding != "deflate" or self._started:
                raise SiteUnreachable("bad_encoding", "the compressed body is corrupt") from None
            # Some servers send raw deflate data without the zlib header.
            self._zlib = self._new_zlib(raw_deflate=True)
            try:
                out = self._zlib.decompress(data, limit) if self._zlib else b""
            except zlib.error:
                raise SiteUnreachable("bad_encoding", "the compressed body is corrupt") from None
        self._started = True
        return out


def gunzip_capped(data: bytes, limit: int) -> bytes:
    """Decompress a gzip file (e.g. ``sitemap.xml.gz``), keeping at most ``limit`` bytes."""
    return BoundedDecoder("gzip").decode(data, limit)
