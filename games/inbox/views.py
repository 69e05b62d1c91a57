"""The inbound webhook of a mail provider (Mailgun, through django-anymail, its signature checked
by anymail) and the dev mailbox's reply form. Thin: both hand the message to ``mail_receive``."""

from __future__ import annotations

import hashlib
import time
from email.message import EmailMessage
from typing import Any

from anymail.webhooks.mailgun import MailgunInboundWebhookView
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from games import describe
from games.inbox import onetap
from games.inbox.receive import mail_receive
from games.models import TakebackRequest
from games.notifications.emails import map_name
from games.notifications.mailbox import mailbox_get
from games.selectors import game_engine_state, game_seats, seat_name
from games.services.errors import ServiceError
from games.templatetags.names import isolate
from games.web.errors import error_text


class MailgunInbound(MailgunInboundWebhookView):
    """``/inbound/mailgun/``: on only when ``INBOUND_MAILGUN_SIGNING_KEY`` is set (404 otherwise).
    anymail checks the signature (400 and nothing done when it is wrong) and sends its
    ``inbound`` signal, which ``games.receivers.inbound_mail`` hands to ``mail_receive``."""

    @method_decorator(csrf_exempt)
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.INBOUND_MAILGUN_SIGNING_KEY:
            body = {
                "error": {"code": "not_found", "message": "No inbound webhook here.", "details": {}}
            }
            return JsonResponse(body, status=404)
        self.webhook_signing_key = settings.INBOUND_MAILGUN_SIGNING_KEY.encode("ascii")
        response: HttpResponse = super().dispatch(request, *args, **kwargs)
        return response


@require_POST
def dev_reply(request: HttpRequest, key: str) -> HttpResponse:
    """The dev mailbox's reply form: a reply to one of the emails shown, written as the
    recipient's mail client would write it, handed to the same handler as real mail. Only with
    DEBUG, like the mailbox."""
    if not settings.DEBUG:
        raise Http404
    mail = mailbox_get(key)
    headers = dict(mail.headers)
    reply_to = headers.get("Reply-To", "")
    if not reply_to:
        messages.error(request, _("This email has no reply address."))
        return HttpResponseRedirect(reverse("dev_mailbox_detail", args=[key]))
    text = request.POST.get("text", "")[:2000]
    stamp = hashlib.sha256(f"{key}:{text}:{time.time()}".encode()).hexdigest()[:16]
    reply = EmailMessage()
    reply["From"] = mail.to
    reply["To"] = reply_to
    reply["Subject"] = f"Re: {mail.subject}"
    reply["Message-ID"] = f"<devreply-{stamp}@localhost>"
    reply["In-Reply-To"] = headers.get("Message-ID", "")
    quoted = "\n".join(f"> {line}" for line in mail.text.splitlines()[:40])
    reply.set_content(f"{text}\n\n{quoted}\n")
    result = mail_receive(reply.as_bytes(), via="devmailbox")
    messages.info(
        request,
        _("Reply handed in: %(status)s %(code)s") % {"status": result.status, "code": result.code},
    )
    return HttpResponseRedirect(reverse("dev_mailbox"))


def _choice_label(choice: str, action: dict[str, Any], who: str = "") -> str:
    if choice == "takeback":
        return _("Take back my move")
    if choice == "takeback_accept":
        return _("Agree: %(name)s takes back their move") % {"name": isolate(who)}
    if choice == "takeback_decline":
        return _("Refuse: %(name)s's move stands") % {"name": isolate(who)}
    return {
        "pass_bid": _("Pass: leave this auction"),
        "pass_auction": _("Pass: buy no plant this round"),
        "power": _("Power with the best choice"),
        "buy_nothing": _("Buy no resources"),
        "build_nothing": _("Build nothing"),
        "sheet_ok": _("Accept the suggestions of my round sheet"),
    }[choice]


def _link_error(code: str) -> str:
    return {
        "forged": _("This link is not valid."),
        "expired": _("This link has expired."),
        "used": _("This link was used already: the move was made."),
        "moved_on": _("The game has moved on since this email: open the game to see it now."),
        "wrong_user": _("This link was sent to another player."),
    }.get(code, _("This link is not valid."))


def _link_failed(request: HttpRequest, exc: onetap.LinkInvalid) -> HttpResponse:
    status = 403 if exc.code == "wrong_user" else 410
    failed = {"error": _link_error(exc.code), "code": exc.code}
    return render(request, "games/onetap.html", failed, status=status)


def _asker(game: Any, tap: onetap.Tap) -> str:
    """The name of the player whose take-back request a link answers ("" for other links)."""
    if tap.request_id is None:
        return ""
    req = TakebackRequest.objects.filter(game=game, pk=tap.request_id).first()
    seats = {s.seat: s for s in game_seats(game)}
    return seat_name(seats[req.seat]) if req is not None and req.seat in seats else "?"


@require_http_methods(["GET", "POST"])
def onetap_view(request: HttpRequest, signed: str) -> HttpResponse:
    """A one-tap link: GET shows what it would do and a button; only the POST acts."""
    try:
        tap = onetap.read(signed)
        game = onetap.check(tap, request.user)
        state = game_engine_state(game)
        action = onetap.action_for(tap.choice, state, tap.token.seat)
    except onetap.LinkInvalid as exc:
        return _link_failed(request, exc)
    fuel = onetap.fuel_offer(tap.choice, state, tap.token.seat)
    ctx: dict[str, Any] = {
        "game": game,
        "label": (
            describe.fuel_label(fuel, more=tap.choice == "buy_fuel_more")
            if tap.choice in onetap.FUEL_CHOICES and fuel is not None
            else _choice_label(tap.choice, action, _asker(game, tap))
        ),
        "map_name": map_name(game.map),
    }
    if request.method == "GET":
        return render(request, "games/onetap.html", ctx)
    try:
        onetap.tap_apply(tap, request.user)
    except onetap.LinkInvalid as exc:
        return _link_failed(request, exc)
    except ServiceError as exc:
        ctx = {**ctx, "error": error_text(exc.code, exc.message), "code": exc.code}
        return render(request, "games/onetap.html", ctx, status=400)
    return render(request, "games/onetap.html", {**ctx, "done": True})
