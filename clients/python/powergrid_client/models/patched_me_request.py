from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.invitations_enum import InvitationsEnum
from ..models.language_enum import LanguageEnum
from ..models.notification_mode_enum import NotificationModeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedMeRequest")


@_attrs_define
class PatchedMeRequest:
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing.

        Attributes:
            display_name (str | Unset):
            invitations (InvitationsEnum | Unset):
            language (LanguageEnum | Unset):
            notification_mode (NotificationModeEnum | Unset):
            reminder_fraction (float | Unset): When the reminder email is sent: the fraction of the turn's time gone (0.8:
                when a fifth is left). A JSON number from 0 to 1.
            timezone (str | Unset): IANA name, e.g. Asia/Tokyo.
    """

    display_name: str | Unset = UNSET
    invitations: InvitationsEnum | Unset = UNSET
    language: LanguageEnum | Unset = UNSET
    notification_mode: NotificationModeEnum | Unset = UNSET
    reminder_fraction: float | Unset = UNSET
    timezone: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        display_name = self.display_name

        invitations: str | Unset = UNSET
        if not isinstance(self.invitations, Unset):
            invitations = self.invitations.value

        language: str | Unset = UNSET
        if not isinstance(self.language, Unset):
            language = self.language.value

        notification_mode: str | Unset = UNSET
        if not isinstance(self.notification_mode, Unset):
            notification_mode = self.notification_mode.value

        reminder_fraction = self.reminder_fraction

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if invitations is not UNSET:
            field_dict["invitations"] = invitations
        if language is not UNSET:
            field_dict["language"] = language
        if notification_mode is not UNSET:
            field_dict["notification_mode"] = notification_mode
        if reminder_fraction is not UNSET:
            field_dict["reminder_fraction"] = reminder_fraction
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        display_name = d.pop("display_name", UNSET)

        _invitations = d.pop("invitations", UNSET)
        invitations: InvitationsEnum | Unset
        if isinstance(_invitations, Unset):
            invitations = UNSET
        else:
            invitations = InvitationsEnum(_invitations)

        _language = d.pop("language", UNSET)
        language: LanguageEnum | Unset
        if isinstance(_language, Unset):
            language = UNSET
        else:
            language = LanguageEnum(_language)

        _notification_mode = d.pop("notification_mode", UNSET)
        notification_mode: NotificationModeEnum | Unset
        if isinstance(_notification_mode, Unset):
            notification_mode = UNSET
        else:
            notification_mode = NotificationModeEnum(_notification_mode)

        reminder_fraction = d.pop("reminder_fraction", UNSET)

        timezone = d.pop("timezone", UNSET)

        patched_me_request = cls(
            display_name=display_name,
            invitations=invitations,
            language=language,
            notification_mode=notification_mode,
            reminder_fraction=reminder_fraction,
            timezone=timezone,
        )

        return patched_me_request
