// The progress charts' values on touch, the weight wheel and the 24-hour time fields (issue 16).
// Progressive enhancement only: without this script the charts, the weight field and the time
// fields work as served. Binds on load and again after live.js swaps <main> (`wdiet:content`).
(function () {
  "use strict";

  // --- charts: the nearest day's date and value(s) on touch, hover or arrow keys ---
  function bindChart(frame) {
    if (frame.hasAttribute("data-chart-bound")) return;
    frame.setAttribute("data-chart-bound", "");
    var svg = frame.querySelector("svg");
    var readout = frame.querySelector("[data-chart-readout]");
    var guide = frame.querySelector("[data-chart-guide]");
    var points = svg ? Array.prototype.slice.call(svg.querySelectorAll("[data-readout]")) : [];
    if (!points.length || !readout) return;
    var xs = points.map(function (point) { return parseFloat(point.getAttribute("data-x")); });
    var viewWidth = svg.viewBox.baseVal.width || 340;
    var current = -1;

    function show(index) {
      index = Math.max(0, Math.min(points.length - 1, index));
      if (current >= 0) points[current].classList.remove("is-active");
      current = index;
      points[index].classList.add("is-active");
      readout.textContent = points[index].getAttribute("data-readout");
      readout.classList.add("is-shown");
      if (guide) {
        guide.setAttribute("x1", xs[index]);
        guide.setAttribute("x2", xs[index]);
        guide.classList.add("is-shown");
      }
      // the label sits above the point, kept inside the frame
      var box = svg.getBoundingClientRect(), frameBox = frame.getBoundingClientRect();
      var x = box.left - frameBox.left + xs[index] / viewWidth * box.width;
      var half = readout.offsetWidth / 2;
      readout.style.left = Math.max(half, Math.min(frame.clientWidth - half, x)) + "px";
    }

    function hide() {
      if (current >= 0) points[current].classList.remove("is-active");
      readout.classList.remove("is-shown");
      if (guide) guide.classList.remove("is-shown");
    }

    function nearest(clientX) {
      var box = svg.getBoundingClientRect();
      var x = (clientX - box.left) / box.width * viewWidth, best = 0;
      for (var i = 1; i < xs.length; i++) if (Math.abs(xs[i] - x) < Math.abs(xs[best] - x)) best = i;
      return best;
    }

    svg.addEventListener("pointerdown", function (event) { show(nearest(event.clientX)); });
    svg.addEventListener("pointermove", function (event) {
      if (event.pointerType === "mouse" || event.buttons) show(nearest(event.clientX));
    });
    svg.addEventListener("pointerleave", function (event) { if (event.pointerType === "mouse") hide(); });

    frame.tabIndex = 0;
    frame.setAttribute("role", "group");
    frame.setAttribute("aria-label", frame.getAttribute("data-chart-label") || "");
    if (document.getElementById("chart-hint")) frame.setAttribute("aria-describedby", "chart-hint");
    frame.addEventListener("focus", function () { show(current >= 0 ? current : points.length - 1); });
    frame.addEventListener("blur", hide);
    frame.addEventListener("keydown", function (event) {
      var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: points.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      show(moves[event.key]);
    });
  }

  // --- the weight wheel: kg and tenths, written into the text field, which stays typeable ---
  function number(text) {
    var value = parseFloat(String(text).trim().replace(",", "."));
    return isFinite(value) ? value : null;
  }

  function fill(column, from, to) {
    var html = '<div class="wheel-spacer"></div>';
    for (var value = from; value <= to; value++) html += '<div class="wheel-item" data-value="' + value + '">' + value + "</div>";
    column.innerHTML = html + '<div class="wheel-spacer"></div>';
  }

  function bindWheel(wheel) {
    if (wheel.hasAttribute("data-wheel-bound")) return;
    var field = document.getElementById(wheel.getAttribute("data-for"));
    var kgColumn = wheel.querySelector("[data-wheel-kg]"), tenthColumn = wheel.querySelector("[data-wheel-tenth]");
    if (!field || !kgColumn || !tenthColumn) return;
    wheel.setAttribute("data-wheel-bound", "");
    var min = parseInt(wheel.getAttribute("data-min"), 10) || 30, max = parseInt(wheel.getAttribute("data-max"), 10) || 200;
    // German and Spanish write a decimal comma; the field keeps the separator the user sees
    var comma = /,/.test(field.value) || /^(de|es)/.test(document.documentElement.lang);
    var separator = wheel.querySelector(".wheel-separator");
    if (separator) separator.textContent = comma ? "," : ".";
    fill(kgColumn, min, max);
    fill(tenthColumn, 0, 9);
    wheel.hidden = false;
    var itemHeight = kgColumn.querySelector(".wheel-item").offsetHeight || 40;

    function wheelValue() {
      var kg = min + Math.round(kgColumn.scrollTop / itemHeight), tenth = Math.round(tenthColumn.scrollTop / itemHeight);
      kg = Math.max(min, Math.min(max, kg));
      tenth = Math.max(0, Math.min(9, tenth));
      return { kg: kg, tenth: kg === max ? 0 : tenth };
    }

    function mark() {
      var value = wheelValue();
      [[kgColumn, value.kg], [tenthColumn, value.tenth]].forEach(function (pair) {
        Array.prototype.forEach.call(pair[0].querySelectorAll(".wheel-item"), function (item) {
          item.classList.toggle("is-selected", item.getAttribute("data-value") === String(pair[1]));
        });
      });
    }

    var expected = null; // the value the wheel was last moved to or wrote: no news
    function moveTo(value) {
      var tenths = Math.round(Math.max(min, Math.min(max, value)) * 10);
      expected = tenths;
      kgColumn.scrollTop = (Math.floor(tenths / 10) - min) * itemHeight;
      tenthColumn.scrollTop = (tenths % 10) * itemHeight;
      mark();
    }

    // a scroll that settled on another value writes it into the field
    function commit() {
      var value = wheelValue();
      if (value.kg * 10 + value.tenth === expected) return;
      expected = value.kg * 10 + value.tenth;
      field.value = value.kg + (comma ? "," : ".") + value.tenth;
      field.dispatchEvent(new Event("input", { bubbles: true }));
      field.dispatchEvent(new Event("change", { bubbles: true }));
    }

    // only a scroll the user makes (a finger, a wheel, a click, and the momentum after them)
    // writes into the field: a page script or an audit scrolling the columns does not
    var timer = null, userUntil = 0;
    function touched() { userUntil = Date.now() + 1500; }
    function scrolled() {
      mark();
      if (Date.now() > userUntil) return;
      userUntil = Math.max(userUntil, Date.now() + 400);
      clearTimeout(timer);
      timer = setTimeout(commit, 120);
    }
    [kgColumn, tenthColumn].forEach(function (column) {
      ["wheel", "touchstart", "touchmove", "pointerdown"].forEach(function (type) {
        column.addEventListener(type, touched, { passive: true });
      });
      column.addEventListener("scroll", scrolled, { passive: true });
      column.addEventListener("click", function (event) {
        var item = event.target.closest(".wheel-item");
        if (!item) return;
        var index = Array.prototype.indexOf.call(column.querySelectorAll(".wheel-item"), item);
        column.scrollTo({ top: index * itemHeight, behavior: "smooth" });
      });
    });
    field.addEventListener("input", function () {
      var typed = number(field.value);
      if (typed === null || typed < min || typed > max) return;
      var value = wheelValue();
      if (Math.round(typed * 10) !== value.kg * 10 + value.tenth) moveTo(typed);
    });
    moveTo(number(field.value) || min);
  }

  // --- 24-hour time fields: "1945", "7.30", "7:30 pm" become "19:45", "07:30", "19:30" ---
  function normalTime(text) {
    var raw = String(text).trim().toLowerCase();
    var pm = /p\.?\s*m\.?$/.test(raw), am = /a\.?\s*m\.?$/.test(raw);
    raw = raw.replace(/[ap]\.?\s*m\.?$/, "").trim();
    var parts = raw.match(/^(\d{1,2})(?:\s*[:.,h]\s*(\d{2}))?$/) || raw.match(/^(\d{1,2})(\d{2})$/);
    if (!parts) return text;
    var hour = parseInt(parts[1], 10), minute = parts[2] ? parseInt(parts[2], 10) : 0;
    if (pm && hour < 12) hour += 12;
    if (am && hour === 12) hour = 0;
    if (hour > 23 || minute > 59) return text;
    return (hour < 10 ? "0" : "") + hour + ":" + (minute < 10 ? "0" : "") + minute;
  }

  function tidyTime(field) {
    var tidy = normalTime(field.value);
    if (tidy !== field.value) field.value = tidy;
  }

  // delegated, so fields swapped in later need no binding
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.matches && field.matches("[data-time-input]") && /^\d{4}$/.test(field.value)) tidyTime(field);
  });
  document.addEventListener("focusout", function (event) {
    if (event.target.matches && event.target.matches("[data-time-input]")) tidyTime(event.target);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.matches && event.target.matches("[data-time-input]")) tidyTime(event.target);
  }, true);
  document.addEventListener("submit", function (event) {
    Array.prototype.forEach.call(event.target.querySelectorAll("[data-time-input]"), tidyTime);
  }, true);

  function bindAll() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-chart]"), bindChart);
    Array.prototype.forEach.call(document.querySelectorAll("[data-weight-wheel]"), bindWheel);
  }
  document.addEventListener("wdiet:content", bindAll);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindAll);
  else bindAll();
})();
