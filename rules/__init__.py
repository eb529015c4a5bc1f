"""The pure rules core: scenes, geometry, path finding and one package per rule system."""

if __name__ != "arbitre.rules":  # a part of arbitre, never a package of its own
    raise ImportError(f"import arbitre.rules, not {__name__}: one module, one name")
