"""glTF 2.0 documents: one binary buffer, PBR materials from LDraw colours, one mesh per distinct part and
colour, instanced by nodes, and node animations (pygltflib's objects; nodes and files written here).

Layer: view (numpy, pygltflib; no Panda3D). Units LDU: a part's mesh in its own LDraw frame, placed by a
node's translation, rotation and scale (`transforms_to_trs`: a sheared or singular matrix gets a second
node). bow3d's world (Z up) becomes glTF's (Y up, metres or LDU) once, in the root node
(`GltfBuilder.root`): world (x, y, z) -> glTF (x, z, -y), a quarter turn about X, then the scale.

    builder = GltfBuilder()
    mesh = builder.part_mesh(model, key, colour=4, inverted=False, quality="full")
    t, q, s, inner, split = transforms_to_trs(transforms)             # (N, 4, 4) -> TRS of each
    node = builder.node("3001.dat @ village.ldr:27", mesh=mesh, trs=(t[0], q[0], s[0]))
    builder.root("village", [node], scale=0.0004)
    data = builder.glb()
"""

from __future__ import annotations

import base64
import json
import math
import struct
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pygltflib as gl
from numpy.typing import ArrayLike

from bow3d.ldraw.colours import substitute_main_colour

LDU_METRES = 0.0004  # 1 LDU = 0.4 mm (design.md)
Y_UP = [-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)]  # quaternion (x, y, z, w): -90 degrees about X
QUALITIES = ("full", "default", "draft")
MAGENTA = (255, 0, 255, 255)

# PBR of each LDraw finish (bow3d.ldraw.colours.Colour.finish): (metallic, roughness).
FINISHES = {"solid": (0.0, 0.35), "chrome": (1.0, 0.08), "metal": (1.0, 0.3), "matte_metallic": (0.8, 0.55),
            "pearlescent": (0.5, 0.25), "rubber": (0.0, 0.9), "glitter": (0.3, 0.3), "speckle": (0.3, 0.3)}
TRANSPARENT_ROUGHNESS = 0.1

_TRS_DEFAULTS = ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0])
_ARRAY = gl.ARRAY_BUFFER
_ELEMENTS = gl.ELEMENT_ARRAY_BUFFER


def srgb_to_linear(channel: np.ndarray) -> np.ndarray:
    """sRGB 0-1 -> linear 0-1 (glTF colour factors are linear)."""
    c = np.asarray(channel, np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def pbr_material(colour: Any, two_sided: bool) -> gl.Material:
    """A glTF material for an LDraw colour (bow3d.ldraw.colours.Colour; None: magenta): base colour in
    linear RGB, alpha blended when transparent, metallic and roughness from its finish, glow from its
    luminance."""
    rgba = colour.rgba if colour is not None else MAGENTA
    finish = str(getattr(colour, "finish", "solid") or "solid").lower()
    metallic, roughness = FINISHES.get(finish, FINISHES["solid"])
    transparent = rgba[3] < 255
    if transparent:
        roughness = TRANSPARENT_ROUGHNESS
    linear = srgb_to_linear(np.asarray(rgba[:3]) / 255.0)
    glow = float(getattr(colour, "luminance", 0) or 0) / 255.0
    name = getattr(colour, "name", "Unknown_Colour") + (" (two-sided)" if two_sided else "")
    return gl.Material(
        name=name,
        pbrMetallicRoughness=gl.PbrMetallicRoughness(
            baseColorFactor=[*(round(float(c), 6) for c in linear), round(rgba[3] / 255.0, 6)],
            metallicFactor=metallic, roughnessFactor=roughness),
        emissiveFactor=[round(float(c) * glow, 6) for c in linear] if glow else [0.0, 0.0, 0.0],
        alphaMode="BLEND" if transparent else "OPAQUE", doubleSided=bool(two_sided),
        extras={"ldraw_colour": int(getattr(colour, "code", -1)), "finish": finish})


def part_geometry(part: Any, quality: str, stud_template: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A flattened part at a quality, in its own frame: positions (V, 3) float32, triangles (T, 3) int32,
    codes (T,) int32 (16 = the placing colour), certified (T,) bool.

    "full": every triangle (what `bow3d inspect` counts); "default": no stud or tube primitives, and
    each top stud as a low-poly stud (`stud_template`, (t, 3, 3) in a stud's frame); "draft": no studs,
    detailed parts simplified (bow3d.view.graph.batches.part_template "far")."""
    if quality == "full":
        return (part.positions.astype(np.float32), part.triangles.astype(np.int32),
                part.tri_colour.astype(np.int32), part.tri_certified.astype(bool))
    from bow3d.view.graph.batches import part_template

    corners, codes, certified = part_template(part, "near" if quality == "default" else "far")
    corners = np.asarray(corners, np.float64).reshape(-1, 3, 3)
    if quality == "default" and stud_template is not None and part.studs.shape[0]:
        studs = part.studs.astype(np.float64)
        placed = np.einsum("sij,tcj->stci", studs[:, :3, :3], stud_template) + studs[:, None, None, :3, 3]
        flip = np.linalg.det(studs[:, :3, :3]) < 0
        if flip.any():
            placed[flip] = placed[flip][:, :, [0, 2, 1]]
        corners = np.concatenate([corners, placed.reshape(-1, 3, 3)])
        codes = np.concatenate([codes, np.full(placed.shape[0] * placed.shape[1], 16, np.int32)])
        certified = np.concatenate([certified, np.ones(placed.shape[0] * placed.shape[1], bool)])
    if corners.shape[0] == 0:
        return np.zeros((0, 3), np.float32), np.zeros((0, 3), np.int32), np.zeros(0, np.int32), np.zeros(0, bool)
    points, inverse = np.unique(corners.reshape(-1, 3).astype(np.float32), axis=0, return_inverse=True)
    return points, inverse.reshape(-1, 3).astype(np.int32), np.asarray(codes, np.int32), np.asarray(certified, bool)


def unicode_text(value: Any) -> Any:
    """`value` (a string, or lists and dicts of them) with every lone surrogate as U+FFFD.

    A file or folder name that is not UTF-8 arrives with its bytes as lone surrogates (Python's
    surrogateescape); written as JSON escapes they are no Unicode text, which glTF's JSON must be."""
    if isinstance(value, str):
        return value if value.isascii() else value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {unicode_text(k): unicode_text(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [unicode_text(v) for v in value]
    return value


def quaternions(rotations: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotation matrices -> (N, 4) unit quaternions (x, y, z, w), w >= 0.

    Each row is built from whichever of w, x, y, z is largest (Shepperd's method), so no division by a
    small number; a matrix a little off orthonormal (LDraw's six-digit rotations) gives the nearest turn."""
    r = np.asarray(rotations, np.float64)
    d0, d1, d2 = r[:, 0, 0], r[:, 1, 1], r[:, 2, 2]
    s01, s02, s12 = r[:, 0, 1] + r[:, 1, 0], r[:, 0, 2] + r[:, 2, 0], r[:, 1, 2] + r[:, 2, 1]
    a21, a02, a10 = r[:, 2, 1] - r[:, 1, 2], r[:, 0, 2] - r[:, 2, 0], r[:, 1, 0] - r[:, 0, 1]
    candidates = np.stack([  # (4 cases, N, xyzw), each proportional to the quaternion
        np.stack([a21, a02, a10, 1.0 + d0 + d1 + d2], axis=1),
        np.stack([1.0 + d0 - d1 - d2, s01, s02, a21], axis=1),
        np.stack([s01, 1.0 - d0 + d1 - d2, s12, a02], axis=1),
        np.stack([s02, s12, 1.0 - d0 - d1 + d2, a10], axis=1)])
    pick = np.argmax(np.stack([d0 + d1 + d2, d0, d1, d2]), axis=0)
    q = candidates[pick, np.arange(r.shape[0])]
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return np.where(q[:, 3:] < 0, -q, q)


def transforms_to_trs(transforms: np.ndarray, tolerance: float = 1e-5
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Affine (N, 4, 4) transforms as glTF nodes can hold them: translation (N, 3), rotation (N, 4), scale
    (N, 3), and for the rows in `inner` (N,) bool a second rotation (N, 4) of a child node under them.

    glTF allows a node matrix only when it is translation x rotation x scale, and Khronos' validator checks
    that in float32 (NODE_MATRIX_NON_TRS: a sheared, singular or zero LDraw matrix, and a rotated one
    scaled by 10^4 whose float32 round trip drifts). So every transform is written as TRS: a matrix whose
    columns are orthogonal (every ordinary placement, mirrored ones with a negative scale) as one node;
    any other as two, from its singular value decomposition L = U diag(s) V^T: U and s on the node, V^T
    on a child that holds the mesh (as Blender's exporter does). Nothing is baked into the geometry, so
    a part keeps one mesh however it is placed."""
    m = np.asarray(transforms, np.float64).reshape(-1, 4, 4)
    linear = m[:, :3, :3]
    lengths = np.linalg.norm(linear, axis=1)  # (N, 3) column lengths
    det = np.linalg.det(linear)
    with np.errstate(divide="ignore", invalid="ignore"):
        gram = np.einsum("nij,nik->njk", linear, linear) / (lengths[:, :, None] * lengths[:, None, :])
    off = np.abs(gram - np.eye(3)).max(axis=(1, 2))
    simple = (lengths > 0).all(axis=1) & (off <= tolerance) & (det != 0)
    scale = lengths.copy()
    scale[:, 0] *= np.where(det < 0, -1.0, 1.0)  # a mirror: the first axis flipped, the rest a proper turn
    rotation = np.zeros((m.shape[0], 4))
    inner = np.zeros((m.shape[0], 4))
    inner[:, 3] = 1.0
    if simple.any():
        rotation[simple] = quaternions(linear[simple] / scale[simple][:, None, :])
    hard = ~simple
    if hard.any():
        u, sigma, vt = np.linalg.svd(linear[hard])
        flip_u = np.linalg.det(u) < 0  # U and V^T made proper rotations; the sign moves into s
        u[flip_u, :, 0] *= -1.0
        sigma[flip_u, 0] *= -1.0
        flip_v = np.linalg.det(vt) < 0
        vt[flip_v, 0, :] *= -1.0
        sigma[flip_v, 0] *= -1.0
        rotation[hard], scale[hard], inner[hard] = quaternions(u), sigma, quaternions(vt)
    return m[:, :3, 3].copy(), rotation, scale, inner, hard


class GltfBuilder:
    """Builds one glTF document (see the module docstring). Meshes and materials are made once per key."""

    def __init__(self, colours: Any = None, quality: str = "full", stud_template: np.ndarray | None = None):
        if quality not in QUALITIES:
            raise ValueError(f"quality must be one of {QUALITIES}, not {quality!r}")
        self.gltf = gl.GLTF2(asset=gl.Asset(generator="bow3d", version="2.0"))
        self.blob = bytearray()
        self.colours = colours
        self.quality = quality
        self.stud_template = stud_template
        self._materials: dict[tuple[int, bool], int] = {}
        self._meshes: dict[tuple[str, int, bool], int] = {}
        self._geometry: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int | None]] = {}
        self.nodes: list[dict[str, Any]] = []  # glTF's nodes, as JSON (see `node`)
        self.triangles = 0  # triangles of every mesh instance placed by a node (counted by `node`)
        self._mesh_triangles: dict[int, int] = {}

    # --- buffers and accessors ----------------------------------------------------------------
    def _view(self, data: bytes, target: int | None) -> int:
        while len(self.blob) % 4:
            self.blob.append(0)
        offset = len(self.blob)
        self.blob.extend(data)
        self.gltf.bufferViews.append(gl.BufferView(buffer=0, byteOffset=offset, byteLength=len(data), target=target))
        return len(self.gltf.bufferViews) - 1

    def accessor(self, array: np.ndarray, kind: str, target: int | None = None, bounds: bool = False) -> int:
        """An accessor over `array` (float32 or uint32), `kind` 'SCALAR', 'VEC3' or 'VEC4'."""
        array = np.ascontiguousarray(array)
        component = gl.FLOAT if array.dtype == np.float32 else gl.UNSIGNED_INT
        flat = array.reshape(array.shape[0], -1) if array.ndim > 1 else array.reshape(-1, 1)
        extra: dict[str, Any] = {}
        if bounds:
            extra = {"min": [float(v) for v in flat.min(axis=0)], "max": [float(v) for v in flat.max(axis=0)]}
        self.gltf.accessors.append(gl.Accessor(bufferView=self._view(array.tobytes(), target), componentType=component,
                                               count=int(array.shape[0]), type=kind, **extra))
        return len(self.gltf.accessors) - 1

    # --- materials and meshes -----------------------------------------------------------------
    def material(self, code: int, two_sided: bool) -> int:
        key = (int(code), bool(two_sided))
        if key not in self._materials:
            colour = self.colours.get(int(code)) if self.colours is not None else None
            self.gltf.materials.append(pbr_material(colour, two_sided))
            self._materials[key] = len(self.gltf.materials) - 1
        return self._materials[key]

    def _part(self, key: str, part: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int | None]:
        if key not in self._geometry:
            positions, triangles, codes, certified = part_geometry(part, self.quality, self.stud_template)
            # no triangles (a part of edge lines only): no accessor, which no mesh would use
            drawn = positions.shape[0] and triangles.shape[0]
            accessor = self.accessor(positions, "VEC3", _ARRAY, bounds=True) if drawn else None
            self._geometry[key] = (positions, triangles, codes, certified, accessor)
        return self._geometry[key]

    def part_mesh(self, name: str, key: str, part: Any, colour: int, inverted: bool, colour_name: str = "") -> int | None:
        """The mesh of a distinct part placed in `colour` (its 16 resolved; one primitive per resolved colour
        and sidedness), wound the other way when placed under a BFC INVERTNEXT; None when it has no
        triangles at this quality."""
        mesh_key = (key, int(colour), bool(inverted))
        if mesh_key in self._meshes:
            return self._meshes[mesh_key]
        positions, triangles, codes, certified, position_accessor = self._part(key, part)
        if position_accessor is None or triangles.shape[0] == 0:
            self._meshes[mesh_key] = None  # type: ignore[assignment]
            return None
        resolved = substitute_main_colour(codes, int(colour))
        if inverted:
            triangles = triangles[:, [0, 2, 1]]
        primitives = []
        groups = np.stack([resolved.astype(np.int64), (~certified).astype(np.int64)], axis=1)
        for code, two_sided in np.unique(groups, axis=0).tolist():
            chosen = (resolved == code) & ((~certified) == bool(two_sided))
            indices = self.accessor(triangles[chosen].reshape(-1).astype(np.uint32), "SCALAR", _ELEMENTS)
            primitives.append(gl.Primitive(attributes=gl.Attributes(POSITION=position_accessor), indices=indices,
                                           material=self.material(code, bool(two_sided)), mode=gl.TRIANGLES))
        self.gltf.meshes.append(gl.Mesh(name=f"{name} {colour_name}".strip(), primitives=primitives))
        index = len(self.gltf.meshes) - 1
        self._meshes[mesh_key] = index
        self._mesh_triangles[index] = int(triangles.shape[0])
        return index

    def box_mesh(self, name: str, low: Sequence[float], high: Sequence[float], code: int) -> int:
        """A box (world-frame corners, LDU) in one LDraw colour: a door, a marker."""
        x0, y0, z0 = low
        x1, y1, z1 = high
        points = np.array([[x, y, z] for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)], np.float32)
        faces = np.array([[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4], [2, 6, 3], [3, 6, 7],
                          [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]], np.uint32)
        primitive = gl.Primitive(attributes=gl.Attributes(POSITION=self.accessor(points, "VEC3", _ARRAY, bounds=True)),
                                 indices=self.accessor(faces.reshape(-1), "SCALAR", _ELEMENTS),
                                 material=self.material(code, False), mode=gl.TRIANGLES)
        self.gltf.meshes.append(gl.Mesh(name=name, primitives=[primitive]))
        self._mesh_triangles[len(self.gltf.meshes) - 1] = 12
        return len(self.gltf.meshes) - 1

    # --- nodes, scene, animation --------------------------------------------------------------
    def node(self, name: str, *, mesh: int | None = None, children: Sequence[int] = (),
             extras: Mapping[str, Any] | None = None, trs: tuple[ArrayLike, ArrayLike, ArrayLike] | None = None,
             text_checked: bool = False) -> int:
        """A node: its `trs` (translation, rotation quaternion x y z w, scale; a matrix through
        `transforms_to_trs`, never stored as one), mesh, children and extras (`text_checked`: the name and
        extras are already Unicode text, `unicode_text`). Returns its index."""
        # a plain dict, not a pygltflib Node: a model may place a million parts, and pygltflib's
        # serialisation (dataclasses.asdict, deep copies) took 15 s and 400 MB per 100,000 nodes
        fields: dict[str, Any] = {"name": name if text_checked else unicode_text(name)}
        if children:
            fields["children"] = [int(c) for c in children]
        if mesh is not None:
            fields["mesh"] = int(mesh)
            self.triangles += self._mesh_triangles.get(mesh, 0)
        if trs is not None:  # glTF's defaults left out: most parts stand unturned and unscaled
            for key, part, default in zip(("translation", "rotation", "scale"), trs, _TRS_DEFAULTS):
                values = part if isinstance(part, list) else np.asarray(part, np.float64).reshape(-1).tolist()
                if values != default:
                    fields[key] = [float(v) for v in values]
        if extras:
            fields["extras"] = dict(extras) if text_checked else unicode_text(dict(extras))
        self.nodes.append(fields)
        return len(self.nodes) - 1

    def root(self, name: str, children: Sequence[int], scale: float, extras: Mapping[str, Any] | None = None) -> int:
        """The one node that turns bow3d's world (Z up, LDU) into glTF's (Y up, metres or LDU); the scene."""
        index = self.node(name, children=children, trs=([0.0, 0.0, 0.0], Y_UP, [scale, scale, scale]),
                          extras={"frame": "bow3d world: Z up, LDraw units; turned to Y up and scaled here"})
        self.gltf.scenes.append(gl.Scene(name=name, nodes=[index], extras=dict(extras or {})))
        self.gltf.scene = 0
        return index

    def animation(self, name: str, tracks: Sequence[tuple[int, str, np.ndarray, np.ndarray]],
                  extras: Mapping[str, Any] | None = None) -> int | None:
        """One animation from (node, 'translation' | 'rotation' | 'scale', times (K,), values (K, 3 or 4))."""
        samplers, channels = [], []
        for node, path, times, values in tracks:
            times = np.asarray(times, np.float32)
            values = np.asarray(values, np.float32)
            inputs = self.accessor(times, "SCALAR", bounds=True)
            outputs = self.accessor(values, "VEC4" if path == "rotation" else "VEC3")
            samplers.append(gl.AnimationSampler(input=inputs, output=outputs, interpolation="LINEAR"))
            channels.append(gl.AnimationChannel(sampler=len(samplers) - 1,
                                                target=gl.AnimationChannelTarget(node=node, path=path)))
        if not channels:
            return None
        self.gltf.animations.append(gl.Animation(name=name, samplers=samplers, channels=channels,
                                                 extras=dict(extras or {})))
        return len(self.gltf.animations) - 1

    # --- output -------------------------------------------------------------------------------
    def document(self) -> dict[str, Any]:
        """The glTF JSON as a dict: pygltflib's objects, the nodes, and the buffer (none when there is no
        data: glTF forbids a buffer of length 0)."""
        while len(self.blob) % 4:
            self.blob.append(0)
        g = self.gltf
        g.buffers, g.nodes = [], []
        for item in [*g.meshes, *g.materials, *g.scenes, *g.animations]:
            item.name = unicode_text(item.name)
            item.extras = unicode_text(item.extras)
        data = json.loads(g.gltf_to_json(separators=(",", ":"), indent=None))
        if self.nodes:
            data["nodes"] = self.nodes
        if self.blob:
            data["buffers"] = [{"byteLength": len(self.blob)}]
        return data

    def glb(self) -> bytes:
        """The document as one binary .glb: the JSON chunk, then the BIN chunk when there is data (an empty
        one is invalid)."""
        text = json.dumps(self.document(), separators=(",", ":"), allow_nan=False).encode("utf-8")
        text += b" " * (-len(text) % 4)
        chunks = [struct.pack("<I", len(text)), b"JSON", text]
        if self.blob:
            chunks += [struct.pack("<I", len(self.blob)), b"BIN\0", bytes(self.blob)]
        body = b"".join(chunks)
        return b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body

    def gltf_text(self) -> str:
        """The document as .gltf JSON text, its buffer embedded as a data URI (one file)."""
        data = self.document()
        if self.blob:
            data["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(
                bytes(self.blob)).decode("ascii")
        return json.dumps(data, separators=(",", ":"), allow_nan=False)
