"""bow3d.progress: one tqdm bar for every long job, its figures written the language's way."""

from __future__ import annotations

import io

from bow3d import i18n
from bow3d.progress import bar, localize_meter


def test_french_figures_take_a_decimal_comma_and_the_description_keeps_its_dots():
    line = "scene-1.5.yaml: 100%|##| 2/2 [00:04<00:00,  2.38s/partie]"
    with i18n.speaking("fr"):
        assert localize_meter(line, "scene-1.5.yaml") == "scene-1.5.yaml: 100%|##| 2/2 [00:04<00:00,  2,38s/partie]"
    with i18n.speaking("en"):
        assert localize_meter(line, "scene-1.5.yaml") == line


def test_a_bar_draws_its_rate_in_french():
    """The bar's own meter (4 games in 8.5 s: 2.12 s a game), and a bar that runs, in French."""
    from bow3d.progress import _bar_class

    with i18n.speaking("fr"):
        line = _bar_class().format_meter(n=4, total=4, elapsed=8.5, unit="partie", prefix="v1.2", ncols=80)
        assert line.startswith("v1.2: 100%") and "4/4" in line and line.endswith("2,12s/partie]"), line
        out = io.StringIO()
        with bar(2, "partie", "v1.2", file=out) as shown:
            shown.update(2)
        assert out.getvalue().split("\r")[-1].startswith("v1.2: 100%")
    with i18n.speaking("en"):
        assert _bar_class().format_meter(n=4, total=4, elapsed=8.5, unit="game", ncols=80).endswith("2.12s/game]")
