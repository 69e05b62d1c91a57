"""allauth's emails (address confirmation, password reset, ...) as the game's own emails are: in
the recipient's profile language, and with the product name in front of the subject as the game
emails have it ("[Power Grid] ..." in English, "【電力会社】..." in Japanese).

Installed by ``ACCOUNT_ADAPTER`` in config/settings.py.
"""

from __future__ import annotations

import unicodedata
from typing import Any
from urllib.parse import quote

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from config.site import absolute, current_site

from .addresses import client_address
from .models import Profile
from .names import mixes_scripts, username_key


def login_user(login: str) -> Any:
    """The active account a login form's name means (a username, or an email address), if
    exactly one; None otherwise."""
    users = get_user_model().objects.filter(is_active=True)
    if "@" in login:
        addr = EmailAddress.objects.filter(email__iexact=login).select_related("user").first()
        if addr is not None:
            return addr.user if addr.user.is_active else None
        found = list(users.filter(email__iexact=login)[:2])
        return found[0] if len(found) == 1 else None
    return users.filter(username__iexact=login).first()


def recipient_language(email: str, user: Any = None) -> str | None:
    """The profile language of the account an email goes to (``user`` if given, else the one
    account holding that address), or None when there is none."""
    if user is None or getattr(user, "pk", None) is None:
        addr = EmailAddress.objects.filter(email__iexact=email).select_related("user").first()
        if addr is not None:
            user = addr.user
        else:
            users = list(get_user_model().objects.filter(email__iexact=email)[:2])
            user = users[0] if len(users) == 1 else None
    profile = getattr(user, "profile", None) if user is not None else None
    return getattr(profile, "language", None) or None


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Usernames are stored NFKC-normalised; one that reads as an existing name (another
        width, another case, look-alike letters of another alphabet: ``accounts.names``), a
        username or a player's display name, is refused, so nobody can pose as another player."""
        username = unicodedata.normalize("NFKC", username)
        username = super().clean_username(username, shallow=shallow)
        if mixes_scripts(username):
            raise ValidationError(
                gettext(
                    "This username mixes alphabets with letters that look alike. "
                    "Write it in one alphabet."
                ),
                code="username_mixed_scripts",
            )
        if not shallow:
            key = username_key(username)
            taken = (
                get_user_model().objects.filter(username__iexact=username).exists()
                or Profile.objects.filter(Q(username_key=key) | Q(display_name_key=key)).exists()
            )
            if taken:
                raise ValidationError(
                    gettext("This username is too close to an existing one. Choose another."),
                    code="username_taken",
                )
        return username

    def get_client_ip(self, request: HttpRequest) -> str:
        """The client's address as every limit of the site counts it (``accounts.addresses``:
        ``X-Forwarded-For`` only from the trusted proxies)."""
        address = client_address(request)
        if not address:
            raise PermissionDenied("Unable to determine client IP address")
        return address

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """Failed logins are counted per (name, client address), not per name alone: five wrong
        passwords from a stranger's address lock the stranger out of that name, never the
        owner signing in from elsewhere. The owner is told when the name is being guessed
        (``authentication_failed``)."""
        name = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{name}@{self.get_client_ip(request)}"

    def authentication_failed(self, request: HttpRequest, **credentials: Any) -> None:
        """Count the failure against the account itself too (from any address); past
        ``LOGIN_GUESS_ALERT_AFTER`` failures in ``LOGIN_GUESS_WINDOW_SECONDS`` its owner gets one
        email for the window (not one per attempt): someone is guessing their password."""
        super().authentication_failed(request, **credentials)
        login = str(credentials.get("email", credentials.get("username", "")) or "").strip()
        if not login:
            return
        user = login_user(login)
        if user is None:
            return
        window = int(settings.LOGIN_GUESS_WINDOW_SECONDS)
        key = f"login-guess:{user.pk}"
        cache.add(key, 0, window)
        try:
            failures = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, window)
            failures = 1
        if failures < int(settings.LOGIN_GUESS_ALERT_AFTER):
            return
        if not cache.add(f"login-guess-told:{user.pk}", 1, window):
            return  # told already in this window
        self.send_notification_mail(
            "account/email/login_guessed",
            user,
            {"failures": failures, "minutes": max(1, window // 60)},
            email=EmailAddress.objects.get_primary_email(user) or user.email,
        )

    def get_login_stages(self) -> list[str]:
        """allauth's stages, with its email verification stage replaced by ours, which lets in a
        player whose confirmed address was unconfirmed by a bounce (``accounts.stages``)."""
        theirs = "allauth.account.stages.EmailVerificationStage"
        return [
            "accounts.stages.EmailVerificationStage" if s == theirs else s
            for s in super().get_login_stages()
        ]

    def format_email_subject(self, subject: str) -> str:
        if app_settings.EMAIL_SUBJECT_PREFIX is not None:
            return super().format_email_subject(subject)
        # Translators: the prefix of account emails' subjects, as in the game emails' subjects.
        return gettext("[Power Grid] %(subject)s") % {"subject": subject}

    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation: Any) -> str:
        """The confirmation link at SITE_URL (``config.site``), as every other link we send."""
        return absolute(reverse("account_confirm_email", args=[emailconfirmation.key]))

    def get_reset_password_from_key_url(self, key: str) -> str:
        path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
        return absolute(path.replace("UID-KEY", quote(key)))

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # The site named in the emails' footer is SITE_URL's, not the database's record.
        context = {**context, "current_site": current_site()}
        lang = recipient_language(email, context.get("user"))
        if lang is None:
            super().send_mail(template_prefix, email, context)
            return
        with translation.override(lang):
            super().send_mail(template_prefix, email, context)
