"""The OpenAPI 3.1 description of the server's HTTP API, served as JSON at
``/api/openapi.json`` (no page, nothing loaded from the internet). The
bodies are the JSON forms of the engine protocol (docs/engine-protocol.md)
and of the command line's ``--json`` output; docs/server.md has real
requests and replies. Every error reply is :data:`ERROR_SCHEMA`: its
``code`` one of :data:`kozyri_server.errors.ERRORS`."""

from __future__ import annotations

from kozyri.owntrumps.rules import Rules
from kozyri.play.games import GAMES
from kozyri_server.errors import ERRORS

_OBJECT = {"type": "object", "additionalProperties": True}
_REPLY = {"description": "the reply (`ok`: true), or an error (`ok`: false, `error`: one line, `code`)",
          "content": {"application/json": {"schema": _OBJECT}}}
#: An error reply (every status but 200): the English for people, the code and its values for programs,
#: the same in every language (kozyri_server.errors; docs/server.md, "Error codes").
ERROR_SCHEMA = {
    "type": "object", "required": ["ok", "error", "code"],
    "properties": {
        "ok": {"const": False},
        "error": {"type": "string", "description": "one line of English, for people (its words may change)"},
        "code": {"type": "string", "enum": list(ERRORS),
                 "description": "the kind of error, stable: what a program reads (docs/server.md, \"Error codes\")"},
        "params": {"type": "object", "additionalProperties": True,
                   "description": "the values the error's sentence holds, by name (only when it holds some)"},
    },
    "example": {"ok": False, "error": "seat 2 is not free", "code": "seat_taken", "params": {"seat": 2}},
}
_ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_ERRORS = {
    "400": {"description": "bad input: `{\"ok\": false, \"error\": \"...\", \"code\": \"invalid_input\"}`"},
    "413": {"description": "the body is too large"},
    "503": {"description": "the engine pool is full: try again after `Retry-After` seconds"},
    "504": {"description": "no answer within the request's budget and the margin"},
}
#: The rule options (a request's flat keys, or a new table's "rules"), from their declaration.
_RULE_OPTIONS = {option.name: {"type": "boolean", "default": option.default, "description": option.help}
                 for option in Rules.OPTIONS}
_GAME = {"description": "a game record, a seat's observation or a position (a JSON object or the text form)"}
_STRENGTH = {
    "level": {"description": "1-8 or a level's name (default 7)"},
    "agent": {"type": "string", "description": "auto, random, greedy, mcts, pimc, ismcts"},
    "time": {"type": "number", "description": "seconds"},
    "nodes": {"type": "integer"},
    "memory": {"type": "integer", "description": "MB"},
    "seed": {"type": "integer"},
}


def _engine_route(summary: str, properties: dict, example: dict, tag: str) -> dict:
    return {"post": {
        "summary": summary, "tags": [tag],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"type": "object", "properties": properties}, "example": example}}},
        "responses": {"200": _REPLY, **_ERRORS}}}


_RECORD_EXAMPLE = {"start": {"deck": "4x3", "hands": [["QS", "KH", "AS", "QD", "AD", "KC"],
                                                      ["KS", "QH", "AH", "KD", "QC", "AC"]],
                             "trumps": ["S", "H"], "to_move": 0}, "moves": ["QS"]}

_TABLE_ID = [{"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}]

_BEARER = [{"name": "Authorization", "in": "header", "required": True, "schema": {"type": "string"},
            "description": "`Bearer SECRET`: the player's secret"}]
_401 = {"description": "no player secret, or a wrong one"}
#: Players, results and rating (kozyri_server.players, kozyri_server.ratings; docs/server.md).
PLAYER_PATHS = {
    "/api/players": {"post": {
        "summary": "a new player: its public id, its secret (shown once) and its name", "tags": ["players"],
        "requestBody": {"content": {"application/json": {"example": {"name": "Ann"}}}},
        "responses": {"200": _REPLY, "400": _ERRORS["400"], "429": {"description": "too many new players"}}}},
    "/api/players/me": {"get": {
        "summary": "the player's own profile (as /api/players/{player_id})", "tags": ["players"],
        "parameters": _BEARER, "responses": {"200": _REPLY, "401": _401}}},
    "/api/players/me/tables": {"get": {
        "summary": "the player's unfinished tables (\"my games\"), the latest active first: each table's summary, "
                   "the player's seat and whether it is their turn", "tags": ["players"],
        "parameters": _BEARER, "responses": {"200": _REPLY, "401": _401}}},
    "/api/players/name": {"post": {
        "summary": "rename the player", "tags": ["players"], "parameters": _BEARER,
        "requestBody": {"required": True, "content": {"application/json": {"example": {"name": "Annie"}}}},
        "responses": {"200": _REPLY, "400": _ERRORS["400"], "401": _401}}},
    "/api/players/code": {"post": {
        "summary": "a transfer code (8 characters, once, 10 minutes) that moves the player to another device",
        "tags": ["players"], "parameters": _BEARER, "responses": {"200": _REPLY, "401": _401}}},
    "/api/players/claim": {"post": {
        "summary": "the player of a transfer code, on this device: a new secret (the old one stops working)",
        "tags": ["players"],
        "requestBody": {"required": True, "content": {"application/json": {"example": {"code": "K7QM2XPA"}}}},
        "responses": {"200": _REPLY, "401": {"description": "unknown, used or expired code"},
                      "429": {"description": "too many wrong codes from this address"}}}},
    "/api/players/{player_id}": {"get": {
        "summary": "a player's profile: name, ratings by game, the results of their last tables",
        "tags": ["players"],
        "parameters": [{"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": _REPLY, "404": {"description": "no such player"}}}},
    "/api/leaderboard": {"get": {
        "summary": "a game's rated players and computer levels: the settled ratings first, the highest first, then "
                   "the provisional ones",
        "tags": ["players"],
        "parameters": [{"name": "game", "in": "query", "schema": {"type": "string", "enum": list(GAMES)}}],
        "responses": {"200": _REPLY, "400": _ERRORS["400"]}}},
}

PATHS = {
    "/api/engine": {"get": {"summary": "the engine's name, version, agents and levels", "tags": ["engine"],
                            "responses": {"200": _REPLY}}},
    "/api/games": {"get": {"summary": "each game's descriptor: its name, players, opening phase, rule options "
                                      "(name, default), levels with their measured Elo, whether it is reviewed; "
                                      "and the default game", "tags": ["engine"], "responses": {"200": _REPLY}}},
    "/api/health": {"get": {
        "summary": "whether the server can work: the store read, engine workers alive, tables held (no engine job)",
        "tags": ["operations"],
        "responses": {"200": {"description": '`{"ok": true, "status": "ok", "store": "ok", "workers": {"alive": N, '
                                             '"configured": M, "kind": K}, "tables": {"live": N, ...}, '
                                             '"engine_pending": N, "version": V}`',
                              "content": {"application/json": {"schema": _OBJECT}}},
                      "503": {"description": '`"status": "degraded"`: the store cannot be read (`store` says why) '
                                             "or no engine worker is alive",
                              "content": {"application/json": {"schema": _OBJECT}}}}}},
    "/api/owntrumps/bestmove": _engine_route(
        "the best move for the seat to move (from its view only); before the deal, given a seat's view of the "
        "trump choice, the suit that seat takes",
        {"game": _GAME, "seat": {"type": "integer"}, "open": {"type": "boolean"}, **_STRENGTH},
        {"game": _RECORD_EXAMPLE, "level": 4}, "owntrumps"),
    "/api/owntrumps/legal_moves": _engine_route(
        "the legal moves of the seat to move (the free suits in the trump choice)", {"game": _GAME}, {"game": _RECORD_EXAMPLE}, "owntrumps"),
    "/api/owntrumps/solve": _engine_route(
        "exact solve (every hand known) within a time limit",
        {"game": _GAME, "time": {"type": "number"}, "nodes": {"type": "integer"}, "value_only": {"type": "boolean"}},
        {"game": _RECORD_EXAMPLE, "time": 5}, "owntrumps"),
    "/api/owntrumps/analyze": _engine_route(
        "a game record reviewed move by move (kozyri analyze --json)",
        {"game": {"description": "a game record"}, "seat": {"type": "integer"},
         "time": {"type": "number", "description": "seconds a move"}, "nodes": {"type": "integer"},
         "agent": {"type": "string", "enum": ["pimc", "mcts"]}},
        {"game": _RECORD_EXAMPLE, "nodes": 200}, "owntrumps"),
    "/api/owntrumps/trumps": _engine_route(
        "a two-player deal under all 12 trump assignments (kozyri trumps --json)",
        {"game": {"description": "a deal: hands, no pile"}, "deck": {"type": "string"},
         "leader": {"type": "integer"}, **_RULE_OPTIONS,
         "time": {"type": "number", "description": "seconds a cell"}},
        {"game": "QS KH AS | KS QH AH", "time": 1}, "owntrumps"),
    "/api/reversi/bestmove": _engine_route(
        "the Reversi engine's move (kozyri reversi bestmove --json)",
        {"position": {"type": "string"}, "moves": {"type": "string"}, "time": {"type": "number"},
         "level": {"description": "1-8"}},
        {"moves": "f5d6c3", "time": 0.5}, "reversi"),
    "/api/reversi/solve": _engine_route(
        "exact Reversi endgame solve (kozyri reversi solve --json)",
        {"position": {"type": "string"}, "moves": {"type": "string"}, "time": {"type": "number"},
         "mode": {"type": "string", "enum": ["exact", "wld"]}},
        {"position": "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX--OOO X"}, "reversi"),
    "/api/tables": {
        "get": {"summary": "the open tables (a free seat); ?all=1: every table not finished; ?live=1: the games "
                           "in progress to watch while a person is connected to them, each with its spectators; never an "
                           "unlisted table",
                "tags": ["tables"], "responses": {"200": _REPLY}},
        "post": {"summary": "create a table", "tags": ["tables"],
                 "requestBody": {"required": True, "content": {"application/json": {
                     "schema": {"type": "object", "properties": {
                         "game": {"type": "string", "enum": list(GAMES)},
                         "deck": {"type": "string"}, "players": {"type": "integer"},
                         "rules": {"type": "object", "properties": _RULE_OPTIONS}, "leader": {"type": "integer"},
                         "trumps": {"type": "string", "description": '"choose" or one suit per seat ("SHD")'},
                         "seed": {"type": "integer"}, "turn_cap": {"type": "integer"},
                         "seats": {"type": "array", "description": 'null: a person; {"level": 1-8}: the computer'},
                         "time_control": {"type": "object", "description":
                                          '{"kind": "none"} (default), {"kind": "move", "seconds": S}, {"kind": '
                                          '"game", "seconds": S, "increment": I} or {"kind": "days", "days": D}'},
                         "takeover": {"type": ["object", "null"], "description":
                                      '{"level": N, "grace": SECONDS}: a computer plays an absent person\'s seat'},
                         "unlisted": {"type": "boolean", "description": "not in the lobby's lists (link only)"},
                         "rated": {"type": "boolean", "description": "the results change ratings (default true)"},
                         "chat": {"type": "string", "enum": ["on", "phrases", "off"], "description":
                                  'the chat of the seated people: "on" (default: quick phrases and text), '
                                  '"phrases" (quick phrases only) or "off"'}}},
                     "example": {"deck": "4x3", "players": 3, "seats": [None, None, {"level": 3}]}}}},
                 "parameters": [{**_BEARER[0], "required": False, "description":
                                 "`Bearer SECRET` (optional): the player's secret; the table then counts against "
                                 "the player's bounds, not the address's"}],
                 "responses": {"200": _REPLY, "400": _ERRORS["400"], "401": _401,
                               "429": {"description": "the server holds as many tables as it may, or the "
                                                      "player (without one, the client's address) has "
                                                      "created as many as it may"}}}},
    "/api/tables/{table_id}": {"get": {"summary": "one table (public facts only)", "tags": ["tables"],
                                       "parameters": _TABLE_ID, "responses": {"200": _REPLY, "404": {
                                           "description": "no such table"}}}},
    "/api/tables/{table_id}/join": {"post": {
        "summary": "take a free seat: its secret token (shown once); `player`: the player's secret, to link the seat",
        "tags": ["tables"], "parameters": _TABLE_ID,
        "requestBody": {"content": {"application/json": {"example": {"seat": 0, "name": "Ann"}}}},
        "responses": {"200": _REPLY, "401": {"description": "a wrong player secret"},
                      "409": {"description": "the seat is not free"}}}},
    "/api/tables/{table_id}/leave": {"post": {
        "summary": "give a seat up", "tags": ["tables"], "parameters": _TABLE_ID,
        "requestBody": {"content": {"application/json": {"example": {"token": "..."}}}},
        "responses": {"200": _REPLY, "409": {"description": "wrong token"}}}},
    "/api/tables/{table_id}/rematch": {"post": {
        "summary": "ask for a finished table's rematch: made once every person seat still taken has asked "
                   "(until then {table: null, votes, waiting}); the same settings, the leader rotated, a new deal",
        "tags": ["tables"], "parameters": _TABLE_ID,
        "requestBody": {"content": {"application/json": {"example": {"token": "..."}}}},
        "responses": {"200": _REPLY, "409": {"description": "wrong token, or the game is not over"}}}},
    "/api/tables/{table_id}/record": {"get": {
        "summary": "a finished game's record (what kozyri replay and kozyri analyze read)", "tags": ["tables"],
        "parameters": _TABLE_ID, "responses": {"200": _REPLY, "409": {"description": "the game is not over"}}}},
    "/api/tables/{table_id}/review": {"get": {
        "summary": "a finished game reviewed move by move (?time=S or ?nodes=N a move)", "tags": ["tables"],
        "parameters": _TABLE_ID, "responses": {"200": _REPLY, "409": {"description": "the game is not over"}}}},
    **PLAYER_PATHS,
}


def _with_error_schema(paths: dict) -> dict:
    """``paths`` with :data:`ERROR_SCHEMA` as the body of every error response that names no other."""
    def replies(responses: dict) -> dict:
        return {status: reply if status == "200" or "content" in reply else {**reply, "content": _ERROR_CONTENT}
                for status, reply in responses.items()}
    return {path: {method: {**operation, "responses": replies(operation["responses"])}
                   for method, operation in methods.items()} for path, methods in paths.items()}


def openapi_document(version: str) -> dict:
    """The OpenAPI document of this server."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "kozyri serve", "version": version,
                 "description": "The Own Trumps and Reversi engines over HTTP, and online tables. Tables are "
                                "played over the WebSocket /api/ws: authenticate with "
                                '{"type": "auth", "table": ID, "token": TOKEN}, then send '
                                '{"type": "move", "ply": N, "move": "KH+9S"}, {"type": "resign"}, '
                                '{"type": "offer_draw"}, {"type": "accept_draw"}, {"type": "decline_draw"} or '
                                '{"type": "chat", "text": "..."} ({"type": "chat", "phrase": "gg"}); '
                                'the auth may carry "since": SEQ (the last event seen) to be sent the events '
                                'missed; {"type": "watch", "table": ID} instead watches the public view '
                                '(docs/server.md).'},
        "components": {"schemas": {"Error": ERROR_SCHEMA}},
        "paths": _with_error_schema(PATHS),
    }
