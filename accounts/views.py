"""Account pages beyond allauth's: the profile and personal API tokens."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from knox.models import AuthToken

from .forms import ProfileForm
from .models import Profile


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    prof, _created = Profile.objects.get_or_create(user=request.user)
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=prof)
        if form.is_valid():
            form.save()
            messages.success(request, _("Your profile was saved."))
            return redirect("profile")
    else:
        form = ProfileForm(instance=prof)
    return render(request, "accounts/profile.html", {"form": form})


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    new_token = None
    if request.method == "POST":
        if "revoke" in request.POST:
            AuthToken.objects.filter(user=request.user, digest=request.POST["revoke"]).delete()
            messages.success(request, _("The token was revoked."))
            return redirect("api_tokens")
        _instance, new_token = AuthToken.objects.create(user=request.user, expiry=None)
    user_tokens = AuthToken.objects.filter(user=request.user).order_by("-created")
    return render(request, "accounts/tokens.html", {"tokens": user_tokens, "new_token": new_token})
