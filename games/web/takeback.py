"""Take-backs and practice games on the pages, with plain forms (no JavaScript needed). Thin:
``games.services.takeback`` and ``games.services.practice`` do the work; what the game page
shows of them is ``page_context``."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import numbers, selectors, takebacks
from games.models import Game, Move
from games.services import practice
from games.services import takeback as service
from games.services.errors import ServiceError

from .context import Person, TakebackPart
from .errors import error_text
from .forms import bot_level_choices


def _visible_or_404(request: HttpRequest, game_id: int) -> None:
    """THE rule (``selectors.game_for``), first: a game the visitor may not see is no game, as
    ``games.web.views.game_or_404`` answers (which imports this module, so not imported)."""
    if selectors.game_for(game_id=game_id, user=request.user) is None:
        raise Http404(_("No such game."))


def _int(post: QueryDict, name: str) -> int | None:
    """A position or seat of the form (``games.numbers``); ``None`` when absent."""
    return numbers.from_query(post, name, low=0, high=numbers.INT32_MAX)


def _back(game_id: int, anchor: str = "") -> HttpResponse:
    return HttpResponseRedirect(reverse("game", args=[game_id]) + anchor)


def _refused(request: HttpRequest, exc: ServiceError) -> None:
    messages.error(request, error_text(exc.code, exc.message, exc.details))


@require_POST
def game_takeback(request: HttpRequest, game_id: int) -> HttpResponse:
    """The take-back button: ``how`` = ``now`` (alone, at once) or ``ask`` (the others)."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    expected = _int(request.POST, "expected_seq")
    how = request.POST.get("how")
    try:
        if expected is None or how not in (takebacks.NOW, takebacks.ASK):
            raise ServiceError("The form is not valid.", code="invalid_field")
        if how == takebacks.NOW:
            service.takeback_now(
                game_id=game_id, user=request.user, expected_seq=expected, source=Move.Source.WEB
            )
            messages.success(request, _("Your move was taken back: make it again."))
        else:
            answer = service.takeback_ask(
                game_id=game_id, user=request.user, expected_seq=expected, source=Move.Source.WEB
            )
            if answer.result is not None:
                messages.success(request, _("Everyone agreed: your move was taken back."))
            else:
                messages.success(
                    request, _("The other players are asked; the game waits for their answers.")
                )
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id)


@require_POST
def game_takeback_answer(request: HttpRequest, game_id: int, request_id: int) -> HttpResponse:
    """A request's buttons: ``answer`` = ``accept``, ``decline`` or (the asker) ``withdraw``."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    answer = request.POST.get("answer")
    try:
        if answer == "withdraw":
            service.takeback_withdraw(game_id=game_id, request_id=request_id, user=request.user)
            messages.success(request, _("Your request was withdrawn."))
        elif answer in ("accept", "decline"):
            done = service.takeback_answer(
                game_id=game_id,
                request_id=request_id,
                user=request.user,
                accept=answer == "accept",
                source=Move.Source.WEB,
            )
            if done.result is not None:
                messages.success(request, _("Everyone agreed: the moves were taken back."))
            elif answer == "accept":
                messages.success(request, _("You agreed; the others are still asked."))
            else:
                messages.success(request, _("You refused: the moves stand."))
        else:
            raise ServiceError("The form is not valid.", code="invalid_field")
    except ServiceError as exc:
        _refused(request, exc)
    return _back(game_id)


@require_POST
def game_practice(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Practise from here": a practice game against the bots, then its page."""
    _visible_or_404(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    seq, seat = _int(request.POST, "seq"), _int(request.POST, "seat")  # a 400 if not numbers
    try:
        game = practice.practice_create(
            user=request.user,
            game_id=game_id,
            seq=seq,
            seat=seat,
            emails=bool(request.POST.get("emails")),
            level=request.POST.get("level") or None,
        )
    except ServiceError as exc:
        _refused(request, exc)
        if seq is not None:
            return HttpResponseRedirect(reverse("game_history", args=[game_id, seq]))
        return _back(game_id)
    messages.success(request, _("Your practice game has started: the bots play the other seats."))
    return _back(game.pk)


# -- what the game page shows -------------------------------------------------------------------


def page_context(
    game: Game, user: selectors.Reader, *, history_seq: int | None, names: dict[int, str]
) -> TakebackPart:
    """The take-back offer, the request waiting for answers, and the practice forms, for the
    game page (``games.web.views._render_game``)."""
    ctx: TakebackPart = {"takeback": None, "takeback_request": None, "practice_form": None}
    me = selectors.seat_of(game, user)
    seats = selectors.game_seats(game)
    usernames = {s.seat: s.user.get_username() for s in seats}

    def person(seat: int) -> Person:
        """A seat's name as the page writes it: a link to its player's page (``|player``)."""
        return {"name": names.get(seat, "?"), "username": usernames.get(seat)}

    if game.practice:
        ctx["practice_info"] = {
            "from": game.practice_from_id,
            "seq": game.practice_seq,
            "until": game.created_at + timedelta(days=practice.PRACTICE_DAYS),
        }
    if game.status == Game.Status.RUNNING and history_seq is None and me is not None:
        offer = takebacks.offer_for(game, user)
        if offer is not None and offer.how is not None:
            ctx["takeback"] = {
                "how": offer.how,
                "first": offer.cancels[0],
                "n": len(offer.cancels),
                "why": takebacks.why_ask(offer.reason),
                "left": offer.left,
                "limit": offer.limit,
            }
        req = offer.request if offer is not None else takebacks.request_open(game)
        if req is not None:
            data = takebacks.request_json(req, game)
            ctx["takeback_request"] = {
                **data,
                "name": names.get(req.seat, "?"),
                "person": person(req.seat),
                "mine": req.seat == me.seat,
                "asked_me": me.seat in data["waiting_for"],
                "waiting_people": [person(s) for s in data["waiting_for"]],
                "why": takebacks.why_ask(req.reason or None),
            }
    if game.status == Game.Status.FINISHED and history_seq is not None and history_seq < game.seq:
        ctx["practice_form"] = {
            "seq": history_seq,
            "seats": [{"seat": s.seat, "name": names.get(s.seat, "?")} for s in seats],
            "mine": me.seat if me is not None else 0,
            "levels": bot_level_choices(),
        }
    elif game.status == Game.Status.RUNNING and history_seq is None and me is not None:
        ctx["practice_form"] = {
            "seq": None,
            "seats": [],
            "mine": me.seat,
            "levels": bot_level_choices(),
        }
    return ctx
