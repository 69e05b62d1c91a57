"""The examples in the server's docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "games.forecast",
    "games.rating_rule",
    "games.web.charts",
    "games.stream.events",
    "games.inbox.parse",
    "games.inbox.tokens",
    "games.inbox.receive",
    "games.inbox.sender",
    "games.inbox.authres",
    "games.mailevents.dsn",
    "games.mailevents.verp",
    "games.plans.stored",
    "games.web.markers",
    "accounts.names",
    "accounts.zones",
    "config.replica",
    "config.words",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str, settings) -> None:
    settings.SECRET_KEY = "doctest-key"
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
