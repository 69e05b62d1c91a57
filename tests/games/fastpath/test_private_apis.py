"""The fast paths lean on parts of Django and smtplib that are not public API. This fails loudly,
naming what changed, on a version where those parts are not as the fast paths expect: upgrade
deliberately, re-run the equality tests beside this file, then widen the pins here."""

from __future__ import annotations

import inspect
import smtplib
import sys

import django
from django.db.models import Model
from django.db.models.base import ModelState
from django.template.base import FilterExpression, Node
from django.templatetags.i18n import BlockTranslateNode, TranslateNode

#: The versions the fast paths were written and checked against.
DJANGO = (5, 2)
PYTHON = (3, 11)


def test_django_is_the_series_the_fast_paths_were_checked_against():
    assert django.VERSION[:2] == DJANGO, (
        f"Django {django.get_version()}: re-check games/fastpath (rows, bulk, rendering)"
    )


def test_python_is_the_series_wire_was_checked_against():
    assert sys.version_info[:2] >= PYTHON


def test_model_state_and_from_db_are_as_rows_uses_them():
    """rows builds instances with ``Model.from_db`` and marks them saved on ``_state``."""
    assert list(inspect.signature(Model.from_db).parameters) == ["db", "field_names", "values"]
    state = ModelState()
    assert hasattr(state, "adding")
    assert hasattr(state, "db")
    assert hasattr(state, "fields_cache")


def test_translate_nodes_have_what_rendering_reads():
    for attr in ("filter_expression", "noop", "asvar", "message_context"):
        assert attr in inspect.signature(TranslateNode.__init__).parameters
    for attr in ("singular", "plural", "countervar", "counter", "asvar", "message_context"):
        assert attr in inspect.signature(BlockTranslateNode.__init__).parameters
    assert callable(BlockTranslateNode.render_token_list)
    assert hasattr(Node, "child_nodelists")
    assert "var" in FilterExpression.__init__.__code__.co_names or hasattr(
        FilterExpression, "resolve"
    )


def test_smtplib_has_what_wire_calls():
    for name in ("_rset", "putcmd", "getreply", "send", "ehlo_or_helo_if_needed", "has_extn"):
        assert callable(getattr(smtplib.SMTP, name, None)), f"smtplib.SMTP.{name}"
    assert callable(smtplib.quoteaddr)
