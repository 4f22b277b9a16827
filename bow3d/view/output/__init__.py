"""Pictures and pages: the offscreen renderer, stills of a model, the line-of-sight picture, the
heatmap, the balance chart, unit cards, PDF pages and words over a finished picture.

Layer: view.
"""
