from django.urls import path

from . import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", views.vacation, name="profile_vacation"),
    path("profile/calendar/", views.calendar, name="profile_calendar"),
    path("tokens/", views.tokens, name="api_tokens"),
    path("email/confirm-again/", views.email_reconfirm, name="email_reconfirm"),
]
