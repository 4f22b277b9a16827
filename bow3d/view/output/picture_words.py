"""Words over a finished picture: Panda3D text (bold, with a dark outline) drawn in a second pass.

Layer: view. A picture made in numpy (a heatmap, a page of cards) becomes a texture on a card that
fills an offscreen buffer's 2D layer; each Label is a TextNode placed in pixels over it; the frame is
read back. The caller's 3D scene in that renderer must be hidden first. Pixel coordinates: x right,
y down, a label's position is its left baseline.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

OUTLINE = (0.6, 0.3)  # outline width and feather, in the font's units (a dark rim round light letters)


@dataclass(frozen=True)
class Label:
    """Words on the picture: text, pixel position (x right, y down) of its left baseline, size (px), RGB,
    `wrap_px` the width to wrap at (0: one line), `outline` False for dark words on a light page."""

    text: str
    x: float
    y: float
    size: float
    colour: tuple[int, int, int] = (255, 255, 255)
    wrap_px: float = 0.0
    outline: bool = True
    align: str = "left"


def draw_words(renderer, image: np.ndarray, labels: list[Label]) -> np.ndarray:
    """(H, W, 3) uint8: `image` with the labels written over it, read back from `renderer` (its size)."""
    from panda3d.core import CardMaker, SamplerState, TextNode, Texture

    from bow3d.view.film.title_overlay import bold_font, overlay_layer

    height, width = image.shape[:2]
    render2d, _ = overlay_layer(renderer.buffer, width / height)
    texture = Texture("picture")
    texture.setup_2d_texture(width, height, Texture.T_unsigned_byte, Texture.F_rgb)
    texture.set_ram_image_as(np.ascontiguousarray(image[::-1]).tobytes(), "RGB")
    texture.set_minfilter(SamplerState.FT_nearest)
    texture.set_magfilter(SamplerState.FT_nearest)
    card = CardMaker("picture")
    card.set_frame(-1, 1, -1, 1)
    render2d.attach_new_node(card.generate()).set_texture(texture)
    pixels = render2d.attach_new_node("pixels")  # x right, z up from the bottom, in pixels
    pixels.set_pos(-1, 0, -1)
    pixels.set_scale(2 / width, 1, 2 / height)
    outlined, plain = bold_font(), bold_font()
    if outlined is not None:
        outlined.set_outline((0, 0, 0, 1), *OUTLINE)
    for label in labels:
        node = TextNode("label")
        font = outlined if label.outline else plain
        if font is not None:
            node.set_font(font)
        elif label.outline:
            node.set_shadow(0.06, 0.06)
            node.set_shadow_color(0, 0, 0, 1)
        node.set_text(label.text)
        node.set_text_color(*(c / 255 for c in label.colour), 1)
        node.set_align({"left": TextNode.A_left, "center": TextNode.A_center, "right": TextNode.A_right}[label.align])
        if label.wrap_px:
            node.set_wordwrap(label.wrap_px / label.size)
        path = pixels.attach_new_node(node)
        path.set_pos(label.x, 1, height - label.y)
        path.set_scale(label.size)
    renderer.render_frame()  # a fresh buffer's first frame can come back before the texture is drawn
    frame = renderer.frame().copy()
    camera = render2d.find("**/+Camera")
    for region in list(renderer.buffer.get_display_regions()):  # the renderer draws other pictures after
        if region.get_camera() == camera:
            renderer.buffer.remove_display_region(region)
    render2d.remove_node()
    return frame
