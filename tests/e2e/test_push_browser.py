"""Web Push in a real Chromium, under the site's CSP: the service worker registers at /sw.js
with scope /, the profile page's button subscribes with the server's VAPID key and sends the
subscription to the API, a push message delivered to the registered worker (DevTools'
ServiceWorker.deliverPushMessage, with the notice the server encrypted and the local push
service decrypted) shows the notification, and "stop" removes the device. English and Japanese.

Headless Chromium here has no push service to reach (no network, no vendor's service), so
``pushManager.subscribe`` and ``getSubscription`` are stubbed in the page with a subscription
whose endpoint is the test's local push service and whose keys are the test's: the worker's
registration, the page's script, the API, the server's encryption and the worker's
notification are all real."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from e2ehelpers import users
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "push"))
from pushservice import Browser, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-push-123456"

STUB = """
(() => {
  const FAKE = %s;
  let current = null;
  const toB64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf)))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  if (!window.PushManager) return;
  PushManager.prototype.subscribe = async function (opts) {
    window.__applicationServerKey = toB64(opts.applicationServerKey);
    current = {
      endpoint: FAKE.endpoint,
      toJSON() { return {endpoint: FAKE.endpoint, expirationTime: null, keys: FAKE.keys}; },
      unsubscribe: async () => { current = null; return true; },
    };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""


def _log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))


@pytest.fixture
def vapid_live(settings):
    from py_vapid import Vapid, b64urlencode

    from accounts import push

    key = Vapid()
    key.generate_keys()
    raw = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64urlencode(raw)
    settings.WEBPUSH_ALLOW_ANY_ENDPOINT = True
    push.forget()
    yield push.public_key()
    push.forget()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_subscribe_receive_and_stop_in_chromium(live_server, browser, vapid_live, lang):
    from accounts.models import PushSubscription
    from games.models import Game, PushMessage
    from games.push.sending import push_sweep

    svc = start()
    try:
        device = Browser()
        endpoint = svc.endpoint()
        [me, other] = users(f"push{lang}", 2, PASSWORD)
        me.profile.language = lang
        me.profile.save()
        ctx = browser.new_context(locale="ja-JP" if lang == "ja" else "en-US")
        ctx.grant_permissions(["notifications"], origin=live_server.url)
        ctx.add_init_script(STUB % json.dumps({"endpoint": endpoint, "keys": device.keys()}))
        page = ctx.new_page()
        _log_in(page, live_server.url, me.username)
        # the manifest and the worker are linked and served as they must be
        assert page.locator('link[rel="manifest"]').count() == 1
        page.goto(f"{live_server.url}/accounts/profile/")
        on = page.locator("#push-on")
        on.wait_for(state="visible")
        status = page.locator("#push-status")
        assert status.inner_text() == ("この端末への手番の通知はオフです。" if lang == "ja"
                                       else "Turn notices are off for this device.")  # fmt: skip
        on.click()
        expect(status).to_have_text(
            "この端末への手番の通知はオンです。"
            if lang == "ja"
            else "Turn notices are on for this device."
        )
        page.locator("#push-off").wait_for(state="visible")
        assert page.evaluate("window.__applicationServerKey") == vapid_live.rstrip("=")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope + ' ' + !!r.active)")
        assert scope == f"{live_server.url}/ true"
        sub = PushSubscription.objects.get(user=me)
        assert sub.endpoint == endpoint
        assert sub.turns is True
        assert sub.label == ("このブラウザ" if lang == "ja" else "This browser")

        # The player's turn: the server encrypts a notice to the device, the local push service
        # decrypts it; delivered to the real worker, it becomes the notification.
        from rest_framework.test import APIClient

        api = APIClient()
        api.force_authenticate(me)
        gid = api.post("/api/v1/games/", {"map": "germany", "max_players": 2}, format="json")
        gid = gid.json()["id"]
        api2 = APIClient()
        api2.force_authenticate(other)
        assert api2.post(f"/api/v1/games/{gid}/join/", format="json").status_code == 200
        game = Game.objects.get(pk=gid)
        assert game.status == "running"
        # A round sheets game (the default): whoever moves first, every device is told at the
        # start, of its turn or of its round sheet.
        sent = push_sweep()
        assert PushMessage.objects.filter(recipient=me).count() == 1
        assert sent.get("sent") == 1  # the other player has no device
        [post] = svc.to(endpoint)
        notice = device.decrypt(post.body)
        cdp = ctx.new_cdp_session(page)
        cdp.send("ServiceWorker.enable")
        regs = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: regs.extend(e["registrations"]))
        page.wait_for_timeout(300)
        reg_id = next(r["registrationId"] for r in regs if r["scopeURL"] == f"{live_server.url}/")
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": live_server.url, "registrationId": reg_id, "data": json.dumps(notice)},
        )
        # Polled: wait_for_function takes the promise itself for true (a loaded machine read the
        # notifications before the worker had shown one); evaluate awaits it.
        shown: list = []
        for _ in range(150):
            shown = page.evaluate(
                "navigator.serviceWorker.ready.then(r => r.getNotifications())"
                ".then(n => n.map(x => [x.title, x.body, x.tag]))"
            )
            if shown:
                break
            page.wait_for_timeout(100)
        assert shown == [[notice["title"], notice["body"], f"turn-{gid}"]]
        if lang == "ja":
            assert shown[0][0] in ("あなたの手番", "あなたのラウンドシート")

        page.locator("#push-off").click()
        expect(status).to_have_text(
            "この端末への手番の通知はオフです。"
            if lang == "ja"
            else "Turn notices are off for this device."
        )
        assert not PushSubscription.objects.filter(user=me).exists()
        browser.settle()
    finally:
        svc.server.shutdown()
