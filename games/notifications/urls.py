from django.urls import path

from games.inbox.views import onetap_view

from . import views

urlpatterns = [
    path("go/<str:token>/", views.login_link, name="mail_login_link"),
    path("settings/<str:token>/", views.notification_settings, name="mail_settings"),
    path("act/<str:signed>/", onetap_view, name="onetap"),
]
