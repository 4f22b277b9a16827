"""The heatmap picture (issue 17): a stud grid every 8 studs, every unit's id, a legend, readable colours."""

from __future__ import annotations

import numpy as np

from bow3d.view.output.heatmap_picture import (
    COVERED,
    GRID_STUDS,
    HIDDEN,
    OPEN,
    backdrop,
    cover_legend,
    grid_lines,
    place_labels,
    tint_map,
    visibility_legend,
)


class Grid:
    i0, j0, shape = -3, 2, (20, 12)


def test_grid_lines_fall_on_multiples_of_eight_studs():
    assert GRID_STUDS == 8
    assert grid_lines(0, 64) == [0, 8, 16, 24, 32, 40, 48, 56, 64]
    assert grid_lines(-3, 20) == [0, 8, 16] and grid_lines(2, 12) == [8]


def test_tint_over_grey_reads_and_the_grid_is_dark():
    image = np.zeros((12 * 4 + 10, 20 * 4, 3), np.uint8)
    image[..., 1] = 200  # a green baseplate
    colours = np.full((20, 12, 3), np.nan)
    colours[:10] = HIDDEN
    colours[10:] = OPEN
    out = tint_map(image, colours, Grid, 4).astype(int)
    assert out[5, 5, 2] > out[5, 5, 1] and out[5, 70, 0] > out[5, 70, 1] + 60  # blue reads blue, red reads red
    assert abs(int(backdrop(image)[0, 0, 0]) - int(backdrop(image)[0, 0, 1])) == 0  # the baseplate turned grey
    column = (0 - Grid.i0) * 4  # the grid line at x = 0 studs
    assert out[20, column].sum() < out[20, column + 2].sum() * 0.5


def test_legends_name_each_colour_in_words():
    words = [w for w, _ in visibility_legend(0.25)]
    assert words[0] == "cannot be seen" and "covered (25%+ hidden)" in words[1] and words[2] == "seen in the open"
    assert [w for w, _ in cover_legend(10)] == ["covered from none", "from half of them", "from all 10"]
    assert np.allclose(cover_legend(4)[1][1], COVERED)


def test_unit_labels_never_sit_on_each_other():
    class Body:
        def __init__(self, x, y):
            self.position = (x, y)

    class World:
        bodies = {"a-long-name": Body(5, 5), "b-long-name": Body(5.2, 5), "c": Body(5, 5.1)}

        def body(self, id_):
            return self.bodies[id_]

    labels = [lb for lb in place_labels(World(), Grid, 16, list(World.bodies)) if not lb.text.isdigit()]
    assert [lb.text for lb in labels] == list(World.bodies)
    ys = sorted(lb.y for lb in labels)
    assert all(b - a >= labels[0].size for a, b in zip(ys, ys[1:]))
