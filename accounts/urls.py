from django.urls import path

from . import settings_views, views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", views.vacation, name="profile_vacation"),
    path("profile/calendar/", views.calendar, name="profile_calendar"),
    path("profile/devices/", settings_views.profile_push, name="profile_push"),
    path("profile/blocks/", views.profile_blocks, name="profile_blocks"),
    path("tokens/", views.tokens, name="api_tokens"),
    path("email/confirm-again/", views.email_reconfirm, name="email_reconfirm"),
]
