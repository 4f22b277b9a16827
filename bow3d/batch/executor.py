"""One executor interface for batch work: games, heatmaps, films, on local processes or on Ray.

Layer: base (imports no bow3d layer: the jobs come from the layers that know the work). A `Job`
is a small frozen dataclass, pickled to every worker: scene paths, seeds, options, never a world.
A worker opens a job once (`job.open()`: it loads the scene and builds its world there) and keeps
what it built for the next chunks of the same job, then runs items through it. `Executor.map`
hands items out in chunks, keeps a bounded window of chunks in flight (so asking for ten million
games holds a few dozen in memory, never the list), and yields the results in the order of the
items, whatever worker finished first. Results depend only on the job and the item (a game on its
seed), so they are the same on any engine and any number of workers.

More: docs/modules/base.md#executor.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import itertools
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bow3d.errors import Bow3dError, UserInputError
from bow3d.i18n import _

MAX_WORKERS = 1024
WINDOW_PER_WORKER = 3   # chunks in flight per worker: enough to keep each busy while results are read in order
OPENED_PER_WORKER = 2   # jobs a worker keeps open (a world each); the oldest is dropped beyond
MANAGER_JOIN_SECONDS = 5.0  # after Ctrl+C or an error: how long the stopped pool's manager thread is waited for


class Job:
    """Batch work: a frozen, picklable, hashable description (paths, seeds, options, never a world).

    `open()` runs once per worker and job and returns the worker's runner: an object whose
    `run(item)` returns the item's result (picklable, small). A job that cannot be opened (a bad
    scene) raises there; every chunk of that job then raises the same error in the parent.
    """

    def open(self) -> Any:
        raise NotImplementedError


class WorkerFailed(Bow3dError):
    """A worker process died (killed, out of memory) or a Ray worker was lost."""


class Opened:
    """What one worker has opened: job -> runner (or the error opening it raised), the last few jobs.
    `freeze` (a worker process's own): what is open is kept out of the collector's generations (see _settle)."""

    def __init__(self, keep: int = OPENED_PER_WORKER, freeze: bool = False) -> None:
        self.keep = keep
        self.freeze = freeze
        self.runners: collections.OrderedDict[Job, Any] = collections.OrderedDict()

    def runner(self, job: Job) -> Any:
        found = self.runners.get(job)
        if found is None:
            try:
                found = job.open()
            except Exception as error:  # noqa: BLE001 (kept: every chunk of this job raises it)
                found = error
            self.runners[job] = found
            while len(self.runners) > self.keep:
                self.runners.popitem(last=False)
            self._settle()
        self.runners.move_to_end(job)
        if isinstance(found, BaseException):
            raise found
        return found

    def _settle(self) -> None:
        """A world is tens of thousands of objects that live as long as the job is open, and every full
        collection the items trigger would walk them all again (War of Bros: 15 ms of a 420 ms game): they
        are frozen out of the generations (gc.freeze) once opened. The dropped jobs' objects are thawed and
        collected first, so nothing is frozen for good."""
        if self.freeze:
            gc.unfreeze()
            gc.collect()
            gc.freeze()

    def run_chunk(self, job: Job, chunk: list) -> list:
        runner = self.runner(job)
        return [runner.run(item) for item in chunk]


def chunked(items: Iterable, size: int) -> Iterator[list]:
    """Lists of `size` items (the last may be shorter), drawn lazily."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def progress_bar(total: int | None, label: str | None, unit: str, enabled: bool):
    """A tqdm bar on stderr: count/total, elapsed<time left, rate per second (rate and ETA need `total`).
    It stays when done, drawn once more with the final count, so the run ends with what it did."""
    from bow3d.progress import bar

    return bar(total, unit, label, enabled, dynamic_ncols=True, smoothing=0.05, mininterval=0.5, leave=True,
               unit_scale=False)


class Executor:
    """Runs a job's items on workers; see the module docstring. Subclasses give `submit` and `resolve`."""

    engine = ""
    workers = 1

    def map(self, job: Job, items: Iterable, *, total: int | None = None, chunk: int = 1, label: str | None = None,
            unit: str = "item", progress: bool = True, on_result: Callable[[Any], None] | None = None
            ) -> Iterator[Any]:
        """The results of `job` on every item, in the items' order, streamed as they come."""
        if chunk < 1:
            raise ValueError("chunk must be at least 1")
        window = max(2, WINDOW_PER_WORKER * self.workers)
        bar = progress_bar(total, label, unit, progress)
        pending: collections.deque = collections.deque()
        try:
            for part in chunked(items, chunk):
                pending.append((self.submit(job, part), len(part)))
                while len(pending) >= window:
                    yield from self._done(pending.popleft(), bar)
            while pending:
                yield from self._done(pending.popleft(), bar)
        except GeneratorExit:
            # the caller stopped reading (a zip with a shorter list, a break): the work it will not read is
            # dropped, the workers stay for the next map (stopping them here broke an arena's next pairing)
            self.forget(item for item, _unused in pending)
            raise
        except BaseException:
            self.cancel(item for item, _unused in pending)
            raise
        finally:
            bar.close()

    def _done(self, entry: tuple[Any, int], bar) -> Iterator[Any]:
        handle, count = entry
        results = self.resolve(handle)
        bar.update(count)
        yield from results

    # -- what an engine provides -----------------------------------------------------------------
    def submit(self, job: Job, chunk: list) -> Any:
        raise NotImplementedError

    def resolve(self, handle: Any) -> list:
        raise NotImplementedError

    def cancel(self, handles: Iterable[Any]) -> None:
        """Stop the work not yet resolved (after an error or Ctrl+C)."""

    def forget(self, handles: Iterable[Any]) -> None:
        """Drop work whose results nobody will read; the workers stay for the next map."""

    def close(self) -> None:
        pass

    def describe(self) -> dict[str, Any]:
        return {"engine": self.engine, "workers": self.workers}

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SerialExecutor(Executor):
    """Everything in this process, one item after the other (one worker: no pool to start)."""

    engine = "local"

    def __init__(self) -> None:
        self.workers = 1
        self.opened = Opened()

    def submit(self, job: Job, chunk: list) -> Any:
        return job, chunk  # run when resolved: in order, one at a time

    def resolve(self, handle: Any) -> list:
        job, chunk = handle
        return self.opened.run_chunk(job, chunk)


# -- local processes ---------------------------------------------------------------------------------

_OPENED: Opened | None = None


def _start_worker() -> None:
    """In each worker process: Ctrl+C is the parent's business (it stops the workers cleanly), and a
    worker ends with its parent, however the parent ended (Linux: PR_SET_PDEATHSIG)."""
    global _OPENED
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    _OPENED = Opened(freeze=True)


def _run_in_worker(job: Job, chunk: list) -> list:
    global _OPENED
    if _OPENED is None:
        _OPENED = Opened()
    return _OPENED.run_chunk(job, chunk)


def pool_context() -> Any:
    """fork where there is one (workers start in milliseconds and inherit what the parent imported),
    else spawn."""
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


class LocalExecutor(Executor):
    """A pool of `workers` processes on this machine, each opening a job once."""

    engine = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers, mp_context=pool_context(), initializer=_start_worker)

    def submit(self, job: Job, chunk: list) -> Future:
        try:
            return self.pool.submit(_run_in_worker, job, chunk)
        except BrokenProcessPool as error:
            raise WorkerFailed(f"a worker process died ({error}); nothing more can be run on this pool") from None

    def resolve(self, handle: Future) -> list:
        try:
            return handle.result()
        except BrokenProcessPool:
            raise WorkerFailed("a worker process died (killed, or out of memory?): the batch stopped; what "
                               "finished before is kept") from None

    def cancel(self, handles: Iterable[Future]) -> None:
        self.forget(handles)
        self._stop()

    def forget(self, handles: Iterable[Future]) -> None:
        for future in handles:
            future.cancel()   # a chunk already running finishes; its result is dropped

    def _stop(self) -> None:
        processes = list((getattr(self.pool, "_processes", None) or {}).values())  # the pool's own children only
        manager = getattr(self.pool, "_executor_manager_thread", None)   # shutdown forgets it
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(5)
        # The pool's manager thread closes its wake-up pipe as it ends, while Python 3.11's exit hook writes to that
        # pipe unguarded: a Ctrl+C under load printed 'OSError: [Errno 9] Bad file descriptor' with a traceback
        # after the clean summary. Waiting for the thread here leaves the hook a closed pipe it skips.
        if manager is not None:
            manager.join(MANAGER_JOIN_SECONDS)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def default_workers() -> int:
    """The cores this process may use (os.sched_getaffinity where there is one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def check_workers(workers: int | None, what: str = "--workers") -> int | None:
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise UserInputError(_("{what} must be 1 to {MAX_WORKERS}, got {workers}")
                             .format(what=what, MAX_WORKERS=MAX_WORKERS, workers=workers))
    return workers
