"""What the LDraw reader may open (the Trust issue): plain files only, inside the library and the
model's folder after links are resolved; a chosen library is checked; hostile numbers are read around."""

from __future__ import annotations

import contextlib
import os
import signal

import numpy as np
import pytest

from bow3d.errors import LDrawError, UserInputError
from bow3d.ldraw import BUNDLED_LIBRARY, Library, LibraryError, load_model
from tests.conftest import write, write_library

IDENTITY = "1 0 0 0 1 0 0 0 1"
SECRET = "SECRET-LINE root:x:0:0:root:/root:/bin/bash\n"


@contextlib.contextmanager
def deadline(seconds: float):
    """Fail with TimeoutError instead of hanging (a blocking open of a FIFO is interrupted)."""
    def expire(signum, frame):
        raise TimeoutError(f"still blocked after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_link_out_of_the_model_folder_is_not_followed(tmp_path, library):
    secret = write(tmp_path / "outside" / "passwd", SECRET * 3)
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "passwd.dat").symlink_to(secret)
    model = load_model(write(folder / "m.ldr", f"1 4 0 0 0 {IDENTITY} passwd.dat\n"), library, cache=False)
    said = " ".join(str(d) for d in model.diagnostics)
    assert "SECRET" not in said and "root:x" not in said  # nothing of the file shows
    assert "leads outside the library and the model's folder" in said and "m.ldr:1" in said
    assert len(model.instances) == 0 and not model.is_complete


def test_links_inside_the_model_folder_and_the_library_still_work(tmp_path, library):
    folder = tmp_path / "model"
    write(folder / "parts" / "wall.ldr", f"1 16 0 0 0 {IDENTITY} box.dat\n")
    (folder / "wall-link.ldr").symlink_to(folder / "parts" / "wall.ldr")
    (library.roots[0] / "parts" / "box-alias.dat").symlink_to(library.roots[0] / "parts" / "box.dat")
    text = f"1 4 0 0 0 {IDENTITY} wall-link.ldr\n1 1 0 0 0 {IDENTITY} box-alias.dat\n"
    model = load_model(write(folder / "m.ldr", text), Library(library.roots), cache=False)
    assert not model.diagnostics and model.is_complete and len(model.instances) == 2


def test_a_link_out_of_the_library_is_not_followed(tmp_path):
    root = write_library(tmp_path / "ldraw")
    write(tmp_path / "elsewhere" / "evil.dat", "0 Evil\n0 !LDRAW_ORG Part\n" + SECRET)
    (root / "parts" / "evil.dat").symlink_to(tmp_path / "elsewhere" / "evil.dat")
    model = load_model(write(tmp_path / "m" / "m.ldr", f"1 4 0 0 0 {IDENTITY} evil.dat\n"), Library([root]),
                       cache=False)
    assert "SECRET" not in " ".join(str(d) for d in model.diagnostics)
    assert any("evil.dat" in d.message and "outside" in d.message for d in model.diagnostics)


def test_a_named_pipe_next_to_the_model_is_never_opened(tmp_path, library):
    # opening a FIFO for reading blocks until a writer comes: the old reader hung here
    os.mkfifo(tmp_path / "pipe.dat")
    with deadline(5):
        model = load_model(write(tmp_path / "m.ldr", f"1 4 0 0 0 {IDENTITY} pipe.dat\n"), library, cache=False)
    assert any("is a named pipe, not a file" in d.message and d.line == 1 for d in model.diagnostics)
    with deadline(5), pytest.raises(LDrawError, match="is a named pipe, not a file"):
        load_model(tmp_path / "pipe.dat", library, cache=False)
    (library.roots[0] / "LDConfig.ldr").unlink()
    os.mkfifo(library.roots[0] / "LDConfig.ldr")
    with deadline(5):
        model = load_model(tmp_path / "m.ldr", library, cache=False)
    assert any("LDConfig.ldr cannot be used" in d.message for d in model.diagnostics)


def test_devices_are_not_read(tmp_path, library):
    # (a link to /dev/zero next to a model, which filled memory, runs in tests/fuzz/test_fuzz_ldraw.py)
    with pytest.raises(LDrawError, match="is a device, not a file"):
        load_model("/dev/null", library, cache=False)


def test_a_chosen_library_is_checked(tmp_path, monkeypatch):
    write_library(tmp_path / "good")
    assert Library.from_env(tmp_path / "good").roots == [(tmp_path / "good").resolve()]
    assert Library.from_env(str(BUNDLED_LIBRARY)).is_bundled  # the starter library passes its own check
    (tmp_path / "empty").mkdir()
    write(tmp_path / "half" / "LDConfig.ldr", "0 colours\n")
    write(tmp_path / "a-file", "x")
    cases = {"missing": "does not exist", "a-file": "is a file, not a folder",
             "empty": "has no LDConfig.ldr and parts/ (found: nothing, it is empty)",
             "half": "has no parts/ (found: LDConfig.ldr)"}
    for name, said in cases.items():
        with pytest.raises(LibraryError, match=said.replace("(", r"\(").replace(")", r"\)")) as caught:
            Library.from_env(tmp_path / name)
        assert str(tmp_path / name) in str(caught.value) and "LDRAWDIR" in str(caught.value)
        assert isinstance(caught.value, UserInputError)  # exit code 2
    monkeypatch.setenv("LDRAWDIR", str(tmp_path / "empty"))
    with pytest.raises(LibraryError, match=r"\(LDRAWDIR\) has no LDConfig.ldr"):
        Library.from_env()
    monkeypatch.delenv("LDRAWDIR")
    assert Library.from_env().is_bundled


def test_missing_files_and_completeness(tmp_path, library):
    write(tmp_path / "holder.dat", f"0 Holder\n0 !LDRAW_ORG Part\n1 16 0 0 0 {IDENTITY} inner-gone.dat\n")
    text = f"1 4 0 0 0 {IDENTITY} Gone.dat\n1 4 0 0 0 {IDENTITY} holder.dat\n1 4 0 0 0 {IDENTITY} gone.dat\n"
    model = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    assert model.missing_files == ["gone.dat", "inner-gone.dat"]
    assert [i.line for i in model.missing_parts] == [1, 3] and not model.is_complete
    assert load_model(write(tmp_path / "ok.ldr", f"1 4 0 0 0 {IDENTITY} box.dat\n"), library, cache=False).is_complete


# -- hostile numbers: diagnostics, never an internal error -----------------------------------

@pytest.mark.parametrize("line, said", [
    ("1 4 1e308 0 0 1e308 0 0 0 1 0 0 0 1 box.dat", "beyond ±10,000,000 LDU"),
    ("1 4 0 0 0 nan 0 0 0 1 0 0 0 1 box.dat", "not finite"),
    ("1 4 0 0 0 1 0 0 0 inf 0 0 0 1 box.dat", "not finite"),
    (f"3 4 0 0 0 1e300 0 0 0 0 1\n1 4 0 0 0 {IDENTITY} box.dat", "beyond"),
])
def test_huge_or_odd_numbers_skip_the_line(tmp_path, library, line, said):
    model = load_model(write(tmp_path / "m.ldr", f"{line}\n"), library, cache=False)
    assert any(said in d.message and d.line == 1 for d in model.diagnostics)
    assert np.isfinite(model.mesh.positions).all() and np.isfinite(model.bounds()).all()


@pytest.mark.parametrize("code", ["99999999999", "-5", "4.5", "0x7FFFFFFFFFFFFFFFFFFF", "1073741824"])
def test_colour_codes_outside_the_range_are_drawn_magenta(tmp_path, library, code):
    text = f"1 {code} 0 0 0 {IDENTITY} box.dat\n3 {code} 0 0 0 10 0 0 0 0 10\n"
    model = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    assert [d.line for d in model.diagnostics if "not an LDraw colour code" in d.message] == [1, 2]
    assert (model.mesh.tri_rgba[:, :3] == (255, 0, 255)).all()  # the merged mesh builds (int32 colours)
    assert model.mesh.tri_colour.dtype == np.int32


def test_colour_definitions_out_of_range_are_skipped(tmp_path, library):
    text = ("0 !COLOUR Glow CODE 600 VALUE #FF0000 EDGE #000000 ALPHA 99999\n"
            "0 !COLOUR Huge CODE 99999999999 VALUE #FF0000 EDGE #000000\n"
            f"1 600 0 0 0 {IDENTITY} box.dat\n")
    model = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    assert [d.line for d in model.diagnostics if "!COLOUR needs" in d.message] == [1, 2]
    assert model.mesh.tri_rgba.shape == (12, 4)


def test_products_of_big_matrices_are_left_out(tmp_path, library):
    # each number is fine on its own; ten levels of x1000 scaling are not
    blocks = "".join(f"0 FILE s{k}.ldr\n1 16 0 0 0 1000 0 0 0 1000 0 0 0 1000 s{k + 1}.ldr\n" for k in range(10))
    text = blocks + f"0 FILE s10.ldr\n1 16 0 0 0 {IDENTITY} box.dat\n"
    model = load_model(write(tmp_path / "big.mpd", text), library, cache=False)
    assert len(model.instances) == 0 and any("lands beyond" in d.message for d in model.diagnostics)
    assert np.isfinite(model.bounds()).all()
    # the same inside a part: the placement is skipped, the rest of the part stays
    parts = "".join(f"0 FILE p{k}.dat\n0 !LDRAW_ORG Part\n1 16 0 0 0 1000 0 0 0 1000 0 0 0 1000 p{k + 1}.dat\n"
                    for k in range(10))
    text = f"0 FILE m.ldr\n1 4 0 0 0 {IDENTITY} p0.dat\n1 4 0 0 0 {IDENTITY} box.dat\n" + parts + \
        f"0 FILE p10.dat\n0 !LDRAW_ORG Part\n1 16 0 0 0 {IDENTITY} box.dat\n"
    model = load_model(write(tmp_path / "part.mpd", text), library, cache=False)
    assert any("puts it beyond" in d.message for d in model.diagnostics)
    assert np.isfinite(model.mesh.positions).all() and model.mesh.triangle_count == 12


@pytest.mark.render
@pytest.mark.parametrize("text", [
    "1 4 1e308 0 0 1e308 0 0 0 1 0 0 0 1 box.dat\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n",  # NaN camera before
    "1 99999999999 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n",  # OverflowError (int32) before
    "1 -5 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n3 0x7FFFFFFFFFFF 0 0 0 10 0 0 0 0 10\n",
    "0 FILE a.ldr\n1 16 0 0 0 1000 0 0 0 1000 0 0 0 1000 b.ldr\n0 FILE b.ldr\n"
    "1 16 0 0 0 1000 0 0 0 1000 0 0 0 1000 c.ldr\n0 FILE c.ldr\n1 16 0 0 0 1000 0 0 0 1000 0 0 0 1000 box.dat\n"
    "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n",
])
def test_render_draws_hostile_numbers_or_says_why(tmp_path, library, renderer_available, text):
    import subprocess
    import sys

    path = write(tmp_path / "m.mpd", text)
    result = subprocess.run([sys.executable, "-m", "bow3d", "render", str(path), "-o", str(tmp_path / "m.png"),
                             "--size", "64x48", "--library", str(library.roots[0])],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "wrote" in result.stdout, result.stderr[-1000:]
