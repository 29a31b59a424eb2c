"""The server's ASGI application (Starlette): the HTTP JSON API, the online
tables and their WebSocket, over one store and one engine pool
(docs/server.md). :func:`create_app` builds it; ``kozyri serve`` runs it
under uvicorn.

Every reply is JSON. An error is ``{"ok": false, "error": "one line",
"code": "seat_taken", "params": {"seat": 2}}``: the English for people,
the code (and the values of its sentence) for programs, the same in every
language (:mod:`kozyri_server.errors`, whose list of codes gives each its
status): 400 bad input, 401 a wrong player secret or code, 404 no such
table or player, 409 not now (a taken seat, a game not over), 413 a body
too large or a request over a bound of its work (a review of too many
moves), 429 too many tables, 503 the engine pool is full (with
``Retry-After``), 504 no answer within the request's budget and the
margin; never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import mimetypes
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.routing import Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

import kozyri.checks as checks
from kozyri import __version__
from kozyri.agents import DEFAULT_GAME
from kozyri.agents.levels import LEVELS
from kozyri.core import InvalidInput, KozyriError, load_json
from kozyri.owntrumps.record_text import move_count
from kozyri.play.games import GAMES, game_kind
from kozyri.protocols.messages import JsonRequests
from kozyri_server.errors import code_of, error_json, status_of, with_code
from kozyri_server.health import health_report
from kozyri_server.jobs import budget_seconds
from kozyri_server.limits import Limits
from kozyri_server.logs import log_table_events
from kozyri_server.openapi import openapi_document
from kozyri_server.pool import EnginePool, JobTimeout, PoolFull
from kozyri_server.players import Players, bearer
from kozyri_server.postgres_store import PostgresStore
from kozyri_server.ratings import Ratings
from kozyri_server.store import SqliteStore, Store
from kozyri_server.tables import Tables
from kozyri_server.words import page_response
from kozyri_server.ws import TableSockets

log = logging.getLogger("kozyri.server")

#: The database file ``kozyri serve`` uses unless told otherwise (in the current directory).
DEFAULT_DB = "kozyri.db"
#: The web page's files (index.html, rules.html, css, js, sounds), served at ``/``.
STATIC_DIR = Path(__file__).resolve().parent / "static"
mimetypes.add_type("audio/wav", ".wav")  # the page's sounds: the registered type, not Python's default audio/x-wav
mimetypes.add_type("font/woff2", ".woff2")  # the page's fonts (not every Python knows the type)


class BodyTooLarge(KozyriError):
    """A request body over the limit (413)."""

    code = "body_too_large"


class ClientLeft(KozyriError):
    """The client closed the connection before its whole body came."""

    code = "client_left"


class TooMuchWork(KozyriError):
    """A request whose work is over a bound of :class:`~kozyri_server.limits.Limits` (413)."""

    code = "too_many_moves"


def record_moves(game) -> int:
    """How many moves a request's ``game`` holds (a record as a JSON object,
    its JSON text or its text form), counted without replaying them; 0 for
    anything else (the engine then says what is wrong with it)."""
    if isinstance(game, dict):
        moves = game.get("moves")
        return len(moves) if isinstance(moves, list) else 0
    if not isinstance(game, str):
        return 0
    if game.lstrip().startswith("{"):
        try:
            return record_moves(load_json(game, constants=False))
        except KozyriError:
            return 0
    return move_count(game)


def check_review_moves(moves: int, limits: Limits) -> None:
    """Refuse a review of more moves than :attr:`Limits.max_review_moves` (before any work)."""
    if moves > limits.max_review_moves:
        raise TooMuchWork(f"the game has {moves:,} moves: a review looks at {limits.max_review_moves:,} at most "
                          "(the server's max_review_moves)", moves=moves, most=limits.max_review_moves)


class PageFiles:
    """The web page's files (:data:`STATIC_DIR`), mounted at ``/`` after
    the API: a path under ``/api`` that no route took still gets the API's
    JSON error (405 when a route has that path, else 404), never a file; an
    HTML page comes with its reader's words (:mod:`kozyri_server.words`)."""

    def __init__(self, api_routes: list):
        self.api_routes = api_routes
        self.files = StaticFiles(directory=STATIC_DIR, html=True)

    async def __call__(self, scope, receive, send) -> None:
        path, root = scope.get("path", ""), scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root):]
        if scope["type"] == "http" and (path == "/api" or path.startswith("/api/")):
            known = any(route.matches(scope)[0] == Match.PARTIAL for route in self.api_routes)
            reply = _error("method_not_allowed", "Method Not Allowed") if known else _error("not_found", "Not Found")
            await reply(scope, receive, send)
            return
        if scope["type"] == "http":
            page = page_response(STATIC_DIR, path, Request(scope, receive))
            if page is not None:
                await page(scope, receive, send)
                return
        await self.files(scope, receive, send)


def _error(code: str, message, params: dict | None = None, headers: dict | None = None) -> JSONResponse:
    """An error reply, ``{"ok": false, "error", "code", "params"}``, with the status
    of its code (:mod:`kozyri_server.errors`: the one list of codes)."""
    return JSONResponse({"ok": False, **error_json(code, message, params)}, status_of(code), headers=headers)


def _failed(exc: BaseException, message=None, headers: dict | None = None) -> JSONResponse:
    """The error reply of an exception, by the code it names (:func:`kozyri_server.errors.code_of`)."""
    code, params = code_of(exc)
    return _error(code, exc if message is None else message, params, headers)


async def read_body(request: Request, limits: Limits) -> dict:
    """The request's JSON object (an empty body is ``{}``), bounded in size."""
    declared = request.headers.get("content-length")
    too_large = BodyTooLarge(f"the body is larger than {limits.max_body_bytes} bytes", bytes=limits.max_body_bytes)
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > limits.max_body_bytes:
        raise too_large
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limits.max_body_bytes:
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:
        raise ClientLeft("the client left before sending its whole body") from None
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    body = load_json(raw, constants=False)  # the one bounded reader: size, depth, digits
    if not isinstance(body, dict):
        raise InvalidInput("the body must be a JSON object")
    return body


def client_address(request: Request) -> str | None:
    """The client's address as the connection shows it (what the per-address
    limits count; a header such as X-Forwarded-For is not trusted)."""
    return request.client.host if request.client else None


def _replied(reply: dict) -> JSONResponse:
    """An engine reply with its status (400 for an error reply, 504 for a deadline passed in the queue),
    an error with its code (:func:`kozyri_server.errors.with_code`: the engine's own replies carry none)."""
    if reply.get("ok"):
        return JSONResponse(reply)
    return JSONResponse(with_code(reply), 504 if reply.get("timeout") else 400)


class Api:
    """The HTTP handlers, over the app's store, pool and tables (set at startup)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.tables: Tables | None = None
        self.pool: EnginePool | None = None
        self.players: Players | None = None
        self.ratings: Ratings | None = None
        self.info = JsonRequests(version=__version__).answer_request({"type": "engine"})
        # The engine's listing names Own Trumps' levels; Reversi's are there too, as they were before
        # GET /api/games (which the page reads).
        self.info["reversi_levels"] = [found.to_json() for found in LEVELS["reversi"]]

    def handler(self, work):
        """A route: ``work(request)`` with every error turned into its reply: the
        exception's code (:mod:`kozyri_server.errors`) gives the reply's code and
        status (a table not found 404, a taken seat 409, too many tables 429, ...)."""
        async def endpoint(request: Request):
            try:
                return await work(request)
            except ClientLeft as exc:  # nobody reads the reply: one line in the log, no traceback
                log.info("%s %s: the client left before sending its whole body", request.method, request.url.path)
                return _failed(exc)
            except PoolFull as exc:
                return _failed(exc, f"the engine is busy: {exc}", {"Retry-After": str(self.limits.retry_after)})
            except (JobTimeout, KozyriError) as exc:
                return _failed(exc)
            except Exception:  # a bug: logged here, one line there
                log.exception("internal error on %s %s", request.method, request.url.path)
                return _error("internal_error", "internal error")
        return endpoint

    def engine_route(self, kind: str):
        """A route that sends its body to the engine pool as job ``kind``."""
        async def work(request: Request):
            body = await read_body(request, self.limits)
            moves = 0
            if kind == "analyze":
                moves = record_moves(body.get("game"))
                check_review_moves(moves, self.limits)
            budget = budget_seconds(kind, body, self.limits.max_request_seconds, moves)
            return _replied(await self.pool.run(kind, body, budget))
        return self.handler(work)

    # --- tables ------------------------------------------------------------------------
    async def engine(self, request: Request):
        return JSONResponse(self.info)

    async def games(self, request: Request):
        """Every game's descriptor (:meth:`kozyri.play.games.GameKind.to_json`) and the default game
        (read at each request: a game registered after the app was made is listed too)."""
        return JSONResponse({"ok": True, "default": DEFAULT_GAME, "games": [kind.to_json() for kind in GAMES.values()]})

    async def health(self, request: Request):
        report, status = await health_report(self.tables, self.pool, __version__)
        return JSONResponse(report, status)

    async def openapi(self, request: Request):
        return JSONResponse(openapi_document(__version__))

    async def create_table(self, request: Request):
        """A new table; with the player's secret (``Authorization: Bearer``, optional) counted
        against the player's bounds rather than the address's alone (kozyri_server.lifecycle)."""
        body = await read_body(request, self.limits)
        header = request.headers.get("authorization")
        player = None if header is None else (await self.players.authenticate(bearer(header))).id
        room = await self.tables.create(body, client_address(request), player)
        return JSONResponse({"ok": True, **await self.tables.summary(room)})

    async def list_tables(self, request: Request):
        every = request.query_params.get("all", "") in ("1", "true", "yes")
        live = request.query_params.get("live", "") in ("1", "true", "yes")
        return JSONResponse({"ok": True, "tables": await self.tables.listing(every, live)})

    async def table(self, request: Request):
        room = await self.tables.get(request.path_params["table_id"])
        return JSONResponse({"ok": True, **await self.tables.summary(room)})

    async def join(self, request: Request):
        body = await read_body(request, self.limits)
        return JSONResponse({"ok": True, **await self.tables.join(request.path_params["table_id"], body,
                                                                  client_address(request))})

    async def leave(self, request: Request):
        body = await read_body(request, self.limits)
        return JSONResponse({"ok": True, **await self.tables.leave(request.path_params["table_id"], body)})

    async def rematch(self, request: Request):
        body = await read_body(request, self.limits)
        return JSONResponse({"ok": True, **await self.tables.rematch(request.path_params["table_id"], body)})

    async def record(self, request: Request):
        room = await self.tables.get(request.path_params["table_id"])
        return JSONResponse({"ok": True, "table": room.id, "game": room.game, "record": await self.tables.record(room)})

    async def review(self, request: Request):
        room = await self.tables.get(request.path_params["table_id"])
        job = game_kind(room.game).review_job
        if job is None:
            reviewed = ", ".join(kind.title for kind in GAMES.values() if kind.review_job is not None)
            raise InvalidInput(f"only {reviewed} games are reviewed", code="review_unavailable")
        record = await self.tables.record(room)
        check_review_moves(len(record["moves"]), self.limits)
        body: dict = {"game": record}
        query = request.query_params  # text: read as text, then passed on as numbers
        for key, read in (("time", checks.seconds), ("nodes", checks.nodes)):
            if key in query:
                body[key] = read(query[key], f'"{key}"', text=True)
        if "seat" in query:
            body["seat"] = checks.whole_number(query["seat"], '"seat"', 0, text=True)
        if "time" not in body and "nodes" not in body:
            body["time"] = self.limits.review_seconds_per_move
        budget = budget_seconds(job, body, self.limits.max_request_seconds, len(record["moves"]))
        return _replied(await self.pool.run(job, body, budget))


    # --- players, results, ratings (kozyri_server.players, kozyri_server.ratings) ---------
    async def new_player(self, request: Request):
        body = await read_body(request, self.limits)
        return JSONResponse({"ok": True, **await self.players.create(body, client_address(request))})

    async def player_me(self, request: Request):
        return JSONResponse({"ok": True, **await self.players.me(bearer(request.headers.get("authorization")))})

    async def player_tables(self, request: Request):
        """The player's unfinished tables ("my games"), to resume."""
        player = await self.players.authenticate(bearer(request.headers.get("authorization")))
        return JSONResponse({"ok": True, "player": player.id, "tables": await self.tables.of_player(player.id)})

    async def player_name(self, request: Request):
        body = await read_body(request, self.limits)
        secret = bearer(request.headers.get("authorization"))
        return JSONResponse({"ok": True, **await self.players.rename(secret, body)})

    async def player_code(self, request: Request):
        await read_body(request, self.limits)
        return JSONResponse({"ok": True, **await self.players.code(bearer(request.headers.get("authorization")))})

    async def player_claim(self, request: Request):
        body = await read_body(request, self.limits)
        return JSONResponse({"ok": True, **await self.players.claim(body, client_address(request))})

    async def player(self, request: Request):
        return JSONResponse({"ok": True, **await self.players.profile(request.path_params["player_id"])})

    async def leaderboard(self, request: Request):
        game = request.query_params.get("game", DEFAULT_GAME)
        return JSONResponse({"ok": True, **await self.ratings.leaderboard(game)})


def open_store(db: str | Path) -> Store:
    """The store ``--db`` names: a PostgreSQL database (``postgresql://...``,
    shared by several servers) or a SQLite file (created if missing)."""
    if checks.is_postgres_url(db):
        return PostgresStore(db)
    return SqliteStore(db)


def create_app(db: str | Path = DEFAULT_DB, workers: int = 1, limits: Limits | None = None,
               store: Store | None = None, scheduler: str | None = None,
               store_calls: str = "thread") -> Starlette:
    """The application: ``db`` the SQLite file (created if missing) or a
    PostgreSQL address (or pass another ``store``), ``workers`` engine
    processes (0: a thread of this process) or ``scheduler`` the address of
    a Dask scheduler whose workers do the engine work, ``limits`` the bounds
    of :class:`~kozyri_server.limits.Limits`. The store is opened, the pool
    started and warmed, and the unfinished tables restored when the
    application starts (its lifespan). ``store_calls="loop"`` runs the store
    calls on the event loop instead of a thread: for measurement only
    (benchmarks/server_load.py), never in service."""
    if store_calls not in ("thread", "loop"):
        raise ValueError('store_calls is "thread" or "loop"')
    limits = limits or Limits()
    api = Api(limits)
    sockets: list[TableSockets] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        opened = store if store is not None else await asyncio.to_thread(open_store, db)
        if scheduler is not None:
            from kozyri_server.dask_pool import DaskPool

            pool = DaskPool(scheduler, limits.max_pending, limits.margin_seconds)
        else:
            pool = EnginePool(workers, limits.max_pending, limits.margin_seconds, limits.overrun_seconds)
        await pool.start()
        tables = Tables(opened, pool, limits)
        tables.store_calls = store_calls
        log_table_events(tables)
        ratings = Ratings(opened)
        ratings.attach(tables)
        api.players, api.ratings = Players(opened, ratings), ratings
        app.state.players, app.state.ratings = api.players, ratings
        await tables.start()
        await ratings.catch_up()
        api.tables, api.pool = tables, pool
        sockets.append(TableSockets(tables, limits))
        app.state.tables, app.state.pool, app.state.store = tables, pool, opened
        try:
            yield
        finally:
            await tables.stop()
            stopped = pool.shutdown()
            if inspect.isawaitable(stopped):  # DaskPool leaves its cluster asynchronously
                await stopped
            await asyncio.to_thread(opened.close)

    async def websocket(websocket):
        await sockets[-1](websocket)

    h = api.handler
    routes = [
        Route("/api/openapi.json", h(api.openapi), methods=["GET"]),
        Route("/api/engine", h(api.engine), methods=["GET"]),
        Route("/api/games", h(api.games), methods=["GET"]),
        Route("/api/health", h(api.health), methods=["GET"]),
        *(Route(f"/api/owntrumps/{kind}", api.engine_route(kind), methods=["POST"])
          for kind in ("bestmove", "legal_moves", "solve", "analyze", "trumps")),
        Route("/api/reversi/bestmove", api.engine_route("reversi_bestmove"), methods=["POST"]),
        Route("/api/reversi/solve", api.engine_route("reversi_solve"), methods=["POST"]),
        Route("/api/tables", h(api.list_tables), methods=["GET"]),
        Route("/api/tables", h(api.create_table), methods=["POST"]),
        Route("/api/tables/{table_id}", h(api.table), methods=["GET"]),
        Route("/api/tables/{table_id}/join", h(api.join), methods=["POST"]),
        Route("/api/tables/{table_id}/leave", h(api.leave), methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", h(api.rematch), methods=["POST"]),
        Route("/api/tables/{table_id}/record", h(api.record), methods=["GET"]),
        Route("/api/tables/{table_id}/review", h(api.review), methods=["GET"]),
        Route("/api/players", h(api.new_player), methods=["POST"]),
        Route("/api/players/me", h(api.player_me), methods=["GET"]),
        Route("/api/players/me/tables", h(api.player_tables), methods=["GET"]),
        Route("/api/players/name", h(api.player_name), methods=["POST"]),
        Route("/api/players/code", h(api.player_code), methods=["POST"]),
        Route("/api/players/claim", h(api.player_claim), methods=["POST"]),
        Route("/api/players/{player_id}", h(api.player), methods=["GET"]),
        Route("/api/leaderboard", h(api.leaderboard), methods=["GET"]),
        WebSocketRoute("/api/ws", websocket),
    ]
    # the web page (docs/server.md, "The web page"): plain files, after every /api route
    routes.append(Mount("/", PageFiles(list(routes)), name="page"))
    async def http_error(request: Request, exc):
        return _error("method_not_allowed" if exc.status_code == 405 else "not_found", exc.detail)

    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: http_error, 405: http_error})
