"""Render tests run only where Panda3D can open an offscreen buffer; elsewhere they skip."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def renderer_available() -> None:
    from bow3d.view.offscreen import OffscreenRenderer, RenderUnavailable

    try:
        OffscreenRenderer(64, 64).close()
    except RenderUnavailable as error:
        pytest.skip(f"no offscreen graphics pipe here: {error}")
