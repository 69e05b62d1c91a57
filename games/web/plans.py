"""The Plans page (/games/<id>/plans/): a player's own plans, given, changed and withdrawn with
plain forms (no JavaScript). Thin: ``games.plans.services`` does the work; a refused plan is
shown again with the player's inputs kept and the reason, and nothing is changed."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import describe, engine, numbers, selectors, shapes
from games.models import Game
from games.plans.codec import KINDS, MAX_AMOUNT, MAX_PLANT
from games.plans.services import plan_delete, plan_moves_described, plan_set, plans_of
from games.services.errors import ServiceError
from games.templatetags.names import isolate, join_names
from games.web.present import plant_id
from powergrid.maps import name_in
from powergrid.plants import NUMBER
from powergrid.tables import RESOURCES

from . import common
from .common import game_or_404, seat_names, with_user_timezone
from .errors import error_text


def _body_from_post(post: QueryDict) -> dict[str, object]:
    """The plan's JSON from the form's fields (the API's body, so one codec checks both)."""
    kind = post.get("kind", "")
    body: dict[str, object] = {"kind": kind}

    def number(name: str, high: int = MAX_AMOUNT) -> int | None:
        # The codec judges each field's own bounds; this reads the digits (games.numbers).
        return numbers.from_query(post, name, low=0, high=high)

    if kind == "proxy_bid":
        body.update(plant=number("plant", MAX_PLANT), max=number("max"))
        if post.get("discard"):
            body["discard"] = number("discard", MAX_PLANT)
    elif kind == "buy":
        counts = {r: number(r, 24) or 0 for r in RESOURCES}
        body["amounts"] = {r: n for r, n in counts.items() if n}
        body["max_price"] = number("max_price")
    elif kind == "build":
        body.update(cities=post.getlist("cities"), max_total=number("max_total", 10000))
    return body


@require_http_methods(["GET", "POST"])
@with_user_timezone
def game_plans(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(request, game_id)
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse(settings.LOGIN_URL)}?next={request.path}")
    me = selectors.seat_of(game, request.user)
    if me is None:
        raise Http404(_("You hold no seat in this game."))
    error = None
    if request.method == "POST":
        try:
            if request.POST.get("op") == "delete":
                plan_delete(
                    game_id=game.pk,
                    user=request.user,
                    kind=request.POST.get("kind", ""),
                    plant=numbers.from_query(request.POST, "plant", low=1, high=MAX_PLANT),
                )
                messages.success(request, _("The plan was withdrawn."))
            else:
                _data, made, seq = plan_set(
                    game_id=game.pk, user=request.user, body=_body_from_post(request.POST)
                )
                if made:
                    messages.success(request, _made_text(game, me.seat, made, seq))
                else:
                    messages.success(
                        request, _("Your plan was kept: it acts when your turn comes.")
                    )
            return HttpResponseRedirect(reverse("game_plans", args=[game.pk]))
        except ServiceError as exc:
            error = {"code": exc.code, "text": error_text(exc.code, exc.message)}
            status = exc.status if exc.status < 500 else 400
            return _render(request, game, me.seat, error=error, status=status)
    return _render(request, game, me.seat)


def _made_text(game: Game, seat: int, made: int, after: int) -> str:
    """What a plan set during its owner's turn did at once, in the log's words ("Your plan was
    kept and has moved for you: Nora bids 23 for plant 10."): the ``made`` moves up to seq
    ``after`` (the API's answer says the same in ``acted``)."""
    names = {n: isolate(name) for n, name in seat_names(game).items()}
    done = [
        m["text"]
        for m in plan_moves_described(
            game_id=game.pk,
            seat=seat,
            after=after - made,
            upto=after,
            names=names,
            lang=common.lang(),
        )
    ]
    if not done:
        return _("Your plan was kept, and it has moved for you.")
    return _("Your plan was kept and has moved for you: %(moves)s") % {"moves": " ".join(done)}


def _render(
    request: HttpRequest,
    game: Game,
    seat: int,
    *,
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    lang = common.lang()
    gmap = engine.map_load(game.map)
    view = selectors.game_state_for(game, request.user)
    running = game.status == Game.Status.RUNNING
    cities: list[dict[str, str]] = []
    if running and game.state_json:
        state = engine.state_load(
            game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
        )
        names = {slug: name_in(c, lang) for slug, c in gmap.cities.items()}
        cities = sorted(
            ({"slug": slug, "name": names.get(slug, slug)} for slug in gmap.cities_in(state.areas)),
            key=lambda c: c["name"],
        )
    plans = plans_of(game=game, seat=seat)
    ctx = {
        "game": game,
        "map_name": name_in(gmap, lang),
        "running": running,
        "view": view,
        "plans": [_plan_row(p, cities) for p in plans],
        "has": {p["kind"] for p in plans},
        # (id, number): a New Power Plants card is named by its id (100 + number).
        "market": _market(view),
        "resource_inputs": [
            {
                "name": r,
                "label": describe.resource_label(r),
                "value": (request.POST.get(r) if request.method == "POST" else None) or "0",
            }
            for r in RESOURCES
        ],
        "cities": cities,
        # (id, number) of the player's own plants: what a proxy bid may name to give up.
        "own_plants": [(i, NUMBER[i]) for i in _own_plants(view, seat)],
        "kinds": list(KINDS),
        "posted": request.POST if request.method == "POST" else {},
        "posted_cities": request.POST.getlist("cities") if request.method == "POST" else [],
        "error": error,
    }
    return render(request, "games/plans.html", ctx, status=status)


def _market(view: shapes.State) -> list[tuple[int, int]]:
    """(id, number) of each plant a proxy bid may name: the plant under auction and the market's,
    each once (the plant under auction is still in the market) and only a card there is (the
    step-3 card, a plant with no number, is none: choosing it could only be refused)."""
    auction = view.get("auction")
    cards = [*view["plant_market"]["current"], *view["plant_market"]["future"]]
    if auction is not None:
        cards.insert(0, auction["plant"])
    out: dict[int, int] = {}
    for p in cards:
        if "step3" in p or not isinstance(p.get("number"), int):
            continue
        pid = plant_id(p)
        if isinstance(pid, int):
            out.setdefault(pid, p["number"])
    return list(out.items())


def _own_plants(view: shapes.State, seat: int) -> list[int]:
    for player in view.get("players", []):
        if player.get("seat") == seat:
            return [p.get("id", p["number"]) for p in player.get("plants", [])]
    return []


def _plan_row(plan: shapes.Plan, cities: list[dict[str, str]]) -> dict[str, object]:
    """A plan as the page words it."""
    names = {c["slug"]: c["name"] for c in cities}
    plant: int | str = ""
    if plan["kind"] == "proxy_bid":
        plant = plan["plant"]
        text = _("Bid for plant %(plant)s up to %(max)s Elektro, the least needed.") % {
            "plant": NUMBER.get(plan["plant"], plan["plant"]),
            "max": plan["max"],
        }
        if "discard" in plan:
            text += " " + _("If it is one plant too many, give up plant %(plant)s.") % {
                "plant": NUMBER.get(plan["discard"], plan["discard"])
            }
    elif plan["kind"] == "auto_pass":
        text = _("Pass every auction of round %(round)s.") % {"round": plan["round"]}
    elif plan["kind"] == "pass_when_nothing":
        text = _("Pass by myself whenever I have nothing to choose.")
    elif plan["kind"] == "buy":
        want = join_names(f"{n} {describe.resource_label(r)}" for r, n in plan["amounts"].items())
        text = _("Round %(round)s: buy %(want)s, each token at most %(price)s Elektro.") % {
            "round": plan["round"],
            "want": want,
            "price": plan["max_price"],
        }
    elif plan["kind"] == "build":
        text = _("Round %(round)s: build in %(cities)s if it costs at most %(total)s in all.") % {
            "round": plan["round"],
            "cities": join_names(names.get(c, c) for c in plan["cities"]),
            "total": plan["max_total"],
        }
    else:
        text = _("Round %(round)s: power with the best choice.") % {"round": plan["round"]}
    return {"kind": plan["kind"], "plant": plant, "text": text}
