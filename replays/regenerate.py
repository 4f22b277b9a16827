"""Regenerate the bundled replays (run from anywhere): `python replays/regenerate.py [SCENE ...]`
(every scene below, or only those named, e.g. `python replays/regenerate.py war-of-bros`).

Needed whenever a demo scene, the rules or the AI change (a replay pins its scene by sha256 and
is verified event by event in tests/replay/test_bundled.py). Each replay is one AI-against-AI
game from seed 1, as `bow3d simulate SCENE --games 1 --seed 1 --replays replays/` writes it,
with the bundled starter LDraw library (the units' parts decide every line of sight).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCENES = ("village", "los-gallery", "western-town", "war-of-bros")
SEED = 1


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(SCENES))
    if unknown:
        print(f"regenerate.py: no bundled replay of {', '.join(unknown)} (known: {', '.join(SCENES)})",
              file=sys.stderr)
        return 2
    # the bundled starter library, whatever $LDRAWDIR says: it ships with bow3d, so the replays
    # verify on any machine (their header says 'library: bundled' and verify builds the same world)
    os.environ.pop("LDRAWDIR", None)
    sys.path.insert(0, str(HERE.parent))
    from bow3d.replay.simulate import simulate
    from bow3d.replay.verify import verify_replay

    for name in names or SCENES:
        old = HERE / f"{name}-seed{SEED}.bowreplay"
        old.unlink(missing_ok=True)
        summary = simulate(HERE.parent / "scenes" / f"{name}.yaml", 1, seed=SEED, replays_dir=HERE)
        path = summary.replays[0]
        result = verify_replay(path)
        print(f"{path}: {result.entries} entries, {result.winner} wins in round {result.rounds}, "
              f"{'verified' if result.ok else 'NOT verified: ' + str(result.first_divergence)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
