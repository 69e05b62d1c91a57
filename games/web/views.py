"""Server-rendered pages: home, create, the game page (lobby, board, forms, log), history, and
the small JSON build quote. Thin views: moves go through ``games.services.move_submit``, state
comes out through ``games.selectors`` only."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Concatenate, ParamSpec, TypedDict, cast
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import conditional_escape, format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated

from accounts import deliverability
from accounts.zones import request_zone
from config.replica import replica_reads
from config.site import absolute
from games import describe, engine, log, numbers, players, selectors, services
from games.api.auth import TokenAuthentication, token_from_header
from games.chat import selectors as chat_selectors
from games.forecast import forecast
from games.inbox import onetap
from games.models import Game, Move, Seat
from games.notifications import outbox, pace
from games.services import lobby
from games.shapes import State
from games.templatetags.names import join_names, list_separator, player_link
from games.web.context import (
    BoardPage,
    BuildCity,
    Calculator,
    Chat,
    Forecast,
    FuelSuggestion,
    Live,
    LobbyPage,
    LogLine,
    MailDown,
    PageBase,
    Person,
    Quote,
    QuoteError,
    Refusal,
    RefusedError,
)
from powergrid.maps import name_in
from powergrid.tables import RESOURCES, income

from . import board_svg, present
from . import takeback as takeback_web
from .errors import error_text
from .forms import FormProblem, GameCreateForm, action_from_post, bot_level_choices

LOG_TAIL = 40

P = ParamSpec("P")


def with_user_timezone(
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """Render dates in the signed-in user's time zone (their profile's), else the browser's,
    else UTC (``accounts.zones.request_zone``)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        timezone.activate(request_zone(request))
        try:
            return view(request, *args, **kwargs)
        finally:
            timezone.deactivate()

    return wrapped


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


def game_or_404(request: HttpRequest, game_id: int, *, code: object = "") -> Game:
    """The game if the visitor may see it (``selectors.game_for``, THE rule: a private game is
    hidden from all but its players, invitees and staff), else the "no such game" page. Every
    page of a game asks this first, before asking anyone to log in: a private game answers as
    one that does not exist. ``code``: its invitation link's code, if the request carries it."""
    game = selectors.game_for(game_id=game_id, user=request.user, code=code)
    if game is None:
        raise Http404(_("No such game."))
    return game


def login_redirect(request: HttpRequest) -> HttpResponse:
    """To the login page, back here afterwards (what ``login_required`` does, for the views
    that must first tell whether the game exists for the visitor)."""
    return redirect_to_login(request.get_full_path())


def _names(game: Game) -> dict[int, str]:
    return {s.seat: selectors.seat_name(s) for s in selectors.game_seats(game)}


# -- home ----------------------------------------------------------------------


@with_user_timezone
def home(request: HttpRequest) -> HttpResponse:
    mine: list[GameRow] = []
    if request.user.is_authenticated:
        for g in selectors.game_list(user=request.user, mine=True).exclude(
            status=Game.Status.FINISHED
        )[:50]:
            mine.append(_game_row(g, request.user))
        finished = [
            _game_row(g, request.user)
            for g in selectors.game_list(user=request.user, mine=True, status="finished")[:10]
        ]
    else:
        finished = []
    q = request.GET
    map_filter = q.get("map", "") if q.get("map", "") in engine.maps_available() else ""
    # games.numbers: anything but digits in bounds is a 400 (games.numbers.BadNumber).
    players_filter = numbers.from_query(q, "players", low=0, high=lobby.PLAYERS_MAX)
    turn_filter = numbers.from_query(q, "turn", low=0, high=numbers.INT32_MAX)
    filters: dict[str, str | int | None] = {
        "map": map_filter,
        "players": players_filter,
        "max_turn_hours": turn_filter,
    }
    # The public lists may lag the primary by a second (config/replica.py); the visitor's own
    # games above are read where their last join or leave was written.
    with replica_reads():
        open_games = [
            _game_row(g, request.user)
            for g in selectors.open_games(
                map=map_filter,
                players=players_filter,
                max_turn_hours=turn_filter,
                free=bool(q.get("free")),
            )[:30]
        ]
        # The lobby shows each joined player's rating (one query for the page).
        joined = [p["user_id"] for row in open_games for p in row["who"] if not p["is_bot"]]
        rated = players.ratings_for(joined)
        on_time = players.on_time_percents(joined)
        for row in open_games:
            for p in row["who"]:
                p["rating"] = rated.get(p["user_id"])
                p["on_time"] = on_time.get(p["user_id"])
        running = [
            _game_row(g, request.user)
            for g in selectors.game_list(user=request.user, status="running")[:10]
        ]
    return render(
        request,
        "home.html",
        {
            "mine": mine,
            "finished": finished,
            "open_games": open_games,
            "filters": {**filters, "free": bool(q.get("free"))},
            "maps": [(s, name_in(board_svg.load_map(s), _lang())) for s in engine.maps_available()],
            "running": running,
            "invitations": [
                _game_row(g, request.user) for g in selectors.invitations_for(request.user)
            ],
        },
    )


class LobbyPerson(TypedDict):
    """A joined player in the lobby's list, with their rating and punctuality."""

    name: str
    username: str
    user_id: int
    rating: int | None
    on_time: int | None
    is_bot: bool


class GameRow(TypedDict):
    """A game in the home page's lists."""

    game: Game
    map_name: str
    areas: str
    players: list[str]
    people: list[Person]
    who: list[LobbyPerson]
    count: int
    waiting_for: list[str]
    waiting_people: list[Person]
    your_turn: bool
    your_deadline: datetime | None
    where: str
    is_member: bool
    can_join: bool


def _game_row(game: Game, user: selectors.Reader) -> GameRow:
    seats = selectors.game_seats(game)
    me = selectors.seat_of(game, user)
    to_act = set(game.to_act or [])
    gmap = board_svg.load_map(game.map)
    return {
        "game": game,
        "map_name": name_in(gmap, _lang()),
        # The areas chosen at creation ("" until start when they are to be drawn at random).
        "areas": join_names(
            name_in(gmap.areas[a], _lang()) for a in (game.areas or []) if a in gmap.areas
        ),
        "players": [selectors.seat_name(s) for s in seats],
        "people": [
            {"name": selectors.seat_name(s), "username": s.user.get_username()} for s in seats
        ],
        "who": [
            {
                "name": selectors.seat_name(s),
                "username": s.user.get_username(),
                "user_id": s.user_id,
                "rating": None,
                "on_time": None,
                "is_bot": bool(getattr(getattr(s.user, "profile", None), "is_bot", False)),
            }
            for s in seats
        ],
        "count": len(seats),
        "waiting_for": [selectors.seat_name(s) for s in seats if s.seat in to_act],
        "waiting_people": [
            {"name": selectors.seat_name(s), "username": s.user.get_username()}
            for s in seats
            if s.seat in to_act
        ],
        "your_turn": me is not None and me.seat in to_act and game.status == "running",
        "your_deadline": me.deadline if me is not None and me.seat in to_act else None,
        "where": _where(game),
        "is_member": me is not None,
        "can_join": me is None and game.status == "open" and len(seats) < game.max_players,
    }


def _where(game: Game) -> str:
    """ "Round 3 · Building" for a running game: the public part of its cached engine state."""
    if game.status != Game.Status.RUNNING or not game.state_json:
        return ""
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    return _("Round %(round)s · %(phase)s") % {
        "round": state.round,
        "phase": describe.phase_label(state.phase),
    }


# -- creating a game ----------------------------------------------------------------------


@login_required
@with_user_timezone
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST or None, lang=_lang())
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            game = services.game_create(
                creator=request.user,
                map=d["map"],
                max_players=d["max_players"],
                areas=form.chosen_areas(),
                options=form.options(),
            )
        except services.ServiceError as exc:
            form.add_error(None, error_text(exc.code, exc.message))
        else:
            messages.success(request, _("Game created. Share its page with the other players."))
            return HttpResponseRedirect(reverse("game", args=[game.pk]))
    return render(
        request, "games/new.html", _create_context(form), status=400 if form.errors else 200
    )


class CreatePage(TypedDict):
    form: GameCreateForm
    maps: list[dict[str, object]]
    area_counts: str


def _create_context(form: GameCreateForm) -> CreatePage:
    lang = _lang()
    maps: list[dict[str, object]] = []
    for group in form.area_fields():
        maps.append(
            {
                **group,
                "rules": describe.map_rules_describe(group["map"], lang),
                "svg": board_svg.render_board(
                    map_slug=group["map"], areas=None, lang=lang, small=True
                ),
            }
        )
    return {"form": form, "maps": maps, "area_counts": present.areas_by_player_count()}


# -- the lobby ----------------------------------------------------------------------


@require_POST
def game_lobby(request: HttpRequest, game_id: int, what: str) -> HttpResponse:
    game = game_or_404(
        request, game_id, code=request.POST.get("code", "") if what == "join" else ""
    )
    if not request.user.is_authenticated:
        return login_redirect(request)
    fn = {"leave": services.game_leave, "start": services.game_start}
    if what not in (*fn, "join", "bot", "remove", "invite"):
        raise Http404()
    # A seat that is not a number is a 400 (games.numbers.BadNumber), before anything is done.
    if what == "remove":
        seat_no = numbers.from_query(request.POST, "seat", low=0, high=lobby.PLAYERS_MAX)
    try:
        result: object
        if what == "join":
            result = services.game_join(
                game_id=game.pk, user=request.user, code=request.POST.get("code", "")
            )
        elif what == "invite":
            result = services.game_invite(
                game_id=game.pk, user=request.user, username=request.POST.get("username", "")
            )
        elif what == "bot":
            result = services.game_bot_add(
                game_id=game.pk, user=request.user, kind=request.POST.get("kind", "heuristic")
            )
        elif what == "remove":
            result = services.game_seat_remove(
                game_id=game.pk, user=request.user, seat_no=-1 if seat_no is None else seat_no
            )
        else:
            result = fn[what](game_id=game.pk, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, error_text(exc.code, exc.message, exc.details))
    else:
        if what == "leave" and result is None:
            messages.info(request, _("You left; the game was removed."))
            return HttpResponseRedirect(reverse("home"))
        messages.success(
            request,
            {
                "join": _("You joined the game."),
                "leave": _("You left the game."),
                "start": _("The game has started."),
                "bot": _("A bot took a seat."),
                "remove": _("The seat was removed."),
                "invite": _("The invitation was sent."),
            }[what],
        )
        if what in ("join", "bot") and _fresh(game).status == Game.Status.RUNNING:
            # The seat just taken was the last: the game started by itself (auto_start).
            messages.info(request, _("The last seat is filled: the game has started."))
    return HttpResponseRedirect(reverse("game", args=[game.pk]))


# -- the game page ----------------------------------------------------------------------


@with_user_timezone
def game_invite_link(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    """A private game's invitation link: its lobby, with a Join button carrying the code. A
    code that is not the game's (a wrong one, or one replaced when a player was removed) is
    not found, like the game itself for whom it is hidden."""
    game = game_or_404(request, game_id, code=code)
    if not selectors.invite_code_matches(game, code):
        raise Http404(_("This invitation link is not valid."))
    if game.status != Game.Status.OPEN:
        return HttpResponseRedirect(reverse("game", args=[game.pk]))
    return _render_game(request, game, invite_code=code)


@with_user_timezone
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(request, game_id)
    build_selected = None
    if game.status != Game.Status.OPEN and "preview" in request.GET:
        build_selected = [c for c in request.GET.getlist("cities") if c]
    calc_query = request.GET if "calc" in request.GET else None
    if game.status == Game.Status.RUNNING:
        # The player is here: their turn emails wait while they are (games.notifications.pace).
        pace.page_seen(selectors.seat_of(game, request.user), timezone.now())
    refused = request.session.pop(REFUSED_KEY, None)
    if isinstance(refused, dict) and refused.get("game") == game.pk:
        # The session's JSON, written by ``_refused`` from a ``Refusal``.
        return _render_game(
            request,
            game,
            build_selected=build_selected,
            calc_query=calc_query,
            error=refused.get("error"),
            posted=refused.get("posted") or {},
            posted_meaning=refused.get("meaning"),
        )
    return _render_game(request, game, build_selected=build_selected, calc_query=calc_query)


def _live(game: Game, me: Seat | None, history_seq: int | None) -> Live:
    """What lets the open page follow the game (static/js/live.js): the game's event stream,
    and the tab's title while it is the reader's turn. A history page and a finished game do
    not change, so they do not listen. ``bots_thinking``: every seat awaited is played by the
    server's bot, whose deadline means nothing to a reader (it moves within seconds)."""
    running = game.status == Game.Status.RUNNING
    to_act = set(game.to_act or [])
    awaited = [s for s in selectors.game_seats(game) if s.seat in to_act]
    return {
        "live_url": (
            reverse("api_stream") + f"?game={game.pk}"
            if history_seq is None and game.status != Game.Status.FINISHED
            else ""
        ),
        "your_turn": running and history_seq is None and me is not None and me.seat in to_act,
        "your_turn_mark": "\u25b6 " + _("Your turn") + " \u00b7 ",
        "bots_thinking": running and bool(awaited) and all(s.bot_controlled for s in awaited),
    }


#: The session key of a refused move, shown once by the game page it redirects to.
REFUSED_KEY = "games.refused_move"
#: What of a refused form is kept to fill it again (the rest is the form's own bookkeeping).
_NOT_KEPT = {"csrfmiddlewaretoken", "form_id", "expected_seq", "preview"}


def _refusal(request: HttpRequest, game: Game, code: str, text: str) -> Refusal:
    """What a refused move's page shows: the error, the form as it was sent, what it meant."""
    posted = {
        k[:40]: [v[:64] for v in vals[:60]]
        for k, vals in list(request.POST.lists())[:40]
        if k not in _NOT_KEPT
    }
    return {
        "error": {"code": code, "text": text},
        "posted": posted,
        "posted_meaning": _sent_meaning(request, game),
    }


def _refused(request: HttpRequest, game: Game, code: str, text: str) -> HttpResponse:
    """A refused move: back to the game's own address (not /move/, which a reload or a bookmark
    cannot open), its move card in view, the error beside the form, the form as it was sent."""
    refusal = _refusal(request, game, code, text)
    request.session[REFUSED_KEY] = {
        "game": game.pk,
        "error": refusal["error"],
        "posted": refusal["posted"],
        "meaning": refusal["posted_meaning"],
    }
    return HttpResponseRedirect(reverse("game", args=[game.pk]) + "#move", status=303)


def _refused_here(
    request: HttpRequest, game: Game, code: str, text: str, *, status: int
) -> HttpResponse:
    """A refused move answered with ``status`` (a 4xx) and the game page itself, not a redirect:
    the error beside the form and the form as it was sent, as ``_refused`` leads to."""
    refusal = _refusal(request, game, code, text)
    return _render_game(
        request,
        game,
        status=status,
        error=refusal["error"],
        posted=refusal["posted"],
        posted_meaning=refusal["posted_meaning"],
    )


def _sent_meaning(request: HttpRequest, game: Game) -> present.FormMeaning | None:
    """What the refused form was about (``present.form_meaning``): of the state it was filled in
    on, the move its ``expected_seq`` names; of the state now when that is not a past move."""
    game = _fresh(game)
    if game.status == Game.Status.OPEN or not game.state_json:
        return None
    try:
        seq = int(request.POST.get("expected_seq", ""))
    except ValueError:
        seq = -1
    if 0 <= seq < game.seq:
        state = selectors.game_history_state_for(game, request.user, seq)
    else:
        state = selectors.game_state_for(game, request.user)
    return present.form_meaning(state)


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    error: RefusedError | None = None,
    status: int = 200,
    build_selected: list[str] | None = None,
    calc_query: QueryDict | None = None,
    history_seq: int | None = None,
    invite_code: str = "",
    posted: dict[str, list[str]] | None = None,
    posted_meaning: present.FormMeaning | None = None,
) -> HttpResponse:
    lang = _lang()
    user = request.user
    me = selectors.seat_of(game, user)
    gmap = board_svg.load_map(game.map)
    names = _names(game)
    live = _live(game, me, history_seq)
    base: PageBase = {
        "game": game,
        "me": me,
        "turn_emails": outbox.turn_emails(game, user) if me is not None else "",
        "error": error,
        "lang": lang,
        "names": names,
        "seed_commitment": selectors.game_seed_commitment(game),
        "seed_revealed": game.seed if game.status == Game.Status.FINISHED else None,
        "map_name": name_in(gmap, lang),
        **live,
        "board": "",
        "lobby": game.status == Game.Status.OPEN,
    }
    if game.status == Game.Status.OPEN:
        seats = selectors.game_seats(game)
        lobby: LobbyPage = {
            **base,
            "seats": [
                {
                    "name": selectors.seat_name(s),
                    "username": s.user.get_username(),
                    "seat": s.seat,
                    "colour": s.colour,
                    "colour_label": present.colour_label(s.colour),
                    "is_creator": s.user_id == game.creator_id,
                    "is_bot": bool(getattr(getattr(s.user, "profile", None), "bot_kind", "")),
                }
                for s in seats
            ],
            "is_creator": user.is_authenticated and game.creator_id == user.pk,
            "bot_levels": bot_level_choices(),
            "can_join": user.is_authenticated and me is None and len(seats) < game.max_players,
            "is_private": bool((game.options or {}).get("private")),
            "min_on_time": int((game.options or {}).get("min_on_time") or 0),
            "invite_code": invite_code,
            "invite_url": (
                absolute(selectors.invite_path(game))
                if user.is_authenticated and game.creator_id == user.pk and game.invite_code
                else ""
            ),
            "board": board_svg.render_board(map_slug=game.map, areas=game.areas, lang=lang),
            "areas_label": join_names(
                name_in(gmap.areas[a], lang) for a in (game.areas or []) if a in gmap.areas
            ),
        }
        return render(request, "games/game.html", lobby, status=status)

    if history_seq is not None:
        state = selectors.game_history_state_for(game, user, history_seq)
    else:
        state = selectors.game_state_for(game, user)
    viewer = state["seat"]
    colours: dict[int, str] = {p["seat"]: p["colour"] for p in state["players"]}
    usernames = {p["seat"]: p["username"] for p in state["players"]}

    def person(seat: int) -> Person:
        """A seat's name as the page writes it: a link to its player's page (``|player``)."""
        return {"name": names.get(seat, "?"), "username": usernames.get(seat)}

    legal = present.legal_by_type(state["legal"])
    you = next((p for p in state["players"] if p["seat"] == viewer), None)
    money = you["money"] if you else None
    build = legal.get("build")
    # A refused form comes back as it was sent, only to the form of the same move type and while
    # it means what it meant when it was filled in (the same phase, seat, plant under auction);
    # else the form starts from the new state's defaults.
    kept = (
        posted
        if posted
        and (posted.get("action") or [""])[0] in legal
        and posted_meaning == present.form_meaning(state)
        else {}
    )
    if "cities" in kept:
        build_selected = kept["cities"]
    selected = [c for c in (build_selected or []) if build and c in build["cities"]]
    offer = takeback_web.page_context(game, user, history_seq=history_seq, names=names)
    ctx: BoardPage = {
        **base,
        **offer,
        "lobby": False,
        "state": state,
        "history_seq": history_seq,
        "seq": game.seq,
        "phase_label": describe.phase_label(state["phase"]),
        "thresholds": present.thresholds(state),
        "board": board_svg.render_board(
            map_slug=game.map,
            areas=state["areas"],
            lang=lang,
            occupancy=state["cities"],
            colours=colours,
            buildable=build["cities"] if build else None,
            selected=set(selected),
        ),
        "current": [present.market_card(p) for p in state["plant_market"]["current"]],
        "future": [present.market_card(p) for p in state["plant_market"]["future"]],
        "track": present.resource_track(state["resource_market"]),
        "panels": present.player_panels(state, viewer),
        "mail_down": _mail_down(game, me),
        "you": you,
        "money": money,
        "legal": legal,
        "form_id": secrets.token_urlsafe(12),
        "income_rows": present.income_rows(),
        "deck_cards": present.deck_cards(state.get("plant_deck")),
        "resupply": present.resupply_rows(state["players_count"], state["step"]),
        "resources": RESOURCES,
        "facts": present.step_facts(state["players_count"]),
        "waiting": [names.get(s, "?") for s in state["to_act"]],
        # The same, each a link to the player's page (``|players``).
        "waiting_people": [person(s) for s in state["to_act"]],
        # Phase 5 asks everyone at once: say who has already chosen what to power.
        "acted": [
            person(s)
            for s in state["order"]
            if state["phase"] == "bureaucracy" and s not in state["to_act"]
        ],
        "kept_amount": _one(kept, "amount"),
        "log": [],
        "log_more": False,
        "calc": _calculator(state, money, calc_query),
    }
    if history_seq is None:
        forecast_line = _forecast_line(game, names)
        if forecast_line and forecast_line["bottleneck_seat"] is not None:
            forecast_line["bottleneck_person"] = {
                "name": forecast_line["bottleneck"] or "",
                "username": usernames.get(forecast_line["bottleneck_seat"]),
            }
        ctx["forecast"] = forecast_line
        ctx["chat"] = _chat(game, user)
    auction = state["auction"]
    if auction:
        ctx["auction"] = {
            "plant": present.plant_card(auction["plant"]),
            "high_bid": auction["high_bid"],
            "high_bidder": names.get(auction["high_bidder"], "?"),
            "high_bidder_person": person(auction["high_bidder"]),
            "bidders": [person(s) for s in auction["bidders"]],
            "sealed": bool(auction.get("sealed")),
            "sealed_in": [person(s) for s in auction.get("sealed_in") or []],
            "your_sealed_bid": auction.get("your_sealed_bid"),
        }
    last = state.get("sealed_last")
    if last:
        ctx["sealed_last"] = {
            "plant": last["plant"],
            "winner": person(last["winner"]),
            "price": last["price"],
            "bids": mark_safe(
                conditional_escape(list_separator()).join(
                    format_html("{} {}", player_link(**person(int(seat))), amount)
                    for seat, amount in sorted(last["bids"].items(), key=lambda kv: -kv[1])
                )
            ),
        }
    if "choose_plant" in legal:
        entry = legal["choose_plant"]
        by_number = {p["number"]: p for p in state["plant_market"]["current"] if "step3" not in p}
        choose: list[present.ChooseCard] = [
            {
                **present.plant_card(by_number[p["number"]]),
                "min_bid": p["min_bid"],
                "checked": False,
            }
            for p in entry["plants"]
            if p["number"] in by_number
        ]
        ctx["choose"] = choose
        ctx["choose_max"] = entry["max_bid"]
        # The field's floor as sent: the lowest any offered plant allows, whichever is ticked, so
        # that without the script (which narrows it to the ticked plant's, game.js) no legal bid
        # is blocked by the browser; the server checks the plant's own minimum.
        ctx["choose_min"] = min((c["min_bid"] for c in choose), default=0)
        _check_one(choose, _one(kept, "plant"))
        first = next((c for c in choose if c["checked"]), None)
        ctx["choose_bid"] = _one(kept, "bid") or (first["min_bid"] if first else "")
    if "discard_plant" in legal and you:
        discard: list[present.DiscardCard] = [
            {**present.owned_card(p), "checked": False}
            for p in you["plants"]
            if present.plant_id(p) in legal["discard_plant"]["plants"]
        ]
        ctx["discard"] = discard
        ctx["holds_tokens"] = any(you["resources"].values())
        _check_one(discard, _one(kept, "plant"))
        ctx["drops"] = [(r, _one(kept, f"drop_{r}") or "0") for r in RESOURCES]
    if "buy_resources" in legal:
        buy = legal["buy_resources"]
        fuel = _fuel_suggestions(request, game, viewer) if history_seq is None else []
        ctx["fuel"] = fuel
        filled = next((f["amounts"] for f in fuel if f["chosen"]), None)
        ctx["buy"] = [
            {
                "resource": r,
                "label": describe.resource_label(r),
                "max": buy["max"][r],
                "prices": buy["prices"].get(r, []),
                "prices_text": join_names(str(x) for x in buy["prices"].get(r, [])),
                "value": _one(kept, r) or str((filled or {}).get(r, 0)),
            }
            for r in RESOURCES
        ]
    if build:
        cities: list[BuildCity] = []
        for slug, cost in sorted(build["cities"].items(), key=lambda kv: (kv[1], kv[0])):
            c = gmap.cities[slug]
            cities.append(
                {
                    "slug": slug,
                    "name": board_svg.city_name(c, lang),
                    "cost": cost,
                    "checked": slug in selected,
                }
            )
        ctx["build_cities"] = cities
        # Nothing to pay for (every city dearer than the money): the one choice is to build
        # nothing, and the form offers just that.
        ctx["build_none_affordable"] = money is not None and all(
            cost > money for cost in build["cities"].values()
        )
        if selected:
            ctx["quote"], _status = _quote(game, user, selected, by_token=False)
    if "power" in legal and you:
        best: selectors.BestPower = selectors.game_best_power_for(game, user) or {
            "plants": [],
            "hybrid": {},
            "cities": 0,
        }
        able = set(legal["power"]["plants"])
        power: list[present.PowerCard] = []
        for p in you["plants"]:
            pid = present.plant_id(p)
            burn = best["hybrid"].get(pid)
            power.append(
                {
                    **present.owned_card(p),
                    "able": pid in able,
                    "checked": pid in best["plants"],
                    "hybrid_coal": burn["coal"] if burn else None,
                }
            )
        if kept:  # the plants the player ticked, not the preselection
            for card in power:
                card["checked"] = str(card["id"]) in kept.get("plants", [])
                card["hybrid_coal"] = _one(kept, f"hybrid_{card['id']}_coal") or card["hybrid_coal"]
        ctx["power"] = power
        ctx["power_best"] = best
        ctx["power_income"] = income(best["cities"])
    # The move log (the newest last) and links to the board after each move; moves taken back
    # are marked, and the player's own move they may take back carries its button.
    entries = log.entries(game)
    if history_seq is not None:
        entries = [e for e in entries if e["seq"] <= history_seq]
    gone = log.cancelled(entries)
    takeback = ctx["takeback"]
    first_undone = takeback["first"] if takeback else None
    # Each name in the log's sentences a link to the player's page, held in <bdi> so that a
    # right-to-left name does not reorder the sentence around it: the sentence is made with a mark
    # per seat, escaped, and each mark replaced by the linked name (``_linked``).
    marks = {seat: _mark(seat) for seat in names}
    seen: set[int] = set()
    here = [False] * len(entries)
    for i, e in enumerate(entries):
        here[i] = e["seq"] not in seen and e["seq"] == first_undone  # a seq's first: its own
        seen.add(e["seq"])
        if here[i] and takeback is not None:  # what the take-back at the top would undo
            takeback["text"] = _linked(
                describe.move_describe(e, marks, game.map, lang), names, usernames
            )
    start = max(0, len(entries) - LOG_TAIL)
    tail: list[LogLine] = [
        {
            "seq": e["seq"],
            "time": e["time"],
            "cancelled": e["seq"] in gone,
            "takeback_here": here[start + i],
            "text": _linked(describe.move_describe(e, marks, game.map, lang), names, usernames),
            "note": describe.entry_note(e),
        }
        for i, e in enumerate(entries[start:])
    ]
    ctx["log"] = tail[::-1]
    ctx["log_more"] = len(entries) > len(tail)
    if ctx["calc"].get("problem"):  # the calculator's inputs refused (games.numbers): a 400
        status = 400
    return render(request, "games/game.html", ctx, status=status)


def _mark(seat: int) -> str:
    """A stand-in for a seat's name in a sentence (private-use characters no name holds)."""
    return f"\ue000{seat}\ue001"


def _linked(text: str, names: dict[int, str], usernames: dict[int, str]) -> SafeString:
    """A log sentence made with ``_mark``s, escaped, each mark the seat's linked name."""
    out = str(conditional_escape(text))
    for seat, name in names.items():
        mark = _mark(seat)
        if mark in out:  # a sentence names one or two seats: no link built for the others
            out = out.replace(mark, str(player_link(name, usernames.get(seat))))
    return mark_safe(out)  # escaped above; the links are format_html's


def _fuel_suggestions(request: HttpRequest, game: Game, seat: int | None) -> list[FuelSuggestion]:
    """The one-tap email's fuel purchases (``games.inbox.onetap.fuel_offers``: the fuel that
    powers the cities one has, and the cities one may have after this round's build), each a
    link that fills the buy form with it (``?fill=buy_fuel``): the page works without a script,
    and nothing is bought until the form is sent."""
    if seat is None:
        return []
    chosen = request.GET.get("fill", "")
    offers = onetap.fuel_offers(selectors.game_engine_state(game), seat)
    return [
        {
            "choice": choice,
            "label": describe.fuel_label(plan, more=choice == "buy_fuel_more"),
            "href": f"{reverse('game', args=[game.pk])}?{urlencode({'fill': choice})}#move",
            "amounts": {r: n for r, n in plan.amounts.items() if n},
            "chosen": choice == chosen,
        }
        for choice, plan in offers.items()
    ]


def _mail_down(game: Game, me: Seat | None) -> MailDown | None:
    """The players of a running game our emails do not reach (``accounts.deliverability``),
    for the other players (a seat's own player sees the banner): their names, and how much later
    their deadlines are while they stay away. None when there are none, or for a spectator."""
    if me is None or game.status != Game.Status.RUNNING:
        return None
    seats = [
        s
        for s in selectors.game_seats(game)
        if s.pk != me.pk and deliverability.undeliverable(s.user)
    ]
    if not seats:
        return None
    return {
        "seats": {s.seat for s in seats},
        "people": [{"name": selectors.seat_name(s), "username": s.user.username} for s in seats],
        "hours": int(deliverability.absent_grace().total_seconds() // 3600),
    }


class _Checkable(TypedDict):
    id: int
    checked: bool


def _check_one(cards: Sequence[_Checkable], chosen: str) -> None:
    """Tick the card a refused form had chosen, else the first (radio buttons: one is ticked)."""
    for c in cards:
        c["checked"] = str(c["id"]) == chosen
    if cards and not any(c["checked"] for c in cards):
        cards[0]["checked"] = True


def _one(kept: dict[str, list[str]], name: str) -> str:
    """The value a refused form sent for ``name`` ("" when none)."""
    return (kept.get(name) or [""])[0]


def _chat(game: Game, user: selectors.Reader) -> Chat | None:
    """The chat panel: the last messages the viewer may read, which of them they may edit."""
    if not chat_selectors.can_read(game, user):
        return None
    now = timezone.now()
    window = timedelta(minutes=settings.CHAT_EDIT_MINUTES)
    rows = chat_selectors.messages_for(game, user, limit=40)
    return {
        "can_post": selectors.seat_of(game, user) is not None,
        "messages": [
            {
                "id": m.pk,
                "author": chat_selectors.author_name(m),
                "name": chat_selectors.author_name(m),  # for ``|player``, with the username
                "username": m.author.get_username() if m.author_id else None,
                "author_id": m.author_id,
                "text": m.text,
                "time": m.created_at,
                "edited": m.edited_at is not None,
                "mine": m.author_id == getattr(user, "pk", None),
                "editable": m.author_id == getattr(user, "pk", None)
                and now - m.created_at < window,
            }
            for m in rows
        ],
    }


def _forecast_line(game: Game, names: dict[int, str]) -> Forecast | None:
    """The game page's line: expected finish and the seat waited on most (public facts only)."""
    fc = forecast(game)
    if fc is None:
        return None
    pace = next((p for p in fc.seats if p.seat == fc.bottleneck), None)
    left = (fc.finish - timezone.now()).total_seconds() / 3600
    return {
        "finish": fc.finish,
        # Under half an hour: "within the hour" (not "about 1 hour" next to a time that is now);
        # under a day, in hours ("about 5 hours"); a day or more, in days.
        "soon": left < 0.5,
        "hours": max(1, round(left)) if left < 23.5 else None,
        "days": max(1, round(left / 24)),
        "bottleneck": names.get(fc.bottleneck) if fc.bottleneck is not None else None,
        "bottleneck_seat": fc.bottleneck,
        "bottleneck_hours": round(pace.median_reply_hours)
        if pace is not None and pace.median_reply_hours is not None
        else None,
    }


def _calc(query: QueryDict, name: str) -> int:
    """One of the calculator's inputs (empty: 0)."""
    return numbers.from_query(query, name, low=0, high=CALC_MAX, default=0) or 0


#: More than any game's money: the calculator's inputs are bounded (games.numbers).
CALC_MAX = 100_000


def _calculator(state: State, money: int | None, query: QueryDict | None) -> Calculator:
    """The cost calculator (the no-JS path computes the answer here; JS does it live)."""
    market = state["resource_market"]
    out: Calculator = {
        "market": market,
        "money": money,
        "asked": False,
        "fields": [
            {"resource": r, "label": describe.resource_label(r), "value": 0} for r in RESOURCES
        ],
    }
    if query is None:
        return out
    try:
        counts = {r: _calc(query, f"calc_{r}") for r in RESOURCES}
        cities = _calc(query, "calc_cities")
        bid = _calc(query, "calc_bid")
    except numbers.BadNumber:
        out["problem"] = _("Please enter whole numbers.")
        return out
    short = [r for r in RESOURCES if counts[r] > len(market[r])]
    res_cost = sum(sum(market[r][: counts[r]]) for r in RESOURCES)
    total = res_cost + cities + bid
    for f in out["fields"]:
        f["value"] = counts[f["resource"]]
    out["asked"] = True
    out["counts"] = counts
    out["cities"] = cities
    out["bid"] = bid
    out["res_cost"] = res_cost
    out["total"] = total
    out["left"] = None if money is None else money - total
    out["short"] = [describe.resource_label(r) for r in short]
    return out


# -- moves ----------------------------------------------------------------------


@require_POST
@with_user_timezone
def game_move(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(request, game_id)
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse(settings.LOGIN_URL)}?next={request.path}")
    if request.POST.get("preview") and request.POST.get("action") == "build":
        query = urlencode(
            [("preview", "1")] + [("cities", c) for c in request.POST.getlist("cities")]
        )
        return HttpResponseRedirect(f"{reverse('game', args=[game.pk])}?{query}#move")
    form_id = (request.POST.get("form_id") or "")[:64] or None
    # A form without its position (or a hostile one) is a stale form: refused as one.
    seen = numbers.from_query(request.POST, "expected_seq", low=0, high=numbers.INT32_MAX)
    expected_seq = -1 if seen is None else seen
    if form_id and _already_applied(game, request.user, form_id):
        messages.info(request, _("That move was already recorded."))
        return HttpResponseRedirect(reverse("game", args=[game.pk]))
    try:
        action = action_from_post(request.POST)
    except FormProblem as exc:
        if exc.status >= 400:
            # A number that is not one: no browser sends it from the form's inputs, so a 400,
            # but the game page with the sentence beside the form (not a bare error page).
            return _refused_here(request, game, exc.code, exc.message, status=exc.status)
        return _refused(request, game, exc.code, exc.message)
    try:
        services.move_submit(
            game_id=game.pk,
            user=request.user,
            action=action,
            expected_seq=expected_seq,
            source=Move.Source.WEB,
            idempotency_key=form_id,
        )
    except services.StaleState as exc:
        if form_id and _already_applied(_fresh(game), request.user, form_id):
            messages.info(request, _("That move was already recorded."))
            return HttpResponseRedirect(reverse("game", args=[game.pk]))
        return _refused(request, game, exc.code, error_text(exc.code, exc.message))
    except services.ServiceError as exc:
        return _refused(request, game, exc.code, error_text(exc.code, exc.message, exc.details))
    # No fragment: the page opens at its top, where the message is (a jump to the board or the
    # form would scroll it out of view).
    messages.success(request, _("Your move was recorded."))
    return HttpResponseRedirect(reverse("game", args=[game.pk]))


def _fresh(game: Game) -> Game:
    return selectors.game_get(game_id=game.pk) or game


def _already_applied(game: Game, user: selectors.Reader, form_id: str) -> bool:
    uid = cast(int, getattr(user, "pk", None))  # signed in (``game_move`` asks first)
    return Move.objects.filter(game=game, user_id=uid, idempotency_key=form_id).exists()


@require_GET
@with_user_timezone
def game_history(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    game = game_or_404(request, game_id)
    if game.status == Game.Status.OPEN:
        raise Http404()
    if seq > game.seq:
        raise Http404()
    return _render_game(request, game, history_seq=seq)


def _quote(
    game: Game, user: selectors.Reader, cities: list[str], *, by_token: bool
) -> tuple[Quote, int]:
    """The build quote (``selectors.game_build_quote``, the API's too) with its status: the same
    body as the API's for the same question (its error shape, ``details`` included); the page's
    own session also gets the error's ``text`` in the reader's language, which a token's client,
    reading the API's closed ``Error``, is not sent."""
    try:
        return selectors.game_build_quote(game, user, cities), 200
    except services.ServiceError as exc:
        error: QuoteError = {"code": exc.code, "message": exc.message, "details": exc.details}
        if not by_token:
            error["text"] = error_text(exc.code, exc.message)
        return {"error": error}, exc.status


def _quote_reader(request: HttpRequest) -> selectors.Reader:
    """Who asks for a quote: the API token's owner when the request carries an Authorization
    header (the API's own authentication, ``games.api.auth``: a client holding a token gets the
    same answer here as at ``/api/v1/games/{id}/quote/``), else the site's session. A header
    that is no valid token is refused (``AuthenticationFailed``), never read as anonymous."""
    # As DRF reads it (``get_authorization_header``): the header's text as bytes.
    header = request.headers.get("Authorization", "").encode("iso-8859-1")
    if not header:
        return request.user
    found = TokenAuthentication().authenticate_credentials(token_from_header(header) or b"")
    user: selectors.Reader = found[0]
    return user


def _unauthorized(code: str, message: str) -> JsonResponse:
    """The API's 401 (RFC 9110: a 401 names the scheme to use), with the page's ``text``."""
    refused = JsonResponse(
        {"error": {"code": code, "message": message, "details": {}, "text": message}}, status=401
    )
    refused["WWW-Authenticate"] = TokenAuthentication.WWW_AUTHENTICATE
    return refused


@require_GET
def game_quote(request: HttpRequest, game_id: int) -> JsonResponse:
    """``?cities=a&cities=b`` → ``{"cost": n, "money_left": m}`` or an error (the engine's).
    A session or an API token (``_quote_reader``): the same reader, the same answer."""
    try:
        reader = _quote_reader(request)
    except AuthenticationFailed as exc:
        return _unauthorized("authentication_failed", str(exc.detail))
    game = selectors.game_for(game_id=game_id, user=reader)
    if game is None:
        raise Http404(_("No such game."))
    if reader is None or not reader.is_authenticated:  # as the API: after its 404, a 401
        return _unauthorized("not_authenticated", str(NotAuthenticated.default_detail))
    # As the API reads them: no silent cut at 30 (refused), and none is a quote of cost 0.
    cities = [c for c in request.GET.getlist("cities") if c]
    by_token = bool(request.headers.get("Authorization"))
    data, status = _quote(game, reader, cities, by_token=by_token)
    return JsonResponse(data, status=status)


# -- language ----------------------------------------------------------------------


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    lang = request.POST.get("language", "")
    nxt = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        nxt = "/"
    response = HttpResponseRedirect(nxt)
    if lang in dict(settings.LANGUAGES):
        if request.user.is_authenticated:
            profile = getattr(request.user, "profile", None)
            if profile is not None and profile.language != lang:
                profile.language = lang
                profile.save(update_fields=["language"])
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, lang, max_age=365 * 24 * 3600)
    return response


@require_GET
def game_history_jump(request: HttpRequest, game_id: int) -> HttpResponse:
    """The no-JS "board after move N" form: redirect to that move's history page."""
    game = game_or_404(request, game_id)
    asked = numbers.from_query(request.GET, "seq", low=0, high=numbers.INT32_MAX)
    seq = game.seq if asked is None else min(asked, game.seq)
    return HttpResponseRedirect(reverse("game_history", args=[game.pk, seq]))
