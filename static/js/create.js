// Create page: show only the chosen map's areas, and only when choosing them.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var map = document.getElementById("id_map");
  if (!map) return;
  function update() {
    var chosen = document.querySelector('input[name="area_mode"]:checked');
    var show = chosen && chosen.value === "chosen";
    document.querySelectorAll("fieldset.areas").forEach(function (fs) {
      fs.hidden = fs.dataset.map !== map.value;
      fs.disabled = !show;
    });
  }
  map.addEventListener("change", update);
  document.querySelectorAll('input[name="area_mode"]').forEach(function (r) { r.addEventListener("change", update); });
  update();
})();
