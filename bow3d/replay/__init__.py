"""bow3d.replay: replay files (written as the game goes, read, verified by re-simulation), the one
game session that every front end plays through, the dice, and AI-against-AI simulations.

Layer: replay (imports ldraw, scene, world, rules and rulesets; never view or panda3d). Public surface:

    with ReplayWriter("game.bowreplay", scene, seed, {"blue": "ai", "red": "ai"}, max_rounds=30) as w:
        result = play_game(scene, World.from_scene(scene), None, seed, writer=w, max_rounds=30)
    session = Session.start(scene, world, seed=1, players={"blue": None, "red": ai}, writer=w)
    opened = open_replay("game.bowreplay")        # header, scene (its digest checked), world, re-simulation
    verify_replay("game.bowreplay").ok            # re-simulated, chance and the AI re-derived
    write_pack("game.bowreplay", "game.bowpack")  # the replay with its scene, models and own parts
    open_replay("game.bowpack")                   # every reader takes a pack as it takes a replay
    simulate("scenes/village.yaml", games=50, workers=2).games_per_second
"""

from bow3d.replay.cache import CachedGeometry
from bow3d.replay.dice import EnteredDice, SeededDice
from bow3d.replay.digest import scene_digest
from bow3d.replay.format import (
                                 FORMAT,
                                 SUFFIX,
                                 VERSION,
                                 GameEnd,
                                 Replay,
                                 ReplayEntry,
                                 ReplayHeader,
                                 ReplayWriter,
                                 file_sha256,
                                 read_replay,
)
from bow3d.replay.log import BattleLog, battle_log
from bow3d.replay.opened import OpenReplay, open_replay
from bow3d.replay.pack import open_pack
from bow3d.replay.packing import write_pack
from bow3d.replay.session import GameResult, Player, Session, ai_players, play_game
from bow3d.replay.simulate import SimulationSummary, simulate
from bow3d.replay.verify import VerifyResult, verify_replay

__all__ = [
    "FORMAT", "SUFFIX", "VERSION", "BattleLog", "CachedGeometry", "EnteredDice", "GameEnd", "GameResult",
    "OpenReplay", "Player", "Replay", "ReplayEntry", "ReplayHeader", "ReplayWriter", "SeededDice", "Session",
    "SimulationSummary", "VerifyResult", "ai_players", "battle_log", "file_sha256", "open_pack", "open_replay",
    "play_game", "read_replay", "scene_digest", "simulate", "verify_replay", "write_pack",
]
