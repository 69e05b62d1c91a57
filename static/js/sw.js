/* The site's service worker (served at /sw.js, scope /): shows the turn notices the server
   pushes (games/push/) and opens the game when one is tapped. It caches nothing and fetches
   nothing: the pages work as they do without it. A notice is
   {"title", "body", "url", "tag", "game"}: public facts of the reader's own turn only. */
"use strict";

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (e) {
    notice = {};
  }
  const url = typeof notice.url === "string" && notice.url.startsWith("/") ? notice.url : "/";
  const title = typeof notice.title === "string" ? notice.title : "Power Grid";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof notice.body === "string" ? notice.body : "",
      tag: typeof notice.tag === "string" ? notice.tag : undefined,
      icon: "/static/img/icon-192.png",
      data: { url: url },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (w.url === url.href && "focus" in w) {
          return w.focus();
        }
      }
      return self.clients.openWindow(url.href);
    })
  );
});
