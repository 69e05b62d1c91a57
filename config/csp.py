"""The endpoint browsers report Content-Security-Policy violations to (the policy is
settings.CONTENT_SECURITY_POLICY, sent by django-csp's middleware; the API documentation pages
relax it a little, games/api/docs.py)."""

from __future__ import annotations

import json
import logging

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

log = logging.getLogger("csp")

# A report is a few hundred bytes; anything longer is cut before it is parsed.
MAX_REPORT_BYTES = 8192


@csrf_exempt
@require_POST
def csp_report(request: HttpRequest) -> HttpResponse:
    """``POST /csp-report/`` (the policy's report-uri): logs the violation a browser saw, one line
    with the directive, the blocked resource and the page. Answers 204, or 400 for a body that is
    not a report."""
    try:
        report = json.loads(request.read(MAX_REPORT_BYTES)).get("csp-report")
    except (ValueError, AttributeError):
        report = None
    if not isinstance(report, dict):
        return HttpResponse(status=400)
    log.warning(
        "CSP violation: %r blocked %r on %r (%s:%s)",
        report.get("effective-directive") or report.get("violated-directive"),
        report.get("blocked-uri"),
        report.get("document-uri"),
        report.get("source-file", "-"),
        report.get("line-number", "-"),
    )
    return HttpResponse(status=204)
