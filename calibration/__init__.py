"""Camera intrinsics, the table pose from the anchors, markers to table millimetres, printing."""

if __name__ != "arbitre.calibration":  # a part of arbitre, never a package of its own
    raise ImportError(f"import arbitre.calibration, not {__name__}: one module, one name")
