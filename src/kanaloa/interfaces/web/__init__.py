"""``kanaloa serve``: the local web app (Play, Table, Board editor, Replay); docs/web.md."""

from __future__ import annotations
