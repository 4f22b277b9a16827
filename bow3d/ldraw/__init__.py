"""LDraw files -> numpy meshes: parser, library resolution, colours, BFC, MPD, disk cache.

Layer: ldraw (the lowest; imports no other bow3d layer). Public surface:

    model = load_model("village.ldr")            # Library.from_env(): LDRAWDIR, else ldraw_library/
    model.instances[0].describe()                # '3005.dat, Light_Bluish_Grey, village.ldr line 412'
    model.mesh.positions, model.mesh.triangles   # world frame, Z up, LDU
    model.is_complete, model.missing_files       # was everything found and drawn?

More: docs/modules/ldraw.md#ldraw.
"""

from bow3d.ldraw.budget import BudgetExceeded, LoadBudget
from bow3d.ldraw.cache import PartCache, default_cache_dir
from bow3d.ldraw.colour_defs import ColourMaterial
from bow3d.ldraw.colours import Colour, ColourTable
from bow3d.ldraw.instances import InstanceTable
from bow3d.ldraw.library import BUNDLED_LIBRARY, Library, LibraryError
from bow3d.ldraw.loader import load_model
from bow3d.ldraw.mesh import LDRAW_TO_WORLD, Mesh, PartInstance
from bow3d.ldraw.model import Model, build_mesh
from bow3d.ldraw.parse import Diagnostic, LDrawDocument, LDrawFile, parse_document

__all__ = [
    "BUNDLED_LIBRARY", "BudgetExceeded", "Colour", "ColourMaterial", "ColourTable", "Diagnostic", "InstanceTable", "LDRAW_TO_WORLD",
    "LDrawDocument", "LDrawFile", "Library", "LibraryError", "LoadBudget", "Mesh", "Model", "PartCache",
    "PartInstance", "build_mesh", "default_cache_dir", "load_model", "parse_document",
]
