"""Each card of the game page is three things (``games.web.cards``): a presenter
``<card>_card`` in ``games/web/cards/<card>.py``, the include that reads its answer,
``templates/games/cards/<card>.html``, and a test here, ``test_card_<card>.py``; and the game
page includes every card, is typed with every card's answer and asks every presenter for it
(a card left out of ``games/web/game.py`` would otherwise render empty, unnoticed)."""

from __future__ import annotations

import ast
import importlib
import inspect
import typing
from pathlib import Path

import pytest

from games.web import game as game_page
from games.web.cards import CARDS

ROOT = Path(__file__).resolve().parents[4]


@pytest.mark.parametrize("card", CARDS)
def test_a_card_is_a_presenter_an_include_and_a_test(card):
    module = importlib.import_module(f"games.web.cards.{card}")
    presenter = getattr(module, f"{card}_card", None)
    assert callable(presenter), f"games.web.cards.{card} has no {card}_card"
    returns = inspect.signature(presenter).return_annotation
    assert returns != inspect.Signature.empty, f"{card}_card declares no answer"
    assert (ROOT / "templates/games/cards" / f"{card}.html").is_file()
    assert (Path(__file__).parent / f"test_card_{card}.py").is_file()


def test_the_game_page_includes_every_card_and_only_them():
    page = (ROOT / "templates/games/game.html").read_text(encoding="utf-8")
    included = [
        line.split('"games/cards/')[1].split(".html")[0]
        for line in page.splitlines()
        if '{% include "games/cards/' in line
    ]
    on_disk = {p.stem for p in (ROOT / "templates/games/cards").glob("*.html")}
    assert set(included) == set(CARDS) == on_disk
    assert included == list(CARDS), "CARDS names the cards in the page's order"


def _answer_type(card: str) -> type:
    """The presenter's declared answer (its return annotation, resolved): the card's TypedDict."""
    module = importlib.import_module(f"games.web.cards.{card}")
    return typing.get_type_hints(getattr(module, f"{card}_card"))["return"]


def _game_module() -> ast.Module:
    return ast.parse(Path(game_page.__file__).read_text(encoding="utf-8"))


@pytest.mark.parametrize("card", CARDS)
def test_the_page_is_typed_with_every_cards_answer(card):
    """``BoardPage`` (the page's TypedDict) names the card's TypedDict among its bases, so it has
    the card's keys. Read from the source: a TypedDict's bases are not kept at run time (3.11)."""
    answer = _answer_type(card)
    page = next(
        node
        for node in ast.walk(_game_module())
        if isinstance(node, ast.ClassDef) and node.name == "BoardPage"
    )
    bases = {base.id for base in page.bases if isinstance(base, ast.Name)}
    assert answer.__name__ in bases, f"BoardPage does not derive from {answer.__name__}"
    keys = game_page.BoardPage.__required_keys__ | game_page.BoardPage.__optional_keys__
    missing = (answer.__required_keys__ | answer.__optional_keys__) - keys
    assert not missing, f"BoardPage lacks {card}'s keys {sorted(missing)}"


@pytest.mark.parametrize("card", CARDS)
def test_the_page_asks_every_presenter(card):
    """``render_game`` calls ``<card>_card``: the page's dict carries the card's answer."""
    render = next(
        node
        for node in ast.walk(_game_module())
        if isinstance(node, ast.FunctionDef) and node.name == "render_game"
    )
    called = {
        node.func.id
        for node in ast.walk(render)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert f"{card}_card" in called, f"render_game does not call {card}_card"
