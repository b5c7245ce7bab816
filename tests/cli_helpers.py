"""Helpers shared by the tests of the ``kanaloa`` command."""

from __future__ import annotations

from click.testing import CliRunner

from kanaloa.interfaces.cli import cli


def run(*args: str, input: str | bytes | None = None):
    """Run ``kanaloa ARGS`` in-process; the result has ``exit_code``, ``stdout`` and ``stderr``."""
    return CliRunner().invoke(cli, list(args), input=input)


def user_error(result, *fragments: str) -> str:
    """The one ``error:`` line of a command that failed on user input.

    Checks exit status 2, exactly one line on standard error, no traceback,
    and that every fragment appears in the line.
    """
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]
