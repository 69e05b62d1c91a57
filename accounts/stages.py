"""allauth's log-in stage that asks for a confirmed address, with one exception of ours.

When emails to a confirmed address stop arriving, ``accounts.deliverability`` takes its verified
mark off, so that allauth's confirmation email can confirm it again. Under mandatory
verification allauth's own stage would then refuse the log-in and send the confirmation to the
very address that does not work: the player could neither play nor change the address. This
stage lets such a player in (their address had been confirmed; only a bounce unconfirmed it); any
other unconfirmed address is handled as allauth does.
"""

from __future__ import annotations

from typing import Any

from allauth.account.stages import EmailVerificationStage as AllauthEmailVerificationStage


class EmailVerificationStage(AllauthEmailVerificationStage):
    def handle(self) -> tuple[Any, bool]:
        user = self.login.user
        profile = getattr(user, "profile", None) if user is not None else None
        if profile is not None and profile.email_unverified_by_bounce:
            return None, True
        response, cont = super().handle()
        return response, cont
