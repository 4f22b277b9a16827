"""Panda3D nodes from numpy draw batches: one Geom per batch, filled straight from arrays.

Layer: view. No globals: callers pass the parent NodePath. A texture decal batch (Batch.texture)
draws its image modulated by the lit white of its vertices (so it is shaded like the surface
under it), blended by the image's alpha, transparent off the image (a border of alpha 0).
`attach_model` puts a whole model's batches (and its edges) under a parent: a still, the viewer and the
scene's nodes build their models with it.
"""

from __future__ import annotations

import numpy as np
from panda3d.core import (
    CullFaceAttrib,
    DepthTestAttrib,
    Filename,
    Geom,
    GeomLines,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    LColor,
    LODNode,
    LPoint3,
    Material,
    NodePath,
    PNMImage,
    RenderAttrib,
    SamplerState,
    StringStream,
    Texture,
    TextureStage,
    TransparencyAttrib,
)

from bow3d.ldraw import Model
from bow3d.view.graph.batches import CHUNK_LDU, NEAR_LDU, Batch, EdgeBatch, build_batches, conditional_lines, edge_lines
from bow3d.view.graph.conditional_lines import attach_conditional_lines

_FORMATS: dict[bool, GeomVertexFormat] = {}
# Batch.finish -> (specular strength, shininess): a highlight on top of the vertex colour (fixed-function lights)
# and a darker body for chrome, so its highlights stand out as on a mirror
FINISH_MATERIALS = {"metal": (0.6, 12.0), "chrome": (1.0, 18.0)}
CHROME_BODY = 0.62


def _vertex_format(textured: bool = False) -> GeomVertexFormat:
    """Three arrays (position, normal, colour; a fourth, texcoord, for decals) so each is one memcpy from numpy."""
    if textured not in _FORMATS:  # a registered format is immutable and shared: build it once
        fmt = GeomVertexFormat()
        columns = [("vertex", 3, Geom.NT_float32, Geom.C_point), ("normal", 3, Geom.NT_float32, Geom.C_normal),
                   ("color", 4, Geom.NT_uint8, Geom.C_color)]
        for name, count, kind, contents in columns + ([("texcoord", 2, Geom.NT_float32, Geom.C_texcoord)]
                                                      if textured else []):
            array = GeomVertexArrayFormat()
            array.add_column(name, count, kind, contents)
            fmt.add_array(array)
        _FORMATS[textured] = GeomVertexFormat.register_format(fmt)
    return _FORMATS[textured]


def _vertex_data(name: str, positions: np.ndarray, normals: np.ndarray | None, colours: np.ndarray,
                 uvs: np.ndarray | None = None) -> GeomVertexData:
    data = GeomVertexData(name, _vertex_format(uvs is not None), Geom.UH_static)
    data.unclean_set_num_rows(positions.shape[0])
    if normals is None:
        normals = np.zeros_like(positions)
        normals[:, 2] = 1.0
    for index, array in enumerate((positions, normals, colours) + ((uvs,) if uvs is not None else ())):
        view = memoryview(data.modify_array(index)).cast("B")
        view[:] = np.ascontiguousarray(array).tobytes()
    return data


def batch_node(batch: Batch, name: str = "batch") -> GeomNode:
    """A GeomNode drawing one batch (unindexed triangles)."""
    data = _vertex_data(name, batch.positions, batch.normals, batch.colours, batch.uvs)
    prim = GeomTriangles(Geom.UH_static)
    prim.add_consecutive_vertices(0, batch.positions.shape[0])
    geom = Geom(data)
    geom.add_primitive(prim)
    node = GeomNode(name)
    node.add_geom(geom)
    return node


def attach_batches(parent: NodePath, batches: list[Batch], name: str = "battlefield",
                   chunk_ldu: float = CHUNK_LDU, near_ldu: float = NEAR_LDU, textures: dict | None = None) -> NodePath:
    """All batches under one new node; transparent ones blended and drawn after the opaque.

    Batches with a level of detail hang under one LODNode per chunk (near / far children).
    `textures` (Model.textures: image name -> TextureImage) gives the decals their images; a decal
    whose image is not there or cannot be read is left out (the surface keeps its colour).
    """
    root = parent.attach_new_node(name)
    images: dict[str, Texture | None] = {}
    levels: dict[tuple[int, int], tuple[NodePath, NodePath]] = {}
    for i, batch in enumerate(batches):
        holder = root
        if batch.texture:
            if batch.texture not in images:
                images[batch.texture] = load_texture((textures or {}).get(batch.texture))
            if images[batch.texture] is None:
                continue
        if batch.lod:
            if batch.chunk not in levels:
                lod = LODNode(f"{name}-lod-{batch.chunk[0]}-{batch.chunk[1]}")
                lod.set_center(LPoint3((batch.chunk[0] + 0.5) * chunk_ldu, (batch.chunk[1] + 0.5) * chunk_ldu, 0))
                lod_path = root.attach_new_node(lod)
                near, far = lod_path.attach_new_node("near"), lod_path.attach_new_node("far")
                lod.add_switch(near_ldu, 0.0)
                lod.add_switch(1e9, near_ldu)
                levels[batch.chunk] = (near, far)
            holder = levels[batch.chunk][batch.lod - 1]
        path = holder.attach_new_node(batch_node(batch, f"{name}-{batch.chunk[0]}-{batch.chunk[1]}-{i}"))
        if batch.finish in FINISH_MATERIALS:
            path.set_material(finish_material(batch.finish))
            if batch.finish == "chrome":
                path.set_color_scale(CHROME_BODY, CHROME_BODY, CHROME_BODY, 1)
        if batch.two_sided:
            path.set_attrib(CullFaceAttrib.make(CullFaceAttrib.M_cull_none))
        if batch.transparent:
            path.set_transparency(TransparencyAttrib.M_alpha)
            path.set_bin("transparent", 10)
            path.set_depth_write(False)
        if batch.texture:
            path.set_texture(TextureStage.get_default(), images[batch.texture])
            # Over the coloured surface it repeats: the same corners give the same depths, so "less or equal"
            # wins face-on (where a polygon offset alone does not, on llvmpipe), the offset at a slant.
            path.set_attrib(DepthTestAttrib.make(RenderAttrib.M_less_equal))
            path.set_depth_offset(2)
    return root


def load_texture(image) -> Texture | None:
    """A Panda3D texture of a `bow3d.ldraw.textures.TextureImage` (file or !DATA bytes), None when unreadable.

    Off the image the texture is transparent (border colour alpha 0), so the surface's colour shows."""
    if image is None:
        return None
    picture = PNMImage()
    source = StringStream(image.data) if image.path is None else Filename.from_os_specific(str(image.path))
    ok = picture.read(source)
    if not ok:
        return None
    if not picture.has_alpha():
        picture.add_alpha()
        picture.alpha_fill(1.0)
    texture = Texture(image.name)
    texture.load(picture)
    for axis in (texture.set_wrap_u, texture.set_wrap_v):
        axis(SamplerState.WM_border_color)
    texture.set_border_color(LColor(1, 1, 1, 0))
    texture.set_minfilter(SamplerState.FT_linear_mipmap_linear)
    texture.set_magfilter(SamplerState.FT_linear)
    return texture


def finish_material(finish: str) -> Material:
    """A Material for a shiny finish: the vertex colour stays the diffuse colour, a white highlight on top."""
    strength, shininess = FINISH_MATERIALS[finish]
    material = Material(finish)
    material.set_specular(LColor(strength, strength, strength, 1))
    material.set_shininess(shininess)
    return material


def attach_lines(parent: NodePath, name: str, positions: np.ndarray, colours: np.ndarray) -> NodePath:
    """Unlit line segments as one GeomLines node: positions (2S, 3) float32, colours (2S, 4) uint8."""
    data = _vertex_data(name, positions, None, colours)
    prim = GeomLines(Geom.UH_static)
    prim.add_consecutive_vertices(0, positions.shape[0])
    geom = Geom(data)
    geom.add_primitive(prim)
    node = GeomNode(name)
    node.add_geom(geom)
    path = parent.attach_new_node(node)
    path.set_light_off()
    return path


def attach_edges(parent: NodePath, edges: EdgeBatch, name: str = "edges") -> NodePath:
    """Edge lines as one GeomLines node (unlit), drawn over the faces they outline."""
    path = attach_lines(parent, name, edges.positions, edges.colours)
    path.set_depth_offset(1)
    return path


def attach_model(parent: NodePath, model: Model, quality: str = "default", edges: bool = False) -> tuple[NodePath, int, int]:
    """The model's static geometry under `parent`: (node, triangles at the nearest level, draw calls).
    BudgetExceeded before anything is built when the drawing would not fit (Model.check_drawing)."""
    model.check_drawing(edges)
    batches = build_batches(model, quality)
    node = attach_batches(parent, batches, textures=model.textures)
    calls = len(batches)
    if edges:
        attach_edges(node, edge_lines(model, quality))
        calls += 1
        conditional = conditional_lines(model)
        if conditional.positions.shape[0]:
            attach_conditional_lines(node, conditional)
            calls += 1
    return node, sum(b.triangle_count for b in batches if b.lod < 2), calls
