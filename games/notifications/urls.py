from django.urls import path

from . import views

urlpatterns = [
    path("go/<str:token>/", views.login_link, name="mail_login_link"),
    path("settings/<str:token>/", views.notification_settings, name="mail_settings"),
]
