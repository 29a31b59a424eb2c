"""The Own Trumps engine for asyncio programs (a game server, a bot on a
chat platform): :class:`AsyncEngine`, the :class:`~kozyri.protocols.client.Engine`
with awaitable calls, as python-chess pairs ``chess.engine.popen_uci`` with
``SimpleEngine``. docs/engine-api.md shows it at work.

Each call runs the blocking engine's on a worker thread
(:func:`asyncio.to_thread`), so the event loop goes on while the engine
thinks; the answers are the blocking engine's, request for request (the
game's moves, ``text=True`` their text; one :class:`~kozyri.core.AgentInfo`
type from ``play`` and ``analyse``). Calls
are answered one at a time (the blocking engine's lock). A call whose task is
cancelled stops the search in progress in this process at once (a
subprocess's runs to its budget, its reply dropped) and raises
:class:`asyncio.CancelledError` as asyncio does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from kozyri.core import AgentInfo, Limit, PlayResult
from kozyri.protocols.client import REPLY_TIMEOUT_SECONDS, AnalysisResult, Engine

__all__ = ["AsyncAnalysis", "AsyncEngine"]


class AsyncEngine:
    """An :class:`~kozyri.protocols.client.Engine` with awaitable calls.
    Make one with ``await AsyncEngine.popen(...)`` or ``await
    AsyncEngine.in_process(...)`` (their arguments are the blocking
    engine's); use it in an ``async with`` block, or ``await quit()``."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @classmethod
    async def in_process(cls, level=None, *, tables=None) -> AsyncEngine:
        """The engine in this process (:meth:`Engine.in_process`)."""
        return cls(await asyncio.to_thread(Engine.in_process, level, tables=tables))

    @classmethod
    async def popen(cls, command=None, *, level=None, timeout: float | None = REPLY_TIMEOUT_SECONDS,
                    **popen_args) -> AsyncEngine:
        """The engine in a subprocess (:meth:`Engine.popen`): started, and its description read."""
        return cls(await asyncio.to_thread(Engine.popen, command, level=level, timeout=timeout, **popen_args))

    @property
    def id(self) -> dict:
        """The engine's own description (``name``, ``version``, ``levels``, ...)."""
        return self.engine.id

    def configure(self, **options) -> None:
        """Defaults for every later request (:meth:`Engine.configure`; nothing is sent)."""
        self.engine.configure(**options)

    async def _call(self, method, *args, **kwargs):
        """``method(*args, **kwargs)`` of the blocking engine on a worker thread; a
        cancelled call stops the search in progress (in this process)."""
        try:
            return await asyncio.to_thread(method, *args, **kwargs)
        except asyncio.CancelledError:
            self.engine._transport.cancel()
            raise

    async def play(self, game, limit: Limit | None = None, **options) -> PlayResult:
        """The engine's move, the game's (:meth:`Engine.play`; ``text=True``: its text)."""
        return await self._call(self.engine.play, game, limit, **options)

    async def choose_trumps(self, game, limit: Limit | None = None, **options) -> PlayResult:
        """The trump suit the seat to choose takes (:meth:`Engine.choose_trumps`)."""
        return await self._call(self.engine.choose_trumps, game, limit, **options)

    async def analyse(self, game, limit: Limit | None = None, **options) -> AgentInfo | list[AgentInfo]:
        """One search of the analysis agent (:meth:`Engine.analyse`; ``multipv=N``: a list)."""
        return await self._call(self.engine.analyse, game, limit, **options)

    async def legal_moves(self, game, **options) -> list:
        """The legal moves of the player to move (:meth:`Engine.legal_moves`; ``text=True``: their text)."""
        return await self._call(self.engine.legal_moves, game, **options)

    def analysis(self, game, limit: Limit | None = None, **options) -> AsyncAnalysis:
        """A deepening analysis (:meth:`Engine.analysis`) to iterate with ``async for``."""
        return AsyncAnalysis(self, self.engine.analysis(game, limit, **options))

    async def quit(self) -> None:
        """End the engine (a subprocess: reaped, on a worker thread)."""
        await asyncio.to_thread(self.engine.quit)

    @property
    def closed(self) -> bool:
        return self.engine.closed

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.quit()


class AsyncAnalysis:
    """An :class:`~kozyri.protocols.client.AnalysisResult` to iterate with
    ``async for``: each search runs on a worker thread; :meth:`stop` (from the
    loop or any thread) ends it as the blocking one's does."""

    def __init__(self, owner: AsyncEngine, blocking: AnalysisResult):
        self._owner, self._blocking = owner, blocking

    @property
    def info(self) -> AgentInfo | dict:
        """The latest info (``{}`` before the first search ends)."""
        return self._blocking.info

    def __aiter__(self) -> AsyncIterator[AgentInfo]:
        return self

    async def __anext__(self) -> AgentInfo:
        found = await self._owner._call(next, self._blocking, None)
        if found is None:
            raise StopAsyncIteration
        return found

    def stop(self) -> None:
        """End the analysis: no further search starts, the one in progress stops (in this process)."""
        self._blocking.stop()

    async def wait(self) -> AgentInfo | dict:
        """Run the analysis to its end; the last info (with ``stopped``)."""
        return await self._owner._call(self._blocking.wait)

    async def __aenter__(self) -> AsyncAnalysis:
        return self

    async def __aexit__(self, *exc) -> None:
        self.stop()
        await asyncio.to_thread(self._blocking.__exit__, None, None, None)
