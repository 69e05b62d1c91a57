"""The examples in the engine's docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import powergrid

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(powergrid.__path__, "powergrid.")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_public_functions_show_an_example() -> None:
    """apply, legal, view and new_game each document themselves with a run example."""
    for fn in (powergrid.apply, powergrid.legal, powergrid.view, powergrid.new_game):
        assert fn.__doc__ is not None
        assert ">>> " in fn.__doc__, fn.__name__
