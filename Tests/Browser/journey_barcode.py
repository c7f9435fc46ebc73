#!/usr/bin/env python3
"""The barcode reader of browsers without BarcodeDetector (issue 30): static/barcode.js in chromium.

Barcodes are drawn by an encoder that is not ours: python-barcode (PyPI; scripts/browser-setup
installs it) writes each code as an SVG, as printed on a pack (bars, the digits under them, an
EAN-13's first digit in the quiet zone). Chromium loads barcode.js with a plain <script> tag,
draws each SVG into a 640 × 480 canvas with a variation (module width from 1.5 to 10 px, blur,
noise, tilt up to 10°, upside down, turned 90°, low contrast, uneven light, clutter around the
code, all of these at once and JPEG-compressed as a camera would) and decodes the canvas's
ImageData. 52 codes (12 of real products, 40 random: EAN-13, EAN-8, UPC-A) in each variation;
each variation must read at least its floor of them, and no image may ever read as another code. Frames without a valid code (noise, text, clutter, codes with a wrong
check digit, half a code) must read as nothing. The time per 640 × 480 frame is measured
(the camera loop decodes one every 150 ms; it must stay under 30 ms). Then the scanner itself:
the foods page in chromium with a fake camera filming a barcode, no BarcodeDetector, Scan →
the code is read, the form sent, the own food with that barcode shown; Stop by the status line
and by the scan button turns the camera off; the log screen's scan button reads as well. A
frame of each variation and two screenshots of the scanner land in ARTEFACTS_DIR/barcode.

Usage: Tests/Browser/journey_barcode.py WDIET_BINARY ARTEFACTS_DIR
Prints the decode rate of each variation, the time per frame and "N passed, N failed".
"""
import base64
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback

from barcode.ean import EuropeanArticleNumber13, EuropeanArticleNumber8
from barcode.upc import UniversalProductCodeA
from barcode.writer import SVGWriter
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "Sources/DietWeb/Resources/static/barcode.js")
MODULE_MM = 0.33  # the nominal EAN module

# Real products' codes (a pencil, a drink, a soup, a cola, a German own brand…) and random ones.
KNOWN = ["4006381333931", "40170725", "036000291452", "5449000000996", "4311501445013", "4000417025005",
         "96385074", "012345678905", "4008400402222", "8410076472410", "20123451", "0075678164125"]


# The code the fake camera films in the scanner's journey, and how: a pack held a little
# skewed, slightly out of focus, in uneven light, among other things.
CAMERA_CODE = "4006381333931"
CAMERA_VIEW = {"module": 3.2, "tilt": 5, "blur": 0.3, "noise": 6, "shade": 0.6, "contrast": [30, 220], "clutter": True}


def check_digit(body):
    """The GS1 check digit of the digits `body` (weights 3, 1, 3… from the right)."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)


def random_codes(rng):
    codes = []
    for _ in range(24):
        body = str(rng.choice([40, 50, 54, 76, 80, 87, 90, 30, 64, 84])) + "".join(rng.choice("0123456789") for _ in range(10))
        codes.append(body + check_digit(body))
    for _ in range(8):
        body = "".join(rng.choice("0123456789") for _ in range(7))
        codes.append(body + check_digit(body))
    for _ in range(8):
        body = "".join(rng.choice("0123456789") for _ in range(11))
        codes.append(body + check_digit(body))  # UPC-A
    return codes


def svg(code, wrong_check=False):
    """python-barcode's SVG of `code` (13 digits EAN-13, 8 EAN-8, 12 UPC-A) and its size in modules."""
    if len(code) == 13:
        symbol, modules, quiet, height = EuropeanArticleNumber13(code, writer=SVGWriter(), guardbar=True, no_checksum=wrong_check), 95, 11, 22.0
    elif len(code) == 8:
        symbol, modules, quiet, height = EuropeanArticleNumber8(code, writer=SVGWriter(), guardbar=True, no_checksum=wrong_check), 67, 7, 17.0
    else:
        assert not wrong_check
        symbol, modules, quiet, height = UniversalProductCodeA(code[:11], writer=SVGWriter()), 95, 9, 22.0
    data = symbol.render({"module_width": MODULE_MM, "quiet_zone": quiet * MODULE_MM, "module_height": height,
                          "font_size": 9, "text_distance": 3.5})
    if not wrong_check:
        assert re.sub(r"\D", "", symbol.get_fullcode()) == code, (symbol.get_fullcode(), code)
    return "data:image/svg+xml;base64," + base64.b64encode(data).decode(), modules + 2 * quiet


def expected(code):
    """What the reader returns: an EAN-13 starting with 0 is a UPC-A of 12 digits."""
    return code[1:] if len(code) == 13 and code[0] == "0" else code


# Each variation: how the code is drawn (see render() in HARNESS) and the share of the codes
# it must read at least.
VARIATIONS = [
    ("clean, 3 px modules", {"module": 3}, 1.0),
    ("small, 1.5 px modules", {"module": 1.5}, 0.95),
    ("large, 10 px modules (1280 x 960)", {"module": 10, "width": 1280, "height": 960}, 1.0),
    ("large, 5.5 px modules", {"module": 5.5}, 1.0),
    ("blurred (sigma 0.5 module)", {"module": 3, "blur": 0.5}, 0.95),
    ("blurred and small (2 px, sigma 1 px)", {"module": 2, "blur": 0.5}, 0.9),
    ("very blurred (sigma 0.7 module)", {"module": 3, "blur": 0.7}, 0.8),
    ("noisy (sigma 25 of 255)", {"module": 3, "noise": 25}, 0.95),
    ("tilted 5-10 degrees", {"module": 3, "tilt": 10}, 0.95),
    ("upside down", {"module": 3, "turn": 180}, 1.0),
    ("turned 90 degrees", {"module": 3, "turn": 90}, 1.0),
    ("low contrast (60 on 170)", {"module": 3, "contrast": [110, 170]}, 0.95),
    ("uneven light (shadow to 25 %)", {"module": 3, "shade": 0.25}, 0.95),
    ("clutter around the code", {"module": 2.5, "clutter": True}, 0.95),
    ("camera: all at once + JPEG", {"module": 2.6, "blur": 0.35, "noise": 10, "tilt": 7, "shade": 0.5,
                                    "contrast": [40, 215], "clutter": True, "jpeg": 0.7}, 0.9),
]

HARNESS = r"""
var done = arguments[arguments.length - 1];
var jobs = arguments[0];
function rng(seed) {  // mulberry32
  return function () {
    seed |= 0; seed = seed + 0x6D2B79F5 | 0;
    var t = Math.imul(seed ^ seed >>> 15, 1 | seed);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function gauss(random) { return Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random()); }
function load(src) {
  return new Promise(function (resolve, reject) {
    var image = new Image();
    image.onload = function () { resolve(image); };
    image.onerror = function () { reject(new Error("image did not load")); };
    image.src = src;
  });
}
var WORDS = ["Vollmilch", "3,5 % Fett", "Zutaten:", "Zucker", "Haltbar bis", "500 g", "Bio", "Nährwerte",
             "Energie 272 kJ", "L 2345", "Mindestens", "EUR 1,29", "12.03.2026", "www", "0123456789"];
function clutter(ctx, random, width, height) {
  for (var i = 0; i < 30; i++) {
    var v = Math.floor(random() * 256);
    ctx.fillStyle = "rgb(" + v + "," + Math.floor(random() * 256) + "," + Math.floor(random() * 256) + ")";
    var kind = random();
    if (kind < 0.35) {
      ctx.fillRect(random() * width, random() * height, 10 + random() * 120, 10 + random() * 90);
    } else if (kind < 0.7) {
      ctx.font = (10 + Math.floor(random() * 28)) + "px sans-serif";
      ctx.fillText(WORDS[Math.floor(random() * WORDS.length)], random() * width - 40, random() * height);
    } else {
      ctx.strokeStyle = ctx.fillStyle; ctx.lineWidth = 1 + random() * 6;
      ctx.beginPath(); ctx.moveTo(random() * width, random() * height); ctx.lineTo(random() * width, random() * height); ctx.stroke();
    }
  }
  for (var s = 0; s < 12; s++) {  // a few stripes, as of a printed pattern
    ctx.fillStyle = random() < 0.5 ? "#222" : "#999";
    ctx.fillRect(random() * width, random() * height, 1 + random() * 6, 20 + random() * 100);
  }
}
// One frame: the code's SVG drawn with the job's variation; returns the canvas.
function render(image, job, random) {
  var o = job.variation;
  var width = o.width || 640, height = o.height || 480;
  var canvas = document.createElement("canvas");
  canvas.width = width; canvas.height = height;
  var ctx = canvas.getContext("2d", { willReadFrequently: true });
  var shade = 200 + random() * 55;
  ctx.fillStyle = "rgb(" + shade + "," + (shade - 10) + "," + (shade - 25) + ")";
  ctx.fillRect(0, 0, width, height);
  if (o.clutter || o.negative === "clutter") { clutter(ctx, random, width, height); }
  if (o.negative === "text") {
    ctx.fillStyle = "#111";
    for (var line = 0; line < 14; line++) {
      ctx.font = (12 + Math.floor(random() * 24)) + "px " + (random() < 0.5 ? "serif" : "monospace");
      ctx.fillText(WORDS[Math.floor(random() * WORDS.length)] + " " + WORDS[Math.floor(random() * WORDS.length)] + " ||| 1111 IIII",
                   10 + random() * 200, 30 + line * 32);
    }
  }
  if (image) {
    var pxPerMm = 96 / 25.4;
    var scale = o.module / (job.moduleMm * pxPerMm);
    var w = image.width * scale, h = image.height * scale;
    var angle = (o.turn || 0) * Math.PI / 180;
    if (o.tilt) { angle += (random() < 0.5 ? -1 : 1) * (o.tilt / 2 + random() * o.tilt / 2) * Math.PI / 180; }
    var room = (o.turn === 90 ? [width - h, height - w] : [width - w, height - h]);
    var dx = (random() - 0.5) * Math.max(0, room[0] - 40) * 0.6, dy = (random() - 0.5) * Math.max(0, room[1] - 40) * 0.6;
    ctx.save();
    ctx.translate(width / 2 + dx, height / 2 + dy);
    ctx.rotate(angle);
    if (o.blur) { ctx.filter = "blur(" + (o.blur * o.module) + "px)"; }
    if (o.cut) { ctx.beginPath(); ctx.rect(-w / 2, -h / 2, w * 0.55, h); ctx.clip(); }
    ctx.drawImage(image, -w / 2, -h / 2, w, h);
    ctx.restore();
  }
  var frame = ctx.getImageData(0, 0, width, height), data = frame.data;
  var lo = o.contrast ? o.contrast[0] : 0, hi = o.contrast ? o.contrast[1] : 255;
  var noise = o.noise || (o.negative === "noise" ? 60 : 0);
  var fromX = random() * width, fromY = random() * height;
  for (var y = 0, p = 0; y < height; y++) {
    for (var x = 0; x < width; x++, p += 4) {
      var light = 1;
      if (o.shade) {  // a shadow across the frame: full light at one corner, o.shade at the other
        var t = Math.min(1, Math.hypot(x - fromX, y - fromY) / Math.hypot(width, height) * 1.4);
        light = 1 - (1 - o.shade) * t;
      }
      var n = noise ? gauss(random) * noise : 0;
      for (var c = 0; c < 3; c++) {
        data[p + c] = (lo + data[p + c] * (hi - lo) / 255) * light + n;
      }
    }
  }
  ctx.putImageData(frame, 0, 0);
  return canvas;
}
function jpeg(canvas, quality) {
  return load(canvas.toDataURL("image/jpeg", quality)).then(function (image) {
    canvas.getContext("2d").drawImage(image, 0, 0);
    return canvas;
  });
}
var images = window.barcodeImages || (window.barcodeImages = {});  // kept from one batch to the next
var results = [];
var chain = Promise.resolve();
jobs.forEach(function (job, index) {
  chain = chain.then(function () {
    var random = rng(job.seed);
    var ready = job.svg ? (images[job.svg] || (images[job.svg] = load(job.svg))) : Promise.resolve(null);
    return ready.then(function (image) {
      var canvas = render(image, job, random);
      return job.variation.jpeg ? jpeg(canvas, job.variation.jpeg) : canvas;
    }).then(function (canvas) {
      var frame = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
      var start = performance.now();
      var code = window.WDietBarcode.decode(frame);
      var ms = performance.now() - start;
      var result = { code: code, ms: ms, width: canvas.width, height: canvas.height };
      if (job.keep) { result.png = canvas.toDataURL("image/png"); }
      if (job.gray) {  // the frame's brightness, one byte a pixel (for the fake camera)
        var bytes = new Uint8Array(frame.width * frame.height), text = "";
        for (var g = 0; g < bytes.length; g++) { bytes[g] = frame.data[4 * g + 1]; }
        for (var c = 0; c < bytes.length; c += 8192) { text += String.fromCharCode.apply(null, bytes.subarray(c, c + 8192)); }
        result.gray = btoa(text);
      }
      results.push(result);
    });
  });
});
chain.then(function () { done({ results: results }); }, function (error) { done({ error: String(error) }); });
"""


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=800,600"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(600)
    return driver


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, condition, label):
        if condition:
            self.passed += 1
            print(f"PASS {label}")
        else:
            self.failed += 1
            print(f"FAIL {label}")


def decoder_checks(tally, artefacts):
    rng = random.Random(30)
    codes = KNOWN + random_codes(rng)
    pictures = {code: svg(code) for code in codes}
    jobs, meta = [], []
    for name, variation, floor in VARIATIONS:
        for code in codes:
            picture, _ = pictures[code]
            jobs.append({"svg": picture, "moduleMm": MODULE_MM, "variation": variation, "keep": code == codes[0]})
            meta.append(("positive", name, expected(code)))
    # frames without a valid code
    negatives = []
    for i in range(8):
        negatives.append(("random noise", None, {"negative": "noise"}))
    for i in range(6):
        negatives.append(("text", None, {"negative": "text"}))
    for i in range(6):
        negatives.append(("clutter only", None, {"negative": "clutter"}))
    wrong = ["4006381333932", "5449000000995", "40170726", "4311501445016", "96385075", "8410076472411"]
    for code in wrong:
        for variation in ({"module": 3}, {"module": 2, "blur": 0.3, "noise": 8}, {"module": 3, "blur": 0.6}):
            negatives.append(("wrong check digit", svg(code, wrong_check=True)[0], variation))
    for code in codes[:8]:
        negatives.append(("half a code", pictures[code][0], {"module": 3, "cut": True}))
    for label, picture, variation in negatives:
        jobs.append({"svg": picture, "moduleMm": MODULE_MM, "variation": variation, "keep": False})
        meta.append(("negative", label, None))
    # the frame the fake camera films in the scanner's journey
    jobs.append({"svg": svg(CAMERA_CODE)[0], "moduleMm": MODULE_MM, "variation": CAMERA_VIEW, "keep": True, "gray": True})
    meta.append(("camera", "camera", CAMERA_CODE))

    for index, job in enumerate(jobs):
        job["seed"] = 1000 + index  # each frame's own random numbers, whatever the batches
    driver = browser()
    try:
        page = os.path.join(tempfile.mkdtemp(prefix="wdiet-barcode-"), "page.html")
        with open(page, "w") as f:
            f.write(f'<!doctype html><meta charset="utf-8"><script src="file://{SCRIPT}"></script><p>barcode</p>')
        driver.get("file://" + page)
        tally.check(driver.execute_script("return typeof window.WDietBarcode === 'object' && typeof WDietBarcode.decode === 'function'"),
                    "barcode.js loads with a plain script tag and defines WDietBarcode.decode")
        results = []
        for first in range(0, len(jobs), 60):  # in batches: WebDriver gives up on a call after 120 s
            answer = driver.execute_async_script(HARNESS, jobs[first:first + 60])
            if "error" in answer:
                tally.check(False, "the harness ran: " + answer["error"])
                return
            results += answer["results"]
    finally:
        driver.quit()

    camera = None
    rates = {}
    wrong_reads = []
    misses = {}
    negative_reads = {}
    frame_ms, empty_ms = [], []
    for (kind, label, want), result in zip(meta, results):
        if result["width"] == 640 and result["height"] == 480:
            frame_ms.append(result["ms"])
            if result["code"] is None:
                empty_ms.append(result["ms"])
        if result.get("png"):
            with open(os.path.join(artefacts, re.sub(r"\W+", "-", label.split(",")[0]).strip("-") + ".png"), "wb") as f:
                f.write(base64.b64decode(result["png"].split(",", 1)[1]))
        if kind == "camera":
            camera = result
        elif kind == "positive":
            got = result["code"]
            read, total = rates.get(label, (0, 0))
            rates[label] = (read + (got == want), total + 1)
            if got != want:
                misses.setdefault(label, []).append(want)
            if got is not None and got != want:
                wrong_reads.append(f"{label}: {want} read as {got}")
        else:
            shown = negative_reads.setdefault(label, [0, 0, []])
            shown[1] += 1
            if result["code"] is not None:
                shown[0] += 1
                shown[2].append(result["code"])

    print("decode rate per variation (codes read right / codes):")
    for name, variation, floor in VARIATIONS:
        read, total = rates[name]
        print(f"  {name:40} {read:3}/{total} = {100 * read / total:5.1f} %  (floor {100 * floor:.0f} %)"
              + (f"  missed: {' '.join(misses[name][:6])}{' …' if len(misses[name]) > 6 else ''}" if name in misses else ""))
    for name, variation, floor in VARIATIONS:
        read, total = rates[name]
        tally.check(read >= floor * total, f"{name}: {read}/{total} read (at least {100 * floor:.0f} %)")
    tally.check(not wrong_reads, "no code is ever read as another code" + ("" if not wrong_reads else ": " + "; ".join(wrong_reads)))
    for label, (read, total, codes_read) in negative_reads.items():
        tally.check(read == 0, f"{label}: {total} frames read as nothing" + (f" (read: {codes_read})" if read else ""))
    # A frame where a code is read stops after three scanlines agree; one where none is read
    # goes through every scanline (the camera's usual frame until the code is in view).
    for label, times in (("every 640 x 480 frame", frame_ms), ("640 x 480 frames read as nothing", empty_ms)):
        times.sort()
        median, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
        print(f"time per frame, {label}: median {median:.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms ({len(times)} frames)")
        tally.check(median < 30, f"{label}: decoded in under 30 ms (median {median:.1f} ms, p95 {p95:.1f} ms)")
    tally.check(camera["code"] == CAMERA_CODE, f"the fake camera's frame reads as {CAMERA_CODE}: {camera['code']}")
    return camera


def write_y4m(path, gray, width, height):
    """One grey frame as a Y4M video (4:2:0, neutral colour), which chromium's fake camera films over and over."""
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode())
        f.write(b"FRAME\n" + gray + bytes([128]) * (width * height // 2))


SCANNER = r"""
// Counts the frames the page decodes (and keeps their size and time in sessionStorage, which
// outlives the form's submission); with arguments[0], reads nothing (to test Stop).
var blind = arguments[0];
var reader = window.WDietBarcode;
if (!reader.real) { reader.real = reader.decode; }
sessionStorage.setItem("frames", "[]");
reader.decode = function (frame) {
  var start = performance.now();
  var code = blind ? null : reader.real(frame);
  var frames = JSON.parse(sessionStorage.getItem("frames"));
  frames.push([frame.width, frame.height, performance.now() - start]);
  sessionStorage.setItem("frames", JSON.stringify(frames));
  return code;
};
"""


FAKE_DETECTOR = """
window.BarcodeDetector = function (options) { this.formats = options.formats; };
window.BarcodeDetector.getSupportedFormats = function () { return Promise.resolve(["ean_13", "ean_8", "upc_a", "qr_code"]); };
window.BarcodeDetector.prototype.detect = function () {
  var looks = Number(sessionStorage.getItem("detector-looks") || 0) + 1;
  sessionStorage.setItem("detector-looks", String(looks));
  return Promise.resolve(looks >= 5 ? [{ rawValue: "%s", format: "ean_13" }] : []);
};
""" % CAMERA_CODE


def scanner_checks(tally, camera, artefacts):
    """The foods page's scanner in chromium, which has no BarcodeDetector on Linux (deleted
    anyway), with a fake camera filming `camera` (a frame rendered above)."""
    import journey  # needs WDIET_BINARY ARTEFACTS_DIR as arguments
    from selenium.webdriver.support.ui import WebDriverWait

    folder = tempfile.mkdtemp(prefix="wdiet-barcode-")
    video = os.path.join(folder, "camera.y4m")
    write_y4m(video, base64.b64decode(camera["gray"]), camera["width"], camera["height"])
    journey.wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "70",
                  "--activity", "light", "--goal", "lose")
    journey.wdiet(folder, "food", "add", "Vollkornbrot vom Bäcker", "--kcal", "220", "--barcode", CAMERA_CODE)
    server = journey.Server(folder=folder)
    trip = None
    try:
        trip = journey.Journey("barcode", 390, 844, True, extra_arguments=[
            "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
        d = trip.driver
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.BarcodeDetector;"})
        wait = WebDriverWait(d, 20)
        d.get(server.url + "/foods")
        shown = d.execute_script("return !document.querySelector('[data-barcode-scan]').hidden")
        tally.check(shown, "without BarcodeDetector the foods page shows the scan button")
        loaded = wait.until(lambda driver: driver.execute_script(
            "var s = document.querySelector('script[data-barcode-reader]'), a = document.querySelector('script[src*=\"/assets/app.js\"]');"
            "return window.WDietBarcode && s && a && [s.src, a.src]"))
        same_version = loaded[0].split("?")[1] == loaded[1].split("?")[1]
        tally.check("/assets/barcode.js?v=" in loaded[0] and same_version,
                    f"the page fetched the app's own reader under the CSP, with the assets' version: {loaded[0]}")

        # Stop: by the status line, then by the scan button pressed again
        for how, target in (("the status line", "[data-barcode-status]"), ("the scan button again", "[data-barcode-scan]")):
            d.execute_script(SCANNER, True)
            trip.click("[data-barcode-scan]")
            wait.until(lambda driver: len(json.loads(driver.execute_script("return sessionStorage.getItem('frames')"))) >= 3)
            state = d.execute_script("var b = document.querySelector('[data-barcode-scan]'), v = document.querySelector('[data-barcode-video]');"
                                     "return [b.getAttribute('aria-pressed'), v.hidden, !!v.srcObject && v.srcObject.getTracks()[0].readyState]")
            if how == "the status line":
                trip.screen("scanning")
            d.find_element("css selector", target).click()
            after = d.execute_script("var b = document.querySelector('[data-barcode-scan]'), v = document.querySelector('[data-barcode-video]'),"
                                     "s = document.querySelector('[data-barcode-status]');"
                                     "return [b.getAttribute('aria-pressed'), v.hidden, s.hidden, v.srcObject]")
            seen = len(json.loads(d.execute_script("return sessionStorage.getItem('frames')")))
            time.sleep(0.6)
            later = len(json.loads(d.execute_script("return sessionStorage.getItem('frames')")))
            tally.check(state == ["true", False, "live"] and after == ["false", True, True, None] and later == seen,
                        f"Stop by {how}: the camera was on ({state}), then off ({after}), no frame looked at since ({seen} -> {later})")

        # Read: the code filmed goes into the field and the form is sent; the own food opens
        d.execute_script(SCANNER, False)
        trip.click("[data-barcode-scan]")
        wait.until(lambda driver: "/log/food/" in driver.current_url)
        text = d.find_element("css selector", "main").text
        frames = json.loads(d.execute_script("return sessionStorage.getItem('frames')"))
        sizes = sorted({f"{w}x{h}" for w, h, _ in frames})
        ms = sorted(t for _, _, t in frames)
        tally.check("Vollkornbrot vom Bäcker" in text and all(int(size.split("x")[0]) <= 640 for size in sizes),
                    f"Scan reads {CAMERA_CODE} from the camera and opens the own food with it: {len(frames)} frame(s) of {', '.join(sizes)}, "
                    f"{ms[len(ms) // 2]:.1f} ms each (median)")
        trip.screen("read")

        # Where the browser has a BarcodeDetector for EAN (Chrome on Android), it reads, and
        # barcode.js is not fetched: a stand-in detector that finds the code on its fifth look
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_DETECTOR})
        d.get(server.url + "/foods")
        trip.click("[data-barcode-scan]")
        WebDriverWait(d, 5, poll_frequency=0.02).until(lambda driver: driver.execute_script("return !document.querySelector('[data-barcode-video]').hidden"))
        fetched = d.execute_script("return !!document.querySelector('script[data-barcode-reader]') || "
                                   "performance.getEntriesByType('resource').some(function (r) { return /barcode[.]js/.test(r.name); })")
        wait.until(lambda driver: "/log/food/" in driver.current_url)
        looks = d.execute_script("return Number(sessionStorage.getItem('detector-looks'))")
        tally.check(looks == 5 and not fetched, f"with a BarcodeDetector the browser's reads ({looks} looks) and barcode.js is not fetched ({fetched})")

        # The log screen has the scanner too (issue 30, finding 9): the code read goes to the
        # barcode lookup, which opens the own food
        d.get(server.url + "/log")
        trip.click("[data-barcode-scan]")
        wait.until(lambda driver: "/log/food/" in driver.current_url)
        text = d.find_element("css selector", "main").text
        tally.check("Vollkornbrot vom Bäcker" in text, "Scan on the log screen reads the code and opens the own food with it")
    finally:
        if trip:
            trip.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    artefacts = os.path.join(sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="wdiet-barcode-art-"), "barcode")
    os.makedirs(artefacts, exist_ok=True)
    camera = None
    tally = Tally()
    for label, step in (("the decoder checks", lambda: decoder_checks(tally, artefacts)),
                        ("the scanner's journey", lambda: scanner_checks(tally, camera, artefacts))):
        try:
            camera = step() or camera
        except Exception as error:  # report it as a failure and go on
            traceback.print_exc()
            tally.check(False, f"{label} ran: {error}")
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
