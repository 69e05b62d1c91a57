from django.urls import path

from . import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("tokens/", views.tokens, name="api_tokens"),
]
