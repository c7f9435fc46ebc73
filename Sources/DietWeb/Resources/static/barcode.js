// w-diet web: a barcode reader of its own (issue 30) for browsers without BarcodeDetector
// (Safari on the iPhone). Reads EAN-13, EAN-8 and UPC-A from one camera frame:
//
//   WDietBarcode.decode(imageData) -> "4006381333931" | "40170725" | "036000291452" | null
//
// imageData is an ImageData (or any { data: RGBA bytes, width, height }). An EAN-13 whose first
// digit is 0 is a UPC-A symbol and comes back as its 12 digits, as BarcodeDetector's upc_a.
// A code is only returned when its check digit holds and at least two different scanlines of
// the frame read the very same digits.
//
// How: the frame is read along 28 rows and 28 columns (the middle ones first), each forwards
// and backwards, so that a code upright, upside down or turned by 90° reads the same; a row
// still crosses a code tilted by 10°. Each sample is the mean of three pixels across the
// line (less noise). The scanline is cut into dark and light runs where it crosses halfway
// between its neighbouring peaks and troughs (an adaptive threshold: local contrast and light
// do not matter; interpolated to a fraction of a pixel, so modules of 1.5 px still measure;
// noise makes no peak, as a turn counts only once it exceeds three times the line's noise);
// a local-mean threshold is tried next. The runs are searched for the start, middle and end
// guards with a quiet zone of at least 4.5 modules either side; each digit's four widths,
// scaled to its 7 modules, are matched against the L, G and R tables (and the L/G pattern of
// the left half gives an EAN-13's first digit). Where a digit is not clearly one digit by its
// widths (blur widens narrow bars and spaces), the digits are read by the shape of the
// brightness instead (see "Reading digits by their shape" below).
//
// Plain script, no modules and no build step (like app.js); nothing leaves the page.
(function () {
  "use strict";

  // The widths in modules of the four elements of each digit 0-9 (GS1 General Specifications,
  // EAN/UPC symbology): L ("odd parity") digits start with a space, R digits have the same widths and
  // start with a bar; G ("even parity") digits are the L widths reversed, starting with a space.
  var L_WIDTHS = [
    [3, 2, 1, 1], [2, 2, 2, 1], [2, 1, 2, 2], [1, 4, 1, 1], [1, 1, 3, 2],
    [1, 2, 3, 1], [1, 1, 1, 4], [1, 3, 1, 2], [1, 2, 1, 3], [3, 1, 1, 2]
  ];
  var G_WIDTHS = L_WIDTHS.map(function (widths) { return widths.slice().reverse(); });
  // The first digit of an EAN-13 is not drawn: it is the pattern of L and G among the six left digits.
  var FIRST_DIGIT = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"];

  // A symbol's runs (dark and light elements, left to right) and modules.
  var EAN13 = { runs: 59, modules: 95, half: 6 };  // guard 3, 6 × 4, middle 5, 6 × 4, guard 3
  var EAN8 = { runs: 43, modules: 67, half: 4 };   // guard 3, 4 × 4, middle 5, 4 × 4, guard 3

  // Scanlines each way across the frame.
  var LINES = 28;
  // How the scanlines are cut into runs, in turn until one reads: by peaks and troughs that
  // stand out `noise` times the line's noise, or by the mean over `window` of the line's length.
  var CUTS = [{ noise: 3 }, { window: 1 / 32, noise: 1.5 }];
  // Least light before and after a symbol, in modules (the standard asks 7 to 11; a digit's
  // widest element is 4).
  var QUIET = 4.5;
  // A digit is sure by its widths when they are this near its pattern (sum of squared
  // differences, in modules) and this much nearer than to any other digit's.
  var MAX_WIDTH_ERROR = 0.4, WIDTH_MARGIN = 0.4;
  // A digit is sure by its shape when its profile correlates this well with the digit's model,
  // and the misfit (1 - correlation) of any other digit is this many times larger. (Measured on
  // the test's frames: right reads' worst digit correlates at 0.96 or more in 99 %, wrong reads'
  // at 0.80 or less; right reads' misfit ratio is 1.45 or more in 99 %, wrong reads' 1.05 or less.)
  var MIN_SHAPE_FIT = 0.9, SHAPE_MARGIN = 1.3;

  // A scanline cut into runs, alternately dark and light: widths[k] in pixels (to a fraction;
  // sample i of the profile is the pixel from i to i + 1, so the runs' widths add up to n),
  // levels[k] the darkest sample of a dark run, the lightest of a light one; run 0 starts at the
  // line's first sample and is dark when firstDark.
  function Runs(length) {
    this.profile = null;  // the brightness the runs were cut from, in their direction
    this.ownProfile = new Float64Array(length);
    this.n = 0;
    this.widths = new Float64Array(length);
    this.levels = new Float64Array(length);
    this.sums = new Float64Array(length + 1);  // sums[k]: the widths of runs 0 … k - 1
    this.count = 0;
    this.firstDark = false;
    this.backwards = false;
  }
  Runs.prototype.isDark = function (k) { return (k % 2 === 0) === this.firstDark; };
  Runs.prototype.add = function (width, level) {
    this.widths[this.count] = width;
    this.levels[this.count] = level;
    this.sums[this.count + 1] = this.sums[this.count] + width;
    this.count++;
  };
  // The same runs read from the other end, into `target`.
  Runs.prototype.reverseInto = function (target) {
    target.count = 0;
    target.sums[0] = 0;
    target.firstDark = this.isDark(this.count - 1);
    target.backwards = !this.backwards;
    target.n = this.n;
    target.profile = target.ownProfile;
    for (var i = 0; i < this.n; i++) { target.profile[i] = this.profile[this.n - 1 - i]; }
    for (var k = this.count - 1; k >= 0; k--) { target.add(this.widths[k], this.levels[k]); }
    return target;
  };

  // The scratch buffers of one size of frame, kept between calls (a camera sends the same size).
  var scratch = null;
  function buffers(length) {
    if (!scratch || scratch.length < length) {
      scratch = {
        length: length,
        profile: new Float64Array(length),
        sums: new Float64Array(length + 1),
        offsets: new Float64Array(length),
        extremes: new Int32Array(length),
        runs: new Runs(length + 1),
        reversed: new Runs(length + 1),
        histogram: new Uint32Array(1024)
      };
    }
    return scratch;
  }

  // The brightness (0-255) along row `at` (or column `at` when vertical), each sample the mean
  // of three pixels across the line. Returns the number of samples.
  function sampleLine(image, vertical, at, profile) {
    var data = image.data, width = image.width, height = image.height;
    var n = vertical ? height : width;
    var across = vertical ? width : height;
    var before = Math.max(0, at - 1), after = Math.min(across - 1, at + 1);
    var step = vertical ? width * 4 : 4;               // bytes from one sample to the next
    var side = vertical ? 4 : width * 4;               // bytes from one pixel line to the next
    var start = vertical ? at * 4 : at * width * 4;
    for (var i = 0, index = start; i < n; i++, index += step) {
      var total = 0;
      for (var k = before - at; k <= after - at; k++) {
        var p = index + k * side;
        total += data[p] + 2 * data[p + 1] + data[p + 2];
      }
      profile[i] = total / (4 * (after - before + 1));
    }
    return n;
  }

  // The noise of a scanline: a robust estimate of its standard deviation, from the lower
  // quartile of the differences between neighbours (which edges, a minority, do not reach).
  function noiseOf(profile, n, histogram) {
    histogram.fill(0);
    for (var i = 1; i < n; i++) {
      histogram[Math.min(1023, Math.floor(4 * Math.abs(profile[i] - profile[i - 1])))]++;
    }
    var wanted = (n - 1) / 4, seen = 0;
    for (var level = 0; level < 1024; level++) {
      seen += histogram[level];
      if (seen >= wanted) { return (level + 0.5) / 4 / 0.45; }
    }
    return 0;
  }

  // Cut by extremes: the scanline's alternating peaks and troughs (a new one only once the
  // profile has turned back by `margin`, so noise makes none), each edge where the profile
  // crosses halfway between the peak and the trough on either side of it. Blur lowers the
  // narrow elements' contrast but keeps their peaks and troughs, so this reads blurred codes.
  function cutByExtremes(profile, n, margin, extremes, runs) {
    var count = 0, direction = 0;          // +1 while following a peak, -1 a trough
    var high = 0, low = 0, at = 0;
    for (var i = 1; i < n; i++) {
      var v = profile[i];
      if (direction === 0) {
        if (v > profile[high]) { high = i; }
        if (v < profile[low]) { low = i; }
        if (profile[high] - profile[low] > margin) {
          extremes[count++] = high < low ? high : low;
          direction = high < low ? -1 : 1;
          at = high < low ? low : high;
        }
      } else if (direction > 0 ? v > profile[at] : v < profile[at]) {
        at = i;
      } else if (direction > 0 ? v < profile[at] - margin : v > profile[at] + margin) {
        extremes[count++] = at;
        direction = -direction;
        at = i;
      }
    }
    runs.count = 0;
    runs.sums[0] = 0;
    runs.profile = profile;
    runs.n = n;
    runs.backwards = false;
    if (direction === 0) { return runs; }
    extremes[count++] = at;
    runs.firstDark = profile[extremes[0]] < profile[extremes[1]];
    var lastEdge = 0;
    for (var e = 0; e + 1 < count; e++) {
      var a = extremes[e], b = extremes[e + 1];
      var half = (profile[a] + profile[b]) / 2, rising = profile[b] > profile[a];
      // the first crossing of `half` after a and the last before b (the same one without noise)
      var j = a;
      while (j + 1 < b && (rising ? profile[j + 1] < half : profile[j + 1] > half)) { j++; }
      var first = j + (profile[j] - half) / (profile[j] - profile[j + 1]);
      var k = b;
      while (k - 1 > a && (rising ? profile[k - 1] > half : profile[k - 1] < half)) { k--; }
      var last = k - 1 + (profile[k - 1] - half) / (profile[k - 1] - profile[k]);
      var edge = (first + last) / 2 + 0.5;  // sample i is the pixel from i to i + 1
      if (edge < lastEdge) { edge = lastEdge; }
      runs.add(edge - lastEdge, profile[a]);
      lastEdge = edge;
    }
    runs.add(n - lastEdge, profile[extremes[count - 1]]);
    return runs;
  }

  // Cut by the local mean: dark where the profile is below its mean over `radius` samples each
  // side. A run only ends once the profile is `margin` past the mean (hysteresis against noise),
  // and the edge is put where the profile crosses the mean, interpolated between two samples.
  function cutByMean(profile, n, radius, margin, buf, runs) {
    var sums = buf.sums, offsets = buf.offsets;
    sums[0] = 0;
    for (var i = 0; i < n; i++) { sums[i + 1] = sums[i] + profile[i]; }
    for (i = 0; i < n; i++) {
      var low = i - radius < 0 ? 0 : i - radius;
      var high = i + radius + 1 > n ? n : i + radius + 1;
      offsets[i] = profile[i] - (sums[high] - sums[low]) / (high - low);
    }
    var dark = offsets[0] < 0;
    runs.count = 0;
    runs.sums[0] = 0;
    runs.profile = profile;
    runs.n = n;
    runs.backwards = false;
    runs.firstDark = dark;
    var lastEdge = 0, lastFlip = 0, level = profile[0];
    for (i = 1; i < n; i++) {
      var d = offsets[i];
      if (dark ? d > margin : d < -margin) {
        // the last sample still on the old side, then the crossing between it and the next
        var j = i - 1;
        while (j > lastFlip && (dark ? offsets[j] > 0 : offsets[j] < 0)) { j--; }
        var a = offsets[j], b = offsets[j + 1];
        var edge = j + 0.5 + (a === b ? 0.5 : a / (a - b));  // sample i is the pixel from i to i + 1
        if (edge < lastEdge) { edge = lastEdge; }
        runs.add(edge - lastEdge, level);
        lastEdge = edge;
        lastFlip = i;
        dark = !dark;
        level = profile[i];
      } else if (dark ? profile[i] < level : profile[i] > level) {
        level = profile[i];
      }
    }
    runs.add(n - lastEdge, level);
    return runs;
  }

  // The digit 0-9 whose widths in `table` are nearest to the four widths from `at` (scaled to 7
  // modules), and how near (sum of squared differences), into `match` if nearer than it was.
  function nearestDigit(widths, at, table, match) {
    var total = widths[at] + widths[at + 1] + widths[at + 2] + widths[at + 3];
    var scale = 7 / total;
    var x0 = widths[at] * scale, x1 = widths[at + 1] * scale, x2 = widths[at + 2] * scale, x3 = widths[at + 3] * scale;
    for (var digit = 0; digit < 10; digit++) {
      var p = table[digit];
      var error = (x0 - p[0]) * (x0 - p[0]) + (x1 - p[1]) * (x1 - p[1]) + (x2 - p[2]) * (x2 - p[2]) + (x3 - p[3]) * (x3 - p[3]);
      if (error < match.error) {
        match.second = match.error;
        match.error = error; match.digit = digit; match.table = table;
      } else if (error < match.second) {
        match.second = error;
      }
    }
  }

  // Whether the digits (numbers 0-9) end in a right check digit: from the right, the digits
  // before it weigh 3, 1, 3, …; the weighted sum with the check digit is a multiple of 10.
  function checkDigitHolds(digits) {
    var sum = 0;
    for (var i = 0; i < digits.length; i++) {
      sum += digits[i] * ((digits.length - 1 - i) % 2 === 1 ? 3 : 1);
    }
    return sum % 10 === 0;
  }

  // Whether `modules` worth of runs from run `k` on, going by `step` (-1: backwards), are light
  // enough for a quiet zone: no dark run in them darker than `threshold`.
  function quietFrom(runs, k, step, modules, threshold) {
    for (var width = 0; width < modules; k += step) {
      if (k < 0 || k >= runs.count) { return false; }  // the scanline ends first
      if (runs.isDark(k) && runs.levels[k] < threshold) { return false; }
      width += runs.widths[k];
    }
    return true;
  }

  // Reading digits by their shape. Blur widens narrow elements and narrows wide ones, so that
  // widths alone mistake digits once the blur is about half a module; the shape of the profile
  // still tells them apart. The profile over each digit is compared with the profile each of the
  // candidate digits would give under the same blur: its modules (and the two modules on each
  // side, which the symbol's structure or the neighbour read before give) blurred by a Gaussian
  // whose width is measured on the guards, whose modules are known. The comparison is the
  // correlation, blind to brightness and contrast (uneven light); the digit is allowed to sit a
  // fraction of a module off the grid (a slightly curved or tilted pack).

  // Each digit's 7 modules, 1 dark and 0 light: L and G digits start light, R digits dark.
  function modulesOf(widths, dark) {
    var modules = [];
    for (var e = 0; e < widths.length; e++, dark = !dark) {
      for (var k = 0; k < widths[e]; k++) { modules.push(dark ? 1 : 0); }
    }
    return modules;
  }
  var L_MODULES = L_WIDTHS.map(function (w) { return modulesOf(w, false); });
  var G_MODULES = G_WIDTHS.map(function (w) { return modulesOf(w, false); });
  var R_MODULES = L_WIDTHS.map(function (w) { return modulesOf(w, true); });
  // The blurs tried, as the standard deviation of the Gaussian in modules (pixels included).
  var BLURS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 0.9];
  // The offsets tried for each digit, in modules.
  var SHIFTS = [-0.3, -0.15, 0, 0.15, 0.3];

  // Φ, the normal distribution function (a logistic approximation, within 0.01: ample here).
  function normal(z) { return 1 / (1 + Math.exp(-1.702 * z)); }

  // Where module coordinate u (module k spans k … k + 1) falls on the scanline, and back: a grid
  // through the centres of the first guard bar, the middle guard's middle bar and the last guard
  // bar (each half of the symbol its own module width, for perspective).
  function Grid(runs, s, kind) {
    var end = s + kind.runs, middle = s + 3 + 4 * kind.half + 2;
    this.start = runs.sums[s] + runs.widths[s] / 2;
    this.middle = runs.sums[middle] + runs.widths[middle] / 2;
    this.end = runs.sums[end - 1] + runs.widths[end - 1] / 2;
    this.middleU = 3 + 7 * kind.half + 2.5;
    this.left = (this.middle - this.start) / (this.middleU - 0.5);
    this.right = (this.end - this.middle) / (kind.modules - 0.5 - this.middleU);
  }
  Grid.prototype.x = function (u) {
    return u <= this.middleU ? this.start + (u - 0.5) * this.left : this.middle + (u - this.middleU) * this.right;
  };
  Grid.prototype.u = function (x) {
    return x <= this.middle ? (x - this.start) / this.left + 0.5 : this.middleU + (x - this.middle) / this.right;
  };

  var shapeSamples = new Float64Array(1024), shapeU = new Float64Array(1024), shapeT = new Float64Array(1024);
  var shapeSteps = new Float64Array(SHIFTS.length * 10 * 1024);  // Φ at each sample of each module boundary
  // The samples of the profile whose pixel centres lie between module coordinates u0 and u1,
  // into shapeSamples (as darkness) and shapeU; returns their count.
  function samplesBetween(runs, grid, u0, u1) {
    var first = Math.max(0, Math.ceil(grid.x(u0) - 0.5)), last = Math.min(runs.n - 1, Math.floor(grid.x(u1) - 0.5));
    var count = 0;
    for (var i = first; i <= last && count < shapeSamples.length; i++) {
      shapeSamples[count] = -runs.profile[i];
      shapeU[count++] = grid.u(i + 0.5);
    }
    return count;
  }

  // The correlation between the `count` samples and the profile of `modules` (module `lo` first;
  // the first and last go on beyond) blurred by `blur`, the modules moved by `shift`.
  function shapeFit(count, modules, lo, blur, shift) {
    for (var i = 0; i < count; i++) {
      var u = shapeU[i] - shift, t = modules[0];
      for (var k = 1; k < modules.length; k++) {
        if (modules[k] !== modules[k - 1]) { t += (modules[k] - modules[k - 1]) * normal((u - lo - k) / blur); }
      }
      shapeT[i] = t;
    }
    return correlation(count);
  }

  // The correlation of shapeT (a model) with shapeSamples, the first `count` of each.
  function correlation(count) {
    var st = 0, ss = 0, stt = 0, sss = 0, sst = 0;
    for (var i = 0; i < count; i++) {
      var t = shapeT[i], v = shapeSamples[i];
      st += t; ss += v; stt += t * t; sss += v * v; sst += t * v;
    }
    var vt = stt - st * st / count, vs = sss - ss * ss / count;
    return vt > 1e-9 && vs > 1e-9 ? (sst - st * ss / count) / Math.sqrt(vt * vs) : 0;
  }

  // The blur of the symbol: the one whose profile best fits its three guards with their known
  // neighbours (quiet zone, and the light or dark module every digit starts and ends with).
  function blurOf(runs, grid, kind) {
    var m = kind.modules, mid = 3 + 7 * kind.half + 2;
    var regions = [
      { lo: -4, modules: [0, 0, 0, 0, 1, 0, 1, 0], from: -2, to: 3 },
      { lo: mid - 3, modules: [1, 0, 1, 0, 1, 0, 1], from: mid - 2, to: mid + 3 },
      { lo: m - 4, modules: [0, 1, 0, 1, 0, 0, 0, 0], from: m - 3, to: m + 2 }
    ];
    var best = BLURS[0], bestFit = -Infinity;
    for (var b = 0; b < BLURS.length; b++) {
      var fit = 0;
      for (var r = 0; r < regions.length; r++) {
        var region = regions[r], count = samplesBetween(runs, grid, region.from, region.to);
        if (count < 4) { return -1; }
        fit += shapeFit(count, region.modules, region.lo, BLURS[b], 0);
      }
      if (fit > bestFit) { bestFit = fit; best = BLURS[b]; }
    }
    return best;
  }

  // The digits of the candidate at run `s` by shape, into out.digits and out.tables ("L" or
  // "G"); false unless every digit is sure. `guess` holds the digits' modules as read by widths
  // (for the second module of the next digit).
  function digitsByShape(runs, s, kind, guess, out) {
    var grid = new Grid(runs, s, kind);
    var blur = blurOf(runs, grid, kind);
    if (blur < 0) { return false; }
    var previous = [0, 1];  // the last two modules of the start guard
    var span = new Array(11);
    for (var d = 0; d < 2 * kind.half; d++) {
      var left = d < kind.half;
      var a = left ? 3 + 7 * d : 3 + 7 * kind.half + 5 + 7 * (d - kind.half);
      if (d === kind.half) { previous = [1, 0]; }  // the middle guard's last two
      // the module after this digit and the one after that
      var next;
      if (d === kind.half - 1) { next = [0, 1]; }                      // the middle guard
      else if (d === 2 * kind.half - 1) { next = [1, 0]; }             // the end guard
      else { next = [left ? 0 : 1, guess.modules[d + 1][1]]; }
      var count = samplesBetween(runs, grid, a, a + 7);
      if (count < 5 || count > 1024) { return false; }
      // Φ at each sample for each of the 10 boundaries between the 11 modules, for each shift
      for (var sh = 0; sh < SHIFTS.length; sh++) {
        for (var b = 0; b < 10; b++) {
          var row = (sh * 10 + b) * count, edge = a - 1 + b + SHIFTS[sh];
          for (var i = 0; i < count; i++) { shapeSteps[row + i] = normal((shapeU[i] - edge) / blur); }
        }
      }
      var tables = left ? (kind === EAN13 ? [L_MODULES, G_MODULES] : [L_MODULES]) : [R_MODULES];
      var bestFit = -Infinity, secondFit = -Infinity, bestDigit = 0, bestTable = null, bestModules = null;
      for (var t = 0; t < tables.length; t++) {
        for (var digit = 0; digit < 10; digit++) {
          var modules = tables[t][digit];
          span[0] = previous[0]; span[1] = previous[1];
          for (var k = 0; k < 7; k++) { span[2 + k] = modules[k]; }
          span[9] = next[0]; span[10] = next[1];
          var fit = -Infinity;
          for (sh = 0; sh < SHIFTS.length; sh++) {
            for (i = 0; i < count; i++) { shapeT[i] = span[0]; }
            for (b = 0; b < 10; b++) {
              var step = span[b + 1] - span[b];
              if (step === 0) { continue; }
              row = (sh * 10 + b) * count;
              for (i = 0; i < count; i++) { shapeT[i] += step * shapeSteps[row + i]; }
            }
            var f = correlation(count);
            if (f > fit) { fit = f; }
          }
          if (fit > bestFit) {
            secondFit = bestFit;
            bestFit = fit; bestDigit = digit; bestTable = tables[t]; bestModules = modules;
          } else if (fit > secondFit) {
            secondFit = fit;
          }
        }
      }
      if (bestFit < MIN_SHAPE_FIT || 1 - secondFit < SHAPE_MARGIN * (1 - bestFit)) { return false; }  // not sure enough
      out.digits[d] = bestDigit;
      out.tables[d] = bestTable === G_MODULES ? "G" : "L";
      previous = [bestModules[5], bestModules[6]];
    }
    return true;
  }

  // The code of `digits` (and for an EAN-13 the L/G parity of its left half), if the parity
  // names a first digit and the check digit holds; else null.
  function codeOf(kind, digits, parity) {
    var all = digits.slice(0, 2 * kind.half);
    if (kind === EAN13) {
      var first = FIRST_DIGIT.indexOf(parity);
      if (first < 0) { return null; }
      all.unshift(first);
    }
    if (!checkDigitHolds(all)) { return null; }
    var text = all.join("");
    return kind === EAN13 && text.charAt(0) === "0" ? text.slice(1) : text;  // UPC-A: 12 digits
  }

  // The symbol of `kind` whose start guard's first bar is run `s`, or null.
  var digitWidths = new Float64Array(EAN13.runs);
  var match = { digit: 0, error: 0, second: 0, table: null };
  var byWidths = { digits: [], errors: [], seconds: [], modules: [] };
  var byShape = { digits: [], tables: [] };
  function symbolAt(runs, s, kind) {
    var end = s + kind.runs, widths = runs.widths, levels = runs.levels;
    if (end >= runs.count) { return null; }
    var module = (runs.sums[end] - runs.sums[s]) / kind.modules;
    var middle = s + 3 + 4 * kind.half;
    var guards = [s, s + 1, s + 2, middle, middle + 1, middle + 2, middle + 3, middle + 4, end - 3, end - 2, end - 1];
    var darkWidth = 0, lightWidth = 0, darkLevel = 0, lightLevel = 0;
    for (var g = 0; g < guards.length; g++) {
      var w = widths[guards[g]];
      if (w < 0.4 * module || w > 1.9 * module) { return null; }
      // the start guard begins dark; so do runs s + 2, s + 4, … (the middle guard starts light)
      if ((guards[g] - s) % 2 === 0) { darkWidth += w; darkLevel += levels[guards[g]]; } else { lightWidth += w; lightLevel += levels[guards[g]]; }
    }
    // 6 of the 11 guard runs are dark, 5 light
    var threshold = (darkLevel / 6 + lightLevel / 5) / 2;
    if (!quietFrom(runs, s - 1, -1, QUIET * module, threshold) || !quietFrom(runs, end, 1, QUIET * module, threshold)) { return null; }
    // Blur, ink and threshold make every bar a little wider (or narrower) and every space as
    // much narrower; the guards, all one module, tell by how much.
    var spread = (darkWidth / 6 - lightWidth / 5) / 2;
    if (spread > 0.35 * module) { spread = 0.35 * module; }
    if (spread < -0.35 * module) { spread = -0.35 * module; }
    for (var r = 0; r < kind.runs; r++) {
      digitWidths[r] = widths[s + r] + (r % 2 === 0 ? -spread : spread);
    }
    var parity = "";
    for (var d = 0; d < 2 * kind.half; d++) {
      var left = d < kind.half;
      var at = left ? 3 + 4 * d : 3 + 4 * kind.half + 5 + 4 * (d - kind.half);
      var total = digitWidths[at] + digitWidths[at + 1] + digitWidths[at + 2] + digitWidths[at + 3];
      if (total < 5 * module || total > 9 * module) { return null; }  // a run too many or too few
      match.error = Infinity; match.second = Infinity;
      nearestDigit(digitWidths, at, L_WIDTHS, match);  // R digits have the L widths, starting with a bar
      if (left && kind === EAN13) { nearestDigit(digitWidths, at, G_WIDTHS, match); }
      byWidths.digits[d] = match.digit;
      byWidths.errors[d] = match.error;
      byWidths.seconds[d] = match.second;
      byWidths.modules[d] = left ? (match.table === G_WIDTHS ? G_MODULES : L_MODULES)[match.digit] : R_MODULES[match.digit];
      if (left) { parity += match.table === G_WIDTHS ? "G" : "L"; }
    }
    // Sure by widths (each digit near its pattern and clearly nearer than to any other): done.
    var sure = true;
    for (d = 0; d < 2 * kind.half; d++) {
      if (byWidths.errors[d] > MAX_WIDTH_ERROR || byWidths.seconds[d] - byWidths.errors[d] < WIDTH_MARGIN) { sure = false; }
    }
    var code = sure ? codeOf(kind, byWidths.digits, parity) : null;
    if (code) { return code; }
    // Else by shape, once for each place on the scanline (the other cuts find the same symbol).
    var key = (runs.backwards ? runs.n - runs.sums[s] : runs.sums[s]) * (kind === EAN13 ? 1 : -1);
    for (var t = 0; t < shapesTried.length; t++) {
      if (Math.abs(shapesTried[t] - key) < 2) { return null; }
    }
    shapesTried.push(key);
    if (!digitsByShape(runs, s, kind, byWidths, byShape)) { return null; }
    return codeOf(kind, byShape.digits, byShape.tables.slice(0, kind.half).join(""));
  }
  var shapesTried = [];  // where on the current scanline symbols were read by shape

  // The first symbol in the runs, read forwards, else backwards (an EAN-13 before an EAN-8 at
  // the same place); or null.
  function symbolIn(runs, reversed) {
    if (runs.count < EAN8.runs + 2) { return null; }
    var pass = runs;
    for (var direction = 0; direction < 2; direction++) {
      for (var s = pass.firstDark ? 2 : 1; s + EAN8.runs < pass.count; s += 2) {
        var code = symbolAt(pass, s, EAN13) || symbolAt(pass, s, EAN8);
        if (code) { return code; }
      }
      pass = runs.reverseInto(reversed);
    }
    return null;
  }

  // What one scanline reads (row `at`, or column `at` when vertical), or null.
  function readScanline(image, vertical, at, buf) {
    var n = sampleLine(image, vertical, at, buf.profile);
    var noise = noiseOf(buf.profile, n, buf.histogram);
    shapesTried.length = 0;
    for (var c = 0; c < CUTS.length; c++) {
      var cut = CUTS[c];
      var runs = cut.window
        ? cutByMean(buf.profile, n, Math.max(3, Math.round(n * cut.window)), Math.max(1, cut.noise * noise), buf, buf.runs)
        : cutByExtremes(buf.profile, n, Math.max(4, cut.noise * noise), buf.extremes, buf.runs);
      var code = symbolIn(runs, buf.reversed);
      if (code) { return code; }
    }
    return null;
  }

  // The positions of `count` scanlines across `size` pixels, the middle ones first (where a
  // code held up to the camera usually is).
  function positions(size, count) {
    var step = size / (count + 1), list = [];
    for (var i = 1; i <= count; i++) { list.push(Math.round(i * step)); }
    return list.sort(function (a, b) { return Math.abs(a - size / 2) - Math.abs(b - size / 2); });
  }

  // The code in the frame that at least two scanlines read alike, the one most read; or null.
  function decode(image) {
    if (!image || !image.data || !(image.width > 0) || !(image.height > 0)) { return null; }
    var width = image.width, height = image.height;
    var buf = buffers(Math.max(width, height));
    var rows = positions(height, Math.min(LINES, height)), columns = positions(width, Math.min(LINES, width));
    var votes = {}, best = null;
    for (var i = 0; i < Math.max(rows.length, columns.length); i++) {
      for (var vertical = 0; vertical < 2; vertical++) {
        var list = vertical ? columns : rows;
        if (i >= list.length) { continue; }
        var code = readScanline(image, vertical === 1, list[i], buf);
        if (!code) { continue; }
        votes[code] = (votes[code] || 0) + 1;
        if (!best || votes[code] > votes[best]) { best = code; }
        if (votes[best] >= 3) { return best; }  // enough: no need to read the rest
      }
    }
    return best && votes[best] >= 2 ? best : null;
  }

  window.WDietBarcode = { decode: decode };
})();
