"""Camera frames -> marker corners and centres in pixels; tracking; the simulator."""

if __name__ != "arbitre.vision":  # a part of arbitre, never a package of its own
    raise ImportError(f"import arbitre.vision, not {__name__}: one module, one name")
