"""A game's part of the web app: what the registry's ``web`` face answers (``kanaloa serve``).

The app (``kanaloa.interfaces.web.games`` and ``.app``) serves every
registered game alike: it deals, reads and moves positions through the
position protocol, draws them with the ``svg`` face and lets the bots and
the hint play them.  What only the game knows it asks the game's ``web``
face, a ``WebFace``:

- ``module``: the URL of the page's ES module for the game (docs/web.md,
  "A game's module"): what a click on its picture means, its status line,
  its scores and summary, its rows of the New-game form, its file editor;
- ``assets``: ``(package, directory)`` of the game's own static files,
  served at ``/games/NAME/`` (None: the module is one of the page's own);
  ``style``: a style sheet among them, or None;
- ``bots``: the bot specs the New-game form suggests for a seat;
- ``view(position, moves)``: the keys of a view that are the game's own;
- ``request_value(parameter, value)``: a game parameter as a request sends
  it, made what ``load_game`` takes: a data file comes as its content or a
  built-in name, never as a path on the server's disk; ``request_takes(p)``
  says what that is, for the refusal of a null (``players: must be 2, 3 or
  4, not null``);
- ``record_refusal(params)``: why a game dealt from these parameters can
  have no record that deals it again, or None;
- ``files``: the game's own data files, when it has some beside the boards
  the app serves for every game (``describe_files``, ``builtin_file``,
  ``check_file``; the Editor mode edits them).

The defaults below are what a game without such a part answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import OptionError
from ...rules.ruleset import Parameter

Position = Any  # a position of the game's own class (the ``position`` face)


class WebFace:
    """A game's part of the web app (module docstring); a game's face is an instance of a subclass."""

    module: str = ""
    assets: tuple[str, str] | None = None
    style: str | None = None
    bots: tuple[str, ...] = ("human", "random", "greedy", "ismcts:iterations=500")
    # The kind of the game's own data files the Editor mode edits (its ``files`` face's ``kind``: "tile"); None
    # where the app's board editor serves them (boards) or the game has none.
    files: str | None = None

    def module_url(self, game: str) -> str:
        """The URL the page imports the game's module from."""
        return f"/games/{game}/{self.module}" if self.assets is not None else self.module

    def style_url(self, game: str) -> str | None:
        if self.style is None:
            return None
        return f"/games/{game}/{self.style}" if self.assets is not None else self.style

    def view(self, position: Position, moves: Sequence[str]) -> dict[str, Any]:
        """The keys of a view of ``position`` that are the game's own; ``moves`` are the legal moves the view
        offers (none when nobody at the screen is to move)."""
        return {}

    def request_value(self, parameter: str, value: object) -> object:
        """``value`` of the game's ``parameter`` as a request sends it, made what ``load_game`` takes; raises
        ``ParameterError`` naming the parameter for a value no request may give (a path on the server)."""
        return value

    def request_takes(self, parameter: Parameter) -> str:
        """What a request may give for the game's ``parameter``, for a message: what ``kanaloa games`` says it
        takes, unless the request sends it otherwise than the command line (a data file's content)."""
        return parameter.takes

    def record_refusal(self, params: Mapping[str, object]) -> str | None:
        """Why a game dealt from the request's parameters ``params`` can have no record that deals it again,
        or None when it can."""
        return None

    def describe_files(self) -> dict[str, Any]:
        """What the Editor mode needs to edit the game's own data files."""
        raise OptionError("this game has no data files of its own; its boards are edited in the board editor")

    def builtin_file(self, name: str) -> dict[str, Any]:
        """A built-in data file's content; ``OptionError`` for another name."""
        raise OptionError("this game has no data files of its own")

    def check_file(self, content: object) -> dict[str, Any]:
        """A data file read by the game's own reader: ``{"file", "name", "summary"}``; the reader's one-line
        error otherwise (a ``KanaloaError``)."""
        raise OptionError("this game has no data files of its own")

    def to_json(self, game: str) -> dict[str, Any]:
        """What the page is told of the game's part (``GET /api/games``, each game's ``web``)."""
        return {"module": self.module_url(game), "style": self.style_url(game), "bots": list(self.bots),
                "files": self.files}


__all__ = ["WebFace"]
