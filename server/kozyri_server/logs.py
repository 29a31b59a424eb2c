"""The server's logs (``kozyri serve --log-format text|json``): the
logging setup uvicorn is given (:func:`uvicorn_log_config`), the JSON
lines of ``--log-format json`` (:class:`JsonFormatter`) and what keeps
secrets out of every line, in both formats (:func:`scrub`).

- **text** (the default): uvicorn's lines as before; the server's own
  warnings and errors as Python writes them.
- **json**: one JSON object a line on standard error, for the server's
  own lines (logger ``kozyri.*``), uvicorn's (``uvicorn.error``) and its
  access log (``uvicorn.access``): ``time`` (UTC, ISO 8601), ``level``,
  ``logger``, ``message`` and, where known, the fields of
  :data:`FIELDS`: ``table``, ``seat``, ``event`` (``http``,
  ``websocket``), ``status``, ``duration_ms`` (from the request's arrival
  to its reply's start: :class:`TimedRequests`), ``method``, ``path``,
  ``client``; a traceback as ``error`` (one string).

No secret reaches a line: a seat's token and a player's secret travel in
request bodies, WebSocket messages and headers, never in a URL, and none
of those is logged; and every line is passed through :func:`scrub` all
the same (a query value whose name says token, secret, code, password or
key; anything shaped like a token: 32 or more URL-safe characters; a
password in a database address; a bearer credential; and, by value,
every secret short enough to pass for a word that this server handed out
and that is still valid: the transfer codes, :data:`KNOWN_SECRETS`,
however they are written, ``abcd-2345`` or ``AB CD 23 45``).

>>> scrub("GET /api/tables?token=abc&seat=1")
'GET /api/tables?token=[redacted]&seat=1'
>>> scrub("postgresql://kozyri:hunter2@db/kozyri")
'postgresql://kozyri:[redacted]@db/kozyri'
"""

from __future__ import annotations

import contextvars
import copy
import json
import logging
import re
import time
from datetime import datetime, timezone

#: The values of ``--log-format``.
LOG_FORMATS = ("text", "json")
#: What a secret is replaced with.
REDACTED = "[redacted]"
#: The fields a JSON line may carry besides time, level, logger and message.
FIELDS = ("table", "seat", "event", "status", "duration_ms", "method", "path", "client")

_SECRET_QUERY = re.compile(r"(?i)([?&;][\w.-]*(?:token|secret|code|passw|key|auth)[\w.-]*=)[^&;#\s\"']*")
_TOKEN_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])")
_URL_PASSWORD = re.compile(r"(://[^:/@\s]+:)[^@\s/]+@")
_BEARER = re.compile(r"(?i)(\bbearer\s+)[^\s\"',]+")
_TABLE_PATH = re.compile(r"/api/tables/([^/?#\s]+)")
_TABLE_LINE = re.compile(r"^table ([^\s,:]+)(?:, seat (\d+))?[,:]")

#: When the request being answered arrived (set by :class:`TimedRequests`, read by the access log).
_request_started: contextvars.ContextVar[float | None] = contextvars.ContextVar("kozyri_request_started",
                                                                                default=None)


class KnownSecrets:
    """Secrets the server handed out, each until it expires (the oldest
    forgotten first past ``most``), as one pattern that finds them in any
    text: case ignored, spaces, dashes and ``+`` or ``%20`` allowed between
    their characters (a transfer code is read back that way)."""

    def __init__(self, most: int = 10_000, clock=time.monotonic):
        self.most, self._clock = most, clock
        self._expires: dict[str, float] = {}
        self._pattern: re.Pattern | None = None

    def add(self, secret: str, seconds: float) -> None:
        """Remember ``secret`` for ``seconds``."""
        self._expires.pop(secret, None)
        self._expires[secret] = self._clock() + seconds
        while len(self._expires) > self.most:
            del self._expires[next(iter(self._expires))]
        self._pattern = None

    def pattern(self) -> re.Pattern | None:
        """The secrets still valid as one pattern (None: none)."""
        now = self._clock()
        expired = [secret for secret, until in self._expires.items() if until <= now]
        for secret in expired:
            del self._expires[secret]
        if expired or (self._pattern is None and self._expires):
            between = r"(?:[\s+-]|%20)*"
            forms = (between.join(re.escape(char) for char in secret) for secret in self._expires)
            self._pattern = re.compile(r"(?i)(?<![A-Za-z0-9])(?:" + "|".join(forms) + r")(?![A-Za-z0-9])") \
                if self._expires else None
        return self._pattern


#: The secrets every log line is scrubbed of by value (:class:`KnownSecrets`; the transfer codes).
KNOWN_SECRETS = KnownSecrets()


def scrub(text: str) -> str:
    """``text`` with every secret it might hold replaced by :data:`REDACTED`.

    >>> KNOWN_SECRETS.add("ABCD2345", 60)
    >>> scrub("GET /api/players/claim?c=abcd-2345 200")
    'GET /api/players/claim?c=[redacted] 200'
    """
    text = _SECRET_QUERY.sub(lambda m: m.group(1) + REDACTED, text)
    text = _URL_PASSWORD.sub(lambda m: m.group(1) + REDACTED + "@", text)
    text = _BEARER.sub(lambda m: m.group(1) + REDACTED, text)
    known = KNOWN_SECRETS.pattern()
    if known is not None:
        text = known.sub(REDACTED, text)
    return _TOKEN_SHAPED.sub(REDACTED, text)


def _scrubbed(value):
    return scrub(value) if isinstance(value, str) else value


class ScrubSecrets(logging.Filter):
    """A handler's filter: the record's message and arguments scrubbed
    (:func:`scrub`) in place, its arguments kept a tuple (uvicorn's access
    formatter reads them one by one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _scrubbed(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_scrubbed(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _scrubbed(arg) for key, arg in record.args.items()}
        return True


class TimedRequests:
    """ASGI middleware: notes when each HTTP request or WebSocket arrived, so
    that its access line can say how long the reply took (``duration_ms``)."""

    def __init__(self, app):
        self.app = app

    def __getattr__(self, name):  # the wrapped app's attributes (``state``, ``routes``) stay reachable
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket"):
            _request_started.set(time.perf_counter())
        await self.app(scope, receive, send)


def _known_fields(record: logging.LogRecord, message: str) -> dict:
    """The :data:`FIELDS` of a record: given as ``extra=``, or read from uvicorn's access and
    WebSocket lines and from the server's own lines that begin ``table ID[, seat N]``."""
    fields = {name: getattr(record, name) for name in FIELDS if getattr(record, name, None) is not None}
    args = record.args if isinstance(record.args, tuple) else ()
    if record.name == "uvicorn.access" and len(args) == 5:
        client, method, path, _, status = args
        fields.update(event="http", client=client, method=method, path=path, status=status)
        started = _request_started.get()
        if started is not None:
            fields["duration_ms"] = round(1000 * (time.perf_counter() - started), 2)
    elif record.name.startswith("uvicorn") and isinstance(record.msg, str) and '"WebSocket %s"' in record.msg \
            and len(args) >= 2:
        fields.update(event="websocket", client=args[0], path=args[1])
        fields["status"] = record.msg.rsplit("[", 1)[-1].rstrip("]") if "[" in record.msg else None
    if "path" in fields and "table" not in fields:
        found = _TABLE_PATH.search(str(fields["path"]))
        if found:
            fields["table"] = found.group(1)
    if record.name.startswith("kozyri") and "table" not in fields:
        found = _TABLE_LINE.match(message)
        if found:
            fields["table"] = found.group(1)
            if found.group(2) is not None:
                fields["seat"] = int(found.group(2))
    return {key: _scrubbed(value) for key, value in fields.items() if value is not None}


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module docstring), every string scrubbed."""

    def format(self, record: logging.LogRecord) -> str:
        message = scrub(record.getMessage())
        line = {"time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
                "level": record.levelname.lower(), "logger": record.name, "message": message,
                **_known_fields(record, message)}
        if record.exc_info:
            line["error"] = scrub(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


#: The logger of the tables' events (:func:`log_table_events`).
table_log = logging.getLogger("kozyri.server.tables")


def log_table_events(tables) -> None:
    """Log the events of ``tables`` (:class:`~kozyri_server.tables.Tables`)
    as lines with fields, at level INFO (so only in ``--log-format json``):
    a seat connected or away (``event`` ``presence``, ``status``
    ``connected`` or ``away``), a table finished (``event`` ``finished``),
    through the hooks Tables offers."""
    async def presence(room, seat: int, present: bool) -> None:
        status = "connected" if present else "away"
        table_log.info("table %s, seat %s: %s", room.id, seat, status,
                       extra={"table": room.id, "seat": seat, "event": "presence", "status": status})

    async def finished(room) -> None:
        table_log.info("table %s: finished", room.id,
                       extra={"table": room.id, "event": "finished", "status": room.status})

    for hooks, hook in (("presence_hooks", presence), ("finished_hooks", finished)):
        if isinstance(getattr(tables, hooks, None), list):
            getattr(tables, hooks).append(hook)


def uvicorn_log_config(log_format: str = "text") -> dict:
    """The ``log_config`` for uvicorn (:func:`logging.config.dictConfig`):
    ``text``, uvicorn's own setup with every line scrubbed; ``json``, JSON
    lines on standard error for uvicorn's loggers, the server's and the rest."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format {log_format!r}: one of {', '.join(LOG_FORMATS)}")
    scrubbing = {"scrub": {"()": ScrubSecrets}}
    if log_format == "text":
        from uvicorn.config import LOGGING_CONFIG

        config = copy.deepcopy(LOGGING_CONFIG)
        config.setdefault("filters", {}).update(scrubbing)
        for handler in config["handlers"].values():
            handler.setdefault("filters", []).append("scrub")
        return config
    one_stream = {"handlers": ["json"], "level": "INFO", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": scrubbing,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json", "filters": ["scrub"],
                              "stream": "ext://sys.stderr"}},
        "loggers": {"uvicorn": one_stream, "uvicorn.error": {"level": "INFO"},
                    "uvicorn.access": dict(one_stream), "kozyri": dict(one_stream)},
        "root": {"handlers": ["json"], "level": "WARNING"},
    }
