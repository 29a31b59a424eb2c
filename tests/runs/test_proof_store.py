"""The proof store (kozyri.runs.proof_store): jobs, lemmas and solves kept
across runs and processes, on SQLite and on PostgreSQL.

Every test that takes ``target`` runs on a SQLite file and on PostgreSQL;
the PostgreSQL ones are skipped unless ``KOZYRI_TEST_POSTGRES`` names a
database the tests may write (each test works in a schema of its own,
dropped afterwards; docs/offline.md, "The proof store")::

    KOZYRI_TEST_POSTGRES=postgresql://kozyri@127.0.0.1:55432/kozyri_test \\
        python -m pytest -q tests/runs/test_proof_store.py

Nothing here waits for a clock: processes are killed after they said
"done", two writers run to their end, a lock is held until released.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from urllib.parse import quote

import pytest

from kozyri.core import InvalidInput
from kozyri.runs.proof_store import (
    BATCH,
    SCHEMA_VERSION,
    UPSERT_JOB,
    JobRecord,
    ProofConflict,
    ProofStoreError,
    open_proof_store,
)

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = os.environ.get("KOZYRI_TEST_POSTGRES")
GAME = {"deck": "4x3", "trumps": "SH", "rules": {"must_beat": True, "pass_sixes": False}, "keys": 1}
INF = 2**62


@pytest.fixture
def postgres_url():
    """A schema of its own in the database KOZYRI_TEST_POSTGRES names (skipped without it), dropped afterwards."""
    if not POSTGRES:
        pytest.skip("set KOZYRI_TEST_POSTGRES=postgresql://... to test the PostgreSQL proof store")
    psycopg = pytest.importorskip("psycopg")
    schema = f"kozyri_test_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    yield f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(POSTGRES, autocommit=True) as db:
        db.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def target(request, tmp_path):
    """A new store's target: a SQLite file, or a PostgreSQL address (where KOZYRI_TEST_POSTGRES is set)."""
    if request.param == "sqlite":
        return str(tmp_path / "proofs.db")
    return request.getfixturevalue("postgres_url")


def raw_execute(target: str, query: str) -> None:
    """``query`` run on the store's database directly (not through the store)."""
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as db:
            db.execute(query)
    else:
        db = sqlite3.connect(target, isolation_level=None)
        try:
            db.execute(query)
        finally:
            db.close()


def python(code: str, *args: str, **options) -> subprocess.Popen:
    """Another Python process running ``code`` (``sys.argv[1:]``: ``args``)."""
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options)


def finished(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, out + err
    return out


def settle(store, game, key, q=0, status="proved", **more):
    numbers = {"proved": (0, INF), "disproved": (INF, 0), "open": (3, 4)}[status]
    values = {"pn": numbers[0], "dn": numbers[1], "nodes": 100, "seconds": 0.5, **more}
    return store.finish_job(game, key, q, status=status, **values)


# --- round trips ------------------------------------------------------------------------------
def test_a_job_round_trips_and_outlives_its_store(target):
    with open_proof_store(target) as store:
        game = store.game(GAME)
        assert store.game(json.loads(json.dumps(GAME, sort_keys=True))) == game  # compared by canonical JSON
        other = store.game({**GAME, "keys": 2})
        assert other != game and store.games() == {game: GAME, other: {**GAME, "keys": 2}}
        assert store.get(game, b"\x00k", 0) is None
        written = store.finish_job(game, b"\x00k", 0, status="open", pn=7, dn=9, nodes=1234, seconds=1.5,
                                   position='{"hands": [[1], [2]]}')
        assert written == store.get(game, b"\x00k", 0)
        assert (written.status, written.pn, written.dn, written.nodes, written.seconds, written.runs,
                written.depth, written.lemma, written.position) == ("open", 7, 9, 1234, 1.5, 1, 0, None,
                                                                    '{"hands": [[1], [2]]}')
        assert not written.settled and written.updated > 0
        assert store.get(game, b"\x00k", 1) is None and store.get(other, b"\x00k", 0) is None
    with open_proof_store(target) as again:
        assert again.game(GAME) == game
        assert again.get(game, b"\x00k", 0) == written


def test_runs_add_up_and_a_settled_job_stays_settled(target):
    with open_proof_store(target) as store:
        game = store.game(GAME)
        settle(store, game, b"k", status="open", nodes=1000, seconds=1.0, position="{}")
        settle(store, game, b"k", status="open", nodes=2000, seconds=2.0)
        proved = settle(store, game, b"k", status="proved", nodes=500, seconds=0.5, depth=11)
        assert (proved.status, proved.pn, proved.dn, proved.nodes, proved.seconds, proved.runs, proved.depth,
                proved.position) == ("proved", 0, INF, 3500, 3.5, 3, 11, "{}")
        # A run that stopped on a job another run settled: its effort counts, the answer stays.
        late = settle(store, game, b"k", status="open", nodes=10, seconds=0.25, depth=0)
        assert (late.status, late.pn, late.dn, late.depth, late.nodes, late.runs) == ("proved", 0, INF, 11, 3510, 4)
        # The same answer again: counted, the first depth kept.
        again = settle(store, game, b"k", status="proved", nodes=10, seconds=0.25, depth=3)
        assert (again.status, again.depth, again.nodes, again.runs) == ("proved", 11, 3520, 5)
        assert store.get(game, b"k", 0) == again


def test_a_disagreeing_settle_is_refused_and_changes_nothing(target):
    with open_proof_store(target) as store:
        game = store.game(GAME)
        proved = settle(store, game, b"k", status="proved", lemma_body=b"L", lemma_claim="win", lemma_side=0)
        with pytest.raises(ProofConflict, match="is proved, and a run says disproved: two proofs disagree"):
            settle(store, game, b"k", status="disproved", lemma_body=b"M", lemma_claim="hold", lemma_side=1)
        assert store.get(game, b"k", 0) == proved
        assert store.stats(game)["lemmas"] == 1
        disproved = settle(store, game, b"d", status="disproved")
        with pytest.raises(ProofConflict):
            settle(store, game, b"d", status="proved")
        assert store.get(game, b"d", 0) == disproved


def test_get_many_answers_what_ran_in_batches(target):
    with open_proof_store(target) as store:
        game, other = store.game(GAME), store.game({"deck": "other"})
        keys = [i.to_bytes(4, "big") for i in range(BATCH + 40)]  # more than one query's worth
        written = {}
        for i, key in enumerate(keys):
            if i % 3 == 0:
                written[(key, 0)] = settle(store, game, key, 0, status="open", nodes=i)
            if i % 5 == 0:
                written[(key, 1)] = settle(store, game, key, 1, status="proved" if i % 2 else "disproved")
        settle(store, other, keys[1], 0, status="open")  # another game's job is not this game's
        asked = [(key, q) for key in keys for q in (0, 1)] + [(b"never", 0)]
        assert store.get_many(game, asked) == written
        assert store.get_many(game, [(bytearray(keys[0]), 0)]) == {(keys[0], 0): written[(keys[0], 0)]}
        assert store.get_many(game, []) == {}
        assert all(isinstance(record, JobRecord) for record in written.values())


def test_the_upsert_itself_refuses_a_disagreeing_settle(target):
    """What keeps two coordinators settling one job at once apart: the upsert's
    guard writes nothing when the stored answer is the other one (the
    store's first look may be older than another coordinator's commit)."""
    with open_proof_store(target) as store:
        game = store.game(GAME)
        proved = settle(store, game, b"k", status="proved", depth=4)
    args = (game, b"k", 0, "disproved", INF, 0, 5, 0.5, 0, None, None, 1.0)
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as db:
            assert db.execute(UPSERT_JOB.replace("?", "%s"), args).rowcount == 0
    else:
        db = sqlite3.connect(target, isolation_level=None)
        try:
            assert db.execute(UPSERT_JOB, args).rowcount == 0
        finally:
            db.close()
    with open_proof_store(target) as store:
        assert store.get(game, b"k", 0) == proved


# --- lemmas ---------------------------------------------------------------------------------------
def test_lemma_blobs_of_megabytes_round_trip(target):
    body = os.urandom(3 * 2**20 + 17)  # incompressible: the store keeps the bytes as given
    with open_proof_store(target) as store:
        game = store.game(GAME)
        settle(store, game, b"big", 1, status="open", position='{"p": 1}')
        job = settle(store, game, b"big", 1, status="proved", depth=5, lemma_body=body, lemma_claim="win",
                     lemma_side=1)
        lemma = store.lemma(job.lemma)
        assert (lemma.game, lemma.key, lemma.q, lemma.side, lemma.claim, lemma.position) == (
            game, b"big", 1, 1, "win", '{"p": 1}')
        assert lemma.body == body
        # A second proof of the same job keeps the first lemma (no second blob).
        again = settle(store, game, b"big", 1, status="proved", lemma_body=b"other", lemma_claim="win",
                       lemma_side=1)
        assert again.lemma == job.lemma
        assert store.lemmas_for(game, [(b"big", 1), (b"big", 0), (b"none", 0)]) == {(b"big", 1): lemma}
        stats = store.stats(game)
        assert stats["lemmas"] == 1 and stats["lemma_bytes"] == len(body)
        with pytest.raises(InvalidInput, match="no lemma 999"):
            store.lemma(999)
    with open_proof_store(target) as again_opened:
        assert again_opened.lemma(job.lemma).body == body


def test_bad_values_are_refused_before_anything_is_written(target):
    with open_proof_store(target) as store:
        game = store.game(GAME)
        bad = [({"key": "text"}, "key must be bytes"), ({"status": "won"}, "status is one of"),
               ({"nodes": -1}, "the nodes must be at least 0"), ({"seconds": float("nan")}, "seconds"),
               ({"pn": 2**63}, "pn must be at most"), ({"q": -1}, "q \\(the side asked about\\)"),
               ({"status": "open", "lemma_body": b"x", "lemma_claim": "win", "lemma_side": 0}, "settled job"),
               ({"lemma_body": b"x", "lemma_side": 0}, "needs its claim"),
               ({"lemma_body": "x", "lemma_claim": "win", "lemma_side": 0}, "body must be bytes"),
               ({"game": 999}, "no game 999"), ({"position": {"a": 1}}, "position must be text")]
        for change, message in bad:
            values = {"game": game, "key": b"k", "q": 0, "status": "proved", "pn": 0, "dn": 1, "nodes": 1,
                      "seconds": 0.0, **change}
            with pytest.raises(InvalidInput, match=message):
                store.finish_job(values.pop("game"), values.pop("key"), values.pop("q"), **values)
        with pytest.raises(InvalidInput, match="descriptor must be a JSON object"):
            store.game(["4x3"])
        with pytest.raises(InvalidInput, match="plain JSON"):
            store.game({"deck": object()})
        assert store.stats()["jobs"] == {"proved": 0, "disproved": 0, "open": 0}


# --- solves and statistics ----------------------------------------------------------------------
def test_solves_are_recorded_as_the_run_goes(target):
    with open_proof_store(target) as store:
        game = store.game(GAME)
        first = store.record_solve(game, b"root", {"position": '{"deal": 7}', "nodes": 0, "status": "running"})
        assert (first.position, first.value, first.nodes, first.finished, first.details) == (
            '{"deal": 7}', None, 0, None, {"status": "running"})
        store.record_solve(game, b"root2", {"position": '{"deal": 8}'})
        last = store.record_solve(game, b"root", {"value": 1, "nodes": 10**12, "seconds": 3600.5,
                                                  "wall_seconds": 120.25, "certificate": Path("c/deal7.cert"),
                                                  "finished": 1.7e9, "status": "proved", "jobs": 4000})
        assert (last.id, last.started, last.position, last.value, last.nodes, last.seconds, last.wall_seconds,
                last.certificate, last.finished, last.details) == (
            first.id, first.started, '{"deal": 7}', 1, 10**12, 3600.5, 120.25, "c/deal7.cert", 1.7e9,
            {"status": "proved", "jobs": 4000})
        assert [s.root_key for s in store.solves()] == [b"root", b"root2"]
        assert store.solves(store.game({"deck": "none"})) == []
        with pytest.raises(InvalidInput, match="a solve's nodes"):
            store.record_solve(game, b"root", {"nodes": -3})
    with open_proof_store(target) as again:
        assert again.solves(game)[0] == last


def test_stats_count_jobs_lemmas_and_bytes(target):
    with open_proof_store(target) as store:
        game, other = store.game(GAME), store.game({"deck": "other"})
        settle(store, game, b"a", status="proved", nodes=10, lemma_body=b"12345", lemma_claim="win", lemma_side=0)
        settle(store, game, b"b", status="disproved", nodes=20)
        settle(store, game, b"c", status="open", nodes=30)
        settle(store, other, b"a", status="open", nodes=40)
        store.record_solve(game, b"a", {})
        mine, every = store.stats(game), store.stats()
        assert mine["jobs"] == {"proved": 1, "disproved": 1, "open": 1} and mine["nodes"] == 60
        assert (mine["lemmas"], mine["lemma_bytes"], mine["solves"], mine["games"]) == (1, 5, 1, 1)
        assert every["jobs"]["open"] == 2 and every["nodes"] == 100 and every["games"] == 2
        if store.backend == "sqlite":
            assert every["file_bytes"] > 0
        else:
            assert every["file_bytes"] is None


def test_a_closed_store_says_so():
    store = open_proof_store(":memory:")
    game = store.game(GAME)
    store.close()
    store.close()
    with pytest.raises(ProofStoreError, match="is closed"):
        store.get(game, b"k", 0)


# --- several processes -----------------------------------------------------------------------------
WRITE_AND_WAIT = """
    import sys, time
    from kozyri.runs.proof_store import open_proof_store
    store = open_proof_store(sys.argv[1])
    game = store.game({"deck": "4x3", "trumps": "SH", "rules": {"must_beat": True, "pass_sixes": False}, "keys": 1})
    store.finish_job(game, b"killed", 0, status="proved", pn=0, dn=2**62, nodes=77, seconds=0.5, depth=9,
                     position='{"p": 9}', lemma_body=bytes(range(256)) * 1000, lemma_claim="win", lemma_side=0)
    store.record_solve(game, b"killed", {"value": 1, "status": "proved"})
    print("done", flush=True)
    time.sleep(600)
"""


def test_a_commit_survives_kill_9_of_its_process(target):
    """The writer is killed right after finish_job returned (store still open, nothing closed or checkpointed)."""
    writer = python(WRITE_AND_WAIT, target)
    try:
        line = writer.stdout.readline()
        assert line == "done\n", line + writer.stderr.read()
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=60)
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    assert writer.returncode == -signal.SIGKILL
    with open_proof_store(target) as store:
        game = store.game(GAME)
        job = store.get(game, b"killed", 0)
        assert (job.status, job.nodes, job.runs, job.depth, job.position) == ("proved", 77, 1, 9, '{"p": 9}')
        assert store.lemma(job.lemma).body == bytes(range(256)) * 1000
        assert store.solves(game)[0].value == 1


READ_AND_WRITE = """
    import json, sys
    from kozyri.runs.proof_store import open_proof_store
    with open_proof_store(sys.argv[1]) as store:
        game = store.game({"keys": 1, "rules": {"pass_sixes": False, "must_beat": True}, "trumps": "SH", "deck": "4x3"})
        job = store.get(game, b"shared", 1)
        print(json.dumps([game, job.status, job.nodes, job.position]))
        store.finish_job(game, b"from child", 0, status="disproved", pn=2**62, dn=0, nodes=5, seconds=0.1)
"""


def test_a_second_process_reads_what_the_first_wrote(target):
    with open_proof_store(target) as store:  # kept open while the other process reads and writes
        game = store.game(GAME)
        settle(store, game, b"shared", 1, status="open", nodes=42, position='{"x": 0}')
        answer = json.loads(finished(python(READ_AND_WRITE, target)))
        assert answer == [game, "open", 42, '{"x": 0}']
        assert store.get(game, b"from child", 0).status == "disproved"


CONCURRENT_WRITER = """
    import sys
    from kozyri.runs.proof_store import open_proof_store
    with open_proof_store(sys.argv[1]) as store:
        print("ready", flush=True)
        sys.stdin.readline()  # both start together
        game = store.game({"deck": "race"})
        for i in range(int(sys.argv[2])):
            store.finish_job(game, b"hot", 0, status="open", pn=1, dn=1, nodes=1, seconds=0.5)
            store.finish_job(game, b"mine-" + sys.argv[3].encode() + str(i).encode(), 0, status="open",
                             pn=1, dn=1, nodes=3, seconds=0)
        print(game)
"""


def test_two_writers_lose_no_count(target):
    """Two coordinators adding to one job at the same time: every node, second and run counted."""
    rounds = 100
    writers = [python(CONCURRENT_WRITER, target, str(rounds), name, stdin=subprocess.PIPE) for name in ("a", "b")]
    for writer in writers:
        assert writer.stdout.readline() == "ready\n", writer.stderr.read()
    for writer in writers:
        writer.stdin.write("go\n")
        writer.stdin.flush()
    games = {int(finished(writer)) for writer in writers}
    assert len(games) == 1  # both made the one game
    with open_proof_store(target) as store:
        game = store.game({"deck": "race"})
        hot = store.get(game, b"hot", 0)
        assert (hot.nodes, hot.runs, hot.seconds) == (2 * rounds, 2 * rounds, rounds * 1.0)
        assert store.stats(game)["jobs"]["open"] == 1 + 2 * rounds


# --- versions and bad targets ----------------------------------------------------------------------
def test_a_store_of_a_newer_schema_is_refused(target):
    open_proof_store(target).close()
    raw_execute(target, f"UPDATE proof_store_version SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(InvalidInput, match=f"written by a newer kozyri .*schema version {SCHEMA_VERSION + 1}"):
        open_proof_store(target)


def test_bad_files_are_one_clear_line(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all\n" * 10)
    other = tmp_path / "other.db"
    raw_execute(str(other), "CREATE TABLE tables (id TEXT)")
    cases = [(tmp_path, "is a folder: a proof store is a file"),
             (tmp_path / "missing" / "proofs.db", "there is no folder"),
             (text, "is not a proof store \\(not a SQLite database\\)"),
             (other, "is not a proof store \\(a SQLite database of something else: its tables are tables\\)")]
    for target, message in cases:
        with pytest.raises(InvalidInput, match=message) as caught:
            open_proof_store(target)
        assert "\n" not in str(caught.value) and str(target) in str(caught.value)
    assert text.read_text().startswith("not a database")  # left as it was


def test_a_locked_file_is_refused_at_open_and_in_use(tmp_path):
    path = tmp_path / "proofs.db"
    user = open_proof_store(path, timeout=0.2)
    game = user.game(GAME)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's writer, held until released
    try:
        with pytest.raises(InvalidInput, match="is locked by another process \\(waited 0.2 s\\)"):
            open_proof_store(path, timeout=0.2)
        with pytest.raises(ProofStoreError, match="stayed locked by another process"):
            settle(user, game, b"k")
        assert user.get(game, b"k", 0) is None  # readers go on (WAL)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert settle(user, game, b"k").status == "proved"
    user.close()


AS_ORDINARY_USER = """
    import os, sys
    from kozyri.core import InvalidInput
    from kozyri.runs.proof_store import open_proof_store
    if os.geteuid() == 0:  # root writes anywhere: be nobody (everything needed is imported already)
        os.setgid(65534)
        os.setuid(65534)
    for target in sys.argv[1:]:
        try:
            open_proof_store(target).close()
            print("opened")
        except InvalidInput as exc:
            print(exc)
"""


@pytest.fixture
def shared_dir():
    """A folder any user may enter (pytest's own are the user's alone), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="kozyri-proof-store-"))
    folder.chmod(0o755)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir():
            path.chmod(0o755)
    shutil.rmtree(folder)


def test_read_only_locations_are_refused(shared_dir):
    read_only_file = shared_dir / "ro.db"
    open_proof_store(read_only_file).close()
    read_only_file.chmod(0o444)
    folder = shared_dir / "ro-folder"
    folder.mkdir()
    writable_in_it = folder / "rw.db"
    open_proof_store(writable_in_it).close()
    for path in folder.iterdir():
        path.chmod(0o666)
    folder.chmod(0o555)
    writable = shared_dir / "rw"
    writable.mkdir()
    writable.chmod(0o777)
    lines = finished(python(AS_ORDINARY_USER, str(read_only_file), str(folder / "new.db"), str(writable_in_it),
                            str(writable / "new.db"))).splitlines()
    assert lines == [f"the proof store {read_only_file} is read-only: a store needs to write",
                     f"cannot make the proof store {folder / 'new.db'}: the folder {folder} is read-only "
                     "(a store writes its journal beside its file)",
                     f"cannot open the proof store {writable_in_it}: the folder {folder} is read-only "
                     "(a store writes its journal beside its file)",
                     "opened"]


def test_postgres_without_psycopg_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    with pytest.raises(InvalidInput, match=r"needs psycopg 3: pip install .*\[postgres\]'$"):
        open_proof_store("postgresql://kozyri@127.0.0.1:55432/kozyri_test")


def test_an_unreachable_postgres_server_is_one_line():
    pytest.importorskip("psycopg")
    with pytest.raises(InvalidInput) as caught:
        open_proof_store("postgresql://nobody:secret@127.0.0.1:1/x")
    message = str(caught.value)
    assert message.startswith("cannot open the PostgreSQL proof store postgresql://nobody:***@127.0.0.1:1/x: ")
    assert "\n" not in message and "secret" not in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_a_postgres_address_is_told_apart_from_a_file_by_one_rule():
    from kozyri.checks import is_postgres_url

    assert is_postgres_url("postgresql://ann@db.example/proofs") and is_postgres_url("postgres://db/x")
    assert not any(is_postgres_url(target) for target in ("proofs.db", "/tmp/postgresql://x", "POSTGRESQL://x",
                                                          None, 5))
