"""The starter LDraw library (ldraw_library/, written by `python -m bow3d.ldraw.starter`).

Checks: byte-for-byte regeneration, the parts the issue requires, battlefield-5k with the
starter library alone, bounding boxes against the official parts (through LDRAWDIR), closed
outward-facing solids, real openings, studs recognised as primitives, minifig proportions.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bow3d.ldraw import BUNDLED_LIBRARY, Library, Model, load_model
from bow3d.ldraw.colours import ColourTable
from bow3d.ldraw.parse import parse_document
from bow3d.ldraw.starter.__main__ import main as starter_main
from bow3d.ldraw.starter.bricks import BLOCKS
from bow3d.ldraw.starter.geometry import union
from bow3d.ldraw.starter.ldconfig import colour_table
from bow3d.ldraw.starter.openings import OPENINGS, Opening

BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "bench" / "battlefield-5k.ldr"
REQUIRED = ["3811", "3867", "4186", "3857", "3005", "3004", "3622", "3010", "3009", "3008", "3003", "3002", "3001", "3007", "3006", "2357", "2454", "3245c", "3024", "3023", "3710", "3666", "3460", "3022", "3021", "3020", "3795", "3034", "3958", "3036", "3035", "3070b", "3069b", "3068b", "3039", "3040", "3037", "3038", "3062b", "4073", "3941", "60594", "60596", "60623", "3853", "3854", "3633", "30136", "30137", "3470", "3471", "2435", "6064", "2423", "2417", "6082", "6083", "973", "973p01", "3815", "3816", "3817", "3818", "3819", "3820", "3626b", "3626bp01", "3624", "3844", "3896", "4485", "3846", "2586", "3847", "2530", "2561", "2562", "30141", "4499", "3849", "3848", "3959", "4493c01", "4600", "6014", "6015", "3641", "4624", "3829c01", "4079", "3823"]
REQUIRED_COLOURS = [*range(29), *range(33, 48), 70, 71, 72, 78, 84, 85, 92, 191, 226, 272, 288, 308, 320,
                    326, 378, 484]
STANDARD_MINIFIG = """0 Standard minifig, standing on y = 0, facing -Z
1 4 0 -72 0 1 0 0 0 1 0 0 0 1 973p01.dat
1 1 0 -40 0 1 0 0 0 1 0 0 0 1 3815.dat
1 1 0 -28 0 1 0 0 0 1 0 0 0 1 3816.dat
1 1 0 -28 0 1 0 0 0 1 0 0 0 1 3817.dat
1 4 -15.552 -63 0 0.985 -0.17 0 0.17 0.985 0 0 0 1 3818.dat
1 4 15.552 -63 0 0.985 0.17 0 -0.17 0.985 0 0 0 1 3819.dat
1 14 -23.8634 -45.4044 -10.321 0.985 -0.12019 0.12019 0.17 0.696395 -0.696395 0 0.707 0.707 3820.dat
1 14 23.8634 -45.4044 -10.321 0.985 0.12019 -0.12019 -0.17 0.696395 -0.696395 0 0.707 0.707 3820.dat
1 14 0 -96 0 1 0 0 0 1 0 0 0 1 3626bp01.dat
"""


def starter_library() -> Library:
    return Library([BUNDLED_LIBRARY])


def starter_names() -> list[str]:
    return sorted(p.name for p in (BUNDLED_LIBRARY / "parts").glob("*.dat"))


@functools.cache
def load_part(root: str, name: str) -> Model:
    """A part file loaded on its own (memoised across tests)."""
    return load_model(Path(root) / "parts" / name, Library([Path(root)]), cache=False)


def solid_bounds(model: Model) -> np.ndarray:
    """(2, 3) world box of the model's triangles (faces only: LDraw lines do not block sight)."""
    mesh = model.mesh
    corners = mesh.positions[mesh.triangles.reshape(-1)].astype(np.float64)
    return np.stack([corners.min(axis=0), corners.max(axis=0)])


def ldraw_to_world(points) -> np.ndarray:
    """LDraw (X, Y, Z) -> world (X, Z, -Y), design.md."""
    p = np.asarray(points, float)
    return np.stack([p[..., 0], p[..., 2], -p[..., 1]], axis=-1)


def ray_hits(model: Model, origins: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """(R,) bool: does each ray (world frame) hit any triangle? Moeller-Trumbore, rays x triangles."""
    tri = model.mesh.positions[model.mesh.triangles].astype(np.float64)
    v0, e1, e2 = tri[:, 0], tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    d = np.broadcast_to(direction, origins.shape)
    p = np.cross(d[:, None, :], e2[None])
    det = np.einsum("rtk,tk->rt", p, e1)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origins[:, None, :] - v0[None]
    u = np.einsum("rtk,rtk->rt", s, p) * inv
    q = np.cross(s, e1[None])
    v = np.einsum("rk,rtk->rt", d, q) * inv
    t = np.einsum("tk,rtk->rt", e2, q) * inv
    return np.any(ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0), axis=1)


# --- the library as files ---------------------------------------------------------------------

def test_regenerates_byte_for_byte(tmp_path: Path, capsys) -> None:
    """`python -m bow3d.ldraw.starter --out DIR` writes exactly the committed ldraw_library/."""
    assert starter_main(["--out", str(tmp_path)]) == 0
    assert "parts" in capsys.readouterr().out
    made = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    bundled = {p.relative_to(BUNDLED_LIBRARY).as_posix(): p.read_bytes()
               for p in BUNDLED_LIBRARY.rglob("*") if p.is_file()}
    assert sorted(made) == sorted(bundled)
    changed = [name for name in made if made[name] != bundled[name]]
    assert not changed, f"ldraw_library/ is stale, run python -m bow3d.ldraw.starter: {changed[:5]}"


def test_help_names_the_command(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        starter_main(["--help"])
    assert exit_info.value.code == 0
    assert "--out" in capsys.readouterr().out


def test_every_required_part_exists() -> None:
    names = set(starter_names())
    missing = [n for n in REQUIRED if f"{n}.dat" not in names]
    assert not missing
    assert (BUNDLED_LIBRARY / "p" / "stud.dat").is_file()


def test_headers_and_certification() -> None:
    for path in sorted(BUNDLED_LIBRARY.rglob("*.dat")):
        rel, text = path.relative_to(BUNDLED_LIBRARY).as_posix(), path.read_text()
        lines = text.splitlines()
        name = rel.split("/", 1)[1]
        assert lines[1] == f"0 Name: {name}", rel
        assert lines[2] == "0 Author: bow3d starter library generator", rel
        org = "Unofficial_Primitive" if rel.startswith("p/") else "Unofficial_Part"
        assert lines[3] == f"0 !LDRAW_ORG {org}", rel
        assert lines[4].startswith("0 !LICENSE "), rel
        assert "0 BFC CERTIFY CCW" in lines, rel
        bodies = [line.split()[1] for line in lines if line[:2] in ("3 ", "4 ")]
        if not bodies:  # an assembly of other parts (3829c01)
            assert any(line.startswith("1 ") for line in lines), f"{rel}: empty"
            continue
        assert any(line.startswith("2 24 ") for line in lines), f"{rel}: no edge lines"
        assert bodies.count("16") > len(bodies) / 2, f"{rel}: body not in the main colour"


def test_ldconfig_has_the_standard_colours() -> None:
    text = (BUNDLED_LIBRARY / "LDConfig.ldr").read_text()
    colours = ColourTable(parse_document(text, "LDConfig.ldr").main.colours)
    for code in REQUIRED_COLOURS:
        assert colours.get(code) is not None, code
    assert colours.get(71).name == "Light_Bluish_Grey"
    assert colours.get(47).rgba[3] < 255  # transparent


@pytest.mark.official
def test_ldconfig_agrees_with_the_official_one(official: Library) -> None:
    ours = ColourTable(parse_document((BUNDLED_LIBRARY / "LDConfig.ldr").read_bytes(), "ours").main.colours)
    theirs = ColourTable(parse_document(official.ldconfig().read_bytes(), "official").main.colours)
    for code in colour_table():
        if theirs.get(code) is not None:
            assert (ours.get(code).name, ours.get(code).rgba) == (theirs.get(code).name, theirs.get(code).rgba), code


# --- the battlefield with the starter library alone -------------------------------------------

@pytest.fixture(scope="module")
def battlefield() -> Model:
    if not BENCH.is_file():
        pytest.skip(f"{BENCH} not available")
    return load_model(BENCH, starter_library(), cache=False)


def test_battlefield_loads_with_the_starter_library_alone(battlefield: Model) -> None:
    assert battlefield.library.is_bundled
    assert len(battlefield.instances) == 5000
    assert battlefield.missing_parts == []
    assert battlefield.diagnostics == []
    assert battlefield.mesh.triangles.shape[0] > 0
    assert battlefield.mesh.tri_detail.any()  # studs arrive as stud primitives


@pytest.mark.render
@pytest.mark.slow
def test_battlefield_renders_with_the_starter_library_alone(battlefield: Model, tmp_path: Path) -> None:
    from bow3d.view.output.offscreen import RenderUnavailable
    from bow3d.view.output.still import render_still
    try:
        stats = render_still(battlefield, tmp_path / "battlefield.png", size=(320, 180))
    except RenderUnavailable as error:
        pytest.skip(str(error))
    assert stats.triangles > 0
    assert (tmp_path / "battlefield.png").stat().st_size > 1000


# --- geometry of every part -------------------------------------------------------------------

@pytest.mark.parametrize("name", starter_names())
def test_part_is_a_closed_outward_solid(name: str) -> None:
    """Every undirected edge is used by exactly two triangles, in opposite directions, and the
    signed volume is positive: closed shells whose CCW faces point outward (stud primitives
    included: each is its own closed shell)."""
    model = load_part(str(BUNDLED_LIBRARY), name)
    assert model.diagnostics == []
    tri = model.mesh.triangles.astype(np.int64)
    directed = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    undirected = np.sort(directed, axis=1)
    keys, inverse, counts = np.unique(undirected, axis=0, return_inverse=True, return_counts=True)
    assert np.all(counts == 2), f"{name}: {int(np.sum(counts != 2))} edges not shared by exactly two faces"
    balance = np.zeros(len(keys), np.int64)
    np.add.at(balance, inverse.reshape(-1), np.where(directed[:, 0] < directed[:, 1], 1, -1))
    assert np.all(balance == 0), f"{name}: neighbouring faces wound the same way"
    corners = model.mesh.positions[tri].astype(np.float64)
    volume = np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6.0
    assert volume > 0, f"{name}: faces point inward"


def test_stud_primitive_is_closed_and_recognised() -> None:
    model = load_model(BUNDLED_LIBRARY / "parts" / "3001.dat", starter_library(), cache=False)
    mats, owners = model.studs()
    centres = ldraw_to_world([(x, 0.0, z) for z in (-10.0, 10.0) for x in (-30.0, -10.0, 10.0, 30.0)])
    assert len(mats) == 8 and np.all(owners == 0)
    assert np.allclose(np.sort(mats[:, :3, 3], axis=0), np.sort(centres, axis=0), atol=1e-4)
    stud = load_model(BUNDLED_LIBRARY / "p" / "stud.dat", starter_library(), cache=False)
    tri = stud.mesh.triangles
    edges = np.sort(np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]]), axis=1)
    assert np.all(np.unique(edges, axis=0, return_counts=True)[1] == 2)


@pytest.mark.official
@pytest.mark.parametrize("name", starter_names())
def test_bounding_box_matches_the_official_part(name: str, official: Library) -> None:
    """Same origin and orientation as the official part, solid bounding box within 1 LDU."""
    root = official.roots[0]
    if not (root / "parts" / name).is_file():
        pytest.skip(f"{name} is not in the official library at {root}")
    ours = solid_bounds(load_part(str(BUNDLED_LIBRARY), name))
    theirs = solid_bounds(load_part(str(root), name))
    assert np.abs(ours - theirs).max() <= 1.0, f"{name}: {ours.tolist()} vs official {theirs.tolist()}"


@pytest.mark.official
def test_brick_studs_sit_where_the_official_ones_do(official: Library) -> None:
    root = official.roots[0]
    for number in ("3001", "3024", "3811", "2357", "2577", "3455", "30179", "6083"):
        ours = load_part(str(BUNDLED_LIBRARY), f"{number}.dat").studs()[0][:, :3, 3]
        theirs = load_part(str(root), f"{number}.dat").studs()[0][:, :3, 3]
        key = lambda p: p[np.lexsort(np.round(p, 3).T)]  # noqa: E731
        assert np.allclose(key(ours), key(theirs), atol=1e-3), number
    assert set(BLOCKS) <= {p[:-4] for p in starter_names()}


# --- openings ---------------------------------------------------------------------------------

def opening_rays(openings: list[Opening]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """World ray origins through the openings' centres, through their frames, and the direction."""
    axis = openings[0].axis
    centres = np.array([(np.asarray(o.lo) + np.asarray(o.hi)) / 2 for o in openings])
    frames = np.array([o.frame for o in openings], float)
    centres[:, axis] = frames[:, axis] = -1000.0
    direction = np.zeros(3)
    direction[axis] = 1.0
    return ldraw_to_world(centres), ldraw_to_world(frames), ldraw_to_world(direction)


@pytest.mark.parametrize("number", sorted(OPENINGS))
def test_sight_passes_through_openings(number: str) -> None:
    """A ray through each opening's centre misses the part; one through the frame beside it hits."""
    model = load_part(str(BUNDLED_LIBRARY), f"{number}.dat")
    centres, frames, direction = opening_rays(OPENINGS[number])
    assert not ray_hits(model, centres, direction).any()
    assert ray_hits(model, frames, direction).all()


@pytest.mark.official
@pytest.mark.parametrize("number", sorted(OPENINGS))
def test_official_part_is_open_there_too(number: str, official: Library) -> None:
    """The openings are where the official part has them (its rays through the centres miss too)."""
    model = load_part(str(official.roots[0]), f"{number}.dat")
    centres, frames, direction = opening_rays(OPENINGS[number])
    assert not ray_hits(model, centres, direction).any()
    assert ray_hits(model, frames, direction).all()


# --- minifig ----------------------------------------------------------------------------------

def minifig_heights(root: Path, tmp_path: Path) -> tuple[float, float]:
    """(top of the head without its stud, eye height), LDU above the soles, of a standard minifig."""
    path = tmp_path / "minifig.ldr"
    path.write_text(STANDARD_MINIFIG)
    model = load_model(path, Library([root]), cache=False)
    assert model.missing_parts == []
    mesh = model.mesh
    z = mesh.positions[:, 2].astype(np.float64)
    soles = z.min()
    head = next(i for i, inst in enumerate(model.instances) if inst.name.lower() == "3626bp01.dat")
    on_head = (mesh.tri_instance == head) & ~mesh.tri_detail
    top = z[mesh.triangles[on_head]].max() - soles
    black = on_head & (mesh.tri_colour == 0)
    face_z = z[mesh.triangles[black]].mean(axis=1)
    eyes = face_z[face_z > (face_z.min() + face_z.max()) / 2]
    return float(top), float(eyes.mean() - soles)


def test_minifig_is_96_ldu_with_eyes_at_86(tmp_path: Path) -> None:
    top, eyes = minifig_heights(BUNDLED_LIBRARY, tmp_path)
    assert abs(top - 96.0) <= 0.5
    assert abs(eyes - 86.0) <= 3.0


@pytest.mark.official
def test_minifig_matches_the_official_one(tmp_path: Path, official: Library) -> None:
    ours = minifig_heights(BUNDLED_LIBRARY, tmp_path)
    theirs = minifig_heights(official.roots[0], tmp_path)
    assert abs(ours[0] - theirs[0]) <= 1.0
    assert abs(ours[1] - theirs[1]) <= 3.0


def test_from_env_falls_back_to_the_starter_library(monkeypatch) -> None:
    monkeypatch.delenv("LDRAWDIR", raising=False)
    assert Library.from_env().is_bundled
    assert Library.from_env().find("3001.dat") == BUNDLED_LIBRARY / "parts" / "3001.dat"


# --- the shape builders -------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4),
                          st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4),
                          st.integers(1, 2), st.integers(1, 2), st.integers(1, 2)), max_size=2))
def test_union_of_boxes_is_closed_or_refused(boxes, holes) -> None:
    """Any union of boxes minus holes is one closed, outward surface enclosing exactly the solid
    cells' volume, or is refused (ValueError) where solids would touch only along an edge."""
    as_box = lambda b: ((b[0], b[1], b[2]), (b[0] + b[3], b[1] + b[4], b[2] + b[5]))  # noqa: E731
    grid = np.zeros((8, 8, 8), bool)
    for x, y, z, dx, dy, dz in boxes:
        grid[x:x + dx, y:y + dy, z:z + dz] = True
    for x, y, z, dx, dy, dz in holes:
        grid[x:x + dx, y:y + dy, z:z + dz] = False
    try:
        shell = union([as_box(b) for b in boxes], holes=[as_box(h) for h in holes])
    except ValueError:
        return
    if not grid.any():
        assert shell.faces == []
        return
    tri = shell.triangles()
    keys = np.round(tri * 1000).astype(np.int64)
    directed = np.concatenate([keys[:, [0, 1]], keys[:, [1, 2]], keys[:, [2, 0]]]).reshape(-1, 6)
    forward = {tuple(e) for e in directed.tolist()}
    assert len(forward) == len(directed), "an edge is used twice in the same direction"
    assert all((*e[3:], *e[:3]) in forward for e in forward), "an edge has no opposite"
    assert shell.signed_volume() == pytest.approx(grid.sum())


def test_union_refuses_boxes_touching_along_an_edge() -> None:
    with pytest.raises(ValueError, match="only along an edge"):
        union([((0, 0, 0), (1, 1, 1)), ((1, 1, 0), (2, 2, 1))])


def test_generator_refuses_a_folder_with_foreign_files(tmp_path: Path, capsys) -> None:
    """Never overwrite a user's files: an official library (or anything not generated) is refused."""
    foreign = tmp_path / "parts" / "3001.dat"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("0 Brick  2 x  4\n0 Author: someone else\n")
    assert starter_main(["--out", str(tmp_path)]) == 2
    assert "did not write" in capsys.readouterr().err
    assert foreign.read_text() == "0 Brick  2 x  4\n0 Author: someone else\n"
    assert not (tmp_path / "LDConfig.ldr").exists()


def test_generator_replaces_an_earlier_starter_library(tmp_path: Path) -> None:
    """Regenerating over an earlier output removes the generated parts it no longer makes."""
    assert starter_main(["--out", str(tmp_path)]) == 0
    stale = tmp_path / "parts" / "99999.dat"
    stale.write_text((tmp_path / "parts" / "3001.dat").read_text())
    assert starter_main(["--out", str(tmp_path)]) == 0
    assert not stale.exists() and (tmp_path / "parts" / "3001.dat").is_file()
