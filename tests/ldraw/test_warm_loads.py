"""A warm load (parts from the disk cache) reads a cached part's header alone, and reports what a cold load
reports: the same instances, geometry, colours and diagnostics."""

from __future__ import annotations

import numpy as np

from bow3d.ldraw import Library, load_model, loader as loading
from tests.conftest import write

MODEL = ("0 Model\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n1 1 40 0 0 1 0 0 0 1 0 0 0 1 odd.dat\n"
         "1 14 80 0 0 1 0 0 0 1 0 0 0 1 wrapper.dat\n1 15 0 0 40 1 0 0 0 1 0 0 0 1 tinted.dat\n")
ODD = "0 Odd part\n0 !LDRAW_ORG Part\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n2 24 oops\n"  # a malformed line
TINTED = "0 Tinted\n0 !LDRAW_ORG Part\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n0 !COLOUR Mine CODE 900 VALUE #102030 EDGE 0\n"


def summary(model):
    return ([i.describe() for i in model.instances], model.triangle_count(), [str(d) for d in model.diagnostics],
            model.mesh.tri_rgba.tolist(), model.colours.name(900))


def test_warm_is_cold(tmp_path, library, cache, monkeypatch):
    write(library.roots[0] / "parts" / "odd.dat", ODD)
    write(library.roots[0] / "parts" / "tinted.dat", TINTED)
    library = Library(library.roots)
    path = write(tmp_path / "m.ldr", MODEL)
    cold = load_model(path, library, cache=cache)
    assert cold.cache_hits == 0 and any("line type 2" in d.message for d in cold.diagnostics)
    parsed = []
    real = loading.parse_document

    def spy(data, source, **kw):
        if not isinstance(data, list):  # a whole file (a header alone comes as a list of lines)
            parsed.append(source.rsplit("/", 1)[-1])
        return real(data, source, **kw)

    monkeypatch.setattr(loading, "parse_document", spy)
    warm = load_model(path, library, cache=cache)
    assert warm.cache_hits == 4 and summary(warm) == summary(cold)
    # odd.dat (a diagnostic) and tinted.dat (a colour) are read again; brickstud and wrapper by their header alone
    assert set(parsed) - {"LDConfig.ldr"} == {"m.ldr", "odd.dat", "tinted.dat"}
    assert np.array_equal(warm.mesh.positions, cold.mesh.positions)


def test_strict_and_uncached_loads_read_every_part(tmp_path, library, cache):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    assert load_model(path, library, cache=cache).triangle_count() == load_model(path, library, cache=False,
                                                                                strict=True).triangle_count()
