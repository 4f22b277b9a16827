"""The batch executor (bow3d.batch): results in order, each worker opens a job once, errors are the
job's own, items drawn lazily (a bounded window), results streamed to disk; GameJob games are the
same on any number of workers."""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass

import pytest

from bow3d.batch import Spool, open_executor
from bow3d.errors import SceneError

OPENED: list[str] = []  # what this process opened (each worker process has its own copy)


@dataclass(frozen=True)
class Square:
    """A toy job: item i -> (i, i * i, worker pid, how many times this worker opened this job)."""

    name: str = "square"
    pause_s: float = 0.0

    def open(self):
        OPENED.append(self.name)
        return self

    def run(self, item: int):
        time.sleep(self.pause_s * ((item * 7) % 5))  # uneven: later items may finish first
        return item, item * item, os.getpid(), OPENED.count(self.name)


@dataclass(frozen=True)
class Broken:
    def open(self):
        raise SceneError("broken.yaml: the battlefield cannot be built (test)")


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_results_come_back_in_the_items_order(workers):
    with open_executor("local", workers) as executor:
        results = list(executor.map(Square(pause_s=0.002), range(40), total=40, progress=False))
    assert [(i, sq) for i, sq, _, _ in results] == [(i, i * i) for i in range(40)]
    assert executor.workers == workers


def test_each_worker_opens_a_job_once_and_keeps_it_for_the_next_map():
    with open_executor("local", 2) as executor:
        first = list(executor.map(Square("a"), range(30), progress=False))
        again = list(executor.map(Square("a"), range(30, 40), chunk=3, progress=False))
        other = list(executor.map(Square("b"), range(10), progress=False))
    for results in (first, again, other):
        assert {opened for *_, opened in results} == {1}  # never opened twice in one worker


def test_a_job_that_cannot_be_opened_raises_its_own_error_on_any_engine():
    for workers in (1, 2):
        with open_executor("local", workers) as executor, pytest.raises(SceneError, match="cannot be built"):
            list(executor.map(Broken(), range(5), progress=False))


def test_items_are_drawn_lazily_a_bounded_window_at_a_time():
    drawn = itertools.count()
    items = (next(drawn) for _ in itertools.count())  # endless
    with open_executor("local", 2) as executor:
        results = executor.map(Square(), items, chunk=2, progress=False)
        first = [next(results) for _ in range(10)]
        results.close()
    assert [r[0] for r in first] == list(range(10))
    assert next(drawn) < 10 + 2 * 3 * 2 + 2 + 1  # what was handed out: the results read plus one window


@pytest.mark.parametrize("workers", [1, 2])
def test_a_map_read_only_in_part_leaves_the_workers_for_the_next_map(workers):
    """A caller may stop reading a map early (zip with a shorter list, a break): the work it will not read
    is dropped and the workers stay; only an error or Ctrl+C stops them."""
    with open_executor("local", workers) as executor:
        read = [r[0] for _, r in zip(range(5), executor.map(Square(), range(40), progress=False))]
        again = [r[0] for r in executor.map(Square(), range(6), progress=False)]
    assert read == list(range(5)) and again == list(range(6))


def test_an_error_stops_the_pool_and_its_manager_thread_before_returning():
    """After an error (or Ctrl+C) the workers are terminated and the pool's manager thread has ended: Python
    3.11's exit hook writes to that thread's wake-up pipe unguarded, and a thread still closing it at exit printed
    'OSError: [Errno 9] Bad file descriptor' with a traceback after simulate's clean Ctrl+C summary."""

    managers = []

    def failing():
        yield from range(3)
        managers.append(executor.pool._executor_manager_thread)   # the pool's, while it runs
        raise KeyboardInterrupt

    executor = open_executor("local", 2)
    with pytest.raises(KeyboardInterrupt):
        list(executor.map(Square(pause_s=0.05), failing(), progress=False))
    assert managers and managers[0] is not None and not managers[0].is_alive()


def test_unknown_engine_and_workers_are_plain_errors():
    from bow3d.errors import UserInputError

    with pytest.raises(UserInputError, match="choose one of local, ray"):
        open_executor("spark")
    with pytest.raises(UserInputError, match="--workers must be 1 to"):
        open_executor("local", 0)
    with pytest.raises(UserInputError, match="--address goes with --engine ray"):
        open_executor("local", 1, "auto")


def test_a_spool_streams_to_disk_and_reads_back_in_order(tmp_path):
    spool = Spool(lambda r: {"n": r}, lambda d: d["n"])
    for n in range(1000):
        spool.append(n)
    assert len(spool) == 1000 and list(spool) == list(range(1000)) and list(spool)[:3] == [0, 1, 2]
    spool.close()
    kept = tmp_path / "results.jsonl"
    spool = Spool(lambda r: {"n": r}, lambda d: d["n"], kept)
    spool.append(7)
    spool.finish()
    assert kept.read_text() == '{"n":7}\n' and list(spool) == [7]
    with pytest.raises(SceneError.__mro__[1], match="already exists"):  # UserInputError: never overwritten
        Spool(lambda r: r, lambda d: d, kept)


def test_game_jobs_give_the_same_games_on_any_number_of_workers(scene_path):
    from bow3d.replay.simulate import simulate
    from tests.replay.test_session import flat

    runs = [simulate(scene_path, 9, seed=4, workers=w, max_rounds=6, geometry_factory=flat) for w in (1, 3)]
    one, three = ([(r.seed, r.winner, r.rounds, r.records, r.fallen, r.kills) for r in run.results] for run in runs)
    assert one == three and [r[0] for r in one] == list(range(4, 13))
    assert runs[0].wins == runs[1].wins and runs[1].workers == 3
    assert any(r[5] for r in one)  # kills are attributed to the attacker whose attack took the unit out
