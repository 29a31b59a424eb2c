"""The two ways :class:`~kozyri.protocols.client.Engine` reaches an engine,
and what can go wrong on the way: in this process (the code of ``kozyri
engine --jsonl``, answering each request line as the command would), or a
subprocess speaking JSON Lines on its standard input and output (a reply
waited for with a timeout, the process reaped when it ends or hangs)."""

from __future__ import annotations

import collections
import json
import queue
import subprocess
import threading

from kozyri.core import ProtocolError

#: Seconds a subprocess is given to end after its input is closed (then to end after SIGTERM).
QUIT_GRACE_SECONDS = 5.0


class EngineError(ProtocolError):
    """The engine refused a request; the message is the engine's one line."""


class EngineTerminatedError(EngineError):
    """The engine is gone: its process ended (or was killed), or it was quit."""


class EngineTimeoutError(EngineError, TimeoutError):
    """A reply did not come in time (the subprocess is killed: it cannot be trusted to answer in order)."""


# --- the two ways to reach an engine ----------------------------------------------------
class InProcessTransport:
    """Requests answered in this process by the code of ``kozyri engine --jsonl``."""

    def __init__(self, level=None, tables=None):
        from importlib.metadata import PackageNotFoundError, version

        from kozyri.protocols.analysis import Strength
        from kozyri.protocols.messages import JsonRequests

        if tables is None:
            from kozyri.owntrumps.table_store import TableStore

            tables = TableStore()  # as the command: stored tables answer small decks exactly
        strength = Strength() if level is None else Strength(level=level)
        try:
            program = version("kozyri")  # the version the command answers, read as kozyri.__version__ reads it
        except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
            program = "unknown"
        self._requests = JsonRequests(strength, version=program, tables=tables)
        self._control = None
        self._closed = False

    def exchange(self, line: str, timeout: float | None) -> dict:
        from kozyri.search.control import SearchControl

        if self._closed:
            raise EngineTerminatedError("the engine was quit")
        self._control = SearchControl()
        try:
            return self._requests.answer(line.encode("utf-8"), self._control)
        finally:
            self._control = None

    def cancel(self) -> None:
        control = self._control
        if control is not None:
            control.cancel()

    def close(self) -> None:
        self.cancel()
        self._closed = True


class SubprocessTransport:
    """Requests written to a subprocess's standard input, replies read from
    its output by a reader thread (so that a wait can time out); its
    standard error is drained by another thread (its last lines explain an
    end)."""

    def __init__(self, command, timeout: float | None, popen_args: dict):
        self.command = [str(word) for word in command]
        self.timeout = timeout
        try:
            # A session of its own: Ctrl-C at a terminal reaches the caller, which quits the engine.
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, **{"start_new_session": True, **popen_args})
        except OSError as exc:
            raise EngineTerminatedError(f"cannot start the engine {' '.join(self.command)}: {exc}") from None
        self._replies: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=20)
        self._threads = [threading.Thread(target=self._read_replies, name="kozyri-client-replies", daemon=True),
                         threading.Thread(target=self._read_errors, name="kozyri-client-stderr", daemon=True)]
        for thread in self._threads:
            thread.start()
        self._gone = False

    def _read_replies(self) -> None:
        try:
            for line in self.process.stdout:
                self._replies.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self._replies.put(None)

    def _read_errors(self) -> None:
        try:
            for line in self.process.stderr:
                self._stderr.append(line.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def _ended(self) -> EngineTerminatedError:
        """The error for an engine whose output ended: its exit code and last words."""
        self._gone = True
        try:
            code = self.process.wait(QUIT_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            self.close()
            code = self.process.returncode
        last = next((line for line in reversed(self._stderr) if line.strip()), None)
        return EngineTerminatedError(f"the engine ended (exit code {code})" + (f": {last}" if last else ""))

    def exchange(self, line: str, timeout: float | None) -> dict:
        if self._gone:
            raise EngineTerminatedError("the engine was quit" if self.process.returncode in (None, 0)
                                        else f"the engine ended (exit code {self.process.returncode})")
        try:
            self.process.stdin.write(line.encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except (OSError, ValueError):
            raise self._ended() from None
        try:
            reply = self._replies.get(timeout=timeout)
        except queue.Empty:
            self.close(hung=True)
            raise EngineTimeoutError(f"the engine did not answer within {timeout:g} seconds (it was stopped)") from None
        if reply is None:
            raise self._ended()
        try:
            return json.loads(reply)
        except ValueError:
            self.close(hung=True)
            raise EngineError(f"the engine answered something that is not JSON: {reply[:80]!r}") from None

    def cancel(self) -> None:
        """A search in a subprocess runs to its budget (the JSON Lines form has no stop)."""

    def close(self, hung: bool = False) -> None:
        """End the process: its input closed (it ends at the end of its input),
        then SIGTERM, then SIGKILL, each after a grace period (a ``hung``
        process is killed at once); always reaped."""
        self._gone = True
        process = self.process
        if process.poll() is None:
            try:
                process.stdin.close()
            except OSError:
                pass
            for stop in ((process.kill,) if hung else (None, process.terminate, process.kill)):
                if stop is not None:
                    stop()
                try:
                    process.wait(QUIT_GRACE_SECONDS)
                    break
                except subprocess.TimeoutExpired:
                    continue
        process.wait()
        for thread in self._threads:
            thread.join(QUIT_GRACE_SECONDS)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()
            except OSError:
                pass


def close_quietly(transport) -> None:
    try:
        transport.close()
    except Exception:  # collected at exit: nothing to tell anybody
        pass
