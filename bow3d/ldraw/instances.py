"""Part instances of a loaded model as columns of arrays; `PartInstance` objects built on demand.

Layer: ldraw. A model of a million placements must not cost a million Python objects: the
loader fills one row per instance (part, world transform, colour, flags, where it was placed)
and `InstanceTable[i]` builds the `PartInstance` the first time someone asks for it.

    part       (N,) int32         index into `keys` (the part key of `Model.parts`)
    transform  (N, 4, 4) float64  world transform (part's LDraw frame -> world frame, Z up, LDU)
    colour     (N,) int32         LDraw colour code (16 = main colour, never resolved)
    inverted   (N,) bool          placed through an odd number of BFC INVERTNEXT
    missing    (N,) bool          the part could not be found: a magenta box stands in
    origin     (N,) int32         the type 1 line that placed it (see `Origins`)
    path       (N,) int32         the sub-models it came through (see `Paths`); -1: none
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from bow3d.ldraw.mesh import PartInstance
from bow3d.ldraw.parse import LDrawFile, normalise_name

LOOSE = "(loose geometry)"


def instance_name(name: str) -> str:
    """The name an instance shows: the reference normalised, without folders ('s/x.dat' -> 'x.dat')."""
    return normalise_name(name).rsplit("/", 1)[-1]


@dataclass
class Origins:
    """Where instances were placed: one id per type 1 line of every sub-model read, plus one per
    sub-model for its loose geometry (id = the file's base, then base + 1 + row of the line)."""

    files: list[LDrawFile] = field(default_factory=list)
    bases: list[int] = field(default_factory=list)
    total: int = 0
    _names: np.ndarray | None = None
    _name_list: list[str] = field(default_factory=list)

    def add(self, f: LDrawFile) -> int:
        """Register a file; returns its base id."""
        base = self.total
        self.files.append(f)
        self.bases.append(base)
        self.total += f.ref_count + 1
        return base

    def where(self, origin: int) -> tuple[str, int, str]:
        """(file name, line, instance name) of an origin id."""
        k = int(np.searchsorted(self.bases, origin, side="right")) - 1
        f, row = self.files[k], origin - self.bases[k] - 1
        if row < 0:
            return os.path.basename(f.source), f.first_line, instance_name(f"{f.name} {LOOSE}")
        return (os.path.basename(f.source), int(f.ref_line[row]),
                instance_name(f.ref_names[f.ref_name[row]]))

    def name_ids(self) -> tuple[np.ndarray, list[str]]:
        """((total,) int32 origin id -> index into the list of distinct instance names, that list)."""
        if self._names is None:
            index: dict[str, int] = {}
            chunks = []
            for f in self.files:
                loose = index.setdefault(instance_name(f"{f.name} {LOOSE}"), len(index))
                local = np.asarray([index.setdefault(instance_name(n), len(index)) for n in f.ref_names], np.int32)
                chunks.append(np.concatenate([[loose], local[f.ref_name]]).astype(np.int32))
            self._names = np.concatenate(chunks) if chunks else np.zeros(0, np.int32)
            self._name_list = list(index)
        return self._names, self._name_list


@dataclass
class Paths:
    """Sub-model paths as linked cells: cell i = (name[i], the rest of the path from cell tail[i])."""

    names: list[str] = field(default_factory=list)
    tails: list[np.ndarray] = field(default_factory=list)
    count: int = 0
    _tail: np.ndarray | None = None

    def add(self, name: str, tails: np.ndarray) -> np.ndarray:
        """New cells `name` + each of `tails` (cell ids, -1 = end of path); returns their ids."""
        ids = np.arange(self.count, self.count + len(tails), dtype=np.int32)
        self.names.extend([name] * len(tails))
        self.tails.append(np.asarray(tails, np.int32))
        self.count += len(tails)
        self._tail = None
        return ids

    def path(self, cell: int) -> tuple[str, ...]:
        if self._tail is None:
            self._tail = np.concatenate(self.tails) if self.tails else np.zeros(0, np.int32)
        out = []
        while cell >= 0:
            out.append(self.names[cell])
            cell = int(self._tail[cell])
        return tuple(out)


@dataclass(eq=False)
class InstanceTable(Sequence):
    """The instances of a model (module docstring); a read-only sequence of `PartInstance`."""

    part: np.ndarray
    transform: np.ndarray
    colour: np.ndarray
    inverted: np.ndarray
    missing: np.ndarray
    origin: np.ndarray
    path: np.ndarray
    keys: list[str]
    origins: Origins
    paths: Paths
    colour_name: Callable[[int], str]
    _built: list[PartInstance | None] = field(default_factory=list, repr=False)

    @classmethod
    def empty(cls, colour_name: Callable[[int], str]) -> InstanceTable:
        z = np.zeros(0, np.int32)
        return cls(z, np.zeros((0, 4, 4)), z, np.zeros(0, bool), np.zeros(0, bool), z, z, [], Origins(), Paths(),
                   colour_name)

    def __len__(self) -> int:
        return int(self.part.shape[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = int(index)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"instance {index} of {len(self)}")
        if not self._built:
            self._built = [None] * len(self)
        built = self._built[i]
        if built is None:
            built = self._built[i] = self._build(i)
        return built

    def _build(self, i: int) -> PartInstance:
        file, line, name = self.origins.where(int(self.origin[i]))
        colour = int(self.colour[i])
        return PartInstance(name=name, colour=colour, colour_name=self.colour_name(colour),
                            transform=self.transform[i], file=file, line=line,
                            submodel_path=self.paths.path(int(self.path[i])), missing=bool(self.missing[i]),
                            inverted=bool(self.inverted[i]))

    def name_ids(self) -> tuple[np.ndarray, list[str]]:
        """((N,) int32 index of each instance's name (as `PartInstance.name`) in the list, the list)."""
        ids, names = self.origins.name_ids()
        return (ids[self.origin] if len(self) else np.zeros(0, np.int32)), names

    def names(self) -> np.ndarray:
        """(N,) object array: each instance's name (as `PartInstance.name`)."""
        ids, names = self.name_ids()
        return np.asarray(names, dtype=object)[ids] if len(self) else np.zeros(0, object)

    def keep(self, mask: np.ndarray) -> InstanceTable:
        """A table of the rows where `mask` is true."""
        return InstanceTable(self.part[mask], self.transform[mask], self.colour[mask], self.inverted[mask],
                             self.missing[mask], self.origin[mask], self.path[mask], self.keys, self.origins,
                             self.paths, self.colour_name)
