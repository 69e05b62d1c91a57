// Small enhancements for the game page; every form also works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function sumPrices(input) {
    var prices = (input.dataset.prices || "").split(",").filter(Boolean).map(Number);
    var n = Math.max(0, Math.min(parseInt(input.value || "0", 10) || 0, prices.length));
    var s = 0;
    for (var i = 0; i < n; i++) s += prices[i];
    return s;
  }

  // Buying resources: the running total and the money left.
  document.querySelectorAll("form.buy").forEach(function (form) {
    var money = parseInt(form.dataset.money, 10);
    function update() {
      var total = 0;
      form.querySelectorAll("input[data-prices]").forEach(function (i) { total += sumPrices(i); });
      form.querySelector("[data-total]").textContent = total;
      var left = form.querySelector("[data-left]");
      left.textContent = money - total;
      left.classList.toggle("error-text", money - total < 0);
    }
    form.addEventListener("input", update);
    // A fuel suggestion's link fills the form in place (without a script it reloads the page
    // with the form filled, ?fill=...); nothing is bought until Buy is pressed.
    form.querySelectorAll("a[data-fill]").forEach(function (link) {
      link.addEventListener("click", function (ev) {
        ev.preventDefault();
        var amounts = {};
        link.dataset.fill.split(",").forEach(function (pair) {
          var kv = pair.split("=");
          if (kv[0]) amounts[kv[0]] = kv[1];
        });
        form.querySelectorAll("input[data-prices]").forEach(function (i) {
          i.value = amounts[i.name] || "0";
        });
        update();
      });
    });
    update();
  });

  // Opening an auction: the bid follows the chosen plant's minimum; market cards pick plants.
  document.querySelectorAll('form[data-action="choose_plant"]').forEach(function (form) {
    var bid = form.querySelector('input[name="bid"]');
    function follow(radio, keepValue) {
      var min = parseInt(radio.dataset.min, 10);
      bid.min = min;
      if (!keepValue && (parseInt(bid.value, 10) || 0) < min) bid.value = min;
    }
    form.addEventListener("change", function (e) {
      if (e.target.name === "plant") follow(e.target);
    });
    // A page shown again after a refusal keeps the plant and the bid typed: the field's minimum
    // is that plant's, not the first's (the bid itself is left as the player wrote it).
    var chosen = form.querySelector('input[name="plant"]:checked');
    if (chosen) follow(chosen, true);
    document.querySelectorAll(".market [data-plant]").forEach(function (card) {
      var radio = form.querySelector('input[name="plant"][value="' + card.dataset.plant + '"]');
      if (!radio) return;
      card.style.cursor = "pointer";
      card.addEventListener("click", function () {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
        radio.focus();
      });
    });
  });

  // Building: click cities on the map (or tick the boxes); the engine quotes the cheapest total.
  var build = document.querySelector('form[data-action="build"]');
  if (build) {
    var money = parseInt(build.dataset.money, 10);
    var out = build.querySelector("[data-quote]");
    var seqNo = 0;
    function selected() {
      return Array.prototype.map.call(build.querySelectorAll('input[name="cities"]:checked'), function (i) { return i.value; });
    }
    function paint() {
      var chosen = selected();
      document.querySelectorAll("svg.board .buildable").forEach(function (g) {
        var on = chosen.indexOf(g.dataset.city) >= 0;
        g.classList.toggle("selected", on);
        g.setAttribute("aria-pressed", on ? "true" : "false");
        var ring = g.querySelector(".pick");
        if (ring) ring.classList.toggle("on", on);
      });
    }
    function quote() {
      paint();
      var chosen = selected();
      var mine = ++seqNo;
      if (!chosen.length) {
        out.innerHTML = "";
        out.textContent = out.dataset.zero || "";
        render({ cost: 0, money_left: money });
        return;
      }
      var q = chosen.map(function (c) { return "cities=" + encodeURIComponent(c); }).join("&");
      fetch(build.dataset.quoteUrl + "?" + q, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (data) { if (mine === seqNo) render(data); })
        .catch(function () {});
    }
    var costLabel = out.textContent.split(":")[0].trim();
    var leftLabel = (out.textContent.split("·")[1] || "").split(":")[0].trim();
    function render(data) {
      out.textContent = "";
      if (data.error) {
        var span = document.createElement("span");
        span.className = "error-text";
        span.textContent = data.error.text || data.error.message;
        out.appendChild(span);
        return;
      }
      var left = data.money_left === null || data.money_left === undefined ? money - data.cost : data.money_left;
      out.appendChild(document.createTextNode(costLabel + ": "));
      var o1 = document.createElement("span"); o1.setAttribute("data-cost", ""); o1.textContent = data.cost; out.appendChild(o1);
      out.appendChild(document.createTextNode(" · " + leftLabel + ": "));
      var o2 = document.createElement("span"); o2.setAttribute("data-left", ""); o2.textContent = left;
      if (left < 0) o2.className = "error-text";
      out.appendChild(o2);
    }
    build.addEventListener("change", quote);
    document.querySelectorAll("svg.board .buildable").forEach(function (g) {
      function toggle() {
        var box = document.getElementById("build-" + g.dataset.city);
        if (!box) return;
        box.checked = !box.checked;
        quote();
      }
      g.addEventListener("click", toggle);
      g.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); }
      });
    });
    paint();
  }

  // The board's zoom. Every screen shows the board at its natural size (names 11 px), in a box
  // that scrolls where the board is larger; the button fits the whole board in view and back.
  // At natural size, a box that scrolls opens on the cities you may build in, else on your own
  // cities, else on the middle of the board's top row (in view, never under the button).
  document.querySelectorAll(".board-scroll").forEach(function (box) {
    var btn = box.parentNode.querySelector(".board-zoom");
    var svg = box.querySelector("svg.board");
    if (!btn || !svg) return;
    function natural() { return !box.classList.contains("fit"); }
    function centre() {
      if (box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight) return;
      var picks = box.querySelectorAll(".buildable .disc");
      if (!picks.length && box.dataset.you !== "" && box.dataset.you !== undefined) {
        picks = box.querySelectorAll('.mark[data-seat="' + box.dataset.you + '"]');
      }
      var r = box.getBoundingClientRect(), x = 0, y = 0, n = 0;
      picks.forEach(function (d) { var b = d.getBoundingClientRect(); x += b.left + b.width / 2; y += b.top + b.height / 2; n++; });
      if (!n) { box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2; box.scrollTop = 0; return; }
      x = x / n - r.left + box.scrollLeft; y = y / n - r.top + box.scrollTop;
      box.scrollLeft = x - box.clientWidth / 2;
      box.scrollTop = y - box.clientHeight / 2;
    }
    function larger() {
      var b = svg.getBoundingClientRect();
      return box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1 ||
        b.height > window.innerHeight;
    }
    function show() {
      btn.hidden = natural() && !larger();
      btn.textContent = natural() ? btn.dataset.fit : btn.dataset.zoom;
    }
    btn.addEventListener("click", function () {
      box.classList.toggle("fit");
      show();
      if (natural()) centre();
    });
    window.addEventListener("resize", show);
    show();
    centre();
  });

  // Cost calculator: live totals (the form computes the same on the server without JS).
  document.querySelectorAll("form.calc").forEach(function (form) {
    var market = {};
    (form.dataset.market || "").split(";").forEach(function (part) {
      var kv = part.split(":");
      if (kv[0]) market[kv[0]] = (kv[1] || "").split(",").filter(Boolean).map(Number);
    });
    var money = form.dataset.money === "" ? null : parseInt(form.dataset.money, 10);
    function update() {
      var res = 0;
      Object.keys(market).forEach(function (r) {
        var input = form.querySelector('[name="calc_' + r + '"]');
        var n = Math.max(0, parseInt(input.value || "0", 10) || 0);
        for (var i = 0; i < Math.min(n, market[r].length); i++) res += market[r][i];
      });
      var cities = Math.max(0, parseInt(form.querySelector('[name="calc_cities"]').value || "0", 10) || 0);
      var bid = Math.max(0, parseInt(form.querySelector('[name="calc_bid"]').value || "0", 10) || 0);
      var total = res + cities + bid;
      form.querySelector("[data-res]").textContent = res;
      form.querySelector("[data-total]").textContent = total;
      var left = form.querySelector("[data-left]");
      if (left && money !== null) { left.textContent = money - total; left.classList.toggle("error-text", money - total < 0); }
    }
    form.addEventListener("input", update);
    form.addEventListener("submit", function (e) { e.preventDefault(); update(); });
  });

  // Double-submit guard: a form disables its buttons once sent (the server also applies once).
  document.querySelectorAll("form.move-form").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      var btn = e.submitter;
      if (btn && btn.name === "preview") return;
      setTimeout(function () {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });
})();
