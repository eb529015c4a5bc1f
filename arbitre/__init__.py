"""arbitre: a computer-vision table assistant for miniature wargames.

One import package with four parts, which data flows through in this order:

* :mod:`arbitre.vision` -- camera frames to marker corners; tracking; the simulator;
* :mod:`arbitre.calibration` -- camera intrinsics, the table pose, markers to table mm;
* :mod:`arbitre.rules` -- the pure rules core: scenes, geometry, the rule systems;
* :mod:`arbitre.api` -- the command line, the live table, the HTTP API and the page.
"""

__version__ = "0.1.0"
