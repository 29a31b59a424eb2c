"""Players: an identity kept across tables (docs/server.md, "Players,
results and rating").

A player has a public id (shown at the tables they sit at, on the
leaderboard, in their profile's address), a display name (checked as seat
names are; unique within the site: a name another player holds gets a tag,
``Ann#2``, :mod:`kozyri_server.names`) and a secret, given once when the player is created (or moved)
and sent back as ``Authorization: Bearer SECRET``. The secret is
``ID.RANDOM`` (32 random bytes): the server finds the player by the id
and compares the SHA-256 of the whole secret with the stored one in
constant time, as seat tokens are (:func:`kozyri_server.room.token_hash`);
the secret itself is never stored, logged or sent again.

A player moves to another device by a **transfer code**
(:data:`CODE_CHARS` characters of :data:`CODE_ALPHABET`, no 0/O, 1/I/L),
made by the player (``POST /api/players/code``), valid for
:data:`CODE_SECONDS` and once: claiming it (``POST /api/players/claim``)
gives the new device a new secret, and the old secret stops working (the
identity moved; a lost device is cut off the same way). Codes are stored as
their SHA-256 too. Wrong codes are counted per client address: after
:attr:`Players.most_failed_claims` in :attr:`Players.claim_window` seconds
that address is refused (429) until the window passes; with 31^8 (about
8.5 x 10^11) codes and ten minutes each, guessing a live one is hopeless.
Creating players is bounded per address the same way
(:attr:`Players.most_creations`).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections import OrderedDict, deque

import kozyri.checks as checks
from kozyri.core import InvalidInput, KozyriError
from kozyri.play.settings import MOST_NAME_CHARS
from kozyri_server.logs import KNOWN_SECRETS
from kozyri_server.ratings import Ratings
from kozyri_server.room import token_hash
from kozyri_server.store import Store, StoredPlayer

#: The transfer codes' characters (no 0 O 1 I L: read aloud or typed without doubt) and length.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_CHARS = 8
#: Seconds a transfer code is valid.
CODE_SECONDS = 600
#: The longest secret or code looked at.
MOST_SECRET_CHARS = 200
#: The most client addresses whose attempts are remembered (the oldest forgotten first).
MOST_ADDRESSES = 10_000


class Unauthorized(KozyriError):
    """No player secret, or a wrong one (401)."""

    code = "unknown_secret"


class NoPlayer(KozyriError):
    """No player with this id (404)."""

    code = "player_not_found"


class TooManyAttempts(KozyriError):
    """An address over its bound of wrong codes or new players (429)."""

    code = "too_many_wrong_codes"


def new_secret(player_id: str) -> str:
    return f"{player_id}.{secrets.token_urlsafe(32)}"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_CHARS))


def normal_code(code) -> str:
    """A code as typed (any case, spaces or dashes between groups) as it was made."""
    if not isinstance(code, str) or len(code) > MOST_SECRET_CHARS:
        raise InvalidInput('a claim is {"code": "ABCD2345"}: the code the other device shows')
    return "".join(code.split()).replace("-", "").upper()


def bearer(header: str | None) -> str:
    """The secret of an ``Authorization: Bearer SECRET`` header."""
    scheme, _, secret = (header or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise Unauthorized('send the player\'s secret as the header "Authorization: Bearer SECRET"', code="no_secret")
    return secret.strip()


def find_player(store: Store, secret, what: str = "player secret") -> StoredPlayer:
    """The player whose secret this is (:class:`Unauthorized` otherwise), from the
    store (a blocking call: the server makes it on a thread)."""
    wrong = Unauthorized(f"unknown {what}: the player's secret is the one POST /api/players "
                         "or a transfer code's claim gave", code="unknown_secret")
    if not isinstance(secret, str) or not secret or len(secret) > MOST_SECRET_CHARS or "." not in secret:
        raise wrong
    player = store.load_player(secret.partition(".")[0])
    if player is None or not hmac.compare_digest(token_hash(secret), player.secret_hash):
        raise wrong
    return player


class Meter:
    """Attempts per address within a window of seconds (a sliding window, bounded in addresses)."""

    def __init__(self, most: int, window: float, clock=time.time):
        self.most, self.window, self.clock = most, window, clock
        self._times: OrderedDict[str, deque] = OrderedDict()

    def _recent(self, address: str) -> deque:
        times = self._times.setdefault(address, deque())
        self._times.move_to_end(address)
        while len(self._times) > MOST_ADDRESSES:
            self._times.popitem(last=False)
        now = self.clock()
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def full(self, address: str) -> bool:
        return len(self._recent(address)) >= self.most

    def count(self, address: str) -> None:
        self._recent(address).append(self.clock())


class Players:
    """The players' HTTP door over the store (see the module docstring); ``clock``: unix seconds."""

    def __init__(self, store: Store, ratings: Ratings, clock=time.time, most_failed_claims: int = 10,
                 claim_window: float = 600.0, most_creations: int = 30, creation_window: float = 600.0):
        self.store, self.ratings, self.clock = store, ratings, clock
        self.failed_claims = Meter(most_failed_claims, claim_window, clock)
        self.creations = Meter(most_creations, creation_window, clock)

    async def _store(self, method, *args):
        return await asyncio.to_thread(method, *args)

    @staticmethod
    def _name(body) -> str | None:
        if not isinstance(body, dict) or set(body) - {"name"}:
            raise InvalidInput('a player\'s name is sent as {"name": "Ann"}')
        if body.get("name") is None:
            return None
        return checks.name(body["name"], 'a player\'s "name"', MOST_NAME_CHARS)

    async def authenticate(self, secret) -> StoredPlayer:
        """The player whose secret this is (:class:`Unauthorized` otherwise)."""
        return await self._store(find_player, self.store, secret)

    async def create(self, body, address: str | None) -> dict:
        """A new player: ``{"player", "secret", "name"}`` (the secret shown this
        once; without a name, ``Player`` and the id's first characters)."""
        name, address = self._name(body), address or "unknown"
        if self.creations.full(address):
            raise TooManyAttempts("too many new players from your address: try again later",
                                  code="too_many_new_players")
        self.creations.count(address)
        player_id = secrets.token_urlsafe(9)
        name = name or f"Player {player_id[:4]}"
        secret = new_secret(player_id)
        name = await self._store(self.store.create_player, player_id, token_hash(secret), name)
        return {"player": player_id, "secret": secret, "name": name}

    async def me(self, secret) -> dict:
        """The player's own profile (as :meth:`profile`)."""
        player = await self.authenticate(secret)
        return await self._profile(player)

    async def rename(self, secret, body) -> dict:
        player = await self.authenticate(secret)
        name = self._name(body)
        if name is None:
            raise InvalidInput('a new name is sent as {"name": "Ann"}')
        name = await self._store(self.store.rename_player, player.id, name)
        return {"player": player.id, "name": name}

    async def code(self, secret) -> dict:
        """A transfer code of the player: ``{"code", "expires"}`` (unix seconds)."""
        player = await self.authenticate(secret)
        code, expires = new_code(), self.clock() + CODE_SECONDS
        KNOWN_SECRETS.add(code, CODE_SECONDS)  # short enough to pass for a word: scrubbed from the log by value
        await self._store(self.store.add_player_code, player.id, token_hash(code), expires)
        return {"code": code, "expires": expires, "seconds": CODE_SECONDS}

    async def claim(self, body, address: str | None) -> dict:
        """The player of a transfer code, on this device: ``{"player", "secret", "name"}``."""
        if not isinstance(body, dict) or set(body) - {"code"}:
            raise InvalidInput('a claim is {"code": "ABCD2345"}: the code the other device shows')
        code, address = normal_code(body.get("code")), address or "unknown"
        if self.failed_claims.full(address):
            raise TooManyAttempts("too many wrong codes from your address: try again in a few minutes",
                                  code="too_many_wrong_codes")
        found = None
        if len(code) == CODE_CHARS and set(code) <= set(CODE_ALPHABET):
            # the new secret's id part is the player's, known only once the code is used: made after
            secret_part = secrets.token_urlsafe(32)
            found = await self._claim(code, secret_part)
        if found is None:
            self.failed_claims.count(address)
            raise Unauthorized("unknown, used or expired code: make a new one on the other device", code="unknown_code")
        player, secret = found
        return {"player": player.id, "secret": secret, "name": player.name}

    async def _claim(self, code: str, secret_part: str):
        """Use ``code``: the player and its new secret, or None."""
        # The secret is ID.RANDOM; the id comes with the code, so the code is used in one
        # transaction that stores the hash of a secret built from its player's id.
        holder: dict = {}

        def secret_hash_for(player_id: str) -> str:
            holder["secret"] = f"{player_id}.{secret_part}"
            return token_hash(holder["secret"])

        player_id = await self._store(self.store.claim_player_code, token_hash(code), secret_hash_for, self.clock())
        if player_id is None:
            return None
        player = await self._store(self.store.load_player, player_id)
        return player, holder["secret"]

    async def profile(self, player_id) -> dict:
        """A player as anybody may see them: name, ratings by game, the last results."""
        if not isinstance(player_id, str) or not player_id or len(player_id) > MOST_SECRET_CHARS:
            raise NoPlayer("no such player")
        player = await self._store(self.store.load_player, player_id)
        if player is None:
            raise NoPlayer("no such player")
        return await self._profile(player)

    async def _profile(self, player: StoredPlayer) -> dict:
        return {"player": player.id, "name": player.name, "created": player.created,
                "ratings": await self.ratings.ratings_of(player.id),
                "results": await self.ratings.results_of(player.id)}
