"""Films of replays: the timeline of beats, the director's shot list, each shot's camera work, what a
frame shows, the shot check, the titles' layout (all without Panda3D), and the stage, the title
overlay, the video and its encoder that draw and write them; films of many replays at once.

Layer: view. The planning modules (timeline, director, shots, frames, titles, shot_check, films)
import no Panda3D (tests/test_layers.py).
"""
