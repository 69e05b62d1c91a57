"""The round sheet on the game page: one card (``games.web.cards.sheet``, its include
``templates/games/cards/sheet.html``), a form that needs no JavaScript, and
its POST (/games/<id>/sheet/): the form's fields become the API's document
(``games.sheets.form``), answered by the same service (``games.sheets.services.sheet_put``).
"Accept the suggestions" sends the sheet as shown; the answer's confirmation is shown at the top
of the card, which the redirect's fragment focuses. A refusal changes nothing: the sheet's page
answers with its status (400, 409), the sentence naming the line beside the form, and the form as
it was sent with that line marked (``aria-invalid``); the standalone page (GET) shows the card
alone, as the turn email's link opens it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from games import engine, numbers, selectors
from games.describe import resource_label
from games.models import Game
from games.services.errors import ServiceError
from games.sheets.form import SPARE_ROWS, document_from_post, field_of
from games.sheets.services import UNREAD, Unread, sheet_document, sheet_put
from games.sheets.shapes import Sheet, SheetBidLine, SheetOpenLine
from games.templatetags.names import join_names
from powergrid.maps import name_in
from powergrid.plants import NUMBER
from powergrid.tables import RESOURCES

from .common import game_or_404, lang, with_user_timezone
from .errors import error_text

#: The session key of an answered sheet's confirmation: shown once by the game page above its
#: cards (``games.web.game``), focused (the redirect's fragment names it), so a keyboard or screen
#: reader user lands on it, whether the game's new position draws the sheet card or not.
DONE_KEY = "games.sheet_done"


class Row(TypedDict):
    """A plant line of the form (an empty one to add a line: ``""`` values)."""

    plant: int | str
    max: int | str
    reason: str
    bad: str  # "plant" or "max": the field of this row a refusal names ("" for none)
    #: The line's limit box's accessible name, whole ("up to, for plant 13").
    limit_name: str
    #: The line's number (1, 2, ...), for the plant box's accessible name.
    line: int


class Values(TypedDict):
    """The form's other fields as shown: the sheet's, or a refused form's as it was sent."""

    pass_else: bool
    discard: int | None
    res_mode: str
    res_limit: int | str
    build_mode: str
    build_cities: str
    build_limit: int | str
    power: bool


class SheetForm(TypedDict):
    """What ``templates/games/cards/sheet.html`` reads (``sheet_form``)."""

    game: Game
    sheet: Sheet
    open_rows: list[Row]
    bid_rows: list[Row]
    own_plants: list[tuple[int, int]]
    resources: list[tuple[str, str, int | str]]
    values: Values
    #: A refused form's sentence, beside the form ("" when none), and the field it names
    #: (``games.sheets.form.field_of``: marked invalid on the form; "" when none).
    error: str
    bad: str


@dataclass(frozen=True)
class Refused:
    """A form the sheet's reader refused: as it was sent, why, and the line it names."""

    post: QueryDict
    text: str
    line: str


def _limit_name(plant: int | str, i: int, *, opening: bool) -> str:
    # A refused form's plant box holds what was typed, which may be no number at all.
    number = numbers.text_or_none(str(plant))
    # One whole name (the visible "up to" is in it: a name read or spoken as one phrase).
    if number is not None:
        return _("up to, for plant %(n)s") % {"n": NUMBER.get(number, plant)}
    if opening:
        return _("up to, for choice %(n)s") % {"n": i + 1}
    return _("up to, for the plant on line %(n)s") % {"n": i + 1}


def _padded(lines: list[SheetOpenLine] | list[SheetBidLine], *, opening: bool) -> list[Row]:
    rows: list[Row] = [
        {
            "plant": line["plant"],
            "max": line["max"],
            "reason": line["reason"]["text"] if "reason" in line else "",
            "bad": "",
            "limit_name": "",
            "line": 0,
        }
        for line in lines
    ]
    rows += [
        {"plant": "", "max": "", "reason": "", "bad": "", "limit_name": "", "line": 0}
        for _ in range(SPARE_ROWS)
    ]
    for i, row in enumerate(rows):
        row["line"] = i + 1
        row["limit_name"] = _limit_name(row["plant"], i, opening=opening)
    return rows


def _sent_rows(
    post: QueryDict, prefix: str, lines: list[SheetOpenLine] | list[SheetBidLine], bad: str
) -> list[Row]:
    """The rows of a refused form as they were sent (a reason kept where the plant is the
    suggestion's), the refused field marked, and empty rows to add a line."""
    reasons = {line["plant"]: line["reason"]["text"] for line in lines if "reason" in line}
    rows: list[Row] = []
    i = 0
    while f"{prefix}_plant_{i}" in post or f"{prefix}_max_{i}" in post:
        plant, mx = post.get(f"{prefix}_plant_{i}", ""), post.get(f"{prefix}_max_{i}", "")
        mark = next((f for f in ("plant", "max") if bad == f"{prefix}_{f}_{i}"), "")
        if plant or mx or mark:
            number = numbers.text_or_none(plant)
            rows.append(
                {
                    "plant": plant,
                    "max": mx,
                    "reason": reasons.get(number, "") if number is not None else "",
                    "bad": mark,
                    "limit_name": "",
                    "line": 0,
                }
            )
        i += 1
    rows += [
        {"plant": "", "max": "", "reason": "", "bad": "", "limit_name": "", "line": 0}
        for _ in range(SPARE_ROWS)
    ]
    for n, row in enumerate(rows):
        row["line"] = n + 1
        row["limit_name"] = _limit_name(row["plant"], n, opening=prefix == "open")
    return rows


def _values(doc: Sheet, build_names: str) -> Values:
    res, build = doc["resources"], doc["build"]
    return {
        "pass_else": doc["pass_else"]["value"],
        "discard": doc["discard"]["plant"],
        "res_mode": res["mode"] if res else "",
        "res_limit": res["max_price"] if res else "",
        "build_mode": build["mode"] if build else "",
        "build_cities": build_names,
        "build_limit": build["max_total"] if build else "",
        "power": doc["power"]["value"],
    }


def _sent_values(post: QueryDict) -> Values:
    discard = post.get("discard", "")
    return {
        "pass_else": post.get("pass_else") == "on",
        "discard": numbers.text_or_none(discard),
        "res_mode": post.get("res_mode", ""),
        "res_limit": post.get("res_limit", ""),
        "build_mode": post.get("build_mode", ""),
        "build_cities": post.get("build_cities", ""),
        "build_limit": post.get("build_limit", ""),
        "power": post.get("power") == "on",
    }


def card(
    request: HttpRequest,
    game: Game,
    *,
    answered: Sheet | Unread | None = UNREAD,
    refused: Refused | None = None,
) -> SheetForm | None:
    """The sheet card's context for the viewer, or None (not a seated player, not running).
    ``answered``: the seat's stored answer to this round's sheet when the page read it already
    (``games.web.reader``); ``refused``: a form refused, shown again as it was sent with its
    refused line marked."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or game.status != Game.Status.RUNNING:
        return None
    me = selectors.seat_of(game, user)
    if me is None:
        return None
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    doc = sheet_document(game, me.seat, state, answered, deadline=me.deadline)
    reader = lang()
    board = engine.map_load(state.map)
    res = doc["resources"]
    build = doc["build"]
    form: SheetForm = {
        "game": game,
        "sheet": doc,
        "open_rows": _padded(doc["open"], opening=True),
        "bid_rows": _padded(doc["bids"], opening=False),
        "own_plants": [(p, NUMBER[p]) for p in state.players[me.seat].plants],
        "resources": [
            (r, resource_label(r), int(res["amounts"].get(r, 0)) if res else 0) for r in RESOURCES
        ],
        # The reader's list (", " or "、"): the field reads either back (games.sheets.form).
        "values": _values(
            doc,
            join_names(
                name_in(board.cities[c], reader) for c in (build["cities"] if build else [])
            ),
        ),
        "error": "",
        "bad": "",
    }
    if refused is not None:
        post, bad = refused.post, field_of(refused.post, refused.line)
        form["open_rows"] = _sent_rows(post, "open", doc["open"], bad)
        form["bid_rows"] = _sent_rows(post, "bid", doc["bids"], bad)
        form["resources"] = [
            (r, label, post.get(f"res_{r}", "")) for r, label, _n in form["resources"]
        ]
        form["values"] = _sent_values(post)
        form["error"], form["bad"] = refused.text, bad
    return form


def _refusal_text(exc: ServiceError) -> tuple[str, str]:
    """(the sentence in the reader's language naming the line, the line)."""
    line = str(exc.details.get("line") or "") if exc.details else ""
    text = error_text(exc.code, exc.message, exc.details)
    if line and line not in text:  # the English sentence names it already
        text = _("Line %(line)s: %(text)s") % {"line": line, "text": text}
    return text, line


@require_http_methods(["GET", "POST"])
@with_user_timezone
def game_sheet(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(request, game_id)
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse(settings.LOGIN_URL)}?next={request.path}")
    if selectors.seat_of(game, request.user) is None:
        raise Http404(_("You hold no seat in this game."))
    if request.method == "POST":
        return _answer(request, game)
    return render(request, "games/sheet.html", {"game": game, "sheet_form": card(request, game)})


def _answer(request: HttpRequest, game: Game) -> HttpResponse:
    """The form's POST: answered, back to the game; refused, the sheet's page again with the
    refusal's status, its sentence beside the form and (a line not valid) the form as it was
    sent with that line marked; a sheet for a round gone is shown for the round now."""
    accept = bool(request.POST.get("accept"))
    try:
        if accept:
            ctx = card(request, game)
            if ctx is None:
                raise ServiceError(code="game_not_running", status=409)
            body: Any = ctx["sheet"]
        else:
            state = engine.state_load(
                game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
            )
            body = document_from_post(request.POST, state)
        made, _seq = sheet_put(game_id=game.pk, user=request.user, body=body, source="web")
    except ServiceError as exc:
        text, line = _refusal_text(exc)
        kept = not accept and exc.code == "invalid_sheet"
        form = card(request, game, refused=Refused(request.POST, text, line) if kept else None)
        if form is not None and not kept:
            form["error"] = text
        page = {"game": game, "sheet_form": form, "error": text}
        return render(request, "games/sheet.html", page, status=exc.status)
    text = (
        _("Your sheet was kept.")
        + " "
        + ngettext("It made %(n)s move at once.", "It made %(n)s moves at once.", made)
        % {"n": made}
    )
    # Shown by the game page above its cards, focused: the fragment names it (no JavaScript
    # needed), the round or the game over or not.
    request.session[DONE_KEY] = {"game": game.pk, "text": text}
    return HttpResponseRedirect(reverse("game", args=[game.pk]) + "#sheet-done")
