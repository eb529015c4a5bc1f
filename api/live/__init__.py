"""The live table: cameras' frames in, tracked figures and rules answers out.

`table` owns the loop (`LiveTable`, its docstring tells the data's whole trip); each
camera has its `camera_loop` (measured in a process of its own by `measuring`), their
tracks fused by `fused_tracks`; questions wait their turn at the `desk`; `sources` is
the table of frame sources' kinds, `tuio` the TUIO output, `demo` and `demo_club` the
built-in simulated tables, `terrain_rules` what each rule system reads of the terrain,
`journal` the game journal (every question with its answer, scene and picture, and the
table each time a figure comes to rest, in SQLite).

Nothing is imported here: the command line reads `sources` at every start, and must not
load the rest.
"""
