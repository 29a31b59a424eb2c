"""How ``kozyri serve`` runs the app under uvicorn, in one place (the CLI
and the tests build the same server).

**Proxies are trusted only when named.** uvicorn by default takes
``X-Forwarded-For`` from any peer at 127.0.0.1 as the client's address;
then a forged header would get a fresh allowance from every per-address
limit and the access log would record the forged address. Here proxy
headers are read only from the addresses ``forwarded_allow_ips`` names
(``kozyri serve --forwarded-allow-ips``): from those peers the client is
the nearest untrusted address of ``X-Forwarded-For`` (a proxy appends the
address it saw), so every per-address limit applies to the real client;
from every other peer the header is ignored.
"""

from __future__ import annotations

import ipaddress

from kozyri.core import InvalidInput


def trusted_proxies(text: str | None) -> str | None:
    """``text`` (addresses or networks, comma-separated: ``127.0.0.1``,
    ``10.0.0.0/8,::1``, or ``*`` for every peer) checked and put in one
    form; None (no proxy trusted) stays None."""
    if text is None:
        return None
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise InvalidInput("--forwarded-allow-ips needs at least one address (127.0.0.1, 10.0.0.0/8, or *)")
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise InvalidInput(f"--forwarded-allow-ips: {item!r} is not an IP address or network "
                               "(such as 127.0.0.1 or 10.0.0.0/8)") from None
    return ",".join(items)


def uvicorn_config(app, *, host: str, port: int, limits, log_format: str = "text",
                   forwarded_allow_ips: str | None = None, **extra):
    """The :class:`uvicorn.Config` of ``kozyri serve``: WebSockets with
    the frame bound of ``limits``, the scrubbed log of ``log_format``,
    proxy headers only from ``forwarded_allow_ips`` (:func:`trusted_proxies`;
    None: from nobody). ``extra``: further uvicorn settings (a test's log level)."""
    import uvicorn

    from kozyri_server.logs import uvicorn_log_config

    trusted = trusted_proxies(forwarded_allow_ips)
    settings = dict(host=host, port=port, ws="websockets-sansio", ws_max_size=limits.max_frame_bytes,
                    lifespan="on", log_level="info", timeout_graceful_shutdown=5,
                    log_config=uvicorn_log_config(log_format),
                    proxy_headers=trusted is not None, forwarded_allow_ips=trusted or "")
    settings.update(extra)
    return uvicorn.Config(app, **settings)


class StartupGuard:
    """ASGI wrapper: an exception while the app starts (its lifespan) is
    kept in :attr:`error` and reported to uvicorn as a failed start without
    a traceback, so that ``kozyri serve`` can say in one line why it did
    not start. Everything else passes through."""

    def __init__(self, app):
        self.app = app
        self.error: BaseException | None = None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)
        started = False

        async def sending(message):
            nonlocal started
            if message["type"] == "lifespan.startup.complete":
                started = True
            if message["type"] == "lifespan.startup.failed":
                return  # said once, below, with the cause kept
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # noqa: BLE001 - kept and said in one line by the caller
            if started:
                raise
            self.error = exc
            await send({"type": "lifespan.startup.failed", "message": ""})
