from typing import Any

from allauth.account.models import EmailAddress
from allauth.account.signals import (
    email_added,
    email_changed,
    email_confirmation_sent,
    email_confirmed,
    user_signed_up,
)
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext
from knox.models import AuthToken

from . import deliverability, profiles
from .models import Profile
from .names import username_key
from .zones import browser_zone


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def profile_create(
    sender: type[User],
    instance: User,
    created: bool,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """Every user has a profile, and its ``username_key`` follows the username (a rename in the
    admin included; a save of other fields, such as ``last_login`` at each log-in, costs
    nothing)."""
    key = username_key(instance.get_username())
    if created:
        Profile.objects.get_or_create(user=instance, defaults={"username_key": key})
    elif update_fields is None or "username" in update_fields:
        Profile.objects.filter(user=instance).exclude(username_key=key).update(username_key=key)


@receiver(user_signed_up)
def profile_language_from_signup(
    sender: Any, request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    """Someone who signs up from a Japanese page keeps Japanese: the profile's language starts
    as the language the sign-up page was shown in (browser or language switch; the switch's is
    the player's own choice, ``Profile.language_chosen``)."""
    lang = translation.get_language_from_request(request) if request is not None else None
    lang = (getattr(request, "LANGUAGE_CODE", None) or lang or "")[:2]
    if lang in dict(Profile.Language.choices):
        chosen = request is not None and _switched(request) == lang
        Profile.objects.filter(user=user).update(language=lang, language_chosen=chosen)
        if hasattr(user, "profile"):
            user.profile.language = lang
            user.profile.language_chosen = chosen


def _switched(request: HttpRequest) -> str | None:
    """The language the visitor chose with the site's switch (its cookie), if any."""
    lang = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return lang if lang in dict(Profile.Language.choices) else None


@receiver(user_logged_in)
def profile_language_at_login(
    sender: Any, request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    """Logging in does not switch a Japanese visitor to a language their profile was never
    told (``accounts.profiles.language_at_login`` says which wins). Pages only: an API client's
    log-in (a token) speaks English whatever its headers say."""
    if request is None or request.path.startswith("/api/"):
        return
    switched = _switched(request)
    browser = None
    if switched is None and request.META.get("HTTP_ACCEPT_LANGUAGE"):
        browser = translation.get_language_from_request(request)[:2]
        browser = browser if browser in dict(Profile.Language.choices) else None
    changed = profiles.language_at_login(user=user, switched=switched, browser=browser)
    if changed is not None and hasattr(user, "profile"):
        user.profile.language = changed.language
        user.profile.language_chosen = changed.language_chosen


@receiver(user_signed_up)
def profile_timezone_from_signup(
    sender: Any, request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    """The profile's time zone starts as the one the browser named (static/js/zone.js), so a new
    player's deadlines are on their own clock from the first email on; UTC without it."""
    zone = browser_zone(request) if request is not None else None
    if zone is not None:
        Profile.objects.filter(user=user).update(timezone=zone.key)
        if hasattr(user, "profile"):
            user.profile.timezone = zone.key


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def tokens_revoke_on_new_password(
    sender: type[User],
    instance: User,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """A new password ends what the old one let in: every API token of the user is revoked,
    whichever way the password was set (changed or reset on the site, set by an administrator
    after a take-over, ``manage.py changepassword``). Django already ends the other sessions:
    their stored password hash no longer matches.

    Compared with the stored hash, so only a save that can write the password costs a query
    (not ``last_login`` at each log-in)."""
    if instance._state.adding or instance.pk is None:
        return
    if update_fields is not None and "password" not in update_fields:
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        AuthToken.objects.filter(user_id=instance.pk).delete()


@receiver(email_added)
def email_keep_the_old_address(
    sender: Any, request: HttpRequest | None, user: User, email_address: EmailAddress, **kwargs: Any
) -> None:
    """An account made without sign-up (``create_user``: the admin, ``seed_demo``) has its
    address only in ``User.email``, with no allauth record. Its first added address, once
    confirmed, would become the primary one with nobody told: allauth tells the old primary
    address of a change, and there was none. So the old address is recorded as the primary one
    first; the player then makes the new one primary on the email page, and the old address is
    told, as for an account that signed up."""
    old = (user.email or "").strip().lower()
    if not old or old == email_address.email.lower():
        return
    if EmailAddress.objects.filter(user=user, primary=True).exists():
        return
    # A record may exist already, not primary: logging in sends its confirmation email.
    kept = EmailAddress.objects.filter(user=user, email__iexact=old).update(primary=True)
    if not kept:
        EmailAddress.objects.create(user=user, email=old, primary=True, verified=False)


@receiver(email_confirmed)
def email_works_again(
    sender: Any, request: HttpRequest | None, email_address: EmailAddress, **kwargs: Any
) -> None:
    """The player confirmed an address with allauth's email: if it is the address we send to and
    it was marked undeliverable, it works, so emails to it start again and the banner goes."""
    deliverability.address_confirmed(user=email_address.user, address=email_address.email)


@receiver(email_changed)
def email_changed_to_a_confirmed_address(
    sender: Any,
    request: HttpRequest | None,
    user: User,
    from_email_address: EmailAddress | None,
    to_email_address: EmailAddress,
    **kwargs: Any,
) -> None:
    """A confirmed address made primary (the one we send to) is one that works."""
    if to_email_address.verified:
        user.email = to_email_address.email
        deliverability.address_confirmed(user=user, address=to_email_address.email)


@receiver(email_confirmation_sent)
def confirmation_in_the_mailbox(
    request: HttpRequest | None, confirmation: Any, signup: bool, **kwargs: Any
) -> None:
    """In development nothing is really sent: the confirmation email is in the development
    mailbox (``/dev/mailbox/``, DEBUG only), and the page right after sign-up says so."""
    if request is None or not settings.DEBUG or not hasattr(request, "_messages"):
        return
    messages.info(
        request,
        format_html(
            gettext(
                "Development server: no email leaves this machine. Read the confirmation email "
                'in the <a href="{url}">mailbox</a>.'
            ),
            url=reverse("dev_mailbox"),
        ),
    )
