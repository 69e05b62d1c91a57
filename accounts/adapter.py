"""allauth's emails (address confirmation, password reset, ...) as the game's own emails are: in
the recipient's profile language, and with the product name in front of the subject as the game
emails have it ("[Power Grid] ..." in English, "【電力会社】..." in Japanese).

Installed by ``ACCOUNT_ADAPTER`` in config/settings.py.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext

from .models import Profile
from .names import mixes_scripts, username_key


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

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        lang = recipient_language(email, context.get("user"))
        if lang is None:
            super().send_mail(template_prefix, email, context)
            return
        with translation.override(lang):
            super().send_mail(template_prefix, email, context)
