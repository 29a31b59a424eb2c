"""The plumbing every line protocol shares, whatever its game: GTP's
framing, the replies, and the threads that read and answer.

Framing as in GTP: a command ``[id] name args`` is answered by ``=[id]
result`` or ``?[id] message``, each reply ended by an empty line; ``#``
starts a comment, blank lines are ignored. Lines are read bounded
(:mod:`kozyri.protocols.lines`): an over-long line, invalid UTF-8 or binary
noise gets a ``?`` reply, and the protocol goes on.

* :class:`LineProtocol`: a protocol's commands behind that framing (the Own
  Trumps engine, :class:`kozyri.protocols.engine.Engine`, and the Reversi
  GTP engine, :class:`kozyri.protocols.gtp.GtpEngine`, are two);
* :class:`Call`: one command being answered, whole or streamed;
* :func:`answer_lines`: a protocol on streams, one command after the other
  in this thread; :class:`Connection` (:func:`serve`): one thread reads
  while another answers, so that ``stop`` reaches a search in progress;
* :func:`serve_jsonl`: JSON Lines requests, one reply a line.

>>> class Echo(LineProtocol):
...     def __init__(self):
...         super().__init__()
...         self._handlers = {"echo": lambda args, call: " ".join(args)}
>>> Echo().handle("7 echo a  b")
'=7 a b\\n\\n'
>>> Echo().handle("fly")
"? unknown command 'fly'\\n\\n"
"""

from __future__ import annotations

import io
import json
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kozyri.core import CANCELLED, INTERRUPTED, KozyriError, Limit, ProtocolError, load_json
from kozyri.protocols.lines import TooLong, chunk_reader, decode_line, leading_id, one_line, read_lines
from kozyri.search.control import SearchControl

if TYPE_CHECKING:
    from kozyri.protocols.messages import JsonRequests


def short(text: str, most: int = 40) -> str:
    """``text`` quoted for a message, cut after ``most`` characters."""
    return repr(text if len(text) <= most else text[:most] + "...")


# --- output ------------------------------------------------------------------------
class Output:
    """Where replies go: a binary stream, written in UTF-8 and flushed line
    by line, from any thread. Once a write fails (the GUI went away, a full
    disk) writes are dropped, :attr:`closed` is set and :attr:`error` is
    the failure."""

    def __init__(self, sink):
        self.sink = sink
        self.closed = False
        #: Why the output closed: the failed write's error (BrokenPipeError when the reader went away).
        self.error: OSError | None = None
        self._lock = threading.Lock()

    def write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")  # (a lone surrogate from a JSON escape cannot be written)
        with self._lock:
            if self.closed:
                return
            try:
                _write_whole(self.sink, data)
                self.sink.flush()
            except (OSError, ValueError) as exc:  # a closed pipe or file, a full disk
                self.closed = True
                self.error = exc if isinstance(exc, OSError) else BrokenPipeError("the output is closed")


def _write_whole(sink, data: bytes) -> None:
    """Write all of ``data``: an unbuffered file may take only part of it (a
    pipe whose reader went away takes what fits), and the rest is written
    again, which then fails if nobody reads."""
    view = memoryview(data)
    while view:
        written = sink.write(view)
        if not isinstance(written, int) or written >= len(view):
            return
        if written <= 0:
            raise BrokenPipeError("the output took nothing")
        view = view[written:]


@dataclass
class Context:
    """What a session gives one command: ``control``, the command's own
    search control (a later ``stop`` and Ctrl-C cancel it), and
    ``input_ended``, set once the input is over (or at ``quit``). A search
    without a budget sets ``ends_with_input``: the end of the input stops it."""

    control: SearchControl | None = None
    input_ended: threading.Event | None = None
    ends_with_input: bool = False


def reply_text(command_id: str, body: str, ok: bool = True) -> str:
    """A whole reply in GTP's framing: ``=[id] body`` (``?[id]`` when not
    ``ok``), then an empty line. The body's blank lines are left out (a
    blank line ends a reply), but for an empty first line, which leaves the
    result to start on the next line (``= `` and a board, as GTP's
    ``showboard``)."""
    first, *rest = body.split("\n")
    rest = [line for line in rest if line.strip()]
    if not first.strip() and not rest:
        first = ""
    head = f"{'=' if ok else '?'}{command_id} {first.rstrip()}"
    if not rest:
        head = head.rstrip()
    return "".join(line + "\n" for line in (head, *rest)) + "\n"


class Call:
    """One command being answered: its id, its context, and its reply, whole
    or (``analyze``) streamed line by line and then ended."""

    def __init__(self, command_id: str, output: Output, context: Context):
        self.id = command_id
        self.output = output
        self.context = context
        self._streaming = False
        self._open = True
        self._lock = threading.Lock()

    def control(self, limit: Limit | None = None, progress=None) -> SearchControl:
        """A search control for this command with ``limit``: under the
        session's, so that ``stop`` ends it."""
        return SearchControl(limit, progress, parent=self.context.control)

    def stop_with_input(self, control: SearchControl) -> None:
        """A search without a budget: the end of the input stops it (at once
        when the input is over already, or without a session)."""
        self.context.ends_with_input = True
        ended = self.context.input_ended
        if ended is None or ended.is_set():
            control.cancel()

    def stop_at_end(self, control: SearchControl, limit: Limit | None) -> None:
        """A search within ``limit``: ``quit`` or the end of the input that
        comes while it runs stops it when its budget is time (an engine whose
        GUI went away must not keep a core busy for the rest of its budget;
        the answer is the best move so far). A search that starts after them
        (a script's commands, all read at once) runs its budget, and a node
        budget is searched whole: its answer is the same on every machine."""
        if limit is None or limit.nodes is None:
            self.context.ends_with_input = True

    def begin(self, first_line: str) -> None:
        """Start a streamed reply with its first line."""
        with self._lock:
            self._streaming = True
            self.output.write(f"={self.id} {first_line}".rstrip() + "\n")

    def stream(self, line: str) -> None:
        """One more line of a streamed reply (dropped once it has ended); a
        closed output stops the search (nobody is listening)."""
        with self._lock:
            if self._streaming and self._open:
                self.output.write(line + "\n")
        if self.output.closed and self.context.control is not None:
            self.context.control.cancel()

    def finish(self, body: str, ok: bool = True) -> None:
        """The reply (or the last lines of a streamed one), ended by an empty line."""
        with self._lock:
            self._open = False
            if self._streaming:
                lines = [line for line in body.split("\n") if line.strip()]
                text = "".join(f"{line if ok else 'error ' + line}\n" for line in lines) + "\n"
            else:
                text = reply_text(self.id, body, ok)
            self.output.write(text)


# --- a protocol's commands ------------------------------------------------------------
#: A command's handler: its arguments and its call in, the reply's body out.
Handler = Callable[[list[str], Call], "str | None"]


class LineProtocol:
    """A protocol's commands behind GTP's framing (see the module
    docstring). A protocol fills ``_handlers`` (command name in lower case
    -> :data:`Handler`) and sets :attr:`finished` at ``quit``.
    :meth:`answer` answers one line on an :class:`Output`; :meth:`handle`
    does it synchronously and returns the reply (for tests and scripts)."""

    #: The reply to a MemoryError.
    OUT_OF_MEMORY = "out of memory"

    def __init__(self):
        #: Set by ``quit``: the session ends after its reply.
        self.finished = False
        self._handlers: dict[str, Handler] = {}

    def unknown_command(self, word: str) -> str:
        """The message for a command the protocol does not know."""
        return f"unknown command {short(word)}"

    def split_arguments(self, rest: str) -> list[str]:
        """A command's arguments from the rest of its line (words)."""
        return rest.split()

    def handle(self, line: bytes | str) -> str:
        """The whole reply to one line (``""`` for a blank line or a comment),
        computed in this thread."""
        buffer = io.BytesIO()
        self.answer(line, Output(buffer))
        return buffer.getvalue().decode("utf-8")

    def answer(self, line: bytes | str | TooLong, output: Output, context: Context | None = None) -> None:
        """Answer one input line on ``output``; nothing for a blank line or a
        comment. Every failure is a ``?`` reply; the game is left as it was."""
        call = Call(leading_id(line), output, context or Context())
        try:
            if isinstance(line, TooLong):
                raise ProtocolError(f"line too long (more than {len(line.head)} bytes)")
            text = decode_line(line).split("#", 1)[0].replace("\t", " ").strip()
            if not text:
                return
            words = text.split(None, 1)
            if words[0].isascii() and words[0].isdigit():
                words = words[1].split(None, 1) if len(words) > 1 else []
                if not words:
                    raise ProtocolError("missing command")
            handler = self._handlers.get(words[0].lower())
            if handler is None:
                raise ProtocolError(self.unknown_command(words[0]))
            body = handler(self.split_arguments(words[1] if len(words) > 1 else ""), call)
        except KozyriError as exc:
            call.finish(one_line(exc) or "error", ok=False)
        except MemoryError:
            call.finish(self.OUT_OF_MEMORY, ok=False)
        except Exception as exc:  # a bug: still one line, and the protocol goes on
            call.finish(one_line(f"internal error: {type(exc).__name__}: {exc}"), ok=False)
        else:
            call.finish(body or "")


# --- sessions on streams ------------------------------------------------------------------
def answer_lines(protocol: LineProtocol, source, sink) -> None:
    """Answer the commands of the binary stream ``source`` on ``sink``, one
    after the other in this thread, until ``quit`` or the end of the input
    (for protocols without ``stop``). Raises the :class:`OSError` of a
    failed write (:class:`BrokenPipeError` when the output was closed)."""
    output = Output(sink)
    lines = read_lines(chunk_reader(source))
    while not protocol.finished:
        try:
            line = next(lines)
        except (StopIteration, OSError, ValueError):  # the end of the input, or it broke: as its end
            return
        protocol.answer(line, output)
        if output.closed:
            raise output.error


def _command_word(line: bytes | TooLong) -> str | None:
    """The command a line names (lower case), read loosely: for ``stop`` and ``quit`` only."""
    if isinstance(line, TooLong):
        return None
    words = line.decode("utf-8", "replace").split("#", 1)[0].split()
    if words and words[0].isascii() and words[0].isdigit():
        words = words[1:]
    return words[0].lower() if words else None


class Connection:
    """A protocol on a binary input and output: one thread reads lines, one
    answers them in order (searches run there), and ``stop`` cancels the
    searches asked for before it the moment it is read; ``quit`` and the end
    of the input stop an analysis without a budget (nothing else could) and
    the search within a time budget they come during (:meth:`Call.stop_at_end`).
    :meth:`run` returns at ``quit`` or the end of the input, raises the
    :class:`OSError` of a failed write (:class:`BrokenPipeError` when the
    output was closed) and :class:`KeyboardInterrupt` on Ctrl-C (after
    stopping the search)."""

    def __init__(self, protocol: LineProtocol, source, sink):
        self.protocol = protocol
        self.output = Output(sink)
        self._read = chunk_reader(source)
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._last_stop = 0  # the number of the last stop or quit line read
        self._current: tuple[int, Context] | None = None
        self._input_ended = threading.Event()
        self._done = threading.Event()
        self._interrupted = False

    def run(self) -> None:
        reader = threading.Thread(target=self._read_input, name="kozyri-engine-input", daemon=True)
        worker = threading.Thread(target=self._answer_commands, name="kozyri-engine", daemon=True)
        reader.start()
        worker.start()
        try:
            while not self._done.wait(0.5):
                pass
        except KeyboardInterrupt:
            self._interrupted = True  # no further command is answered
            self._cancel(lambda number, context: True, INTERRUPTED)
            self._queue.put(None)
            worker.join(timeout=5)  # the search stops at its next poll of the stop flag
            raise
        if self.output.closed:
            raise self.output.error

    def _cancel(self, which: Callable[[int, Context], bool], reason: str = CANCELLED) -> None:
        """Stop the command being answered if ``which`` says so: ``cancelled``
        by a stop line, ``interrupted`` by Ctrl-C or SIGTERM."""
        with self._lock:
            if self._current is not None and which(*self._current):
                self._current[1].control.stop(reason)

    def _read_input(self) -> None:
        number = 0
        try:
            for line in read_lines(self._read):
                number += 1
                word = _command_word(line)
                if word == "stop":
                    with self._lock:
                        self._last_stop = number
                    self._cancel(lambda started, context: started < number)
                self._queue.put((number, line))
                if word == "quit":
                    break  # nothing after it is answered: as the end of the input
        except (OSError, ValueError):  # the input broke: as its end
            pass
        finally:
            self._input_ended.set()
            self._cancel(lambda started, context: context.ends_with_input)
            self._queue.put(None)

    def _answer_commands(self) -> None:
        try:
            while not self.protocol.finished and not self.output.closed:
                item = self._queue.get()
                if item is None or self._interrupted:
                    return
                number, line = item
                context = Context(SearchControl(), self._input_ended)
                with self._lock:
                    self._current = (number, context)
                    if self._last_stop > number:
                        context.control.cancel()
                try:
                    self.protocol.answer(line, self.output, context)
                finally:
                    with self._lock:
                        self._current = None
        finally:
            self._done.set()


def serve(protocol: LineProtocol, source, sink) -> None:
    """Run ``protocol`` on binary streams until ``quit`` or the end of the input (see :class:`Connection`)."""
    Connection(protocol, source, sink).run()


def serve_jsonl(requests: JsonRequests, source, sink) -> None:
    """Answer JSON Lines requests from ``source`` on ``sink``, one reply a
    line, in order, until the end of the input. The input is read in a
    thread while a request is answered, so that the end of the input, when
    it comes during a search within a time budget, stops it (the best move
    so far is answered; as in :meth:`Call.stop_at_end`). Raises the
    :class:`OSError` of a failed write (:class:`BrokenPipeError` when the
    output was closed), and :class:`KeyboardInterrupt` on Ctrl-C (after the
    reply of the request it stopped)."""
    output = Output(sink)
    lines: queue.Queue = queue.Queue()
    ended = threading.Event()
    lock = threading.Lock()
    current: list = [None]  # the control of the request being answered, when the end of the input stops it

    def read_input() -> None:
        try:
            for line in read_lines(chunk_reader(source)):
                lines.put(line)
        except (OSError, ValueError):  # the input broke: as its end
            pass
        finally:
            with lock:
                ended.set()
                if current[0] is not None:
                    current[0].cancel()
            lines.put(None)

    threading.Thread(target=read_input, name="kozyri-jsonl-input", daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            continue
        if line is None:
            return
        control = SearchControl()
        with lock:  # a request read before the end of the input and answered after it runs its budget
            current[0] = None if _has_node_budget(line) or ended.is_set() else control
        try:
            reply = requests.answer(line, control)
        finally:
            with lock:
                current[0] = None
        if reply is not None:
            output.write(json.dumps(reply, allow_nan=False) + "\n")  # ASCII, standard JSON: echoed text exact
        if output.closed:
            raise output.error
        if control.interrupted:
            raise KeyboardInterrupt


def _has_node_budget(line) -> bool:
    """Does this request line ask for a node budget (read loosely: the request's own reader checks it)?"""
    if isinstance(line, TooLong):
        return False
    try:
        data = load_json(line, constants=False)  # the requests' reader: NaN, Infinity and 1e999 are no budget
    except (ValueError, TypeError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("nodes") is not None


__all__ = ["Call", "Connection", "Context", "Handler", "LineProtocol", "Output", "answer_lines", "reply_text",
           "serve", "serve_jsonl", "short"]
