// Names the browser's time zone in a cookie, so that a visitor's pages show deadlines on their
// own clock (a signed-in player's profile zone wins; accounts/zones.py). Nothing else is sent.
(function () {
  "use strict";
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  if (document.cookie.split("; ").indexOf("tz=" + zone) >= 0) return;
  document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax" +
    (location.protocol === "https:" ? "; Secure" : "");
})();
