"""Pages speak the signed-in user's language and show times in their timezone; the API stays UTC."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import timezone, translation

from accounts.middleware import UserLanguageMiddleware


def _seen_by(user, path: str) -> tuple[str, str]:
    request = RequestFactory().get(path)
    request.user = user

    def view(_request):
        return HttpResponse(f"{timezone.get_current_timezone_name()}|{translation.get_language()}")

    with translation.override("en"):
        body = UserLanguageMiddleware(view)(request).content.decode()
    tz, lang = body.split("|")
    return tz, lang


@pytest.mark.django_db
def test_a_page_uses_the_profile_timezone_and_language(django_user_model):
    user = django_user_model.objects.create_user("hana", password="x")
    user.profile.timezone = "Asia/Tokyo"
    user.profile.language = "ja"
    user.profile.save()
    assert _seen_by(user, "/games/1/") == ("Asia/Tokyo", "ja")
    # Nothing leaks into the next request handled by this thread.
    assert timezone.get_current_timezone_name() != "Asia/Tokyo"


@pytest.mark.django_db
def test_the_api_stays_in_utc(django_user_model):
    user = django_user_model.objects.create_user("hana", password="x")
    user.profile.timezone = "Asia/Tokyo"
    user.profile.save()
    tz, _ = _seen_by(user, "/api/v1/me/")
    assert tz == "UTC"


@pytest.mark.django_db
def test_an_unknown_stored_timezone_falls_back_to_utc(django_user_model):
    user = django_user_model.objects.create_user("hana", password="x")
    user.profile.timezone = "Mars/Olympus"
    user.profile.save()
    tz, _ = _seen_by(user, "/")
    assert tz == "UTC"
