"""The server's error codes: :data:`ERRORS`, every kind of error the HTTP
API and the WebSocket answer, each with its HTTP status and what it means,
and the one function that writes an error's JSON (:func:`error_json`).

Why: the machine doors stay language-neutral. An error says what went
wrong in one line of English (``"error"``, for a person reading a log or a
reply by hand; its words may change) and names its kind by a stable
snake_case ``"code"``, with ``"params"``, the values its sentence holds
(only when it holds some)::

    {"ok": false, "error": "seat 2 is not free", "code": "seat_taken", "params": {"seat": 2}}

A program branches on the code, never on the English; the web page shows
each code as a sentence in its reader's language (js/api.js).

Where a code comes from: the exception raised names it.
:class:`~kozyri.core.KozyriError` and its subclasses carry ``code`` and
``params`` (``Refused("seat 2 is not free", code="seat_taken", seat=2)``; a
class without one given at its raise has its class's code), and so do the
engine pool's :class:`~kozyri_server.pool.PoolFull` and
:class:`~kozyri_server.pool.JobTimeout`. An engine reply (the engine
protocol's, which carries English alone) gets its code from
:func:`engine_code`. docs/server.md ("Error codes") and the OpenAPI document
list :data:`ERRORS`; the tests check that every code the server raises is
listed here and that the page has a sentence for each.
"""

from __future__ import annotations

from typing import NamedTuple


class ErrorKind(NamedTuple):
    """A code's HTTP status (None: only the WebSocket sends it) and what it means (for docs and OpenAPI)."""

    status: int | None
    meaning: str


#: Every error code, with its status and meaning: the one list (docs/server.md and OpenAPI read it).
ERRORS: dict[str, ErrorKind] = {
    # --- any request ---
    "invalid_input": ErrorKind(400, "the request is malformed or asks what its game does not allow; the English "
                                    "says what (every error of the engine and the rules without a code of its own)"),
    "malformed_json": ErrorKind(400, "the body (or message) is not JSON the server reads: malformed, too long, "
                                     "nested too deep, a number too large"),
    "body_too_large": ErrorKind(413, "the body is larger than the server reads (`params.bytes`)"),
    "client_left": ErrorKind(400, "the client closed the connection before its whole body came"),
    "not_found": ErrorKind(404, "no such route under /api"),
    "method_not_allowed": ErrorKind(405, "the route does not take this method"),
    "internal_error": ErrorKind(500, "a bug in the server (logged there); never the request's fault"),
    # --- the engine ---
    "engine_busy": ErrorKind(503, "the engine pool is full: try again after `Retry-After` seconds"),
    "engine_restarting": ErrorKind(503, "an engine worker stopped on this request; new ones are starting: "
                                        "try again after `Retry-After` seconds"),
    "engine_timeout": ErrorKind(504, "no answer within the request's budget and the margin (`params.seconds`)"),
    "engine_error": ErrorKind(400, "the engine failed on this request (a bug, logged in its reply)"),
    "out_of_memory": ErrorKind(400, "the engine ran out of memory on this request: ask for less"),
    "too_many_moves": ErrorKind(413, "a review of more moves (`params.moves`) than the server reviews "
                                     "(`params.most`)"),
    "review_unavailable": ErrorKind(400, "this game is not reviewed"),
    # --- the rules of a game ---
    "illegal_move": ErrorKind(400, "a move the rules do not allow in the position"),
    "game_over": ErrorKind(409, "the game is over"),
    "not_your_turn": ErrorKind(409, "another seat (`params.seat`) is to move or to choose"),
    "not_dealt_yet": ErrorKind(409, "no card is dealt yet: the request comes with the play, after the trump choice"),
    "out_of_the_game": ErrorKind(409, "the seat (`params.seat`) holds no cards: it is out of the game"),
    "draw_on_offer": ErrorKind(409, "a seat (`params.seat`) has offered a draw already: accept or decline it"),
    "no_draw_offer": ErrorKind(409, "no draw is on offer"),
    "draw_agreed_already": ErrorKind(409, "the seat (`params.seat`) has agreed to the draw already"),
    # --- tables ---
    "table_not_found": ErrorKind(404, "no such table"),
    "table_abandoned": ErrorKind(409, "the table was abandoned (idle too long): nothing more is played"),
    "too_many_tables": ErrorKind(429, "the server holds as many tables as it may (`params.most`)"),
    "address_tables_open": ErrorKind(429, "the client's address has as many tables open as it may "
                                          "(`params.count`)"),
    "network_tables_open": ErrorKind(429, "the players of the client's address have as many tables open as "
                                          "they may (`params.count`)"),
    "player_tables_open": ErrorKind(429, "the player has as many tables open as they may (`params.count`)"),
    "creating_too_fast": ErrorKind(429, "more tables created a minute than allowed (`params.per_minute`)"),
    "joining_too_fast": ErrorKind(429, "more tables joined a minute than allowed (`params.per_minute`)"),
    "refused": ErrorKind(409, "the table's state does not allow this now (no code more precise)"),
    "no_free_seat": ErrorKind(409, "every person seat of the table is taken"),
    "seat_taken": ErrorKind(409, "the seat asked for (`params.seat`) is taken"),
    "seat_is_computer": ErrorKind(409, "the seat asked for (`params.seat`) is played by the computer"),
    "already_seated": ErrorKind(409, "the player sits at this table already, at `params.seat`"),
    "seat_changed": ErrorKind(409, "the seat (`params.seat`) changed meanwhile: try again"),
    "wrong_token": ErrorKind(409, "the token is not a seat's of this table"),
    "rematch_not_seated": ErrorKind(409, "a rematch is asked for by a seat of the table, with its token"),
    "rematch_before_end": ErrorKind(409, "the game is not over: a rematch comes after its end"),
    "record_before_end": ErrorKind(409, "the game is not over: its record would show hidden hands"),
    "no_record": ErrorKind(409, "the table was abandoned before the deal: there is no game to record"),
    "waiting_for_players": ErrorKind(409, "play has not started: seats (`params.seats`) are free"),
    "stale_move": ErrorKind(409, "a move for another ply (`params.ply`) than the table's (`params.current`)"),
    "stale_request": ErrorKind(409, "a resignation or draw request for another ply (`params.ply`) than the "
                                    "table's (`params.current`)"),
    "table_moved_on": ErrorKind(409, "the table moved on before the request was stored"),
    "out_of_time": ErrorKind(409, "the seat to move (`params.seat`) is out of time"),
    "seat_taken_back": ErrorKind(409, "a computer's move for a seat (`params.seat`) its person plays again"),
    # --- the chat ---
    "chat_off": ErrorKind(409, "the chat is off at this table"),
    "chat_phrases_only": ErrorKind(409, "the table's chat takes quick phrases only"),
    "chat_empty": ErrorKind(400, "a chat line with nothing to read"),
    "chat_too_long": ErrorKind(400, "a chat line longer (`params.length`) than allowed (`params.most`)"),
    # --- players ---
    "no_secret": ErrorKind(401, "no `Authorization: Bearer SECRET` header"),
    "unknown_secret": ErrorKind(401, "not a player's secret (the player may have moved to another device)"),
    "unknown_code": ErrorKind(401, "an unknown, used or expired transfer code"),
    "player_not_found": ErrorKind(404, "no such player"),
    "too_many_new_players": ErrorKind(429, "too many new players from the client's address: try again later"),
    "too_many_wrong_codes": ErrorKind(429, "too many wrong transfer codes from the client's address: try again "
                                           "in a few minutes"),
    "invalid_name": ErrorKind(400, "a name too long (over `params.most` characters), empty, or with characters "
                                   "a name may not hold"),
    "name_taken": ErrorKind(400, "the name is taken by too many players: choose another"),
    # --- the WebSocket only ---
    "too_many_connections": ErrorKind(None, "too many connections from the client's address (closed: 4429)"),
    "auth_failed": ErrorKind(None, "a wrong first message, table or token (closed: 4401)"),
    "message_too_long": ErrorKind(None, "a message longer than allowed (`params.bytes`)"),
    "too_many_messages": ErrorKind(None, "messages sent too fast: the message is dropped"),
    "chat_too_fast": ErrorKind(None, "chat lines sent too fast: the line is dropped"),
    "spectator_cannot_act": ErrorKind(None, "a spectator may send sync and ping only"),
    "spectator_cannot_chat": ErrorKind(None, "spectators read the chat but do not write in it"),
    "no_takeover": ErrorKind(None, "take_back, but no computer is playing the seat"),
    "nothing_to_claim": ErrorKind(None, "a claim, but no other person still in the game is away, or the "
                                        "claimer is out of it while a person still in it is here (a turn-based "
                                        "table takes no claim)"),
    "claim_too_early": ErrorKind(None, "a claim before the absent seat (`params.seat`) has been away its claim "
                                       "timeout: `params.seconds` s to go"),
    "left_table": ErrorKind(None, "the seat was given up (closed: 4000)"),
    "seat_moved": ErrorKind(None, "the seat's player sat down on another device (closed: 4000)"),
}

#: The most characters of an error's English on HTTP (the WebSocket sends 300).
MOST_ERROR_CHARS = 500


def one_line(text, most: int = MOST_ERROR_CHARS) -> str:
    """``text`` on one line (runs of white space as one space), at most ``most`` characters."""
    return " ".join(str(text).split())[:most]


def error_json(code: str, text, params: dict | None = None, most: int = MOST_ERROR_CHARS) -> dict:
    """An error's JSON keys: ``{"error": one line of English, "code": code}``, and
    ``"params"`` when the sentence holds values."""
    out = {"error": one_line(text, most), "code": code}
    if params:
        out["params"] = dict(params)
    return out


def code_of(exc: BaseException) -> tuple[str, dict]:
    """The code and params an exception carries (its class's code, or the one
    given where it was raised); ``invalid_input`` for one that names none."""
    code = getattr(exc, "code", None)
    params = getattr(exc, "params", None)
    return (code if isinstance(code, str) else "invalid_input"), (params if isinstance(params, dict) else {})


def exception_json(exc: BaseException, text=None, most: int = MOST_ERROR_CHARS) -> dict:
    """:func:`error_json` of an exception (its message, or ``text``)."""
    code, params = code_of(exc)
    return error_json(code, exc if text is None else text, params, most)


def status_of(code: str) -> int:
    """The HTTP status of ``code`` (400 for a code only the WebSocket sends, or not listed)."""
    kind = ERRORS.get(code)
    return kind.status if kind is not None and kind.status is not None else 400


def engine_code(error: str, timeout: bool = False) -> str:
    """The code of an engine reply's error (the engine protocol's reply holds
    English alone: docs/engine-protocol.md): ``engine_timeout`` for a request
    whose time ran out in the queue, ``engine_error`` and ``out_of_memory``
    for the two failures the protocol words itself, else ``invalid_input``."""
    if timeout:
        return "engine_timeout"
    if error.startswith("internal error"):
        return "engine_error"
    if error.startswith("out of memory"):
        return "out_of_memory"
    return "invalid_input"


def with_code(reply: dict, code: str | None = None, params: dict | None = None) -> dict:
    """An engine reply (``{"id", "ok", ...}``) with its error's ``"code"`` (and
    ``"params"``): ``code``, or :func:`engine_code`'s; a reply that is not an
    error, or has its code already, as it is."""
    if reply.get("ok") is not False or "code" in reply:
        return reply
    out = {**reply, "code": code or engine_code(str(reply.get("error", "")), bool(reply.get("timeout")))}
    if params:
        out["params"] = dict(params)
    return out
