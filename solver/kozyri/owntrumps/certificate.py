"""Certificates: a file that proves the exact value of a two-player Own
Trumps position, in plain Python (no NumPy, no Numba), written and read.

The checker (:mod:`kozyri.owntrumps.verify`) reads certificates with this
module and the rules alone; the solver writes them with
:class:`CertificateWriter`. docs/certificates.md describes the format with
an example; in short (version 1), gzip-compressed UTF-8 text (read
uncompressed as well):

* line 1, the header: one JSON object ``{"format": "kozyri-certificate",
  "version": 1, "game": "owntrumps", "position": ..., "value": "win" |
  "draw" | "loss", "lemmas": N, "root": [ids], ...}``; ``position`` is
  :meth:`Position.to_json() <kozyri.owntrumps.position.Position.to_json>`,
  ``value`` is for its player to move; other keys are allowed;
* then each lemma (ids 0..N-1, each once, in any order) as two lines: a JSON
  object ``{"lemma": id, "side": seat, "claim": "win" | "hold", "hands":
  [mask, mask], "pile": [card, ...], "to_move": seat}`` (cards numbered as
  the header position's deck numbers them), and its body: the side's
  strategy as non-negative integers separated by single spaces.

A body is a walk from the lemma's position in preorder. Each position
reached gets one integer ``h``, kind ``h & 3`` and argument ``h >> 2``:
:data:`NODE` (expanded: the argument is the side's chosen move where it has
a choice, else 0; its children follow), :data:`LABELLED` (a node that also
gets the next label of the lemma), :data:`REF` (the position of a labelled
node of the same lemma) and :data:`CITE` (the position of another lemma of
the same side). A move that ends the game has no integer.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from dataclasses import dataclass

from kozyri.core import MAX_JSON_CHARS, InvalidInput, load_json
from kozyri.owntrumps.position import Position

FORMAT = "kozyri-certificate"
VERSION = 1
GAME = "owntrumps"
#: The values a header may state, for the player to move at its position.
VALUES = ("win", "draw", "loss")
#: What a lemma claims for its side: it forces a win, or it never loses.
WIN, HOLD = "win", "hold"
CLAIMS = (WIN, HOLD)
#: The kinds of a body's integers (``h & 3``).
NODE, REF, CITE, LABELLED = 0, 1, 2, 3
KIND_NAMES = {NODE: "NODE", REF: "REF", CITE: "CITE", LABELLED: "LABELLED"}
#: The keys of a lemma's line, exactly.
LEMMA_KEYS = ("lemma", "side", "claim", "hands", "pile", "to_move")

GZIP_MAGIC = b"\x1f\x8b"
#: The longest header or lemma line (a body line has no bound: it is read in chunks).
MAX_LINE_BYTES = MAX_JSON_CHARS
#: The most digits of a body's integer (an argument is below 2**62).
MAX_DIGITS = 19
#: How many bytes the reader takes at a time.
CHUNK_BYTES = 1 << 20
_TOKENS = re.compile(rb"[0-9]{1,%d}(?: [0-9]{1,%d})*" % (MAX_DIGITS, MAX_DIGITS))


class CertificateError(InvalidInput):
    """The file was read but is not a well-formed certificate (its
    ``line`` is named when known); a file that cannot be read at all is a
    plain :class:`~kozyri.core.InvalidInput`."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.reason = message


# --- integers and bodies --------------------------------------------------------
def token(kind: int, arg: int = 0) -> int:
    """One integer of a body: ``arg << 2 | kind``."""
    return arg << 2 | kind


def body_line(ints) -> str:
    """A body's text: the integers (any iterable of ints, a NumPy array
    too) separated by single spaces."""
    return " ".join(map(str, map(int, ints)))


def position_key(position) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """``(hands, pile, to_move)`` of a :class:`Position` or of such a
    tuple: what two positions of one certificate must share to be equal."""
    if isinstance(position, Position):
        return position.key()
    hands, pile, to_move = position
    return tuple(int(h) for h in hands), tuple(int(c) for c in pile), int(to_move)


@dataclass(frozen=True)
class Lemma:
    """A lemma's line: ``side`` claims ``claim`` from the position
    ``(hands, pile, to_move)`` (see :func:`position_key`)."""

    id: int
    side: int
    claim: str
    hands: tuple[int, ...]
    pile: tuple[int, ...]
    to_move: int
    #: The line of the file it was read from (0 when made in memory).
    line: int = 0

    @property
    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        return self.hands, self.pile, self.to_move

    def to_json(self) -> dict:
        return {"lemma": self.id, "side": self.side, "claim": self.claim, "hands": list(self.hands),
                "pile": list(self.pile), "to_move": self.to_move}


# --- writing ----------------------------------------------------------------------
class CertificateWriter:
    """Writes a certificate (gzip): the header at once, then each lemma by
    :meth:`add_lemma`; :meth:`close` (or the end of a ``with`` block) checks
    that every lemma announced was written.

    >>> # with CertificateWriter("cert.gz", position, "win", lemmas=1, root=[0]) as out:
    >>> #     out.add_lemma(0, position.to_move, "win", position, [0, 5, 1])
    """

    def __init__(self, path, position: Position, value: str, lemmas: int, root, *, compresslevel: int = 6,
                 **extra):
        if value not in VALUES:
            raise InvalidInput(f"a certificate's value is one of {', '.join(VALUES)}, not {value!r}")
        if position.n_players != 2:
            raise InvalidInput("certificates are for two players")
        self.position = position
        self.lemmas = int(lemmas)
        self.root = [int(i) for i in root]
        self._written: set[int] = set()
        header = {"format": FORMAT, "version": VERSION, "game": GAME, "position": position.to_json(),
                  "value": value, "lemmas": self.lemmas, "root": self.root, **extra}
        self._file = gzip.open(path, "wt", encoding="utf-8", compresslevel=compresslevel, newline="\n")
        self._file.write(json.dumps(header, ensure_ascii=False) + "\n")

    def add_lemma(self, lemma_id: int, side: int, claim: str, position, body) -> None:
        """Write lemma ``lemma_id``: ``side`` claims ``claim`` (``"win"`` or
        ``"hold"``) from ``position`` (a Position or ``(hands, pile,
        to_move)`` with hands as card masks and the pile as card numbers);
        ``body`` is the strategy, integers (a list, a NumPy array) or the
        body's text."""
        lemma_id, side = int(lemma_id), int(side)
        if not 0 <= lemma_id < self.lemmas:
            raise InvalidInput(f"lemma {lemma_id} is not one of 0..{self.lemmas - 1}")
        if lemma_id in self._written:
            raise InvalidInput(f"lemma {lemma_id} is written twice")
        if claim not in CLAIMS:
            raise InvalidInput(f"a lemma claims 'win' or 'hold', not {claim!r}")
        hands, pile, to_move = position_key(position)
        lemma = Lemma(lemma_id, side, claim, hands, pile, to_move)
        self._file.write(json.dumps(lemma.to_json()) + "\n")
        if isinstance(body, str):
            self._file.write(body.strip() + "\n")
        else:
            body = list(body) if not hasattr(body, "__len__") else body
            step = 1 << 16
            for start in range(0, len(body), step):
                self._file.write((" " if start else "") + body_line(body[start:start + step]))
            self._file.write("\n")
        self._written.add(lemma_id)

    def close(self) -> None:
        """Finish the file; refuse one with lemmas announced but not written."""
        if self._file.closed:
            return
        self._file.close()
        missing = self.lemmas - len(self._written)
        if missing:
            raise InvalidInput(f"the certificate announces {self.lemmas} lemmas but {missing} were not written")

    def __enter__(self) -> "CertificateWriter":
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.close()
        else:
            self._file.close()


# --- reading ----------------------------------------------------------------------
def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class CertificateReader:
    """Reads a certificate: :attr:`header` (checked as a header, its
    ``position`` a :class:`Position`), then :meth:`lemmas` in file order,
    each with its body by :meth:`body` (integers, read in chunks: a body
    may be far larger than memory allows as text). Malformed content raises
    :class:`CertificateError` with its line; a file that cannot be opened
    raises :class:`~kozyri.core.InvalidInput`.

    The header's position must be a position in play of two players; a
    lemma's line is checked against its deck (every card in one hand or on
    the pile once, both hands holding cards, seats 0 or 1)."""

    def __init__(self, path, chunk_bytes: int = CHUNK_BYTES):
        self.path = str(path)
        self.chunk_bytes = chunk_bytes
        try:
            raw = open(path, "rb")
        except OSError as exc:
            raise InvalidInput(f"cannot read {self.path}: {exc.strerror or exc}") from None
        self._raw = raw
        try:
            magic = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
            self._stream = gzip.GzipFile(fileobj=raw, mode="rb") if magic == GZIP_MAGIC else raw
            self.compressed = magic == GZIP_MAGIC
            self._buffer = b""
            self._at = 0
            self._eof = False
            self.line = 0
            self._body = None  # the body line: "next" (not started), "open" (partly read) or None
            self.header = self._read_header()
        except BaseException:
            self.close()
            raise

    # --- bytes and lines ---
    def _fill(self) -> bool:
        """Read the next chunk; False at the end of the file."""
        if self._eof:
            return False
        try:
            chunk = self._stream.read(self.chunk_bytes)
        except EOFError:
            raise CertificateError("the file is cut short (the compressed stream ends early)", self.line) from None
        except (gzip.BadGzipFile, zlib.error) as exc:
            raise CertificateError(f"the compressed data is damaged ({exc})", self.line) from None
        except OSError as exc:
            raise InvalidInput(f"cannot read {self.path}: {exc.strerror or exc}") from None
        if not chunk:
            self._eof = True
            return False
        self._buffer = self._buffer[self._at:] + chunk
        self._at = 0
        return True

    def _line_chunks(self, new_line: bool = True):
        """The bytes of the next line (or, without ``new_line``, of the rest
        of the current one) in pieces, up to its newline (consumed)."""
        self.line += new_line
        while True:
            end = self._buffer.find(b"\n", self._at)
            if end >= 0:
                piece, self._at = self._buffer[self._at:end], end + 1
                yield piece
                return
            piece, self._at = self._buffer[self._at:], len(self._buffer)
            if piece:
                yield piece
            if not self._fill():
                return

    def _text_line(self, what: str) -> str | None:
        """The next line as text (None at the end of the file)."""
        if self._at >= len(self._buffer) and not self._fill():
            return None
        pieces, size = [], 0
        for piece in self._line_chunks():
            pieces.append(piece)
            size += len(piece)
            if size > MAX_LINE_BYTES:
                raise CertificateError(f"{what} is longer than {MAX_LINE_BYTES // 2**20} MiB", self.line)
        try:
            return b"".join(pieces).decode("utf-8")
        except UnicodeDecodeError:
            raise CertificateError(f"{what} is not UTF-8 text", self.line) from None

    def _json_line(self, what: str) -> dict | None:
        text = self._text_line(what)
        if text is None:
            return None
        try:
            data = load_json(text)
        except InvalidInput as exc:
            raise CertificateError(f"{what}: {exc}", self.line) from None
        if not isinstance(data, dict):
            raise CertificateError(f"{what} is not a JSON object", self.line)
        return data

    # --- the header ---
    def _read_header(self) -> dict:
        header = self._json_line("the header")
        if header is None:
            raise CertificateError("the file is empty: no header")
        if header.get("format") != FORMAT:
            raise CertificateError(f'not a certificate: the header\'s "format" is not "{FORMAT}"', 1)
        version = header.get("version")
        if version != VERSION or not _whole(version):
            raise CertificateError(f"certificate version {version!r} is not known here (this checker reads "
                                   f"version {VERSION})", 1)
        if header.get("game") != GAME:
            raise CertificateError(f'"game" {header.get("game")!r} is not known here (only "{GAME}")', 1)
        if "position" not in header:
            raise CertificateError('the header has no "position"', 1)
        try:
            position = Position.from_json(header["position"])
        except InvalidInput as exc:
            raise CertificateError(f"the header's position: {exc}", 1) from None
        if position.n_players != 2:
            raise CertificateError(f"certificates are for two players; the position has {position.n_players}", 1)
        value = header.get("value")
        if value not in VALUES:
            raise CertificateError(f'"value" must be one of {", ".join(VALUES)}, not {value!r}', 1)
        lemmas = header.get("lemmas")
        if not _whole(lemmas) or lemmas < 0:
            raise CertificateError(f'"lemmas" must be the number of lemmas, not {lemmas!r}', 1)
        root = header.get("root")
        if not isinstance(root, list) or not all(_whole(i) for i in root):
            raise CertificateError('"root" must be a list of lemma ids', 1)
        return {**header, "position": position}

    @property
    def position(self) -> Position:
        return self.header["position"]

    # --- lemmas ---
    def lemmas(self):
        """Each lemma's line in file order (its body is skipped unless read
        by :meth:`body` before the next lemma is asked for)."""
        while True:
            if self._body is not None:  # a body not read, or not to its end: skipped
                for _ in self._line_chunks(new_line=self._body == "next"):
                    pass
                self._body = None
            data = self._json_line("a lemma")
            if data is None:
                return
            lemma = self._lemma(data)
            if self._at >= len(self._buffer) and not self._fill():
                raise CertificateError(f"lemma {lemma.id} has no body line (the file ends)", self.line + 1)
            self._body = "next"
            yield lemma

    def _lemma(self, data: dict) -> Lemma:
        line = self.line
        unknown = sorted(set(data) - set(LEMMA_KEYS))
        missing = [k for k in LEMMA_KEYS if k not in data]
        if unknown or missing:
            what = f"no {missing[0]!r}" if missing else f"the unknown key {unknown[0]!r}"
            raise CertificateError(f"a lemma's line has {what} (its keys: {', '.join(LEMMA_KEYS)})", line)
        lemma_id, side, claim, to_move = data["lemma"], data["side"], data["claim"], data["to_move"]
        if not _whole(lemma_id) or lemma_id < 0:
            raise CertificateError(f'"lemma" must be a lemma id, not {lemma_id!r}', line)
        for key in ("side", "to_move"):
            if data[key] not in (0, 1) or not _whole(data[key]):
                raise CertificateError(f'lemma {lemma_id}: "{key}" must be a seat, 0 or 1', line)
        if claim not in CLAIMS:
            raise CertificateError(f'lemma {lemma_id}: "claim" must be "win" or "hold", not {claim!r}', line)
        deck = self.position.deck
        hands, pile = data["hands"], data["pile"]
        if not (isinstance(hands, list) and len(hands) == 2 and all(_whole(h) and 0 < h <= deck.all_cards
                                                                     for h in hands)):
            raise CertificateError(f'lemma {lemma_id}: "hands" must be two non-empty card masks of the deck', line)
        if not (isinstance(pile, list) and all(_whole(c) and 0 <= c < deck.size for c in pile)):
            raise CertificateError(f'lemma {lemma_id}: "pile" must be a list of card numbers 0..{deck.size - 1}',
                                   line)
        piled = deck.mask(pile)
        if (hands[0] & hands[1] or (hands[0] | hands[1]) & piled or len(set(pile)) != len(pile)
                or hands[0] | hands[1] | piled != deck.all_cards):
            raise CertificateError(f"lemma {lemma_id}: every card of the deck must be in one hand or on the pile, "
                                   "once", line)
        return Lemma(lemma_id, side, claim, tuple(hands), tuple(pile), to_move, line)

    def body(self):
        """The integers of the current lemma's body (a generator; read it
        before asking for the next lemma). Malformed text (anything but
        digits separated by single spaces) raises :class:`CertificateError`."""
        if self._body != "next":
            raise InvalidInput("no lemma's body is next: read a lemma first")
        self._body = "open"
        line = self.line + 1
        carry, seen = b"", False
        for piece in self._line_chunks():
            seen = seen or bool(piece)
            data = carry + piece
            cut = data.rfind(b" ")
            if cut < 0:
                carry = data
            else:
                complete, carry = data[:cut], data[cut + 1:]
                if not _TOKENS.fullmatch(complete):
                    raise CertificateError(_malformed(complete), line)
                yield from map(int, complete.split(b" "))
            if len(carry) > MAX_DIGITS:  # no space in sight: not a body's integer
                raise CertificateError(_malformed(carry), line)
        if carry:
            if not _TOKENS.fullmatch(carry):
                raise CertificateError(_malformed(carry), line)
            yield int(carry)
        elif seen:
            raise CertificateError("a body ends with a space (integers are separated by single spaces)", line)
        self._body = None

    def close(self) -> None:
        raw = getattr(self, "_raw", None)
        if raw is not None:
            raw.close()

    def __enter__(self) -> "CertificateReader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _malformed(data: bytes) -> str:
    """Why a piece of a body is not integers separated by single spaces."""
    if b"  " in data or data.startswith(b" ") or data.endswith(b" ") or not data:
        return "a body's integers must be separated by single spaces"
    bad = re.search(rb"[^0-9 ]", data)
    if bad:
        return f"a body holds {bytes(data[bad.start():bad.start() + 1])!r}: only digits and single spaces"
    return f"a body's integer has more than {MAX_DIGITS} digits"


def read_text(path) -> str:
    """The whole text of a certificate file, gzip or not (for small ones:
    examples, tests)."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == GZIP_MAGIC:
        data = gzip.GzipFile(fileobj=io.BytesIO(data)).read()
    return data.decode("utf-8")
