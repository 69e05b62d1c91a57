from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("api/", include("games.api.urls")),
    # Signed links in emails (game link that logs in, notification settings / List-Unsubscribe).
    path("mail/", include("games.notifications.urls")),
    # The development mailbox (every page 404s unless DEBUG).
    path("dev/mailbox/", include("games.notifications.mailbox_urls")),
    path("", include("games.web.urls")),
]

try:  # the web pages (games/web/) own "/" once they exist
    import games.web.urls  # noqa: F401

    urlpatterns.append(path("", include("games.web.urls")))
except ImportError:
    from django.views.generic import RedirectView

    urlpatterns.append(path("", RedirectView.as_view(url="/api/docs/"), name="home"))

handler404 = "games.api.errors.handler404"
handler500 = "games.api.errors.handler500"

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.STATIC_URL, document_root=settings.STATIC_ROOT)
