"""``kozyri serve``: the HTTP API and the online tables (the server is
:mod:`kozyri_server`, docs/server.md); this door only runs it under uvicorn."""

from __future__ import annotations

import signal

import click

from kozyri.core import MissingExtra
from kozyri_cli import main
from kozyri_cli.common import FiniteNumber, fail

SERVE_EPILOG = """
\b
HTTP (JSON in, JSON out; the OpenAPI document is GET /api/openapi.json):
  POST /api/owntrumps/bestmove|legal_moves|solve|analyze|trumps
  POST /api/reversi/bestmove|solve
  POST /api/tables  GET /api/tables  POST /api/tables/ID/join|leave
  GET /api/tables/ID/record|review
WebSocket /api/ws: {"type": "auth", "table": ID, "token": TOKEN}, then
{"type": "move", "ply": N, "move": "KH+9S"}. Ctrl-C or SIGTERM stops it."""


def _table_limit_options(command):
    """The options of the tables' limits (kozyri_server.limits.Limits: docs/server.md, "Limits")."""
    from kozyri_server.limits import Limits

    default = Limits()
    options = [
        ("--max-tables", "max_tables", click.IntRange(1), "N",
         "Live tables (open or playing) the server holds at once; one more is refused (429). "
         "Finished and abandoned tables do not count."),
        ("--max-tables-per-address", "max_tables_per_address", click.IntRange(1), "N",
         "Live tables one client address may have created without a player identity (a player's own "
         "tables count against the player instead); its next one is refused (429) until one ends."),
        ("--max-tables-per-player", "max_tables_per_player", click.IntRange(1), "N",
         "Live tables one player may have created (a creation with the player's secret counts against "
         "the player, wherever it comes from); the next one is refused (429) until one ends."),
        ("--players-per-address", "players_per_address", click.IntRange(1), "N",
         "How many players' worth of tables, creations and joins the requests with a player identity "
         "from one address may have together (a school or a carrier behind one address): this many "
         "times the per-address bounds."),
        ("--creates-per-minute", "creates_per_minute", FiniteNumber(0.01), "N",
         "Tables one client address may create a minute (as many at once), so that a flood from one "
         "address leaves room for everybody else."),
        ("--joins-per-minute", "joins_per_minute", FiniteNumber(0.01), "N",
         "Seats one client address may join a minute (as many at once)."),
        ("--max-connections-per-address", "max_connections_per_address", click.IntRange(1), "N",
         "WebSocket connections (seats and spectators) open at once from one client address, loopback "
         "included (a bound on the server's sockets); one more gets an error and close code 4429."),
        ("--idle-table-seconds", "idle_table_seconds", FiniteNumber(1, unit="seconds"), "SECONDS",
         "An unfinished table with no move and no seat taken for this long is abandoned: no longer "
         "played, listed or counted, its record kept (86400: a day). A running clock ends its game instead."),
        ("--open-table-seconds", "open_table_seconds", FiniteNumber(1, unit="seconds"), "SECONDS",
         "A table whose seats nobody has taken is abandoned after this long (3600: an hour)."),
        ("--takeover-pace", "takeover_pace_seconds", FiniteNumber(0, 3600, unit="seconds"), "SECONDS",
         "A seat the computer plays for its absent person moves no sooner than this after the move before "
         "it while a person here still holds cards (under a clock, a quarter of the seat's time if less); "
         "a game left to the computers is played out at once (docs/server.md, \"Absence\")."),
        ("--claim-seconds", "claim_seconds", FiniteNumber(1, 86400, unit="seconds"), "SECONDS",
         "How long a person still in a game of bullet or blitz must be away before the others may claim it "
         "(twice as long at rapid, three times slower or without a clock; never at a turn-based table)."),
        ("--claim-leave-seconds", "claim_leave_seconds", FiniteNumber(1, 86400, unit="seconds"), "SECONDS",
         "The same after an explicit leave (the table's page closed or left, the seat given up), if shorter."),
    ]
    for flag, name, kind, metavar, text in reversed(options):
        command = click.option(flag, name, type=kind, default=getattr(default, name), show_default=True,
                               metavar=metavar, help=text)(command)
    return click.option("--limit-loopback", "limit_loopback", is_flag=True, default=default.limit_loopback,
                        help="Limit loopback clients' tables created, live tables and joins per address "
                             "too. By default this machine's own clients (tests, benchmarks) are not; "
                             "WebSocket connections, new players and wrong transfer codes count always. Behind a reverse proxy name it with "
                             "--forwarded-allow-ips, and each real client is limited.")(command)


def _named_database(ctx, param, value):
    """``--db``: an empty (or blank) name is refused; it would open kozyri.db here without a word."""
    if value is not None and not value.strip():
        raise click.BadParameter("the database is empty: give a SQLite file or a postgresql:// URL "
                                 "(without --db: kozyri.db here)", ctx, param)
    return value


@main.command(epilog=SERVE_EPILOG)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", "db", default=None, metavar="FILE|URL", callback=_named_database,
              help="The SQLite file of the online tables (created if missing; default kozyri.db here), "
                   "or a PostgreSQL database shared by several servers: postgresql://user@host:port/name.")
@click.option("--workers", type=click.IntRange(0, 256), default=1, show_default=True, metavar="N",
              help="Engine worker processes (0: one thread of the server process).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Send the engine work to the Dask cluster of this scheduler (tcp://host:8786) "
                   "instead of local worker processes.")
@click.option("--log-format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="The log's lines: uvicorn's text, or one JSON object a line (time, level, logger, message, "
                   "table, seat, event, status, duration_ms) on standard error; never a secret in either.")
@click.option("--forwarded-allow-ips", metavar="ADDRESSES", default=None,
              help="The reverse proxies to trust (comma-separated addresses or networks, such as 127.0.0.1 or "
                   "10.0.0.0/8; * for any peer): from them, the client's address is read from X-Forwarded-For and "
                   "every per-address limit applies to it. By default no proxy header is trusted.")
@_table_limit_options
def serve(host, port, db, workers, scheduler, log_format, forwarded_allow_ips, **table_limits):
    """The engine over HTTP and online tables over WebSockets.

    Starts the engine's worker processes (each loads the compiled kernels
    once), opens or creates the SQLite file, brings back the tables that
    were being played, and answers until Ctrl-C or SIGTERM (exit code 0).
    See docs/server.md.
    """
    try:
        import starlette  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401
    except ImportError:
        raise MissingExtra("kozyri serve needs its extra", "serve") from None
    from kozyri.core import InvalidInput
    from kozyri_server.app import DEFAULT_DB, create_app
    from kozyri_server.limits import Limits
    from kozyri_server.logs import TimedRequests
    from kozyri_server.serving import StartupGuard, trusted_proxies, uvicorn_config

    db = DEFAULT_DB if db is None else db
    try:
        limits = Limits(**table_limits)
        proxies = trusted_proxies(forwarded_allow_ips)
    except InvalidInput as exc:
        fail(str(exc))
    _check_port_free(host, port)
    _check_reachable(db, scheduler)
    app = create_app(db, workers=workers, limits=limits, scheduler=scheduler)
    if log_format == "json":
        app = TimedRequests(app)  # each access line's duration_ms
    guard = StartupGuard(app)
    config = uvicorn_config(guard, host=host, port=port, limits=limits, log_format=log_format,
                            forwarded_allow_ips=proxies)
    server = uvicorn.Server(config)
    # uvicorn stops cleanly on SIGINT and SIGTERM, then raises the signal again with the handlers it
    # found: these make that second delivery a no-op, so a clean stop exits with code 0.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: None)
    try:
        server.run()
    except SystemExit:  # uvicorn's own exit when it cannot start (the port taken since the check above)
        pass
    if not server.started:
        if guard.error is not None:
            cause = guard.error
            fail(f"the server did not start: {cause if isinstance(cause, InvalidInput) else repr(cause)}")
        fail(f"the server did not start (is {host}:{port} free?)")


def _check_port_free(host: str, port: int) -> None:
    """A port already in use (another server) or an address this machine
    does not have: one line and exit code 2 before anything starts, not the
    server's log and its traceback."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        fail(f"cannot listen on {host}: {getattr(exc, 'strerror', None) or exc}")
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                fail(f"port {port} on {host} is already in use (another server?): choose another with --port")
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


def _check_reachable(database: str, scheduler: str | None) -> None:
    """A database that cannot be opened (a SQLite file that is a folder, a
    device, not a database, not writable; a PostgreSQL server that cannot be
    reached) or a Dask scheduler that cannot be reached: one line naming it
    and exit code 2 now, not a traceback from the server's startup."""
    from kozyri.core import InvalidInput

    try:
        from kozyri_server.app import open_store

        open_store(database).close()
        if scheduler is not None:
            try:
                from distributed import Client
            except ImportError:
                raise MissingExtra("kozyri serve --scheduler needs Dask", "cluster") from None
            from kozyri.runs.pools import DASK_CONNECT_SECONDS

            try:
                Client(scheduler, timeout=DASK_CONNECT_SECONDS).close()
            except (OSError, ValueError, TypeError) as exc:
                raise InvalidInput(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    except InvalidInput as exc:
        fail(str(exc))
