from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import URLPattern, URLResolver, include, path

from accounts.forms import RateLimitedAdminLoginForm
from config import pwa
from config.csp import csp_report
from games.health import health_report
from games.inbox.views import MailgunInbound


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the icon."""
    return HttpResponsePermanentRedirect(staticfiles_storage.url("img/favicon.svg"))


def health(request: HttpRequest) -> HttpResponse:
    """``/health/`` for load balancers and monitors: 200 when every check passes, else 503;
    JSON for ``/health/json/`` or ``Accept: application/json``, plain text otherwise."""
    report = health_report()
    status = 200 if report["ok"] else 503
    if request.path.endswith("/json/") or "application/json" in request.headers.get("Accept", ""):
        return JsonResponse(report, status=status)
    lines = [f"{'ok' if report['ok'] else 'FAILING'} ({report['ms']} ms)"]
    if report.get("flagged"):
        lines[0] += " FLAGGED: " + ", ".join(report["flagged"])
    for name, check in report["checks"].items():
        detail = ", ".join(f"{k}={v}" for k, v in check.items() if k != "ok")
        word = "ok" if check["ok"] else "FAILING"
        if check.get("flagged"):
            word += " FLAGGED"
        lines.append(f"{name}: {word} {detail}".rstrip())
    return HttpResponse("\n".join(lines) + "\n", status=status, content_type="text/plain")


# The admin's login counts failures like the site's (accounts.forms).
admin.site.login_form = RateLimitedAdminLoginForm

urlpatterns: list[URLPattern | URLResolver] = [
    path("favicon.ico", favicon),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("health/", health, name="health"),
    path("health/json/", health, name="health_json"),
    path("csp-report/", csp_report, name="csp_report"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("api/v1/tournaments/", include("tournaments.urls_api")),
    path("tournaments/", include("tournaments.urls")),
    path("api/v1/leagues/", include("tournaments.urls_league_api")),
    path("leagues/", include("tournaments.urls_leagues")),
    path("api/", include("games.api.urls")),
    # The providers' bounce and complaint webhooks (each 404 until its secret is set).
    path("mail/events/", include("games.mailevents.urls")),
    # Signed links in emails (game link that logs in, notification settings / List-Unsubscribe).
    path("mail/", include("games.notifications.urls")),
    # A mail provider's inbound webhook (replies by email; 404 unless its signing key is set).
    path("inbound/mailgun/", MailgunInbound.as_view(), name="inbound_mailgun"),
    # The development mailbox (every page 404s unless DEBUG).
    path("dev/mailbox/", include("games.notifications.mailbox_urls")),
    path("", include("games.web.urls")),
]

handler400 = "games.api.errors.handler400"
handler403 = "games.api.errors.handler403"
handler404 = "games.api.errors.handler404"
handler500 = "games.api.errors.handler500"

if settings.DEBUG:
    urlpatterns += static(settings.STATIC_URL, document_root=settings.STATIC_ROOT)
