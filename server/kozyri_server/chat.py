"""The chat of online tables (docs/server.md, "Chat"): a seated person
says a quick phrase (a code from :data:`PHRASES`, which every page shows
in its own words) or a short text, as the table's ``"chat"`` option allows
(:data:`kozyri_server.clocks.CHAT_MODES`: ``"on"``, ``"phrases"`` only,
``"off"``); every seat and spectator is sent the line at once, on every
server of a shared store (the line counts the table's revision up, and the
others, catching up with the table, send the lines they have not had).
Spectators read the chat but do not write in it.

A text is kept as it can be shown on one line (:func:`kozyri.checks.shown_text`:
controls, format-only characters and line breaks removed), at most
:attr:`Limits.max_chat_chars <kozyri_server.limits.Limits.max_chat_chars>`
characters; each connection's lines are rated apart from its other
messages (``chat_per_minute``, ``chat_burst``). The lines are stored in a
log of their own (the ``chat`` table of :mod:`kozyri_server.sql`), not as
session events: the events are the game, replayed by the library and
written to its record, and a line said at the table is no part of it. A
table is loaded with its last lines (:data:`kozyri_server.store.RECENT_CHAT`),
which a connecting client is sent after its first state (:mod:`kozyri_server.ws`).

>>> check_line("on", "  good\\n game ", None, 200)
('good game', None)
>>> check_line("phrases", None, "gg", 200)
(None, 'gg')
"""

from __future__ import annotations

from kozyri.checks import shown, shown_text
from kozyri.core import InvalidInput
from kozyri_server.room import Refused, Room

#: The quick phrases' codes (a page shows each in its own words).
PHRASES = ("hello", "gg", "one_minute", "thanks", "well_played", "oops")


def check_line(mode: str, text, phrase, most: int) -> tuple[str | None, str | None]:
    """What a seat may say at a table whose chat option is ``mode``: ``(text,
    None)`` (the text cleaned, at most ``most`` characters) or ``(None,
    phrase)``; Refused (the option does not allow it) or InvalidInput otherwise."""
    if mode == "off":
        raise Refused("the chat is off at this table", code="chat_off")
    if (text is None) == (phrase is None):
        raise InvalidInput('a chat message holds either "text" or "phrase" '
                           f'(a code: {", ".join(PHRASES)}), not {"both" if text is not None else "neither"}')
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise InvalidInput(f'unknown chat phrase {shown(phrase, 40)} (known: {", ".join(PHRASES)})')
        return None, phrase
    if mode == "phrases":
        raise Refused("this table's chat takes quick phrases only", code="chat_phrases_only")
    if not isinstance(text, str):
        raise InvalidInput(f'a chat "text" is text, not {shown(text, 40)}')
    cleaned = shown_text(text)
    if not cleaned:
        raise InvalidInput("a chat message needs something to read", code="chat_empty")
    if len(cleaned) > most:
        raise InvalidInput(f"a chat message is at most {most} characters (this one has {len(cleaned)})",
                           code="chat_too_long", most=most, length=len(cleaned))
    return cleaned, None


class TableChat:
    """What :class:`kozyri_server.tables.Tables` does for the chat: a line
    checked, stored (on a thread) and sent to every connection of the table."""

    async def chat(self, room: Room, seat: int, text=None, phrase=None) -> dict:
        """``seat`` says ``text`` or ``phrase`` at ``room``: the line, stored then sent to everybody there."""
        room.refuse_if_abandoned()
        text, phrase = check_line(room.options["chat"], text, phrase, self.limits.max_chat_chars)
        async with room.lock:  # the lines stored and sent in one order
            line = await self._store(self.store.add_chat, room.id, seat, room.names[seat], text, phrase)
            room.chat.append(line)
            listeners = [listener for each in room.listeners.values() for listener in each] + list(room.watchers)
        await self._send_chat(listeners, [line])
        return line

    def _relay_chat(self, room: Room, stored_lines: list[dict]) -> None:
        """The lines another server stored at ``room`` (a shared store: its last ones, read back
        with the table) that this server has not had: kept and sent to every connection here.
        Called with the room's lock held."""
        known = {line["seq"] for line in room.chat}
        oldest = min(known, default=0)  # (lines older than those kept here were had, or are too old to send)
        news = [line for line in stored_lines if line["seq"] not in known and line["seq"] > oldest]
        if news:
            kept = sorted([*room.chat, *news], key=lambda line: line["seq"])
            room.chat.clear()
            room.chat.extend(kept)
            listeners = [listener for each in room.listeners.values() for listener in each] + list(room.watchers)
            self._spawn(self._send_chat(listeners, news))

    @staticmethod
    async def _send_chat(listeners: list, lines: list[dict]) -> None:
        message = {"type": "chat", "lines": lines}
        for listener in listeners:
            await listener(message, None)
