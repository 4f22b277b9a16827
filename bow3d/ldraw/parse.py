"""Parse LDraw text (line types 0-5, MPD, BFC meta commands) into per-file records.

Layer: ldraw (imports nothing else of bow3d but errors). Coordinates stay in LDraw's own
frame (-Y up, LDU) here; the world frame is applied once, in `bow3d.ldraw.model`.

Lenient by design: a malformed line becomes a `Diagnostic` and is skipped; `strict=True`
raises `LDrawError` at the first one instead. Quads are split into two triangles here and
every triangle is normalised to counter-clockwise winding of its file's BFC state.

More: docs/modules/ldraw.md#parse.
"""

from __future__ import annotations

import base64
import binascii
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePosixPath

import numpy as np

from bow3d.errors import LDrawError
from bow3d.i18n import _
from bow3d.ldraw.colour_defs import COLOUR_CODE_LIMIT, ColourDefinition, parse_colour_meta
from bow3d.ldraw.texmap import TexMap, TexmapBlocks

LDRAW_SUFFIXES = (".ldr", ".mpd", ".dat", ".l3b")   # LDraw files: models, multi-part models, parts
FLUSH_ROWS = 65536  # geometry rows converted to numpy per batch
MAX_DIAGNOSTICS_PER_FILE = 50  # a garbage file must not flood memory or the terminal
# Header and editor meta commands that carry nothing bow3d draws.
_QUIET_META = {"NAME:", "AUTHOR:", "!LICENSE", "!HISTORY", "!HELP", "!KEYWORDS", "!CATEGORY", "!CMDLINE",
               "//", "CLEAR", "PAUSE", "SAVE", "PRINT", "WRITE", "!THEME", "PE_TEX_PATH"}
MAX_DATA_BYTES = 16 * 1024 * 1024  # one embedded !DATA image, decoded: far above any real texture
# File types of `0 !LDRAW_ORG <type>` that make a file a part (a shortcut is one part of a parts list).
_PART_TYPES = ("part", "subpart", "primitive", "shortcut", "helper")
# Headers written before !LDRAW_ORG (`0 LDRAW_ORG Part UPDATE 2002-01`, `0 Unofficial_Part`), read
# only in the header (before any geometry).
_OLD_HEADERS = {"LDRAW_ORG", "UNOFFICIAL_PART", "UNOFFICIAL_SUBPART", "UNOFFICIAL_PRIMITIVE", "UNOFFICIAL_SHORTCUT",
                "UNOFFICIAL", "UN-OFFICIAL"}
_NUMBERS = {1: 13, 2: 7, 3: 10, 4: 13, 5: 13}  # colour + coordinates per line type
INVALID_COLOUR = -1  # stands for a code no file may use (negative, too big, fractional): drawn magenta
MAX_COORDINATE_LDU = 1e7  # 4 km: no real model comes near; float32 positions still hold 1 LDU here


@dataclass(frozen=True)
class Diagnostic:
    """Something in a file that bow3d read around; `line` is 1-based, 0 when not about a line."""

    file: str
    line: int
    message: str
    severity: str = "warning"  # "warning" or "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class SubfileRef:
    """A type 1 line: place `name` with `colour` and the 4x4 LDraw `matrix`."""

    colour: int
    matrix: tuple[float, ...]  # 12 numbers: x y z a b c d e f g h i
    name: str  # as written, backslashes turned into slashes
    line: int
    invert: bool  # preceded by 0 BFC INVERTNEXT
    certified: bool  # the referencing file's BFC state at this line (certified and CLIP)


@dataclass
class LDrawFile:
    """One LDraw file (or one `0 FILE` block of an MPD) after parsing.

    Type 1 lines (R of them), in file order:
    ref_numbers     (R, 12) float64  x y z a b c d e f g h i
    ref_colour      (R,) int32       colour code (INVALID_COLOUR when the file's was not one)
    ref_line        (R,) int32       1-based line number
    ref_invert      (R,) bool        preceded by 0 BFC INVERTNEXT
    ref_certified   (R,) bool        the file's BFC state at that line (certified and CLIP)
    ref_name        (R,) int32       index into `ref_names` (distinct names as written, '/' slashes)
    triangles       (T, 3, 3) float64  corners, counter-clockwise when certified
    tri_colour      (T,) int32
    tri_certified   (T,) bool
    tri_line        (T,) int32  source line of each triangle
    edges           (E, 2, 3) float64 and edge_colour (E,) int32 (type 2)
    optional_edges  (O, 4, 3) float64 and optional_colour (O,) int32 (type 5)
    texmaps         the file's !TEXMAP projections, in order; tri_texmap (T,) int32 and ref_texmap (R,) int32
                    index them (-1: no texture). A type 1 line in a !TEXMAP block passes its projection
                    on to the geometry of the file it places (LDraw !TEXMAP spec).
    """

    name: str
    source: str  # the file on disk this came from (for diagnostics)
    first_line: int = 1
    title: str = ""
    ldraw_org: str = ""  # e.g. "Part", "Unofficial_Part", "Subpart", "Primitive", "Model"
    certified: bool | None = None  # None: no BFC statement at all
    ref_numbers: np.ndarray = field(default_factory=lambda: np.zeros((0, 12)))
    ref_colour: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    ref_line: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    ref_invert: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    ref_certified: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    ref_name: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    ref_names: list[str] = field(default_factory=list)
    triangles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 3)))
    tri_colour: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    tri_certified: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    tri_line: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    edges: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 3)))
    edge_colour: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    optional_edges: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 3)))
    optional_colour: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    texmaps: list[TexMap] = field(default_factory=list)
    tri_texmap: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    ref_texmap: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    colours: list[ColourDefinition] = field(default_factory=list)
    meta: list[tuple[int, str]] = field(default_factory=list)  # (line, text) of other 0 lines
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:  # built by hand (loose geometry, tests): untextured
        if self.tri_texmap.shape[0] != self.triangles.shape[0]:
            self.tri_texmap = np.full(self.triangles.shape[0], -1, np.int32)
        if self.ref_texmap.shape[0] != self.ref_line.shape[0]:
            self.ref_texmap = np.full(self.ref_line.shape[0], -1, np.int32)

    @property
    def ref_count(self) -> int:
        return int(self.ref_line.shape[0])

    @cached_property
    def refs(self) -> list[SubfileRef]:
        """The type 1 lines as objects (built on first use; loaders use the arrays)."""
        names = [self.ref_names[i] for i in self.ref_name.tolist()]
        return [SubfileRef(c, tuple(m), n, line, bool(inv), bool(cert)) for c, m, n, line, inv, cert in zip(
            self.ref_colour.tolist(), self.ref_numbers.tolist(), names, self.ref_line.tolist(),
            self.ref_invert.tolist(), self.ref_certified.tolist())]

    @property
    def header_kind(self) -> str:
        """'part' when the header says Part, Subpart, Primitive or Shortcut (official or unofficial,
        8_/48_ primitives, aliases), 'model' when it says anything else (Model, Configuration), ''
        when there is no header: then only the library can say (`Library.is_part_file`)."""
        org = self.ldraw_org.lower().removeprefix("unofficial_").removeprefix("unofficial ")
        if not org:
            return ""
        org = org.removeprefix("8_").removeprefix("48_")
        return "part" if org.startswith(_PART_TYPES) else "model"

    @property
    def is_part(self) -> bool:
        """The header says this is a part (see `header_kind`); a file without a header is a model here."""
        return self.header_kind == "part"


@dataclass
class LDrawDocument:
    """A parsed file: one `LDrawFile` for a plain file, several for an MPD (first = main model)."""

    source: str
    files: list[LDrawFile]
    data: dict[str, bytes] = field(default_factory=dict)  # !DATA blocks: normalised name -> decoded bytes
    understood: bool = True  # some line of it is an LDraw line (False: empty, blank, or foreign lines alone)
    foreign: tuple[int, str] | None = None  # the first line whose type is not 0-5: (number, its start)

    @property
    def main(self) -> LDrawFile:
        return self.files[0]

    def submodels(self) -> dict[str, LDrawFile]:
        """MPD blocks by normalised name (lowercase, forward slashes)."""
        return {normalise_name(f.name): f for f in self.files}


def normalise_name(name: str) -> str:
    """Reference names compare case-insensitively with either slash (LDraw spec)."""
    return name.strip().replace("\\", "/").lower()


def parse_colour_code(token: str) -> int:
    """A colour token: decimal code or a direct colour 0x2RRGGBB (kept as that integer)."""
    if token[:2] in ("0x", "0X", "#2"):
        value = int(token[2:] if token[0] == "0" else token[1:], 16)
        return value if token[0] == "0" else value | 0x2000000
    return int(token)


class _FileBuilder:
    """Accumulates one file's lines; the BFC state machine lives here."""

    def __init__(self, name: str, source: str, first_line: int, strict: bool):
        self.file = LDrawFile(name=name, source=source, first_line=first_line)
        self.strict = strict
        self.ccw = True
        self.clip = True
        self.invert_next = False
        self.certified_here = False  # certified and CLIP, kept up to date by _bfc
        self.rows: dict[int, list[list[str]]] = {1: [], 2: [], 3: [], 4: [], 5: []}
        self.row_meta: dict[int, list] = {1: [], 2: [], 3: [], 4: [], 5: []}  # (line, ccw, certified); 1: line
        self.flags: list[int] = []  # type 1 rows: invert + 2 * certified
        self.names: list[int] = []  # type 1 rows: index into file.ref_names
        self.ref_texmaps: list[int] = []  # type 1 rows: index into file.texmaps, -1 none
        self.name_index: dict[str, int] = {}
        # Rows are converted to numpy in batches so a huge file never holds all its tokens at once.
        self.done: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {k: [] for k in range(1, 6)}
        self.seen_any = False
        self.texmap: TexmapBlocks | None = None  # made by the file's first !TEXMAP (the common case stays fast)
        self.skipping = False  # inside a !TEXMAP FALLBACK section: geometry for renderers without textures

    def diagnose(self, line: int, message: str, severity: str = "warning") -> None:
        if self.strict:
            raise LDrawError(_("{source}:{line}: {message}")
                             .format(source=self.file.source, line=line, message=message))
        diags = self.file.diagnostics
        if len(diags) < MAX_DIAGNOSTICS_PER_FILE:
            diags.append(Diagnostic(self.file.source, line, message, severity))
        elif len(diags) == MAX_DIAGNOSTICS_PER_FILE:
            diags.append(Diagnostic(self.file.source, line, "too many problems; the rest are not listed"))

    def meta(self, number: int, text: str) -> None:
        words = text.split()
        if not words:
            return
        head = words[0].upper()
        title = not self.seen_any and head not in ("BFC", "!COLOUR")
        if title:
            self.file.title = text  # LDraw spec: the first line of a file is its title
        self.seen_any = True
        if head == "BFC":
            self._bfc(number, [w.upper() for w in words[1:]])
        elif head == "!TEXMAP":
            self._texmap(number, words[1:])
        elif head == "STEP":  # the spec: a STEP ends every texture still in effect
            self.texmap, self.skipping = None, False
        elif head == "PE_TEX_INFO":
            self.diagnose(number, "Studio texture (PE_TEX_INFO) not drawn: bow3d draws LDraw !TEXMAP textures only; "
                                  "the part is drawn in its colour")
        elif head == "!COLOUR":
            self._colour(number, words)
        elif head == "!LDRAW_ORG" and len(words) > 1:
            self.file.ldraw_org = words[1]
        elif head in _OLD_HEADERS and not (title or self.file.ldraw_org or self._has_geometry()):
            self.file.ldraw_org = _old_header(words)
        elif head not in _QUIET_META:
            self.file.meta.append((number, text))

    def _texmap(self, number: int, words: list[str]) -> None:
        if self.texmap is None:
            self.texmap = TexmapBlocks()
        for message in self.texmap.command(words, self.file.texmaps):
            self.diagnose(number, message)
        self.skipping = self.texmap.in_fallback

    def _has_geometry(self) -> bool:
        return any(self.rows.values()) or any(self.done.values())

    def _bfc(self, number: int, words: list[str]) -> None:
        if "NOCERTIFY" in words:
            self.file.certified = False
        else:
            if "CERTIFY" in words:
                if self.file.certified is None and self._has_geometry():
                    self.diagnose(number, "BFC CERTIFY after geometry; honoured for the whole file")
                self.file.certified = True
            if "CW" in words:
                self.ccw = False
            if "CCW" in words:
                self.ccw = True
            if "INVERTNEXT" in words:
                self.invert_next = True
            if "NOCLIP" in words:
                self.clip = False
            elif "CLIP" in words:
                self.clip = True
        self.certified_here = bool(self.file.certified) and self.clip

    def _colour(self, number: int, words: list[str]) -> None:
        try:
            self.file.colours.append(parse_colour_meta(words, number))
        except (KeyError, ValueError, IndexError):
            self.diagnose(number, "!COLOUR needs a name, CODE n (0 to 1073741823), VALUE #RRGGBB, EDGE, and "
                                  "ALPHA and LUMINANCE 0 to 255 if any (MATERIAL: FRACTION 0 to 1); line skipped")

    def reference(self, number: int, tokens: list[str], raw: str) -> None:
        """A type 1 line (`tokens` starts with '1', split from `raw`): kept as strings until the batch is
        converted. A file name with spaces is the rest of `raw` as written (`my  wall.ldr` keeps both spaces,
        as its `0 FILE` line and its name on disk do)."""
        self.seen_any = True
        if len(tokens) < 15:
            self.diagnose(number, f"line type 1 needs 13 numbers and a file name, got {len(tokens) - 1} fields")
            return
        self.rows[1].append(tokens[1:14])
        self.row_meta[1].append(number)
        self.ref_texmaps.append(-1 if self.texmap is None else self.texmap.take())
        name = tokens[14] if len(tokens) == 15 else raw.split(None, 14)[14].strip()
        index = self.name_index.get(name)
        if index is None:
            index = self.name_index[name] = len(self.file.ref_names)
            self.file.ref_names.append(name.replace("\\", "/"))
        self.names.append(index)
        self.flags.append(self.invert_next + 2 * self.certified_here)
        self.invert_next = False
        if len(self.rows[1]) >= FLUSH_ROWS:
            self._flush(1)

    def geometry(self, number: int, kind: int, tokens: list[str]) -> None:
        """A line of type 2 to 5 (`tokens` starts with the type)."""
        self.seen_any = True
        need = _NUMBERS[kind]
        if len(tokens) <= need:
            self.diagnose(number, f"line type {kind} needs {need} numbers, got {len(tokens) - 1}")
            return
        if self.invert_next:
            self.diagnose(number, "BFC INVERTNEXT must be followed by a type 1 line; ignored")
            self.invert_next = False
        # Numbers are converted per batch in one numpy call (finish), not per line.
        rows = self.rows[kind]
        rows.append(tokens[1:need + 1])
        self.row_meta[kind].append((number, self.ccw, self.certified_here,
                                    -1 if self.texmap is None else self.texmap.take()))
        if len(rows) >= FLUSH_ROWS:
            self._flush(kind)

    def _flush(self, kind: int) -> None:
        if kind == 1:
            meta = np.stack([np.asarray(self.row_meta[1], np.int64), np.asarray(self.flags, np.int64),
                             np.asarray(self.names, np.int64), np.asarray(self.ref_texmaps, np.int64)],
                            axis=1).reshape(-1, 4)
            self.flags, self.names, self.ref_texmaps = [], [], []
        else:
            meta = np.asarray(self.row_meta[kind], dtype=np.int64).reshape(-1, 4)
        self.done[kind].append(self._numbers(kind, meta))
        self.rows[kind], self.row_meta[kind] = [], []

    def _converted(self, kind: int) -> tuple[np.ndarray, np.ndarray]:
        """Every row of a line type as arrays (values, meta)."""
        if self.rows[kind] or not self.done[kind]:
            self._flush(kind)
        batches, self.done[kind] = self.done[kind], []
        if len(batches) == 1:
            return batches[0]
        total = sum(b[0].shape[0] for b in batches)  # filled batch by batch: never two copies of a big file
        values, meta = np.empty((total, batches[0][0].shape[1])), np.empty((total, 4), np.int64)
        start = 0
        while batches:
            batch_values, batch_meta = batches.pop(0)
            values[start:start + batch_values.shape[0]], meta[start:start + batch_values.shape[0]] = batch_values, batch_meta
            start += batch_values.shape[0]
        return values, meta

    def _numbers(self, kind: int, meta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(n, need) float64 rows of one line type and their (n, 4) meta; bad rows dropped, bad colours marked."""
        rows = self.rows[kind]
        if not rows:
            return np.zeros((0, _NUMBERS[kind])), meta
        reported = np.zeros(len(rows), bool)
        try:
            values = np.asarray(rows, dtype=np.float64)
        except ValueError:  # a hex colour or a bad field somewhere: take the rows one by one
            values = np.full((len(rows), _NUMBERS[kind]), np.nan)
            for i, row in enumerate(rows):
                try:
                    values[i] = [min(parse_colour_code(row[0]), COLOUR_CODE_LIMIT)] + [float(t) for t in row[1:]]
                except ValueError:
                    self.diagnose(int(meta[i, 0]), f"line type {kind} has a field that is not a number")
                    reported[i] = True
        with np.errstate(invalid="ignore"):
            good = (np.abs(values[:, 1:]) <= MAX_COORDINATE_LDU).all(axis=1) & np.isfinite(values[:, 0])
        for r in np.flatnonzero(~good & ~reported):
            self.diagnose(int(meta[r, 0]), f"line type {kind} has a number that is not finite or beyond "
                                           f"±{MAX_COORDINATE_LDU:,.0f} LDU; line skipped")
        values, meta = values[good], meta[good]
        colour = values[:, 0]
        bad = (colour < 0) | (colour >= COLOUR_CODE_LIMIT) | (colour != np.floor(colour))
        if bad.any():
            for r in np.flatnonzero(bad):
                shown = f"{colour[r]:.0f}" if colour[r] == np.floor(colour[r]) else f"{colour[r]:g}"
                self.diagnose(int(meta[r, 0]), f"colour {shown} is not an LDraw colour code (a whole number "
                                               f"from 0 to {COLOUR_CODE_LIMIT - 1}); drawn magenta")
            values[bad, 0] = INVALID_COLOUR
        return values, meta

    def finish(self) -> LDrawFile:
        f = self.file
        if self.rows[1] or self.done[1]:
            values, meta = self._converted(1)
            f.ref_numbers = values[:, 1:]  # a view: the colour column is not copied away
            f.ref_colour = values[:, 0].astype(np.int32)
            f.ref_line = meta[:, 0].astype(np.int32)
            f.ref_invert = (meta[:, 1] & 1).astype(bool)
            f.ref_certified = (meta[:, 1] & 2).astype(bool)
            f.ref_name = meta[:, 2].astype(np.int32)
            f.ref_texmap = meta[:, 3].astype(np.int32)
        self._finish_triangles()
        if self.rows[2] or self.done[2]:
            values, _unused = self._converted(2)
            f.edges = values[:, 1:].reshape(-1, 2, 3)
            f.edge_colour = values[:, 0].astype(np.int32)
        if self.rows[5] or self.done[5]:
            values, _unused = self._converted(5)
            f.optional_edges = values[:, 1:].reshape(-1, 4, 3)
            f.optional_colour = values[:, 0].astype(np.int32)
        return f

    def _finish_triangles(self) -> None:
        tris, tri_meta = [], []
        for kind in (3, 4):
            if not (self.rows[kind] or self.done[kind]):
                continue
            values, meta = self._converted(kind)
            p = values[:, 1:].reshape(-1, kind, 3)
            ccw = meta[:, 1].astype(bool)
            if kind == 4:
                p = self._untangled(p, meta[:, 0])
            if kind == 3:
                order = np.where(ccw[:, None], [0, 1, 2], [0, 2, 1])
                tris.append(np.take_along_axis(p, order[:, :, None], axis=1))
                tri_meta.append(np.concatenate([values[:, :1], meta], axis=1))
            else:  # quad a b c d -> (a b c) and (a c d); clockwise ones are reversed
                first = np.where(ccw[:, None], [0, 1, 2], [0, 2, 1])
                second = np.where(ccw[:, None], [0, 2, 3], [0, 3, 2])
                pair = np.stack([np.take_along_axis(p, first[:, :, None], axis=1),
                                 np.take_along_axis(p, second[:, :, None], axis=1)], axis=1)
                tris.append(pair.reshape(-1, 3, 3))
                tri_meta.append(np.repeat(np.concatenate([values[:, :1], meta], axis=1), 2, axis=0))
        if tris:
            f = self.file
            f.triangles = np.concatenate(tris)
            m = np.concatenate(tri_meta)
            f.tri_colour = m[:, 0].astype(np.int32)
            f.tri_line = m[:, 1].astype(np.int32)
            f.tri_certified = m[:, 3].astype(bool)
            f.tri_texmap = m[:, 4].astype(np.int32)

    def _untangled(self, p: np.ndarray, lines: np.ndarray) -> np.ndarray:
        """Quads (n, 4, 3) with a bow-tie's corners put in order: a quad written a b c d whose sides cross
        (a b d c or a c b d is its outline) is drawn by that outline, as LDView does, with a warning; split
        as written, its two triangles overlapped and left half of it open."""
        bad = ~_corners_agree(p)
        if not bad.any():
            return p
        p = p.copy()
        for i in np.flatnonzero(bad):
            for order, shown in (([0, 1, 3, 2], "1 2 4 3"), ([0, 2, 1, 3], "1 3 2 4")):
                if _corners_agree(p[i:i + 1, order])[0]:
                    p[i] = p[i, order]
                    self.diagnose(int(lines[i]), f"quad's sides cross (a bow-tie): drawn with its corners in the "
                                                 f"order {shown}; write them in that order")
                    break
        return p


def _corners_agree(quads: np.ndarray) -> np.ndarray:
    """(n,) True where the turn at every corner of each quad (n, 4, 3) goes the same way, or where some corner
    is degenerate (a triangle written as a quad: nothing to untangle)."""
    sides = np.roll(quads, -1, axis=1) - quads
    turns = np.cross(sides, np.roll(sides, -1, axis=1))  # (n, 4, 3) the turn at each corner
    size = np.linalg.norm(turns, axis=2)
    ref = turns[np.arange(len(quads)), size.argmax(axis=1)]
    agree = np.einsum("nij,nj->ni", turns, ref) > -1e-9 * size.max(axis=1, keepdims=True) ** 2
    degenerate = size.min(axis=1) <= 1e-9 * np.maximum(size.max(axis=1), 1e-300)
    return agree.all(axis=1) | degenerate


def _old_header(words: list[str]) -> str:
    """The file type an older header names: 'LDRAW_ORG Part ...' -> 'Part'; 'Unofficial Part' -> 'Unofficial_Part'."""
    head = words[0].upper()
    if head == "LDRAW_ORG":
        return words[1] if len(words) > 1 else ""
    if head in ("UNOFFICIAL", "UN-OFFICIAL"):
        return "Unofficial_" + (words[1] if len(words) > 1 else "Part")
    return words[0]


def iter_lines(data: bytes | str) -> Iterator[str]:
    """Decode LDraw text: UTF-8 (BOM dropped) with a Latin-1 fallback, any line ending."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    else:
        text = data.lstrip("\ufeff")
    return iter(text.splitlines())


def parse_document(data: bytes | str | Iterable[str], source: str, *, strict: bool = False) -> LDrawDocument:
    """Parse one file's text; MPD `0 FILE` blocks become separate `LDrawFile`s.

    Lines before the first `0 FILE` of an MPD form the main model when they hold geometry
    (some packers write it so); otherwise the first `0 FILE` block is the main model.
    """
    name = PurePosixPath(source.replace("\\", "/")).name
    builders: list[_FileBuilder] = [_FileBuilder(name, source, 1, strict)]
    in_data = False  # inside a !DATA block (skipped up to the next FILE when it has no name or is too big)
    embedded: dict[str, list[str]] = {}  # !DATA name -> its base64 lines
    data_name, data_size, data_line = "", 0, 0
    if isinstance(data, bytes) and b"\x00" in data[:4096]:
        raise _binary(source, data[:4])
    foreign: tuple[int, str] | None = None
    lines = iter_lines(data) if isinstance(data, (bytes, str)) else data
    builder = builders[0]
    for number, raw in enumerate(lines, start=1):
        tokens = raw.split()
        if not tokens:
            continue
        kind_token = tokens[0]
        if kind_token[0] == "\ufeff":  # files joined into one MPD, each with its byte order mark
            raw = raw.replace("\ufeff", "", 1)
            tokens = raw.split()
            if not tokens:
                continue
            kind_token = tokens[0]
        if kind_token == "1":  # the most common line by far: no detour
            if not (in_data or builder.skipping):
                builder.reference(number, tokens, raw)
            continue
        if kind_token == "0":
            head = tokens[1].upper() if len(tokens) > 1 else ""
            if head == "!:":
                if in_data:
                    if data_name:
                        data_size += len(tokens[2]) if len(tokens) > 2 else 0
                        if data_size > MAX_DATA_BYTES * 4 // 3 + 4:
                            builder.diagnose(data_line, f"!DATA {data_name} holds more than {MAX_DATA_BYTES:,} bytes; "
                                                        "not read (its texture is not drawn)")
                            embedded.pop(data_name, None)
                            data_name = ""
                        else:
                            embedded[data_name].append("".join(tokens[2:]))
                elif builder.texmap is not None and builder.texmap.takes_textured_line():
                    _textured_line(builder, number, tokens[2:], raw.split(None, 2)[2] if len(tokens) > 2 else "")
                else:
                    builder.diagnose(number, "0 !: outside a !TEXMAP START..FALLBACK block or after NEXT; line skipped")
                continue
            if in_data and data_name:  # a !DATA block ends at its first line that is not 0 !:
                in_data, data_name = False, ""
            if head in ("FILE", "NOFILE"):
                in_data = False
                block = raw.strip().split(None, 2)[2] if len(tokens) > 2 else f"unnamed-{number}"
                if head == "NOFILE":
                    block = f"(after NOFILE line {number})"
                builder = _FileBuilder(block, source, number, strict)
                builders.append(builder)
                if head == "NOFILE":
                    builder.file.ldraw_org = "ignored"
            elif head == "!DATA":
                in_data = True
                data_name = normalise_name(raw.strip().split(None, 2)[2]) if len(tokens) > 2 else ""
                data_size, data_line = 0, number
                if not data_name:
                    builder.diagnose(number, "!DATA needs a file name (0 !DATA image.png); block skipped")
                else:
                    embedded[data_name] = []
            elif not in_data:
                builder.meta(number, raw.strip().split(None, 1)[1] if len(tokens) > 1 else "")
            continue
        if in_data and data_name:
            in_data, data_name = False, ""
        if in_data or builder.skipping:
            continue
        if kind_token in ("2", "3", "4", "5"):
            builder.geometry(number, int(kind_token), tokens)
        else:
            if foreign is None:
                foreign = (number, raw.strip()[:30])
            builder.diagnose(number, f"unknown line type {kind_token[:20]!r}; line skipped")
    understood = len(builders) > 1 or bool(embedded) or any(b.seen_any for b in builders)
    files = [b.finish() for b in builders]
    decoded = _decode_data(embedded, builders[-1])
    preamble, blocks = files[0], _first_of_each_name([f for f in files[1:] if f.ldraw_org != "ignored"], strict)
    if blocks and not _has_content(preamble):
        blocks[0].diagnostics[:0] = preamble.diagnostics
        return LDrawDocument(source, blocks, decoded, understood, foreign)
    return LDrawDocument(source, [preamble] + blocks, decoded, understood, foreign)


def _first_of_each_name(blocks: list[LDrawFile], strict: bool) -> list[LDrawFile]:
    """The MPD blocks without a later `0 FILE` of a name already used (case and slashes aside): the first one
    is the sub-model, as LDView reads it; each later one is left out with a warning (LDrawError if `strict`)."""
    first: dict[str, LDrawFile] = {}
    kept = []
    for block in blocks:
        key = normalise_name(block.name)
        if key not in first:
            first[key] = block
            kept.append(block)
            continue
        earlier = first[key]
        message = (f"a second 0 FILE {block.name} (the first is at line {earlier.first_line}): sub-model names "
                   "must differ; its lines are ignored, references use the first (rename one of them)")
        if strict:
            raise LDrawError(_("{source}:{line}: {message}").format(source=block.source, line=block.first_line,
                                                                  message=message))
        if len(earlier.diagnostics) < MAX_DIAGNOSTICS_PER_FILE:
            earlier.diagnostics.append(Diagnostic(block.source, block.first_line, message))
    return kept


def _binary(source: str, head: bytes) -> LDrawError:
    """The error for a file holding binary bytes; a zip archive is most likely another editor's own format."""
    if head.startswith(b"PK\x03\x04"):
        return LDrawError(_("{source}: this is a zip archive, not an LDraw text file (a Studio .io or an LDD .lxf "
                            "file?); export the model from its editor as LDraw (.ldr or .mpd) and give that file")
                          .format(source=source))
    return LDrawError(_("{source}: this is not an LDraw text file (it holds binary bytes)").format(source=source))


def check_readable(doc: LDrawDocument) -> None:
    """Raise LDrawError when a file given as a model is text of another kind: no line of it is an LDraw line,
    and some line's first word is not a line type 0 to 5 (a README, an XML .lxfml, a CSV). An empty file is
    an empty model (a flat battlefield is one)."""
    if doc.understood or doc.foreign is None:
        return
    number, start = doc.foreign
    raise LDrawError(_("{source}:{line}: this is not an LDraw file: no line of it is an LDraw line (this one "
                       "starts with {start!r}; an LDraw line starts with its type, 0 to 5); give the model's "
                       ".ldr, .mpd or .dat file").format(source=doc.source, line=number, start=start))


def _textured_line(builder: _FileBuilder, number: int, tokens: list[str], raw: str) -> None:
    """The line after `0 !:` inside a !TEXMAP block (`raw`: its text after `0 !:`): geometry like any
    other, with the block's projection."""
    kind = tokens[0] if tokens else ""
    if kind == "1":
        builder.reference(number, tokens, raw)
    elif kind in ("2", "3", "4", "5"):
        builder.geometry(number, int(kind), tokens)
    elif kind:
        builder.diagnose(number, f"0 !: {kind[:20]!r}: only line types 1 to 5 may follow it; line skipped")


def _decode_data(data: dict[str, list[str]], builder: _FileBuilder) -> dict[str, bytes]:
    """The !DATA blocks' base64 text as bytes; a block that is not base64 is left out with a diagnostic."""
    out = {}
    for name, lines in data.items():
        try:
            out[name] = base64.b64decode("".join(lines), validate=True)
        except (binascii.Error, ValueError):
            builder.diagnose(0, f"!DATA {name} is not base64; its texture is not drawn")
    return out


def _has_content(f: LDrawFile) -> bool:
    return f.ref_count > 0 or f.triangles.shape[0] > 0 or f.edges.shape[0] > 0


def parse_stream(stream: io.BufferedReader, source: str, *, strict: bool = False) -> LDrawDocument:
    """Parse a buffered binary stream line by line (memory follows the geometry, not the text)."""
    head = stream.peek(4096)[:4096]
    if b"\x00" in head:
        raise _binary(source, head[:4])
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="replace", newline=None)
    return parse_document((line.rstrip("\n") for line in text), source, strict=strict)


def parse_matrix(numbers: Iterable[float]) -> np.ndarray:
    """The 4x4 matrix of a type 1 line's 12 numbers (x y z a b c d e f g h i)."""
    x, y, z, a, b, c, d, e, f, g, h, i = numbers
    return np.array([[a, b, c, x], [d, e, f, y], [g, h, i, z], [0.0, 0.0, 0.0, 1.0]])
