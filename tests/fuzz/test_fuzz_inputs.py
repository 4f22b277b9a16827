"""Hostile packs, offline three.js folders, set-up scripts and LDraw libraries against the commands that read
them (issue 32): every case answers exit code 0 or 2, never an internal error (1) or a crash (139), within
the CPU and memory bounds of tests/fuzz/test_fuzz_ldraw.py, and nothing outside its folder changes.

One child process (this file run as a script, under run_limited's address-space and CPU limits) makes a
small game packed with its parts, runs each named case through bow3d's own `main`, then CASES seeded
mutants of the pack (bytes flipped, cut, members re-written by a forger who fixes the manifest) and of a
small library zip (installed with `library install --from`):
    python tests/fuzz/test_fuzz_inputs.py DIR SEED CASES [FIRST_CASE]
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import stat
import struct
import sys
import time
import zipfile
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.fuzz.test_fuzz_ldraw import MEMORY_MB, MUTANT_CPU_S, run_limited  # noqa: E402

SEED = 20261207
CASES = 400  # pack and library-zip mutants (about 4 s on one idle core)


# --- the genuine inputs ---------------------------------------------------------------------------

def genuine(folder: Path) -> dict[str, Path]:
    """A small game on a flat field, its replay, and its pack with the library parts included."""
    from bow3d.replay.packing import write_pack
    from tests.replay.conftest import write_scene
    from tests.replay.test_session import record_game

    scene = write_scene(folder / "scene")
    (scene.parent / "field.ldr").write_text("0 field\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    replay = folder / "game.bowreplay"
    record_game(scene, 5, replay, max_rounds=2)
    pack = folder / "game.bowpack"
    write_pack(replay, pack, with_parts=True)
    return {"scene": scene, "replay": replay, "pack": pack}


def members_of(pack: Path) -> tuple[dict[str, bytes], dict]:
    with zipfile.ZipFile(pack) as archive:
        members = {n: archive.read(n) for n in archive.namelist() if n != "bowpack.json"}
        return members, json.loads(archive.read("bowpack.json"))


def write_zip(out: Path, manifest: dict | bytes, members: dict[str, bytes], fix_digests: bool = True) -> Path:
    if fix_digests and isinstance(manifest, dict):
        manifest["files"] = {n: hashlib.sha256(b).hexdigest() for n, b in members.items()}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bowpack.json", manifest if isinstance(manifest, bytes) else json.dumps(manifest))
        for name, blob in members.items():
            archive.writestr(name, blob)
    return out


def patch_sizes(pack: Path, out: Path, member: str, size: int) -> Path:
    """A copy whose `member` declares `size` bytes unpacked, in its local header and the central directory."""
    blob = bytearray(pack.read_bytes())
    with zipfile.ZipFile(pack) as archive:
        offset, central = archive.getinfo(member).header_offset, archive.start_dir
    struct.pack_into("<I", blob, offset + 22, size)
    while blob[central + 46:central + 46 + len(member)] != member.encode():
        central = blob.index(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", blob, central + 24, size)
    out.write_bytes(bytes(blob))
    return out


# --- the named cases: (folder, genuine inputs) -> the command's arguments ---------------------------

def _pack_case(change: Callable[[dict[str, bytes], dict], object]) -> Callable[[Path, dict], list[str]]:
    def build(folder: Path, inputs: dict) -> list[str]:
        members, manifest = members_of(inputs["pack"])
        change(members, manifest)
        return ["replay", "verify", str(write_zip(folder / "case.bowpack", manifest, members))]
    return build


def _raw_pack(data: Callable[[bytes], bytes]) -> Callable[[Path, dict], list[str]]:
    def build(folder: Path, inputs: dict) -> list[str]:
        (folder / "case.bowpack").write_bytes(data(inputs["pack"].read_bytes()))
        return ["replay", "verify", str(folder / "case.bowpack")]
    return build


def _part(members: dict[str, bytes]) -> str:
    return next(n for n in sorted(members) if n.startswith("ldraw/parts/"))


def yaml_bomb(levels: int = 9) -> bytes:
    """Billion laughs: each level an anchor of nine aliases of the one before (9^9 strings once expanded)."""
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"l{k}: &l{k} [" + ",".join([f"*l{k - 1}"] * 9) + "]" for k in range(1, levels)]
    return ("\n".join(lines) + "\n").encode()


def _tampered_part(members: dict[str, bytes], manifest: dict) -> None:
    name = _part(members)
    members[name] = b"0 a part with no geometry\n"
    manifest["part_digests"][name.removeprefix("ldraw/")] = hashlib.sha256(members[name]).hexdigest()


def _declared_huge(folder: Path, inputs: dict) -> list[str]:
    return ["replay", "verify", str(patch_sizes(inputs["pack"], folder / "case.bowpack", "game.bowreplay", 2 ** 32 - 1))]


def _declared_small(folder: Path, inputs: dict) -> list[str]:
    return ["replay", "verify", str(patch_sizes(inputs["pack"], folder / "case.bowpack", "game.bowreplay", 10))]


def _link_member(folder: Path, inputs: dict) -> list[str]:
    members, manifest = members_of(inputs["pack"])
    out = write_zip(folder / "case.bowpack", manifest, members)
    info = zipfile.ZipInfo("scene/link.ldr")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(out, "a") as archive:
        archive.writestr(info, "/etc/passwd")
    return ["replay", "verify", str(out)]


def _three(files: dict[str, bytes | str | None], version: str = "0.187.0") -> Callable[[Path, dict], list[str]]:
    """An --offline folder: a three package.json of `version` and `files` (bytes, a link target 'link:PATH',
    'fifo', or None for a folder)."""
    def build(folder: Path, inputs: dict) -> list[str]:
        three = folder / "three"
        three.mkdir()
        (three / "package.json").write_text(json.dumps({"name": "three", "version": version}))
        for name, what in files.items():
            path = three / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.unlink(missing_ok=True)
            if what is None:
                path.mkdir()
            elif what == "fifo":
                os.mkfifo(path)
            elif isinstance(what, str) and what.startswith("link:"):
                path.symlink_to(what.removeprefix("link:"))
            else:
                path.write_bytes(what if isinstance(what, bytes) else what.encode())
        return ["report", str(inputs["replay"]), "-o", str(folder / "report.html"), "--offline", str(three),
                "--no-pictures"]
    return build


def _script(text: bytes) -> Callable[[Path, dict], list[str]]:
    def build(folder: Path, inputs: dict) -> list[str]:
        (folder / "s.txt").write_bytes(text)
        return ["setup", str(inputs["scene"]), "--offscreen-script", str(folder / "s.txt"), "-o",
                str(folder / "out.yaml")]
    return build


def _install(members: dict[str, bytes] | bytes, link: str | None = None) -> Callable[[Path, dict], list[str]]:
    def build(folder: Path, inputs: dict) -> list[str]:
        source = folder / "lib.zip"
        if isinstance(members, bytes):
            source.write_bytes(members)
        else:
            with zipfile.ZipFile(source, "w") as archive:
                for name, blob in members.items():
                    archive.writestr(name, blob)
                if link is not None:
                    info = zipfile.ZipInfo(link)
                    info.external_attr = (stat.S_IFLNK | 0o777) << 16
                    archive.writestr(info, "/etc/passwd")
        return ["library", "install", "--from", str(source), "--to", str(folder / "installed")]
    return build


LIBRARY_FILES = {"ldraw/LDConfig.ldr": b"0 LDraw.org Configuration File\n", "ldraw/parts/3001.dat": b"0 brick\n"}


def _library(make: Callable[[Path], None]) -> Callable[[Path, dict], list[str]]:
    def build(folder: Path, inputs: dict) -> list[str]:
        library = folder / "lib"
        library.mkdir()
        make(library)
        (folder / "m.ldr").write_text("0 m\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
        return ["inspect", str(folder / "m.ldr"), "--library", str(library)]
    return build


def _empty_parts(library: Path) -> None:
    (library / "LDConfig.ldr").write_text("0 config\n")
    (library / "parts").mkdir()


def _binary_ldconfig(library: Path) -> None:
    (library / "LDConfig.ldr").write_bytes(bytes(range(256)) * 64)
    (library / "parts").mkdir()
    (library / "parts" / "3001.dat").write_text("0 brick\n3 16 0 0 0 10 0 0 0 0 10\n")


def _ldconfig_folder(library: Path) -> None:
    (library / "LDConfig.ldr").mkdir()
    (library / "parts").mkdir()


def _parts_file(library: Path) -> None:
    (library / "LDConfig.ldr").write_text("0 config\n")
    (library / "parts").write_text("not a folder")


def _parts_loop(library: Path) -> None:
    (library / "LDConfig.ldr").write_text("0 config\n")
    (library / "parts").mkdir()
    (library / "parts" / "s").symlink_to(library / "parts")
    (library / "parts" / "3001.dat").symlink_to("/dev/zero")


NAMED: dict[str, Callable[[Path, dict], list[str]]] = {
    # packs
    "pack: not a zip": _raw_pack(lambda data: b"just text\n"),
    "pack: empty file": _raw_pack(lambda data: b""),
    "pack: cut in half": _raw_pack(lambda data: data[: len(data) // 2]),
    "pack: only the zip magic": _raw_pack(lambda data: b"PK\x03\x04" + bytes(100)),
    "pack: a member declares 4 GB": _declared_huge,
    "pack: a member holds more than it declares": _declared_small,
    "pack: a link member": _link_member,
    "pack: a member climbs out": _pack_case(lambda m, f: m.update({"../../evil.ldr": b"0 evil\n"})),
    "pack: a member named twice in two cases": _pack_case(lambda m, f: m.update({"GAME.bowreplay": m["game.bowreplay"]})),
    "pack: manifest not JSON": lambda folder, inputs: ["replay", "verify", str(write_zip(
        folder / "case.bowpack", b"{not json", members_of(inputs["pack"])[0]))],
    "pack: manifest nested 100,000 deep": lambda folder, inputs: ["replay", "verify", str(write_zip(
        folder / "case.bowpack", b"[" * 100_000 + b"]" * 100_000, members_of(inputs["pack"])[0]))],
    "pack: manifest version of 5,000 digits": _pack_case(lambda m, f: f.update(version=int("9" * 4000))),
    "pack: manifest files not a map": _pack_case(lambda m, f: f.update(parts=[1, 2])),
    "pack: manifest names no replay": _pack_case(lambda m, f: f.update(replay="nothing.bowreplay")),
    "pack: part digests of other files": _pack_case(lambda m, f: f.update(part_digests={"parts/x.dat": "0" * 64})),
    "pack: a part changed": _pack_case(lambda m, f: m.update({_part(m): b"0 hollow\n"})),
    "pack: a part and its digest changed": _pack_case(_tampered_part),
    "pack: the replay is not a replay": _pack_case(lambda m, f: m.update({"game.bowreplay": b"\xff\xfe" * 100})),
    "pack: the scene is a YAML bomb": _pack_case(lambda m, f: m.update({
        next(n for n in m if n.endswith(".yaml")): yaml_bomb()})),
    # report --offline folders
    "three: an empty package": _three({}),
    "three: another version": _three({}, version="0.150.0"),
    "three: a version that is not text": _three({}, version=["0.187.0"]),  # type: ignore[arg-type]
    "three: package.json not JSON": lambda folder, inputs: _three({"package.json": b"{\xff"})(folder, inputs),
    "three: package.json a FIFO": lambda folder, inputs: _three({"package.json": "fifo"})(folder, inputs),
    "three: package.json links to /dev/zero": lambda folder, inputs: _three({"package.json": "link:/dev/zero"})(folder, inputs),
    "three: a module not UTF-8": _three({"build/three.module.js": b"\xff\xfe\x00export {}"}),
    "three: a module that is a FIFO": _three({"build/three.module.js": "fifo"}),
    "three: a module linked out": _three({"build/three.module.js": "link:/etc/passwd"}),
    "three: a module that is a folder": _three({"build/three.module.js": None}),
    # set-up scripts
    "setup: turn nan": _script(b"side blue\nturn nan\n"),
    "setup: not UTF-8": _script(b"side blue\nturn \xff\n"),
    "setup: a NUL byte": _script(b"side blue\x00\n"),
    "setup: an open quote": _script(b"sheet 'rifle\n"),
    "setup: a number of 5,000 digits": _script(b"place " + b"9" * 5000 + b" 1\n"),
    "setup: 8 MB of comments": _script(b"# " + b"x" * (8 * 1024 * 1024) + b"\n"),
    "setup: an unknown command": _script(b"explode\n"),
    # library installs
    "install: not a zip": _install(b"not a zip at all"),
    "install: a zip that is no LDraw library": _install({"readme.txt": b"hello"}),
    "install: a member climbs out": _install({**LIBRARY_FILES, "ldraw/../../evil.dat": b"0 evil\n"}),
    "install: an absolute member": _install({**LIBRARY_FILES, "/tmp/evil.dat": b"0 evil\n"}),
    "install: a link member": _install(LIBRARY_FILES, link="ldraw/parts/link.dat"),
    # libraries given with --library
    "library: parts/ empty": _library(_empty_parts),
    "library: LDConfig.ldr binary": _library(_binary_ldconfig),
    "library: LDConfig.ldr a folder": _library(_ldconfig_folder),
    "library: parts a file": _library(_parts_file),
    "library: a link loop and /dev/zero": _library(_parts_loop),
    "library: the folder is a file": lambda folder, inputs: (
        (folder / "lib").write_text("x"), (folder / "m.ldr").write_text("0 m\n"),
        ["inspect", str(folder / "m.ldr"), "--library", str(folder / "lib")])[-1],
}


# --- the pack mutants -----------------------------------------------------------------------------

def mutant(pack: bytes, rng: random.Random, folder: Path) -> Path:
    out = folder / "mutant.bowpack"
    kind = rng.randrange(4)
    if kind == 0:  # bytes flipped anywhere
        data = bytearray(pack)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        out.write_bytes(bytes(data))
    elif kind == 1:  # cut
        out.write_bytes(pack[: rng.randrange(len(pack))])
    else:  # a forger's edit: a member's or the manifest's content changed, the member digests fixed
        source = folder / "source.bowpack"
        source.write_bytes(pack)
        members, manifest = members_of(source)
        if kind == 2:
            name = rng.choice(sorted(members))
            blob = bytearray(members[name])
            for _ in range(rng.randint(1, 4)):
                if blob:
                    blob[rng.randrange(len(blob))] = rng.choice(b"0123456789 -.\n\xff")
            members[name] = bytes(blob)
        else:
            key = rng.choice(sorted(manifest))
            manifest[key] = rng.choice([None, 0, -1, 10 ** 30, "", "x", [], {}, [1], {"a": 1}, manifest.get(key)])
        write_zip(out, manifest, members)
    return out


# --- the child --------------------------------------------------------------------------------------

def run_main(args: list[str]) -> tuple[int, str, float]:
    from bow3d.cli import main

    out, err = io.StringIO(), io.StringIO()
    started = time.process_time()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    return code, out.getvalue() + err.getvalue(), time.process_time() - started


def drive(folder: Path, seed: int, cases: int, first: int = 0) -> dict:
    os.environ.update(BOW3D_CACHE_DIR=str(folder / "cache"), BOW3D_DATA_DIR=str(folder / "data"))
    os.environ.pop("LDRAWDIR", None)
    inputs = genuine(folder / "genuine")
    before = {p: p.read_bytes() for p in (folder / "genuine").rglob("*") if p.is_file()}
    failures: list[dict] = []
    codes: dict[str, int] = {}

    def check(name: str, args: list[str]) -> None:
        code, said, took = run_main(args)
        codes[name] = code
        if code not in (0, 2) or took > MUTANT_CPU_S or "Traceback" in said or "internal error" in said:
            failures.append({"case": name, "code": code, "cpu_s": round(took, 2), "said": said[-400:]})

    for n, (name, build) in enumerate(NAMED.items()):
        case = folder / f"named-{n}"
        case.mkdir()
        check(name, build(case, inputs))
    pack = inputs["pack"].read_bytes()
    library = io.BytesIO()
    with zipfile.ZipFile(library, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, blob in {**LIBRARY_FILES, "ldraw/p/stud.dat": b"0 stud\n" * 40}.items():
            archive.writestr(name, blob)
    for n in range(first, first + cases):
        rng = random.Random(f"{seed}/{n}")
        case = folder / f"mutant-{n}"
        case.mkdir()
        if n % 4 == 3:   # a library zip with bytes flipped or cut, installed
            data = bytearray(library.getvalue())
            for _ in range(rng.randint(1, 6)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            (case / "lib.zip").write_bytes(bytes(data[: rng.choice([len(data), rng.randrange(len(data))])]))
            check(f"mutant {n}", ["library", "install", "--from", str(case / "lib.zip"), "--to", str(case / "lib")])
            continue
        path = mutant(pack, rng, case)
        check(f"mutant {n}", ["replay", rng.choice(["verify", "show"]), str(path)])
    changed = [str(p) for p, blob in before.items() if not p.is_file() or p.read_bytes() != blob]
    escaped = [str(p) for p in (folder.parent / "evil.ldr", folder.parent / "evil.dat", Path("/tmp/evil.dat"))
               if p.exists()]
    return {"named": len(NAMED), "mutants": cases, "failures": failures[:8], "codes": codes, "changed": changed,
            "escaped": escaped}


def test_hostile_packs_three_folders_scripts_and_libraries_answer_0_or_2(tmp_path):
    folder = tmp_path / "fuzz"
    folder.mkdir()
    result = run_limited([sys.executable, __file__, str(folder), str(SEED), str(CASES)], tmp_path)
    assert result.code == 0, f"the fuzzing child died: {result}"
    report = json.loads(result.out.splitlines()[-1])
    assert not report["failures"], json.dumps(report["failures"], indent=1)
    assert report["named"] == len(NAMED) and report["mutants"] == CASES
    assert not report["changed"] and not report["escaped"], report
    assert result.peak_mb < MEMORY_MB, f"{result.peak_mb:.0f} MB"
    codes = report["codes"]
    # each named case is hostile: refused (2), but for the libraries bow3d can still read (a warning, exit 0)
    refused = {name for name, code in codes.items() if not name.startswith("mutant") and code != 2}
    assert refused <= {"library: parts/ empty", "library: LDConfig.ldr binary", "library: a link loop and /dev/zero",
                       "library: LDConfig.ldr a folder"}, {name: codes[name] for name in refused}


if __name__ == "__main__":
    folder_arg, seed_arg, cases_arg = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    first_arg = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    print(json.dumps(drive(folder_arg, seed_arg, cases_arg, first_arg)))
