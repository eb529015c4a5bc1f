"""The command line, the live table, the HTTP API and the web page."""

if __name__ != "arbitre.api":  # a part of arbitre, never a package of its own
    raise ImportError(f"import arbitre.api, not {__name__}: one module, one name")
