// Offline-first (issue 16): registers the service worker (/sw.js), gives every form that logs a
// meal or a weight a client-made id (so a replay is saved once), tells in the offline banner
// (docs/architecture.md, "The web app") that the app is offline and when the page shown was last updated, how many
// entries wait on this phone, and what was saved or refused; and has the worker replay the
// kept entries with this page's CSRF token on load, when the network is back and when the
// worker's Background Sync asks.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) { return; }

  var LOGGING = [/^\/log\/food\/[^/]+$/, /^\/log\/manual$/, /^\/log\/recipe\/[^/]+$/, /^\/log\/text$/,
    /^\/meals\/[0-9A-Fa-f-]{36}\/again$/, /^\/weight$/];
  var LIST_PAGES = ["/", "/meals", "/progress"];
  var SYNCED_FLAG = "wdiet-offline-synced";
  var state = { cachedAt: null, queued: 0, kept: false, synced: false, refused: [] };
  var loadedAt = Date.now();
  var retry = null;

  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* no worker: plain online app */ });

  /** Asks the controlling worker; resolves with its answer, or null without one. */
  function ask(message) {
    var worker = navigator.serviceWorker.controller;
    if (!worker) { return Promise.resolve(null); }
    return new Promise(function (resolve) {
      var channel = new MessageChannel();
      var timer = setTimeout(function () { resolve(null); }, 10000);
      channel.port1.onmessage = function (event) { clearTimeout(timer); resolve(event.data); };
      worker.postMessage(message, [channel.port2]);
    });
  }

  /** Whether the page shown is the worker's stored copy (the network failed when it loaded). */
  function isCopy() { return state.cachedAt !== null; }
  function offline() { return isCopy() || !navigator.onLine; }

  function token() {
    var meta = document.querySelector("meta[name=csrf-token]");
    return meta ? meta.getAttribute("content") : "";
  }

  var loaded = false;

  function refresh() {
    var first = !loaded;
    loaded = true;
    return ask({ type: "status", loaded: first }).then(function (answer) {
      if (!answer || answer.error) { render(); return; }
      state.cachedAt = answer.cachedAt;
      state.queued = answer.queued;
      state.kept = state.kept || answer.kept;
      if (answer.notices && answer.notices.length) {
        answer.notices.forEach(function (notice) { state.refused.push(reason(notice.page)); });
        ask({ type: "notices-seen", ids: answer.notices.map(function (notice) { return notice.id; }) });
      }
      render();
      schedule();
    });
  }

  /** The message of a refusal's page: the field's error, else the error page's text. */
  function reason(page) {
    var doc = new DOMParser().parseFromString(page || "", "text/html");
    var node = doc.querySelector("main .field-error, main [role=alert]:not(.form-error)") || doc.querySelector("main h1 ~ p")
      || doc.querySelector("main");
    var text = node ? node.textContent.replace(/\s+/g, " ").trim() : "";
    return text.length > 300 ? text.slice(0, 300) + "…" : text;
  }

  /**
   * Replays the kept entries. A stored copy of a page carries the token it had then: once the
   * network is back the page is loaded again instead, and that load replays with its own.
   */
  function replay() {
    return refresh().then(function () {
      if (!navigator.serviceWorker.controller || (state.queued === 0 && !isCopy())) { return null; }
      if (isCopy()) { return reachable().then(function (up) { if (up) { location.reload(); } }); }
      return ask({ type: "replay", token: token() }).then(function (result) {
        if (!result || !(result.synced > 0)) { return refresh(); }
        state.synced = true;
        state.kept = false;
        // a list shows what was saved: load it again (the banner says so after the load)
        if (LIST_PAGES.indexOf(location.pathname) >= 0) {
          try { sessionStorage.setItem(SYNCED_FLAG, "1"); } catch (error) { /* private mode */ }
          location.reload();
          return null;
        }
        return refresh();
      });
    });
  }

  function reachable() {
    return fetch("/sw.js", { method: "HEAD", cache: "no-store" }).then(function (r) { return r.ok; }, function () { return false; });
  }

  /** While entries wait (or a copy is shown), tries again every 20 s: a server back up fires no event. */
  function schedule() {
    var waiting = state.queued > 0 || isCopy();
    if (waiting && !retry) {
      retry = setInterval(function () { if (navigator.onLine) { replay(); } }, 20000);
    } else if (!waiting && retry) {
      clearInterval(retry);
      retry = null;
    }
  }

  function render() {
    var banner = document.querySelector("[data-offline-banner]");
    if (!banner) { return; }
    var lines = [];
    if (offline()) {
      var at = isCopy() ? state.cachedAt : loadedAt;
      var text = banner.getAttribute("data-offline");
      if (at) { text += " " + banner.getAttribute("data-updated") + " " + time(at); }
      lines.push(line(text));
    }
    if (state.kept) { lines.push(line(banner.getAttribute("data-kept"))); }
    if (state.queued > 0) {
      var count = document.createElement("span");
      count.className = "queued-count";
      count.textContent = String(state.queued);
      var queued = line(banner.getAttribute("data-queued") + " ");
      queued.appendChild(count);
      lines.push(queued);
    }
    if (state.synced && state.queued === 0) { lines.push(line(banner.getAttribute("data-synced"))); }
    state.refused.forEach(function (why) { lines.push(line(banner.getAttribute("data-refused") + " " + why)); });
    banner.replaceChildren.apply(banner, lines);
    banner.hidden = lines.length === 0;
  }

  function line(text) {
    var p = document.createElement("p");
    p.textContent = text;
    return p;
  }

  /** 14:05 (or 2:05 PM) in the page's language; with the weekday when not today. */
  function time(ms) {
    var date = new Date(ms);
    var options = { hour: "2-digit", minute: "2-digit" };
    if (date.toDateString() !== new Date().toDateString()) { options.weekday = "short"; }
    return new Intl.DateTimeFormat(document.documentElement.lang || undefined, options).format(date);
  }

  // Every form that logs a meal or a weight gets its client id once (a second tap sends the
  // same one, so it is saved once). Offline, it also says when it was logged, and a time field
  // left as the stored page filled it in becomes now.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") { return; }
    if (!LOGGING.some(function (pattern) { return pattern.test(new URL(form.action, location.href).pathname); })) { return; }
    if (!form.elements.namedItem("client_id")) { field(form, "client_id", newID()); }
    if (offline()) {
      field(form, "logged_at", localNow());
      Array.prototype.forEach.call(form.querySelectorAll("input[name=time]"), function (input) {
        if (input.value === input.defaultValue) { input.value = localNow().slice(11, 16); }
      });
    }
  });

  function field(form, name, value) {
    var input = form.elements.namedItem(name);
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  function newID() {
    if (window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function localNow() {
    var d = new Date();
    var two = function (n) { return ("0" + n).slice(-2); };
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + "T" + two(d.getHours()) + ":" +
      two(d.getMinutes()) + ":" + two(d.getSeconds());
  }

  try {
    if (sessionStorage.getItem(SYNCED_FLAG)) { state.synced = true; sessionStorage.removeItem(SYNCED_FLAG); }
  } catch (error) { /* private mode */ }

  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "replay-now") { replay(); }
  });
  window.addEventListener("online", function () { render(); replay(); });
  window.addEventListener("offline", render);
  document.addEventListener("wdiet:content", render);
  navigator.serviceWorker.addEventListener("controllerchange", refresh);
  replay();
})();
