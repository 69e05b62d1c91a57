"""No ``Any`` on the path a game's state takes from the engine to a reader (issue 24): the
engine's view, the server's selectors and presenters, the API's views and bodies, the game
page's context. Each is typed by the declared shapes (``powergrid.shapes``, ``games.shapes``,
``games.web.context``), so mypy checks every key filled on the way; an ``Any`` would switch that
check off for whatever passes through it. The modules are listed here, in one place: a module
that joins the path joins the list."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.web.cards import CARDS

ROOT = Path(__file__).resolve().parent.parent

#: The state's path, in the order it is taken.
STATE_PATH = (
    # The engine's view of a state and its parts (the legal moves).
    "powergrid/shapes.py",
    "powergrid/view.py",
    "powergrid/legal.py",
    # The server's one adapter to the engine, its declared answers, and the selectors that fill
    # them (THE door state leaves the server through), with the result and profile answers.
    "games/engine.py",
    "games/shapes/__init__.py",
    "games/shapes/base.py",
    "games/shapes/account.py",
    "games/shapes/games.py",
    "games/shapes/takebacks.py",
    "games/shapes/plans.py",
    "games/shapes/webhooks.py",
    "games/shapes/results.py",
    # The reads, one module a subject (``games/selectors/``).
    *(
        f"games/selectors/{module}.py"
        for module in (
            "__init__",
            "seats",
            "names",
            "visibility",
            "lists",
            "detail",
            "state",
            "history",
            "moves",
            "hints",
            "maps",
        )
    ),
    "games/results.py",
    "games/players.py",
    # The API: views (one module per resource, on a shared base and schema table), presenters,
    # the bodies of the player and account answers, take-backs, errors.
    "games/api/base.py",
    "games/api/schema.py",
    "games/api/tokens.py",
    "games/api/me.py",
    "games/api/maps.py",
    "games/api/lobby.py",
    "games/api/play.py",
    "games/api/results.py",
    "games/api/plans.py",
    "games/api/chat.py",
    "games/api/webhooks.py",
    "games/api/present.py",
    "games/api/players.py",
    "games/api/account.py",
    "games/api/takeback.py",
    "games/api/errors.py",
    # The event stream's body of a game (the schema's StreamGame).
    "games/stream/log.py",
    # The move log: the engine's entries (their parameters declared, ``Params``), the server's
    # log of them (``games.log.Item``) and their sentences, which the page and the emails show.
    "powergrid/describe.py",
    "powergrid/text.py",
    "games/log.py",
    "games/describe.py",
    # The game page: its declared context, made from the state by the presenters and views.
    "games/web/context.py",
    "games/web/present.py",
    "games/web/frame.py",
    "games/web/game.py",
    "games/web/lobby.py",
    "games/web/moves.py",
    "games/web/history.py",
    "games/web/quote.py",
    "games/web/takeback.py",
    # Each card of the game page: its presenter and its declared part.
    *(f"games/web/cards/{card}.py" for card in (*CARDS, "viewing")),
)


def any_uses(source: str, filename: str = "<source>") -> list[int]:
    """The lines where ``typing.Any`` is named: imported, in an annotation (also a quoted one),
    a ``cast``, an alias. Text that merely says "Any" (a docstring, a message) is not a use."""
    tree = ast.parse(source, filename)
    lines: list[int] = []

    def expression(text: str, line: int) -> None:
        try:
            inner = ast.parse(text, mode="eval")
        except SyntaxError:
            return
        if any(_is_any(n) for n in ast.walk(inner)):
            lines.append(line)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "Any" for a in node.names):
            lines.append(node.lineno)
        elif _is_any(node):
            lines.append(getattr(node, "lineno", 0))
    # Quoted annotations: a string where a type is expected.
    for node in ast.walk(tree):
        annotations: list[ast.expr | None] = []
        if isinstance(node, ast.AnnAssign | ast.arg):
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotations.append(node.returns)
        for ann in annotations:
            if ann is None:
                continue
            for sub in ast.walk(ann):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    expression(sub.value, sub.lineno)
    return sorted(set(lines))


def _is_any(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Attribute) and node.attr == "Any"
    )


@pytest.mark.parametrize("module", STATE_PATH)
def test_no_any_on_the_state_path(module: str) -> None:
    path = ROOT / module
    found = any_uses(path.read_text(encoding="utf-8"), str(path))
    assert not found, f"{module} names typing.Any on lines {found}: type it by the shapes"


def test_the_check_finds_any() -> None:
    """The check itself: each way of naming ``Any`` is found, a word in a text is not."""
    assert any_uses("from typing import Any\n") == [1]
    assert any_uses("import typing\nx: typing.Any = 1\n") == [2]
    assert any_uses("def f(x: 'dict[str, Any]') -> None: ...\n") == [1]
    assert any_uses("def f() -> list[Any]: ...\n") == [1]
    assert any_uses("from typing import cast\ny = cast(Any, 1)\n") == [2]
    assert any_uses('"""Any string."""\nmessage = "Any unique string"\n') == []
