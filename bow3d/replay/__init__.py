"""bow3d.replay: replay files (written as the game goes, read, verified by re-simulation), the game
runner that throws the bricks, and AI-against-AI simulations.

Layer: replay (imports ldraw, scene, world, rules; never view or panda3d). Public surface:

    with ReplayWriter("game.bowreplay", scene, seed, {"blue": "ai", "red": "ai"}, max_rounds=30) as w:
        result = play_game(scene, World.from_scene(scene), None, seed, writer=w, max_rounds=30)
    replay = read_replay("game.bowreplay")       # header, entries, truncated
    verify_replay("game.bowreplay").ok            # re-simulated on the scene's 3D world
    simulate("scenes/village.yaml", games=50, workers=2).games_per_second
"""

from bow3d.replay.cache import CachedGeometry
from bow3d.replay.format import (FORMAT, SUFFIX, VERSION, Replay, ReplayEntry, ReplayHeader, ReplayWriter,
                                  file_sha256, read_replay)
from bow3d.replay.log import BattleLog, battle_log
from bow3d.replay.session import GameResult, Player, ai_players, play_game, roll_bricks
from bow3d.replay.simulate import SimulationSummary, simulate
from bow3d.replay.verify import VerifyResult, replay_games, verify_replay

__all__ = [
    "FORMAT", "SUFFIX", "VERSION", "BattleLog", "CachedGeometry", "GameResult", "Player", "Replay", "ReplayEntry",
    "ReplayHeader", "ReplayWriter", "SimulationSummary", "VerifyResult", "ai_players", "battle_log", "file_sha256",
    "play_game", "read_replay", "replay_games", "roll_bricks", "simulate", "verify_replay",
]
