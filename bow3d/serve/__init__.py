"""bow3d.serve: the browser's bow3d (`bow3d serve`): rooms where people play a scene of any ruleset from
their browsers, spectators, and the phone referee page.

Layer: serve (above view: it reads games through the table, bow3d.rules.table, and draws scenes with the
glTF the view layer builds). Rooms, seats and invite tokens live in SQLite (bow3d.serve.store); each
room's game is its replay file, written record by record (bow3d.serve.room). The ASGI app
(bow3d.serve.app, Starlette on uvicorn) speaks JSON frames over WebSockets (bow3d.serve.messages).
"""
