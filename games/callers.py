"""Who calls a service or a selector: an account, or an anonymous visitor (``request.user`` of a
page or of the API, typed so by Django's and DRF's stubs). A service that needs an account asks
``is_authenticated`` or finds no seat for it; ``User`` is a signed-in account (what a row's
``recipient``, ``owner`` or ``user`` holds)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User

#: The caller of a service: ``request.user``.
Caller = AbstractBaseUser | AnonymousUser

__all__ = ["Caller", "User"]
