"""The Ray engine of the batch executor: one actor per CPU, each opening a job once.

Layer: base (imports no bow3d layer; `ray` is the optional extra `pip install 'bow3d[ray]'`). With
no address a private local Ray instance is started (address="local": never someone else's) and
shut down on close; with `address` (`auto` on a cluster's node, or `ray://head:10001`) the driver
joins that cluster and leaves it running. Each actor keeps an `Opened` (bow3d.batch.executor), so
a job's world is built once per actor; chunks go to the actor with the fewest in flight and are
read back in order. Workers must have the same bow3d and read the job's files at the same paths
(docs/ray-cluster.md: install it on every node and mount the scenes and the LDraw library).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterable
from typing import Any

from bow3d.batch.executor import Executor, Job, Opened, WorkerFailed
from bow3d.errors import UserInputError
from bow3d.i18n import _

INSTALL_HINT = "pip install 'bow3d[ray]'"


class _Worker:
    """The body of a Ray actor (decorated at run time: importing this module needs no Ray)."""

    def __init__(self) -> None:
        self.opened = Opened()

    def run_chunk(self, job: Job, chunk: list) -> list:
        return self.opened.run_chunk(job, chunk)

    def pid(self) -> int:
        return os.getpid()


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UserInputError(_("--engine ray needs Ray, which is not installed: {INSTALL_HINT}")
                             .format(INSTALL_HINT=INSTALL_HINT)) from None
    return ray


class RayExecutor(Executor):
    """Batch work on Ray: a local instance of `workers` CPUs, or the cluster at `address`."""

    engine = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        ray = self.ray = import_ray()
        self.address = address
        self.owns = False
        if not ray.is_initialized():
            try:
                if address is None:
                    ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
                             logging_level=logging.ERROR, configure_logging=True)
                else:
                    ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            except (ConnectionError, RuntimeError, ValueError) as error:
                where = f"the Ray cluster at {address}" if address else "a local Ray instance"
                raise UserInputError(_("cannot start or reach {where}: {error}").format(where=where, error=error)) from None
            self.owns = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers or cpus, max(cpus, 1)))
        actor = ray.remote(num_cpus=1, max_restarts=0)(_Worker)
        self.actors = [actor.remote() for _unused in range(self.workers)]
        self.in_flight = [0] * self.workers

    def submit(self, job: Job, chunk: list) -> Any:
        index = min(range(self.workers), key=self.in_flight.__getitem__)
        self.in_flight[index] += 1
        return index, self.actors[index].run_chunk.remote(job, chunk)

    def resolve(self, handle: Any) -> list:
        index, ref = handle
        ray = self.ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as error:  # the job's own error (a bad scene): raised as it is
            cause = getattr(error, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from None
            raise
        except ray.exceptions.RayActorError as error:
            raise WorkerFailed(f"a Ray worker died ({type(error).__name__}); the batch stopped, what finished "
                               "before is kept") from None
        finally:
            self.in_flight[index] -= 1

    def cancel(self, handles: Iterable[Any]) -> None:
        self.forget(handles)
        self._kill()

    def forget(self, handles: Iterable[Any]) -> None:
        for index, ref in handles:
            self.in_flight[index] -= 1   # never resolved: no longer counted against its worker
            with contextlib.suppress(Exception):  # an actor task may refuse; cancel() then kills the actors
                self.ray.cancel(ref, force=False)

    def _kill(self) -> None:
        for actor in getattr(self, "actors", []):
            with contextlib.suppress(Exception):  # already gone
                self.ray.kill(actor)
        self.actors = []

    def close(self) -> None:
        self._kill()
        if self.owns and self.ray.is_initialized():
            self.ray.shutdown()
            self.owns = False

    def describe(self) -> dict[str, Any]:
        return {"engine": self.engine, "workers": self.workers, "address": self.address or "local"}
