from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.invitations_enum import InvitationsEnum
from ..models.language_enum import LanguageEnum
from ..models.notification_mode_enum import NotificationModeEnum

if TYPE_CHECKING:
    from ..models.email_undeliverable import EmailUndeliverable


T = TypeVar("T", bound="Me")


@_attrs_define
class Me:
    """
    Attributes:
        bot_account (bool): A third party's bot (POST /api/v1/me/bot/ makes one).
        display_name (str):
        email (str):
        email_undeliverable (EmailUndeliverable | None): Set while our emails to `email` are known not to arrive (a
            bounce, a refusal, a spam complaint): nothing is sent to it meanwhile. null when the address is fine.
        invitations (InvitationsEnum):
        language (LanguageEnum):
        notification_mode (NotificationModeEnum):
        reminder_fraction (float):
        timezone (str): IANA name, e.g. Asia/Tokyo.
        username (str):
        vacation_days_per_year (int):
        vacation_days_used (int):
    """

    bot_account: bool
    display_name: str
    email: str
    email_undeliverable: EmailUndeliverable | None
    invitations: InvitationsEnum
    language: LanguageEnum
    notification_mode: NotificationModeEnum
    reminder_fraction: float
    timezone: str
    username: str
    vacation_days_per_year: int
    vacation_days_used: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.email_undeliverable import EmailUndeliverable  # noqa: PLC0415

        bot_account = self.bot_account

        display_name = self.display_name

        email = self.email

        email_undeliverable: dict[str, Any] | None
        if isinstance(self.email_undeliverable, EmailUndeliverable):
            email_undeliverable = self.email_undeliverable.to_dict()
        else:
            email_undeliverable = self.email_undeliverable

        invitations = self.invitations.value

        language = self.language.value

        notification_mode = self.notification_mode.value

        reminder_fraction = self.reminder_fraction

        timezone = self.timezone

        username = self.username

        vacation_days_per_year = self.vacation_days_per_year

        vacation_days_used = self.vacation_days_used

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bot_account": bot_account,
                "display_name": display_name,
                "email": email,
                "email_undeliverable": email_undeliverable,
                "invitations": invitations,
                "language": language,
                "notification_mode": notification_mode,
                "reminder_fraction": reminder_fraction,
                "timezone": timezone,
                "username": username,
                "vacation_days_per_year": vacation_days_per_year,
                "vacation_days_used": vacation_days_used,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.email_undeliverable import EmailUndeliverable  # noqa: PLC0415

        d = dict(src_dict)
        bot_account = d.pop("bot_account")

        display_name = d.pop("display_name")

        email = d.pop("email")

        def _parse_email_undeliverable(data: object) -> EmailUndeliverable | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                email_undeliverable_type_0 = EmailUndeliverable.from_dict(data)

                return email_undeliverable_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmailUndeliverable | None, data)

        email_undeliverable = _parse_email_undeliverable(d.pop("email_undeliverable"))

        invitations = InvitationsEnum(d.pop("invitations"))

        language = LanguageEnum(d.pop("language"))

        notification_mode = NotificationModeEnum(d.pop("notification_mode"))

        reminder_fraction = d.pop("reminder_fraction")

        timezone = d.pop("timezone")

        username = d.pop("username")

        vacation_days_per_year = d.pop("vacation_days_per_year")

        vacation_days_used = d.pop("vacation_days_used")

        me = cls(
            bot_account=bot_account,
            display_name=display_name,
            email=email,
            email_undeliverable=email_undeliverable,
            invitations=invitations,
            language=language,
            notification_mode=notification_mode,
            reminder_fraction=reminder_fraction,
            timezone=timezone,
            username=username,
            vacation_days_per_year=vacation_days_per_year,
            vacation_days_used=vacation_days_used,
        )

        return me
