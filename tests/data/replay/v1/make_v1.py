"""Write the version-1 replay corpus with the bow3d that wrote version 1 (commit 725e298).

    git worktree add /tmp/bow3d-old 725e298
    PYTHONPATH=/tmp/bow3d-old:tests/replay python tests/data/replay/v1/make_v1.py OUT_DIR [GAMES]

Games on the flat fields of tests/replay/v1_fields.py, each side played by the old AI or by a
seeded random chooser among the legal actions (so that rare actions happen: disputes, doors,
getting on and off vehicles, piloting, crashes, treatments), brick rolls from the seeded stream
as the old runner drew them. The files kept in this folder were written by this script.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from v1_fields import flat_field

from bow3d.replay import ReplayWriter
from bow3d.replay.session import ai_players, play_game
from bow3d.scene import load_scene

HERE = Path(__file__).resolve().parent


class Mixed:
    """Plays a side: the old AI with probability `p_ai`, else a random legal action."""

    def __init__(self, ai, rng, p_ai):
        self.ai, self.rng, self.p_ai = ai, rng, p_ai

    def choose(self, game):
        if self.rng.random() < self.p_ai:
            return self.ai.choose(game)
        legal = game.legal_actions()
        return legal[int(self.rng.integers(len(legal)))]


class Scripted:
    """Plays the first of `wanted` (built by a function of the game) that the rules accept, else ends the turn."""

    def __init__(self, wanted):
        self.wanted = wanted

    def choose(self, game):
        from bow3d.rules import EndTurn

        for action in self.wanted(game):
            if game.check(action) is None:
                return action
        return next(a for a in game.legal_actions() if isinstance(a, EndTurn))


def _blue_script(game):
    from bow3d.rules import CompulsoryMove, Door, Grab, Throw

    return [CompulsoryMove("blue-driver"), Door("blue-1", "gate", True), Throw("blue-1", "knife", (12, 11)),
            Grab("blue-1", "knife"), Door("blue-1", "gate", False)]


def scripted(out: Path) -> None:
    """Doors opened and closed, a knife thrown and picked up, a jeep that drives off the field."""
    scene_file = HERE / "field-scripted.yaml"
    scene = load_scene(scene_file)
    players = {"blue": Scripted(_blue_script), "red": Scripted(lambda game: [])}
    path = out / "field-scripted-seed1.bowreplay"
    if path.exists():
        path.unlink()
    with ReplayWriter(path, scene, 1, {"blue": "scripted", "red": "scripted"}, max_rounds=3) as writer:
        play_game(scene, flat_field(scene), players, 1, writer=writer, max_rounds=3)


def main(out: Path, games: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    scripted(out)
    for scene_file in sorted(HERE.glob("field-[fv]*.yaml")):
        scene = load_scene(scene_file)
        for seed in range(1, games + 1):
            ais = ai_players(scene, seed)
            players = {side: Mixed(ai, np.random.default_rng([seed, 99, i]), 0.5)
                       for i, (side, ai) in enumerate(ais.items())}
            path = out / f"{scene_file.stem}-seed{seed}.bowreplay"
            if path.exists():
                path.unlink()
            with ReplayWriter(path, scene, seed, dict.fromkeys(players, "random"), max_rounds=8) as writer:
                play_game(scene, flat_field(scene), players, seed, writer=writer, max_rounds=8)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 20)
