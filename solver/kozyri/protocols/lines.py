"""Lines from a byte stream, for protocols that must survive anything on
their input: every line is bounded (:data:`MAX_LINE_BYTES`; the rest of an
over-long line is skipped, not kept), read as raw bytes and decoded one by
one, so that invalid UTF-8 or binary noise spoils its own line only.

>>> import io
>>> list(read_lines(chunk_reader(io.BytesIO(b"name\\r\\n" + b"x" * 9 + b"\\nquit")), most=8))
[b'name\\r', TooLong(head=b'xxxxxxxx'), b'quit']
>>> decode_line(b"name\\r")
'name'
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from kozyri.core import ProtocolError

#: The longest line a protocol reads (64 KiB: a whole game record fits).
MAX_LINE_BYTES = 65536
#: Bytes read at once.
CHUNK_BYTES = 65536
_ID = re.compile(rb"\s*(\d{1,18})(?:\s|$)")


class TooLong(NamedTuple):
    """A line longer than the bound: its first bytes (for the command id), the rest skipped."""

    head: bytes


def chunk_reader(stream) -> Callable[[int], bytes]:
    """``read(n)`` for a binary stream: ``os.read`` on its file descriptor
    when it has one (it returns what is there, never waits for a whole
    buffer, and holds no lock a thread could be left holding at exit), else
    the stream's ``read1`` or ``read``."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return getattr(stream, "read1", None) or stream.read

    def read(n: int) -> bytes:
        assert stream is not None  # the stream lives as long as its reader (closing it would close the fd)
        return os.read(fd, n)

    return read


def read_lines(read: Callable[[int], bytes], most: int = MAX_LINE_BYTES) -> Iterator[bytes | TooLong]:
    """The lines of a stream (without their ``\\n``; a last line without one
    too), each at most ``most`` bytes; a longer one comes as :class:`TooLong`."""
    line = bytearray()
    skipped: bytes | None = None  # the head of an over-long line being skipped
    while True:
        chunk = read(CHUNK_BYTES)
        if not chunk:
            if skipped is not None:
                yield TooLong(skipped)
            elif line:
                yield bytes(line)
            return
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if skipped is None:
                if len(line) + len(piece) > most:
                    skipped = bytes((line + piece)[:most])
                    line.clear()
                else:
                    line += piece
            if end < 0:
                break
            if skipped is not None:
                yield TooLong(skipped)
                skipped = None
            else:
                yield bytes(line)
                line.clear()
            start = end + 1


def decode_line(raw: bytes | str) -> str:
    """A line as text, without a trailing ``\\r``; :class:`ProtocolError`
    for invalid UTF-8 and for control characters other than tabs (binary noise)."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"invalid UTF-8 (byte {exc.start})") from None
    else:
        text = raw
    text = text.removesuffix("\r")
    if any(ord(ch) < 32 and ch != "\t" or ord(ch) == 127 for ch in text):
        raise ProtocolError("not text: the line holds control characters")
    return text


def leading_id(raw: bytes | str | TooLong) -> str:
    """The command id a line starts with (digits), or ``""``; read from the raw
    bytes, so that even a line that cannot be decoded gets its id back."""
    if isinstance(raw, TooLong):
        raw = raw.head
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "replace")
    match = _ID.match(raw)
    return match.group(1).decode() if match else ""


def one_line(message) -> str:
    """``message`` on one line (every run of whitespace, line breaks of any kind included, one space)."""
    return " ".join(str(message).split())
