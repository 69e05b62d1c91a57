"""Which addresses may speak for an account by email: replies to turn emails are moves, so the
server takes them only from an address the account holds.

The account's address (``User.email``, where its emails go) and any other address the holder
added on the account page and confirmed (allauth's ``EmailAddress``, ``verified``): a player who
answers from a work address or an alias adds it once and confirms it. An address added but not
confirmed speaks for nobody, since anyone can type any address into a form.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress


def speaks_for(user: Any, address: str) -> bool:
    """Whether mail from ``address`` (as read from a From line) is the holder's.

    The comparison ignores case and surrounding spaces, as mail systems treat the domain, and
    as this server stores addresses. One query, only when the address is not the account's own.
    """
    wanted = address.strip().lower()
    if not wanted:
        return False
    if (user.email or "").strip().lower() == wanted:
        return True
    others = EmailAddress.objects.filter(user_id=user.pk, email__iexact=wanted, verified=True)
    return others.exists()
