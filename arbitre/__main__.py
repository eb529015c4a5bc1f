"""``python -m arbitre``: the command line."""

from arbitre.api.cli import entry

if __name__ == "__main__":
    entry()
