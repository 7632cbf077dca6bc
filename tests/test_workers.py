"""Work done by a forked copy of the process (``kkprint.base.workers.in_fork``): what `build all`
and `export` share out. Its answer comes back, its failure comes back, and it never outlives the
process that made it — nor leaves a half-written file when that process is killed."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import running

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.outputs import atomic_file
from kkprint.base.workers import in_fork

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forked workers need os.fork (not on Windows)")


def test_the_copy_does_the_work_with_what_this_process_holds_and_answers():
    unpicklable = lambda: None  # noqa: E731  (the work is not pickled: the copy has it already)
    parent = os.getpid()
    answer = in_fork(lambda: (os.getpid(), unpicklable is not None, list(range(100_000))))
    pid, saw, numbers = answer.result()
    assert pid != parent and saw and numbers == list(range(100_000))  # (more than a pipe holds at once)


def test_what_the_copy_raised_is_raised_here():
    def refuse():
        raise InputError(Msg("unknown target '{name}'{hint}", name="zzz", hint=""), source="build")

    with pytest.raises(InputError, match="zzz"):
        in_fork(refuse).result()


def test_an_error_that_cannot_travel_is_told_by_its_name():
    class Local(Exception):  # (a class pickle cannot find by name)
        pass

    def fail():
        raise Local("no such thing")

    with pytest.raises(RuntimeError, match="Local: no such thing"):
        in_fork(fail).result()


class TwoPartError(Exception):
    def __init__(self, what, why):  # (pickle keeps only the one message: made again, it fails)
        super().__init__(f"{what}: {why}")


def test_an_error_that_cannot_be_made_again_is_told_by_its_name():
    def fail():
        raise TwoPartError("a", "b")

    with pytest.raises(RuntimeError, match="TwoPartError: a: b"):
        in_fork(fail).result()


def test_a_copy_that_ends_without_answering_is_an_internal_error_not_a_disk_error():
    with pytest.raises(RuntimeError, match="without an answer") as raised:
        in_fork(lambda: os._exit(3)).result()
    assert not isinstance(raised.value, OSError)  # (the command line says an OSError is the disk's)


def test_copies_made_one_after_the_other_each_answer():
    answers = [in_fork(lambda n=n: n * n) for n in range(4)]
    assert [answer.result() for answer in answers] == [0, 1, 4, 9]


def test_a_cancelled_copy_stops_removes_what_it_was_writing_and_is_waited_for(tmp_path):
    """What a caller whose own share failed does (Ctrl-C, an error): the copy is interrupted,
    its file is not put in place, its temporary is removed, and it has ended on return."""
    target, began = tmp_path / "out" / "half.pdf", tmp_path / "began"

    def write_slowly():
        with atomic_file(target) as temporary:
            Path(temporary).write_bytes(b"%PDF-1.4 half")
            began.write_text("yes")
            time.sleep(60)

    copy = in_fork(write_slowly)
    deadline = time.monotonic() + 30
    while not began.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert list(target.parent.glob(".half.pdf-*.part"))
    copy.cancel()
    assert not running(copy.pid)
    assert not target.parent.exists()  # (nor the folder made for it)


@pytest.mark.skipif(not Path("/proc").exists(), reason="needs Linux's /proc to see the copy")
def test_a_copy_whose_process_is_killed_stops_and_removes_what_it_was_writing(tmp_path):
    """`kill -9` of the process: its copy, half-way through a file, is interrupted as Ctrl-C
    would — the file is not put in place, its temporary is removed — and ends."""
    target, pid_file = tmp_path / "out" / "half.pdf", tmp_path / "copy.pid"
    script = textwrap.dedent(
        f"""
        import os, time
        from pathlib import Path
        from kkprint.base.outputs import atomic_file
        from kkprint.base.workers import in_fork

        def write_slowly():
            with atomic_file(Path({str(target)!r})) as temporary:
                Path(temporary).write_bytes(b"%PDF-1.4 half")
                Path({str(pid_file)!r}).write_text(str(os.getpid()))
                time.sleep(60)

        in_fork(write_slowly)
        time.sleep(60)
        """
    )
    process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    deadline = time.monotonic() + 30
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert pid_file.exists(), "the copy never began its file"
    copy = int(pid_file.read_text())
    assert list(target.parent.glob(".half.pdf-*.part"))
    process.kill()
    process.wait()
    deadline = time.monotonic() + 10
    while running(copy) and time.monotonic() < deadline:
        time.sleep(0.02)
    alive = running(copy)
    if alive:
        os.kill(copy, signal.SIGKILL)  # (not left to the next test)
    assert not alive, "the copy outlived the process that made it"
    assert not target.parent.exists()  # (nor the folder made for it)


def test_a_failed_write_takes_away_the_folders_it_made_and_only_those(tmp_path):
    """A refused build leaves no empty output folder behind: the folders made for a file that
    was not put in place are removed, innermost first, while empty — not one that was there
    before, nor one another file was written into meanwhile."""
    made = tmp_path / "a" / "b" / "c"
    with pytest.raises(InputError), atomic_file(made / "x.pdf") as temporary:
        Path(temporary).write_bytes(b"%PDF-1.4 half")
        raise InputError(Msg("is empty"), source="deck.yaml")
    assert list(tmp_path.iterdir()) == []

    kept = tmp_path / "kept"
    kept.mkdir()
    with pytest.raises(KeyboardInterrupt), atomic_file(kept / "new" / "x.pdf"):
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == [kept] and list(kept.iterdir()) == []

    with pytest.raises(InputError), atomic_file(tmp_path / "shared" / "inner" / "x.pdf"):
        with atomic_file(tmp_path / "shared" / "y.pdf") as other:
            Path(other).write_bytes(b"%PDF-1.4 whole")
        raise InputError(Msg("is empty"), source="deck.yaml")
    assert sorted(p.name for p in (tmp_path / "shared").iterdir()) == ["y.pdf"]


def test_a_folder_named_through_dot_dot_that_was_there_stays(tmp_path, monkeypatch):
    """``new/../old``: the write makes ``new`` (the system walks through it) and not ``old``, which
    was there; failing, it takes away ``new`` and leaves ``old``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old").mkdir()
    with pytest.raises(InputError), atomic_file(Path("new/../old/x.pdf")):
        raise InputError(Msg("is empty"), source="deck.yaml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old"]


def test_a_write_whose_new_folder_another_write_took_away_makes_it_again(tmp_path, monkeypatch):
    """Two processes writing into one new folder: if the other's failed write removes it between
    this write making it and opening its temporary file, this write makes it again."""
    from kkprint.base import outputs

    real, calls = outputs._temporary, []

    def folder_taken_first_time(path):
        calls.append(path)
        if len(calls) == 1:
            path.parent.rmdir()  # (what the other process's failed write did)
        return real(path)

    monkeypatch.setattr(outputs, "_temporary", folder_taken_first_time)
    target = tmp_path / "shared" / "x.pdf"
    with atomic_file(target) as temporary:
        Path(temporary).write_bytes(b"%PDF-1.4 whole")
    assert target.read_bytes() == b"%PDF-1.4 whole" and len(calls) == 2


def test_a_copy_interrupted_twice_at_once_is_interrupted_once_and_says_nothing_of_the_second():
    """Ctrl-C from the terminal and the parent's cancel can both be on their way before the copy
    handles either: the first interrupts it, the second does nothing — and Python says nothing of
    it (a handler switched to SIG_IGN meanwhile made it write "Signal 10 ignored due to race
    condition", with a traceback, into the middle of the user's interrupted line)."""
    script = textwrap.dedent(
        """
        import os, signal
        from kkprint.base.workers import _interrupted_when_closed
        reader, writer = os.pipe()
        _interrupted_when_closed(reader)
        both = {signal.SIGINT, signal.SIGUSR1}
        signal.pthread_sigmask(signal.SIG_BLOCK, both)
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGUSR1)
        interrupted = 0
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, both)  # (both arrive before either is handled)
            sum(range(100_000))
        except KeyboardInterrupt:
            interrupted += 1
        sum(range(100_000))  # the tidying up, not cut short
        print(interrupted)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1\n", "")


def test_the_watcher_thread_never_takes_a_ctrl_c_meant_for_the_main_thread():
    """A Ctrl-C sent to the whole process goes to a thread that does not block it. The watcher
    waits in a read; had it taken the Ctrl-C, the main thread's own wait in the kernel would not
    have ended (and CI once saw the interruption land a line early, in the test above). The
    watcher is born with the stops blocked: its signal mask in /proc says so."""
    script = textwrap.dedent(
        """
        import os, signal, threading
        from kkprint.base.workers import _interrupted_when_closed
        reader, writer = os.pipe()
        _interrupted_when_closed(reader)
        (watcher,) = [t for t in threading.enumerate() if t is not threading.main_thread()]
        status = open(f"/proc/self/task/{watcher.native_id}/status").read()
        blocked = int(status.split("SigBlk:")[1].split()[0], 16)
        print(*(bool(blocked >> (s - 1) & 1) for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGUSR1)))
        mine = int(open(f"/proc/self/task/{threading.get_native_id()}/status").read().split("SigBlk:")[1].split()[0], 16)
        print(mine >> (signal.SIGINT - 1) & 1)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "True True True True\n0\n", "")
