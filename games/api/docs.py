"""The API documentation pages under the Content-Security-Policy (settings.CONTENT_SECURITY_POLICY),
which they need a little more of than the site:

* Swagger UI (/api/docs/): its page's inline style and start-up script carry the response's nonce
  (templates/drf_spectacular/swagger_ui.html); its stylesheet draws icons from ``data:`` images.
* ReDoc (/api/redoc/): styles its page by inserting ``<style>`` elements at run time (no nonce
  can reach them), so that page alone allows inline styles; its search index runs in a worker
  started from a ``blob:`` URL; its sidebar shows Redocly's logo from their CDN (a blocked image
  hides itself, but is reported as a violation, so that one image is allowed). Scripts stay as
  strict as everywhere else.
"""

from __future__ import annotations

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_replace, csp_update
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"

swagger_ui = csp_update({"img-src": ["data:"]})(
    SpectacularSwaggerView.as_view(url_name="api_schema")
)
redoc = csp_update({"img-src": ["data:", REDOC_LOGO], "worker-src": ["blob:"]})(
    csp_replace({"style-src": [SELF, UNSAFE_INLINE]})(
        SpectacularRedocView.as_view(url_name="api_schema")
    )
)
