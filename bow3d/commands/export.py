"""`bow3d export SCENE|MODEL|REPLAY -o out.glb|.gltf`: glTF 2.0 for Blender and the web."""

from __future__ import annotations

import argparse

from bow3d.commands.replay import add_allow_library
from bow3d.i18n import _, decimal, integer
from bow3d.ldraw.budget import DEFAULT_MAX_INSTANCES
from bow3d.view.camera.choices import QUALITIES

NAME = "export"
ORDER = 45
HELP = "export a scene, an LDraw model or a replay (with its animation) as glTF 2.0 (.glb or .gltf)"
DESCRIPTION = """Write glTF 2.0, which Blender, three.js and most 3D tools read:
- one mesh per distinct part and colour, placed by one node per part instance, named by the part,
  the file and the line that placed it ("3001.dat @ village.ldr:27");
- units and vehicles as named nodes ("blue-rifle-1") with their side and sheet in the node's
  extras (Blender shows them as custom properties); closed doors as boxes;
- LDraw colours as PBR materials: transparent colours blended, chrome, metal, pearlescent and
  rubber finishes as metallic and roughness;
- bow3d's world (Z up) turned once to glTF's Y up, in the root node; --scale metres (1 LDU =
  0.4 mm, the default) or ldu;
- a replay (or a .bowpack): the scene as the game starts, and an animation "battle" on the film's
  time line (the same shots and cuts as `bow3d replay FILE --video`): moves, vehicle drives, units
  toppling when they die; the scene's extras say when each round starts.

--quality full (the default) keeps every LDraw triangle (the count `bow3d inspect` gives);
default drops the tubes under bricks and draws studs as low-poly studs; draft drops studs and
simplifies detailed parts (as `bow3d render --quality`). Nothing is overwritten without --force.

examples:
  bow3d export scenes/village.yaml -o village.glb
  bow3d export replays/village-seed1.bowreplay -o battle.glb
  bow3d export scenes/village.ldr -o village.gltf --scale ldu --quality draft
  bow3d export village.bowpack -o village-pack.glb      # a pack from bow3d replay pack"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="SCENE|MODEL|REPLAY", help="a scene (.yaml), an LDraw model (.ldr, .mpd, "
                        ".dat), a replay (.bowreplay) or a pack (.bowpack)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.glb", help="the file to write: .glb (binary) "
                        "or .gltf (JSON, one file)")
    parser.add_argument("--scale", default="metres", choices=("metres", "ldu"),
                        help="units of the glTF file: metres (1 LDU = 0.4 mm; default) or LDraw units")
    parser.add_argument("--quality", default="full", choices=QUALITIES,
                        help="level of detail (default full: every LDraw triangle)")
    parser.add_argument("--scene", metavar="SCENE.yaml", help="a replay's scene, when it is not where the header says")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder for a model or a scene (default: "
                        "$LDRAWDIR, else the bundled starter library; a replay uses the one it was played with)")
    parser.add_argument("--force", action="store_true", help="overwrite the output if it exists")
    add_allow_library(parser)
    parser.add_argument("--max-instances", type=int, default=DEFAULT_MAX_INSTANCES, metavar="N",
                        help=f"a model or a scene: refuse one that places more than N part instances, or more than 50 "
                        f"triangles per allowed instance, or whose export would take more than 1,536 bytes of "
                        f"memory per allowed instance (default {DEFAULT_MAX_INSTANCES:,}: 2,929 MiB, about "
                        f"1,200,000 exported parts)")


def run(args: argparse.Namespace) -> int:
    from bow3d.ldraw import LoadBudget
    from bow3d.view.gltf import export_gltf

    stats = export_gltf(args.file, args.output, scale=args.scale, quality=args.quality, scene=args.scene,
                        library=args.library, force=args.force, budget=LoadBudget(max_instances=args.max_instances),
                        allow_library=args.allow_library)
    what = {"model": _("model"), "scene": _("scene"), "replay": _("replay")}[stats.kind]
    units = _(", {n} units and vehicles").format(n=len(stats.units)) if stats.units else ""
    animation = (_(", animation of {seconds} s (the film's time line)").format(seconds=decimal(stats.duration_s))
                 if stats.animated else "")
    print(_("wrote {path}: {what}, {triangles} triangles, {meshes} meshes, {materials} materials, {nodes} "
            "nodes{units}{animation}; {size} kB in {seconds} s").format(
        path=stats.path, what=what, triangles=integer(stats.triangles), meshes=stats.meshes,
        materials=stats.materials, nodes=stats.nodes, units=units, animation=animation,
        size=integer(round(stats.bytes / 1024)), seconds=decimal(stats.seconds)))
    return 0
