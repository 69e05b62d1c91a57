"""Account pages beyond allauth's: the profile (with vacations) and personal API tokens."""

from typing import Any

from allauth.account.decorators import reauthentication_required
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.vacation import (
    VacationError,
    vacation_days_left,
    vacation_start,
    vacation_stop,
)
from config.words import one_stop

from . import deliverability, settings_views
from .forms import ProfileForm, VacationStartForm
from .models import Profile
from .profiles import calendar_address_set, calendar_url, profile_update
from .tokens import TokenLimitReached, token_create, token_revoke, tokens_of


def _vacation_error_text(code: str, days_left: int) -> str:
    """The service's VacationError codes, in the reader's language."""
    if code == "already_on_vacation":
        return _("You are already on vacation.")
    if code == "not_enough_days":
        return ngettext(
            "You have only %(left)d vacation day left this year.",
            "You have only %(left)d vacation days left this year.",
            days_left,
        ) % {"left": days_left}
    return _("A vacation is at least one whole day.")


def _profile_page(
    request: HttpRequest,
    prof: Profile,
    *,
    form: ProfileForm | None = None,
    vacation_form: VacationStartForm | None = None,
    status: int = 200,
    block_error: settings_views.BlockErrorText | None = None,
) -> HttpResponse:
    now = timezone.now()
    left = vacation_days_left(prof, now=now)
    on_vacation = bool(prof.vacation_until and prof.vacation_until > now)
    if vacation_form is None and not on_vacation and left > 0:
        vacation_form = VacationStartForm(days_left=left)
    ctx: dict[str, Any] = {
        "form": form or ProfileForm(instance=prof),
        "vacation_form": vacation_form,
        "vacation": {
            "left": left,
            "per_year": prof.vacation_days_per_year,
            "used": prof.vacation_days_per_year - left,
            "on": on_vacation,
            "until": prof.vacation_until if on_vacation else None,
            "year": now.year,  # the year the allowance is counted in (accounts.vacation)
        },
        "calendar_url": calendar_url(prof) or "",
        "push": settings_views.push_section(request),
        "blocks": settings_views.blocks_section(request),
        "block_error": block_error,
    }
    return render(request, "accounts/profile.html", ctx, status=status)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    prof, _created = Profile.objects.get_or_create(user=request.user)
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=prof)
        if form.is_valid():
            # The form's fields only, under the row lock: a vacation or a calendar address set
            # since this request read the profile is not written back over (form.save() would).
            profile_update(
                user=request.user, changes={f: form.cleaned_data[f] for f in form.Meta.fields}
            )
            messages.success(request, _("Your profile was saved."))
            return redirect("profile")
        prof.refresh_from_db()
        return _profile_page(request, prof, form=form)
    return _profile_page(request, prof)


@require_POST
@login_required
def profile_blocks(request: HttpRequest) -> HttpResponse:
    """The block list's forms (``settings_views.blocks_post``); a refusal shown on the page."""
    refused = settings_views.blocks_post(request)
    if refused is None:
        return redirect(reverse("profile") + "#blocks")
    prof, _created = Profile.objects.get_or_create(user=request.user)
    return _profile_page(request, prof, block_error=refused[0], status=refused[1])


@require_POST
@login_required
def email_reconfirm(request: HttpRequest) -> HttpResponse:
    """The banner's button: allauth's confirmation email to the address our emails do not reach
    (``accounts.deliverability``); clicking its link starts them again."""
    address = deliverability.confirmation_send(request=request, user=request.user)
    if address:
        messages.info(
            request,
            _(
                "We sent a confirmation email to %(address)s. Open the link in it: our emails "
                "start again once it arrives. If it does not arrive, change your address."
            )
            % {"address": address},
        )
    elif deliverability.undeliverable(request.user):
        messages.info(request, _("A confirmation email was sent a moment ago: look for it."))
    nxt = request.POST.get("next", "")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        return redirect(nxt)
    return redirect("profile")


def _calendar_opens(request: HttpRequest) -> bool:
    return request.POST.get("action") != "off"


@require_POST
@login_required
@reauthentication_required(enabled=_calendar_opens)
def calendar(request: HttpRequest) -> HttpResponse:
    """Create the calendar feed's secret address, replace it (the old one stops working at
    once), or turn the feed off (``action=off``). A new address is readable without a login for
    as long as it lives, so making one asks for the password again (``accounts.reauth``: a
    session from an email's link must not take one away); turning it off does not."""
    if request.POST.get("action") == "off":
        calendar_address_set(user=request.user, on=False)
        messages.success(request, _("Your calendar address was turned off."))
    else:
        # Only a replaced address had an old one that stops working; the first is just ready.
        prof = getattr(request.user, "profile", None)
        replaced = bool(prof and prof.calendar_token)
        calendar_address_set(user=request.user, on=True)
        messages.success(
            request,
            _("Your calendar has a new address; the old one no longer works.")
            if replaced
            else _("Your calendar address is ready: subscribe to it in your calendar app."),
        )
    return redirect(reverse("profile") + "#calendar")


@require_POST
@login_required
def vacation(request: HttpRequest) -> HttpResponse:
    """Start a vacation until a date (``action=start``, ``until=YYYY-MM-DD``) or end the current
    one early (``action=stop``). Both go through accounts.vacation, which moves the
    player's running deadlines."""
    prof, _created = Profile.objects.get_or_create(user=request.user)
    now = timezone.now()
    left = vacation_days_left(prof, now=now)
    if request.POST.get("action") == "stop":
        if not (prof.vacation_until and prof.vacation_until > now):
            messages.info(request, _("You are not on vacation."))
            return redirect("profile")
        prof = vacation_stop(user=request.user, now=now)
        back = vacation_days_left(prof, now=now) - left
        messages.success(
            request,
            ngettext(
                "Your vacation has ended and your turn clocks run again. "
                "%(days)d unused day went back to your allowance.",
                "Your vacation has ended and your turn clocks run again. "
                "%(days)d unused days went back to your allowance.",
                back,
            )
            % {"days": back},
        )
        return redirect("profile")
    if prof.vacation_until and prof.vacation_until > now:
        # A second tab or a double submit: the vacation already runs; nothing to do.
        messages.error(request, _vacation_error_text("already_on_vacation", left))
        return redirect("profile")
    form = VacationStartForm(request.POST, days_left=left)
    if not form.is_valid():
        return _profile_page(request, prof, vacation_form=form, status=400)
    try:
        prof = vacation_start(user=request.user, days=form.days, now=now)
    except VacationError as exc:
        form.add_error("until", _vacation_error_text(exc.code, left))
        prof.refresh_from_db()
        return _profile_page(request, prof, vacation_form=form, status=400)
    until = timezone.localtime(prof.vacation_until)
    messages.success(
        request,
        one_stop(
            _("Your vacation has started: your turn clocks are stopped until %(until)s.")
            % {"until": formats.date_format(until, "DATETIME_FORMAT")}
        ),
    )
    return redirect("profile")


@login_required
@reauthentication_required(allow_get=True)
def tokens(request: HttpRequest) -> HttpResponse:
    """The personal API tokens: listing them is a page like any other; creating or revoking one
    asks for the password again unless the user signed in a few minutes ago (a session taken
    from a shared computer or a link must not be able to mint a token)."""
    new_token = None
    if request.method == "POST":
        if "revoke" in request.POST:
            token_revoke(user=request.user, prefix=request.POST["revoke"])
            messages.success(request, _("The token was revoked."))
            return redirect("api_tokens")
        try:
            name = request.POST.get("name", "").strip()[:60]
            _instance, new_token = token_create(request.user, name=name)
        except TokenLimitReached as exc:
            messages.error(
                request,
                ngettext(
                    "An account holds at most %(limit)d API token: revoke one to create another.",
                    "An account holds at most %(limit)d API tokens: revoke one to create another.",
                    exc.limit,
                )
                % {"limit": exc.limit},
            )
            return redirect("api_tokens")
    user_tokens = tokens_of(request.user)
    return render(request, "accounts/tokens.html", {"tokens": user_tokens, "new_token": new_token})
