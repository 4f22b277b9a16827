"""glTF 2.0 of a model, a scene or a replay, for Blender and the web (`bow3d export`, `bow3d report`).

Layer: view (pygltflib and numpy; the film's director for a replay's animation; no Panda3D drawing).

    stats = export_gltf("scenes/village.yaml", "village.glb")            # a scene, metres, full detail
    stats = export_gltf("replays/village-seed1.bowreplay", "battle.glb")  # plus the film's animation
    stats = export_gltf("scenes/village.ldr", "village.gltf", scale="ldu", quality="draft")

One mesh per distinct part and colour, one node per part instance (named by part, file and line),
units and vehicles as named nodes (side and sheet in extras), LDraw colours as PBR materials, the
world (Z up, LDU) turned to glTF's Y up once, in the root node. See bow3d.view.gltf.document.
"""

from bow3d.view.gltf.builder import FINISHES, LDU_METRES, QUALITIES, GltfBuilder, pbr_material
from bow3d.view.gltf.document import SAMPLE_RATE, SCALES, Document, model_document, replay_document, scene_document
from bow3d.view.gltf.export import ExportStats, export_gltf, input_kind

__all__ = ["FINISHES", "LDU_METRES", "QUALITIES", "SAMPLE_RATE", "SCALES", "Document", "ExportStats", "GltfBuilder",
           "export_gltf", "input_kind", "model_document", "pbr_material", "replay_document", "scene_document"]
