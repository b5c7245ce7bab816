"""``python -m kanaloa``: the ``kanaloa`` command."""

from .interfaces.cli import main

if __name__ == "__main__":
    main()
