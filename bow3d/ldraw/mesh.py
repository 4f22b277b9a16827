"""Geometry out of the LDraw layer: numpy arrays in bow3d's world frame (Z up, LDU).

World (x, y, z) = LDraw (X, Z, -Y) (design.md). Arrays are C-contiguous; shapes and
dtypes are documented per field. An empty mesh has correctly shaped empty arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# LDraw frame -> world frame: (X, Y, Z) -> (X, Z, -Y). det = +1, a proper rotation.
LDRAW_TO_WORLD = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)


@dataclass(frozen=True)
class PartInstance:
    """One top-level part placed in a model (counted through sub-models).

    `transform` is the part's 4x4 world transform (part's LDraw frame -> world frame).
    `file` and `line` locate the type-1 line that placed it (1-based line number);
    `submodel_path` lists the sub-models it was placed through, outermost first.
    """

    name: str
    colour: int
    colour_name: str
    transform: np.ndarray  # (4, 4) float64
    file: str
    line: int
    submodel_path: tuple[str, ...] = ()
    missing: bool = False
    inverted: bool = False  # placed through an odd number of BFC INVERTNEXT

    @property
    def flips_winding(self) -> bool:
        """Its triangles' corners must be swapped to stay CCW (mirroring XOR inversion)."""
        return bool((np.linalg.det(self.transform[:3, :3]) < 0) ^ self.inverted)

    def describe(self) -> str:
        """'3005.dat, Light_Bluish_Grey, village.ldr line 412'."""
        return f"{self.name}, {self.colour_name}, {self.file} line {self.line}"


@dataclass
class Mesh:
    """Triangles, edge lines and optional lines of a model or part, flattened.

    positions      (V, 3) float32  vertex positions
    triangles      (T, 3) int32    vertex indices; front faces counter-clockwise
    tri_colour     (T,)   int32    LDraw colour code per triangle (16 only inside a part)
    tri_rgba       (T, 4) uint8    resolved colour per triangle
    tri_instance   (T,)   int32    index into Model.instances (-1 inside a lone part)
    tri_certified  (T,)   bool     winding known (BFC certified all the way down)
    tri_detail     (T,)   bool     from stud / anti-stud tube primitives (level-of-detail fodder)
    edges          (E, 2) int32    type 2 edge lines (vertex indices)
    edge_colour    (E,)   int32
    optional_edges (O, 4) int32    type 5 optional lines: the two ends, then the two control points
    """

    positions: np.ndarray
    triangles: np.ndarray
    tri_colour: np.ndarray
    tri_rgba: np.ndarray
    tri_instance: np.ndarray
    tri_certified: np.ndarray
    tri_detail: np.ndarray
    edges: np.ndarray
    edge_colour: np.ndarray
    optional_edges: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.int32))

    @classmethod
    def empty(cls) -> Mesh:
        return cls(
            positions=np.zeros((0, 3), np.float32),
            triangles=np.zeros((0, 3), np.int32),
            tri_colour=np.zeros(0, np.int32),
            tri_rgba=np.zeros((0, 4), np.uint8),
            tri_instance=np.zeros(0, np.int32),
            tri_certified=np.zeros(0, bool),
            tri_detail=np.zeros(0, bool),
            edges=np.zeros((0, 2), np.int32),
            edge_colour=np.zeros(0, np.int32),
        )

    @property
    def triangle_count(self) -> int:
        return int(self.triangles.shape[0])

    def bounds(self) -> np.ndarray:
        """(2, 3) float64: min and max corner over the vertices of triangles, edges and optional-line ends.

        An optional line's control points only steer its drawing and lie off the part by design.
        """
        used = np.concatenate([self.triangles.ravel(), self.edges.ravel(), self.optional_edges[:, :2].ravel()])
        if used.size == 0:
            return np.zeros((2, 3))
        keep = np.zeros(self.positions.shape[0], dtype=bool)
        keep[used] = True
        points = self.positions[keep]
        return np.stack([points.min(axis=0), points.max(axis=0)]).astype(np.float64)
