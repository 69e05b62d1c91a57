/* The profile page's "turn notices on this device": registers the service worker (/sw.js),
   subscribes with the server's VAPID key and sends the subscription to the API
   (POST /api/v1/me/push/, the session's CSRF token); "stop" unsubscribes and removes it
   (DELETE /api/v1/me/push/{id}/). The list of devices below works without this script. */
"use strict";
(function () {
  const box = document.getElementById("push-here");
  if (!box) return;
  const on = document.getElementById("push-on");
  const off = document.getElementById("push-off");
  const status = document.getElementById("push-status");
  const api = box.dataset.api;

  function say(which) {
    status.textContent = status.dataset[which] || "";
  }
  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function keyBytes(b64) {
    const pad = "=".repeat((4 - (b64.length % 4)) % 4);
    const raw = atob((b64 + pad).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }
  function send(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  function show(subscribed) {
    // ``hidden`` and the display both: the site's button style would show a hidden button.
    on.hidden = subscribed;
    off.hidden = !subscribed;
    on.style.display = subscribed ? "none" : "";
    off.style.display = subscribed ? "" : "none";
    say(subscribed ? "on" : "off");
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }

  async function registration() {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    return navigator.serviceWorker.ready;
  }

  async function subscribe() {
    on.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say("denied");
        return;
      }
      const reg = await registration();
      const sub =
        (await reg.pushManager.getSubscription()) ||
        (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) }));
      const json = sub.toJSON();
      const r = await send("POST", api, { endpoint: json.endpoint, keys: json.keys, name: box.dataset.label });
      if (!r.ok) throw new Error("subscribe " + r.status);
      const device = await r.json();
      box.dataset.device = String(device.id);
      show(true);
    } catch (e) {
      say("failed");
    } finally {
      on.disabled = false;
    }
  }

  async function unsubscribe() {
    off.disabled = true;
    try {
      const reg = await registration();
      const sub = await reg.pushManager.getSubscription();
      if (box.dataset.device) await send("DELETE", api + box.dataset.device + "/");
      if (sub) await sub.unsubscribe();
      delete box.dataset.device;
      show(false);
    } catch (e) {
      say("failed");
    } finally {
      off.disabled = false;
    }
  }

  on.addEventListener("click", subscribe);
  off.addEventListener("click", unsubscribe);

  (async function () {
    try {
      const reg = await navigator.serviceWorker.getRegistration("/");
      const sub = reg ? await reg.pushManager.getSubscription() : null;
      if (sub) {
        // Known to the server? Re-sending it renews its keys and tells us its id (its label
        // and its choice are kept: neither is sent).
        const json = sub.toJSON();
        const r = await send("POST", api, { endpoint: json.endpoint, keys: json.keys });
        if (r.ok) {
          box.dataset.device = String((await r.json()).id);
          show(true);
          return;
        }
      }
      show(false);
    } catch (e) {
      show(false);
    }
  })();
})();
