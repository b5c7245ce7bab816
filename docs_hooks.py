"""MkDocs hook of the documentation site (mkdocs.yml): headings get the anchors GitHub gives them.

The pages link to each other's headings by the anchors GitHub makes (``hint --json`` is ``#hint---json``), and
``tests/test_docs.py`` checks those links by the same scheme, so the site uses it too: lower case, everything but
letters, digits, hyphens and spaces dropped, each space a hyphen, and nothing collapsed.
"""

from __future__ import annotations

import re
from typing import Any


def github_slug(value: str, separator: str = "-") -> str:
    """The anchor GitHub gives a heading whose text is ``value``."""
    text = re.sub(r"<[^>]*>", "", value)  # the toc extension hands over the heading's rendered text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", separator)


def on_config(config: Any, **_: Any) -> Any:
    config["mdx_configs"].setdefault("toc", {})["slugify"] = github_slug
    return config
