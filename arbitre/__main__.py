"""``python -m arbitre``: the command line."""

from arbitre.api.cli import main

if __name__ == "__main__":
    main()
