// w-diet web: progressive enhancement only. Every page and form works without this file;
// with it, search runs as you type, dialogs manage focus and toasts fade out.
(function () {
  "use strict";
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var token = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  // Behaviour bound to elements inside <main> runs again after live.js swaps the page's content
  // (the `wdiet:content` event, docs/architecture.md, "The web app"); document-level handlers are bound once.
  function enhance() {
    bindSearch();
    bindDialogs();
    bindForms();
    bindPortion();
    bindBarcode();
  }

  // Search as you type: 300 ms after the last keystroke, results replace the list; the
  // status line in the results is a live region ("10 results found.").
  function bindSearch() {
    var form = document.querySelector("[data-search]");
    var results = document.querySelector("[data-search-results]");
    if (form && results) {
      var input = form.querySelector('input[type="search"]');
      var timer = null;
      var latest = 0;
      var run = function () {
        var query = input.value.trim();
        var ticket = ++latest;
        var day = form.querySelector('input[name="date"]');
        var dated = day && day.value ? "date=" + encodeURIComponent(day.value) : "";
        var url = "/foods/search?q=" + encodeURIComponent(query) + (dated ? "&" + dated : "");
        fetch(url, { headers: { "X-CSRF-Token": token }, credentials: "same-origin" })
          .then(function (response) { if (!response.ok) { throw new Error(String(response.status)); } return response.text(); })
          .then(function (html) {
            if (ticket !== latest) { return; }
            results.innerHTML = html;
            if (window.history && window.history.replaceState) {
              var kept = query ? "/log?q=" + encodeURIComponent(query) + (dated ? "&" + dated : "") : "/log" + (dated ? "?" + dated : "");
              window.history.replaceState(null, "", kept);
            }
          })
          .catch(function () {
            if (ticket !== latest) { return; }
            var status = results.querySelector("[role=status]");
            if (status) { status.textContent = form.getAttribute("data-offline") || "Search unavailable, use manual entry."; }
          });
      };
      input.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(run, 300);
      });
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        clearTimeout(timer);
        run();
      });
      // Arrow down from the field moves into the results (a barcode's lookup is a button).
      input.addEventListener("keydown", function (event) {
        if (event.key === "ArrowDown") {
          var first = results.querySelector(".result");
          if (first) { event.preventDefault(); first.focus(); }
        }
      });
      results.addEventListener("keydown", function (event) {
        if (event.key !== "ArrowDown" && event.key !== "ArrowUp") { return; }
        var links = Array.prototype.slice.call(results.querySelectorAll(".result"));
        var index = links.indexOf(document.activeElement);
        if (index < 0) { return; }
        event.preventDefault();
        if (event.key === "ArrowDown" && index + 1 < links.length) { links[index + 1].focus(); }
        if (event.key === "ArrowUp") { (index === 0 ? input : links[index - 1]).focus(); }
      });
    }
  }

  function bindDialogs() {
    document.querySelectorAll("[data-dialog]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        var panel = document.getElementById(button.getAttribute("data-dialog"));
        if (!panel) { return; }
        event.preventDefault();
        opener = button;
        openDialog(panel);
      });
    });
    document.querySelectorAll("[data-dialog-close]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        event.preventDefault();
        closeDialog(button.closest("[data-dialog-panel]"));
      });
    });
    var autofocus = document.querySelector("[data-dialog-panel][data-autofocus]");
    if (autofocus) { openDialog(autofocus); }
  }

  // Forms: the language switch, the discard question, the confirmations.
  function bindForms() {
    // Onboarding's first step: a language choice shows the page in that language at once.
    document.querySelectorAll('input[type="radio"][name="language"][data-switch]').forEach(function (radio) {
      radio.addEventListener("change", function () { window.location.assign("/onboarding?lang=" + encodeURIComponent(radio.value)); });
    });

    // Leaving a meal form with typed values asks first ("Discard meal?", docs/rules.md §4); saving does not.
    var guarded = Array.prototype.slice.call(document.querySelectorAll("form[data-discard]"));
    var dirty = false;
    guarded.forEach(function (element) {
      element.addEventListener("input", function () { dirty = true; });
      element.addEventListener("submit", function () { dirty = false; });
    });
    if (guarded.length) {
      document.querySelectorAll("a.back").forEach(function (link) {
        link.addEventListener("click", function (event) {
          if (dirty && !window.confirm(guarded[0].getAttribute("data-discard"))) { event.preventDefault(); }
        });
      });
    }

    // Forms that ask before they act (delete).
    document.querySelectorAll("form[data-confirm]").forEach(function (element) {
      element.addEventListener("submit", function (event) {
        if (!window.confirm(element.getAttribute("data-confirm"))) { event.preventDefault(); }
      });
    });
  }

  // The portion form shows what will be saved as it changes: the amount times the grams of
  // the chosen unit (1 for grams), the same arithmetic as the server's.
  function bindPortion() {
    var portion = document.querySelector("[data-portion]");
    if (portion) {
      var preview = portion.querySelector("[data-portion-preview]");
      var per100 = parseFloat(portion.getAttribute("data-kcal")) || 0;
      var number = function (value) {
        var text = String(value).trim();
        if (!/^[+-]?[0-9]*[.,]?[0-9]*$/.test(text)) { return NaN; }
        return parseFloat(text.replace(",", "."));
      };
      var update = function () {
        var unit = portion.querySelector('select[name="unit"]');
        var option = unit && unit.options[unit.selectedIndex];
        var grams = number(portion.querySelector('input[name="amount"]').value) * (option ? number(option.getAttribute("data-grams")) : 1);
        preview.textContent = isFinite(grams) && grams >= 1 && grams <= 5000 ? "≈ " + Math.round(grams) + " g · " + Math.round(per100 * grams / 100) + " kcal" : "";
      };
      portion.addEventListener("input", update);
      portion.addEventListener("change", update);
      update();
    }
  }

  // Barcodes by camera, with no third-party script: the browser's BarcodeDetector where it reads
  // EAN and UPC codes, else the app's own reader, static/barcode.js (Safari on the iPhone has no
  // BarcodeDetector; the script is fetched only by a page with a scan button). Every 150 ms a
  // frame of the video, at most 640 px wide, is looked at; the digits read go into the typed
  // field, which always works on its own, and the form is sent. The camera stops once a code is
  // read, when the page is left or hidden or its content replaced (live.js), and when the scan
  // button (pressed while scanning) or the status line is tapped.
  function bindBarcode() {
    var scanButton = document.querySelector("[data-barcode-scan]");
    if (!scanButton || scanButton.wdietBound || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) { return; }
    scanButton.wdietBound = true;
    var FORMATS = ["ean_13", "ean_8", "upc_a"];
    var scanForm = scanButton.closest("form");
    var video = scanForm.querySelector("[data-barcode-video]");
    var status = scanForm.querySelector("[data-barcode-status]");
    var stopScan = null;  // while scanning: stops it

    // static/barcode.js, with the same ?v= as this script (so the service worker has it offline)
    var ownDecoder = function () {
      if (window.WDietBarcode) { return Promise.resolve(window.WDietBarcode); }
      var script = document.querySelector("script[data-barcode-reader]");
      if (!script) {
        var self = document.querySelector('script[src*="/assets/app.js"]');
        script = document.createElement("script");
        script.src = self ? self.src.replace(/\/app\.js(?=\?|$)/, "/barcode.js") : "/assets/barcode.js";
        script.setAttribute("data-barcode-reader", "");
        document.head.appendChild(script);
      }
      return new Promise(function (resolve, reject) {
        script.addEventListener("load", function () { if (window.WDietBarcode) { resolve(window.WDietBarcode); } else { reject(new Error("barcode.js")); } });
        script.addEventListener("error", function () {
          if (script.parentNode) { script.parentNode.removeChild(script); }  // the next scan tries again
          reject(new Error("barcode.js"));
        });
      });
    };
    // A reader: the video -> a promise of the digits in its current frame, or null.
    var reader = function () {
      var Detector = window.BarcodeDetector;
      var formats = !Detector ? Promise.resolve([]) : Detector.getSupportedFormats ? Detector.getSupportedFormats() : Promise.resolve(FORMATS);
      return formats.catch(function () { return []; }).then(function (supported) {
        var wanted = FORMATS.filter(function (format) { return supported.indexOf(format) >= 0; });
        if (wanted.length) {
          var detector = new Detector({ formats: wanted });
          return function () {
            if (video.readyState < 2) { return Promise.resolve(null); }
            return detector.detect(video).then(function (codes) { return codes.length ? codes[0].rawValue : null; });
          };
        }
        return ownDecoder().then(function (barcode) {
          var canvas = document.createElement("canvas");
          var context = canvas.getContext("2d", { willReadFrequently: true });
          return function () {
            if (video.readyState < 2 || !video.videoWidth) { return Promise.resolve(null); }
            var scale = Math.min(1, 640 / video.videoWidth);
            var width = Math.round(video.videoWidth * scale), height = Math.round(video.videoHeight * scale);
            if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
            context.drawImage(video, 0, 0, width, height);
            return Promise.resolve(barcode.decode(context.getImageData(0, 0, width, height)));
          };
        });
      });
    };

    var scan = function () {
      var stream = null, timer = null, stopped = false;
      var hidden = function () { if (document.hidden) { stop(); } };
      var stop = function () {
        if (stopped) { return; }
        stopped = true;
        stopScan = null;
        clearTimeout(timer);
        if (stream) { stream.getTracks().forEach(function (track) { track.stop(); }); }
        video.srcObject = null;
        video.hidden = true;
        status.hidden = true;
        scanButton.setAttribute("aria-pressed", "false");
        window.removeEventListener("pagehide", stop);
        document.removeEventListener("visibilitychange", hidden);
      };
      stopScan = stop;
      scanButton.setAttribute("aria-pressed", "true");
      status.hidden = false;
      window.addEventListener("pagehide", stop);
      document.addEventListener("visibilitychange", hidden);
      // the camera is asked for at once, within the tap (Safari wants it so)
      var camera = navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1280 } }, audio: false })
        .then(function (media) {
          stream = media;
          if (stopped) { media.getTracks().forEach(function (track) { track.stop(); }); }
          return media;
        });
      Promise.all([reader(), camera]).then(function (both) {
        if (stopped) { return; }
        var read = both[0];
        video.srcObject = stream;
        video.hidden = false;
        var playing = video.play();
        if (playing && playing.catch) { playing.catch(function () {}); }
        var look = function () {
          if (stopped) { return; }
          if (!document.contains(video)) { stop(); return; }  // live.js put new content in place
          read().then(function (code) {
            if (stopped) { return; }
            if (!code) { timer = setTimeout(look, 150); return; }
            stop();
            scanForm.querySelector('input[name="code"]').value = code;
            if (scanForm.requestSubmit) { scanForm.requestSubmit(); } else { scanForm.submit(); }
          }).catch(stop);
        };
        look();
      }).catch(stop);
    };

    scanButton.hidden = false;
    scanButton.setAttribute("aria-pressed", "false");
    scanButton.addEventListener("click", function () { if (stopScan) { stopScan(); } else { scan(); } });
    status.addEventListener("click", function () { if (stopScan) { stopScan(); } });
    if (!("BarcodeDetector" in window)) { ownDecoder().catch(function () {}); }  // ready before the first tap
  }

  // "Try manual entry" opens the manual form and puts the cursor in it.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-open]");
    if (!link) { return; }
    var target = document.getElementById(link.getAttribute("data-open"));
    if (target) {
      event.preventDefault();
      target.open = true;
      var field = target.querySelector("input:not([type=hidden]), textarea");
      if (field) { field.focus(); }
    }
  });

  // Dialogs: open from [data-dialog], close with the close button or Escape, focus kept inside.
  var opener = null;
  function openDialog(panel) {
    panel.classList.add("is-open");
    var focusable = panel.querySelector("button, a[href], input");
    if (focusable) { focusable.focus(); }
  }
  function closeDialog(panel) {
    panel.classList.remove("is-open");
    if (window.location.hash === "#" + panel.id) { window.history.replaceState(null, "", window.location.pathname); }
    if (opener) { opener.focus(); opener = null; }
  }
  document.addEventListener("keydown", function (event) {
    var panel = document.querySelector("[data-dialog-panel].is-open");
    if (!panel) { return; }
    if (event.key === "Escape" && !panel.hasAttribute("data-autofocus")) { closeDialog(panel); }
    if (event.key === "Tab") {
      var items = panel.querySelectorAll("button, a[href], input");
      if (!items.length) { return; }
      var first = items[0], last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
    }
  });

  // Toasts: announced once by the live region, gone after 3 seconds; one with "Undo" stays
  // 10 seconds (the restore works for as long as it is shown).
  var toast = document.querySelector("[data-toast]");
  if (toast) {
    var region = toast.parentNode;
    var fresh = toast.cloneNode(true);
    var stay = toast.hasAttribute("data-toast-undo") ? 10000 : 3000;
    region.removeChild(toast);
    setTimeout(function () {
      region.appendChild(fresh);
      setTimeout(function () {
        fresh.classList.add("is-leaving");
        setTimeout(function () { if (fresh.parentNode) { fresh.parentNode.removeChild(fresh); } }, reduceMotion ? 0 : 300);
      }, stay);
    }, 50);
  }

  // A roar (meal saved: 1, every macro on target or a streak milestone: 2, a phase done or a
  // badge: 3) is felt as well as seen: as many buzzes where the phone can, unless motion is
  // reduced (app.css animates the mascot as many times).
  var roar = parseInt(document.body.getAttribute("data-roar") || "", 10);
  if (roar > 0 && roar < 4 && !reduceMotion && navigator.vibrate) {
    var pattern = [60];
    for (var pulse = 1; pulse < roar; pulse++) { pattern.push(90, 60); }
    try { navigator.vibrate(pattern); } catch (ignored) { /* no tap yet: the animation says it */ }
  }

  enhance();
  document.addEventListener("wdiet:content", function () {
    // a live swap brings a new mascot: the roar was for this page's load, not for it
    document.body.removeAttribute("data-roar");
    enhance();
  });
})();
