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
    out = io.StringIO()
    with i18n.speaking("fr"):
        with bar(4, "partie", "v1.2", file=out, mininterval=0) as shown:
            shown.update(1)
            shown.update(3)
    last = out.getvalue().split("\r")[-1]
    assert last.startswith("v1.2: 100%") and "4/4" in last
    rate = last.rsplit(" ", 1)[-1]
    assert "partie" in rate and "." not in rate and ("," in rate or "?" in rate), last
