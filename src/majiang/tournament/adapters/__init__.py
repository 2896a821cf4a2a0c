"""The tournament's edge: everything that does I/O or drives another part of majiang, built on the pure
core in :mod:`majiang.tournament` and never imported by it.

- :mod:`.repository` — events in the database (:mod:`majiang.store.tournament_models`)
- :mod:`.bridge` — tables played by bots on the game engine, and engine results as hand records
- :mod:`.online` — sessions played at hall tables (through the hall's public API: ``create_table``,
  ``add_room``, ``route``) and the hand-end hook the serve command gives the hall
- :mod:`.web` — the competition pages and organiser routes (a FastAPI router)
- :mod:`.output` — renderers: HTML and PDF score sheets, CSV and EMA exports, plots
"""
