"""The profile page's sections for the devices that take push notices and the block list: what
they show (``section_context``) and their plain forms (no script needed: the per-device choice
and removal, blocking and unblocking). Thin: ``accounts.push`` and ``accounts.blocks`` work."""

from __future__ import annotations

from typing import TypedDict
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import blocks, push
from .models import Block


class Device(TypedDict):
    pk: int
    label: str
    service: str
    turns: bool


class PushSection(TypedDict):
    key: str
    devices: list[Device]


class BlockErrorText(TypedDict):
    code: str
    text: str


def push_section(request: HttpRequest) -> PushSection:
    return {
        "key": push.public_key(),
        "devices": [
            {
                "pk": d.pk,
                "label": d.label,
                "service": urlsplit(d.endpoint).hostname or "",
                "turns": d.turns,
            }
            for d in push.devices(request.user)
        ],
    }


def blocks_section(request: HttpRequest) -> list[Block]:
    return blocks.blocks_of(request.user)


def block_error_text(exc: blocks.BlockError) -> BlockErrorText:
    texts = {
        "user_not_found": _("No player has that username."),
        "invalid_block": _(
            "Name another player's username (you cannot block yourself), within the limit."
        ),
    }
    return {"code": exc.code, "text": texts.get(exc.code, exc.message)}


def _device(request: HttpRequest) -> int | None:
    """The reader's own device the form names (its ``id`` as the page wrote it), or None: the
    field is matched against their devices, never read as a number (accounts may not use
    ``games.numbers``, and no other number could name one of their devices)."""
    raw = request.POST.get("id", "")
    return next((d.pk for d in push.devices(request.user) if str(d.pk) == raw), None)


@require_POST
@login_required
def profile_push(request: HttpRequest) -> HttpResponse:
    """A device's turn notices on or off, or the device removed."""
    op, device = request.POST.get("op", ""), _device(request)
    try:
        if device is None or op not in ("on", "off", "remove"):
            raise push.PushError("No such device.", code="subscription_not_found", status=404)
        if op == "remove":
            push.unsubscribe(user=request.user, device_id=device)
            messages.success(request, _("The device was removed."))
        else:
            push.device_set(user=request.user, device_id=device, turns=op == "on")
            messages.success(request, _("Saved."))
    except push.PushError:
        messages.error(request, _("No such device."))
    return redirect(reverse("profile") + "#devices")


def blocks_post(request: HttpRequest) -> tuple[BlockErrorText, int] | None:
    """Block a player by username, or lift a block; a refusal's text and status (400/404,
    nothing changed) for the profile page to show, None when done."""
    op, username = request.POST.get("op", ""), request.POST.get("username", "")
    try:
        if op == "unblock":
            blocks.unblock(user=request.user, username=username)
            messages.success(request, _("The block was lifted."))
        else:
            _row, made = blocks.block(user=request.user, username=username)
            if made:
                messages.success(request, _("The player was blocked."))
    except blocks.BlockError as exc:
        return block_error_text(exc), exc.status
    return None
