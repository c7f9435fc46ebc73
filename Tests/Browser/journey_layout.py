#!/usr/bin/env python3
"""Every screen of a German user at 390x844 (issue 30, finding 11), in chromium through WebDriver.

A German user made with the CLI (a breakfast with macros, an apple by its portion, a weight)
walks every screen a signed-in user reaches: the dashboard, the log screen with quick add
opened, portion screens (an apple, a Döner, a croissant: long unit names), a meal in words,
copying a day, the meals list and a meal's two edit screens (by amount, by values), progress
(30 and 90 days), the weekly report, the badges, learn and an article, settings and each page
it links to (the eating window's through the banner), weight, the briefing and own foods (each
again with its disclosures opened: a new food, a recipe), the explanation; then recovery mode,
turned on with the CLI, and a mindful meal logged with it: its dashboard, its log screen with
the hunger and fullness scales, its meals, the mindful meal's edit screen, its progress,
settings and the page turning it off. On each screen:
nothing wider than the viewport, no tab label cut with an ellipsis, tap targets at least
44 px (journey_diary's LAYOUT), selects whole (below), axe in light and dark (screenshots of
the viewport, and of the whole page where it is longer). Besides:
  - the progress sections' links ("Verlauf", "Wochenbericht", "Abzeichen") each take one line
    and stay inside their link ("Wochenbe/richt" broke over two);
  - the current tab's label is whole ("Einstellun…" was cut);
  - a select narrower than its row shows its text whole: every option of a unit select ("1
    Portion ≈ 250 g" read "1 Portion ≈"), the chosen one of any other; a select that cuts a
    text at the full width of its row is printed as a NOTE (only a shorter text helps there);
  - quick add's macro inputs, and a meal's, share one top and one height where
    "Kohlenhydrate (g)" takes two lines (the carbs input sat lower);
  - the five steps of the hunger and fullness scales are laid out evenly: one width, one
    height, at least 44 px, as many in every row (they wrapped as two, one, one, one).
Each check is a step of its own, so a run lists every one that fails. A short desktop walk
(1280x800) makes the same checks on the changed screens.

Usage: Tests/Browser/journey_layout.py WDIET_BINARY ARTEFACTS_DIR
"""
import base64
import os
import shutil
import sys
import tempfile
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402
from journey_diary import LAYOUT  # noqa: E402

NOW = "2026-03-04T09:10:00Z"  # Wednesday 10:10 in Berlin

# The progress sections' links: each text on one line (its line boxes share one top), inside its link.
SECTION_LINES = """
return [].map.call(document.querySelectorAll('.section-link'), function (el) {
  var range = document.createRange();
  range.selectNodeContents(el);
  var tops = [];
  [].forEach.call(range.getClientRects(), function (r) {
    if (r.width > 0 && tops.every(function (t) { return Math.abs(t - r.top) > 2; })) { tops.push(r.top); }
  });
  var style = getComputedStyle(el);
  var oneLine = parseFloat(style.lineHeight) + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  return {text: el.textContent.trim(), lines: tops.length, height: el.getBoundingClientRect().height, oneLine: Math.max(oneLine, 44),
          overflows: el.scrollWidth > el.clientWidth + 1};
});
"""

# Whether selects show their text whole: a copy of the select with one option, as wide as its
# content, is no wider than the select. Unit selects (`[name=unit]`, `[name$="[unit]"]`) for
# every option (each may be chosen), any other select for its chosen one. A select that cuts a
# text fails when it is narrower than its row (the `.field-row` it sits in, else its parent's
# content box): it could have been wider. Cut at the full width of its row it is noted: only a
# shorter text helps a native select, which cannot wrap.
SELECT_FIT = """
var failed = [], noted = [];
document.querySelectorAll('main select').forEach(function (select) {
  var box = select.getBoundingClientRect();
  if (box.width === 0) { return; }
  var row = select.closest('.field-row') || select.parentElement;
  var style = getComputedStyle(row);
  var rowWidth = row.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  var unit = /(^|\\[)unit\\]?$/.test(select.name);
  var options = unit ? [].slice.call(select.options) : [select.options[select.selectedIndex]];
  options.forEach(function (option) {
    if (!option) { return; }
    var copy = select.cloneNode(false);
    copy.removeAttribute('id');
    copy.removeAttribute('name');
    copy.appendChild(option.cloneNode(true));
    copy.style.cssText = 'position:absolute;visibility:hidden;width:max-content;min-width:0;max-width:none';
    select.parentNode.appendChild(copy);
    var needed = copy.getBoundingClientRect().width;
    copy.remove();
    if (needed > box.width + 0.5) {
      var problem = (select.id || select.name) + ': "' + option.text + '" needs ' + Math.round(needed) + ' px, has ' + Math.round(box.width);
      if (box.width < rowWidth - 1) { failed.push(problem + ' of a row of ' + Math.round(rowWidth)); } else { noted.push(problem); }
    }
  });
});
return [failed, noted];
"""

# Quick add's (and a meal's) macro inputs: one top, one height.
MACRO_BOXES = """
return ['meal-protein', 'meal-carbs', 'meal-fat'].map(function (id) {
  var el = document.getElementById(id);
  var box = el.getBoundingClientRect();
  var label = document.querySelector('label[for="' + id + '"]').getBoundingClientRect();
  return {id: id, top: box.top, height: box.height, width: box.width, labelHeight: label.height};
});
"""

# The recovery scales: per fieldset, each step's box.
SCALE_BOXES = """
return [].map.call(document.querySelectorAll('fieldset.scale'), function (fieldset) {
  return {legend: fieldset.querySelector('legend').textContent.trim(),
          steps: [].map.call(fieldset.querySelectorAll('label.choice'), function (el) {
            var box = el.getBoundingClientRect();
            return {text: el.textContent.trim(), left: box.left, top: box.top, width: box.width, height: box.height};
          })};
});
"""


class LayoutJourney(journey.Journey):
    """Each check is its own step of `tally` (a failed one is reported and the walk goes on), so
    a run names every screen and check that fails."""

    tally = None

    def soft(self, label, body):
        self.tally.run(label, body, lambda: self)

    def screen(self, label):
        """The viewport's screenshot and axe (journey.Journey), and the whole page as well where it
        is taller than the screen, to look at below the fold."""
        super().screen(label)
        d = self.driver
        if d.execute_script("return document.documentElement.scrollHeight > window.innerHeight + 1"):
            shot = d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
            with open(os.path.join(self.folder, f"{self.step:02d}-{label}-page.png"), "wb") as f:
                f.write(base64.b64decode(shot["data"]))

    def layout(self, label):
        problems = self.driver.execute_script(LAYOUT)
        check(not problems, "; ".join(problems[:5]))

    def selects_fit(self, label):
        failed, noted = self.driver.execute_script(SELECT_FIT)
        for problem in noted:
            print(f"NOTE {label}: a select cuts its text at the full width of its row: {problem}")
        check(not failed, "a select narrower than its row cuts its text: " + "; ".join(failed[:5]))

    def walk(self, label):
        """The LAYOUT check, selects whole, light and dark screenshots with axe."""
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.soft(f"{label} layout", lambda: self.layout(label))
        self.soft(f"{label} selects", lambda: self.selects_fit(label))
        self.soft(f"{label} axe", lambda: self.screens(label))

    def visit(self, server, path, label):
        self.driver.get(server.url + path)
        check(urlparse(self.driver.current_url).path == urlparse(server.url + path).path,
              f"{path} is shown (not {self.driver.current_url})")
        self.walk(label)

    def sections_one_line(self, label):
        links = self.driver.execute_script(SECTION_LINES)
        check(len(links) == 3, f"three section links: {links}")
        cut = [link for link in links if link["lines"] != 1 or link["height"] > link["oneLine"] + 1]
        check(not cut, "a section link takes more than one line: " + ", ".join(
            f"{link['text']!r} {link['lines']} lines, {round(link['height'])} px" for link in cut))
        wide = [link["text"] for link in links if link["overflows"]]
        check(not wide, f"a section link's text runs over its edge: {wide}")
        return "/".join(link["text"] for link in links) + " on one line each"

    def active_tab_whole(self, label):
        tab = self.driver.execute_script(
            "var l = document.querySelector('.tab.is-current .tab-label');"
            "return l ? [l.textContent, l.scrollWidth, l.clientWidth] : null")
        check(tab and tab[1] <= tab[2] + 1, f"the current tab's label is cut: {tab}")
        return f"{tab[0]!r} whole"

    def macros_aligned(self, label):
        boxes = self.driver.execute_script(MACRO_BOXES)
        tops = [b["top"] for b in boxes]
        heights = [b["height"] for b in boxes]
        check(max(tops) - min(tops) <= 1 and max(heights) - min(heights) <= 1,
              "the macro inputs do not line up: " + ", ".join(
                  f"{b['id']} top {round(b['top'])} height {round(b['height'])} (label {round(b['labelHeight'])} px)" for b in boxes))
        return f"inputs at top {round(tops[0])}, labels {[round(b['labelHeight']) for b in boxes]} px high"

    def scales_even(self, label):
        scales = self.driver.execute_script(SCALE_BOXES)
        check(len(scales) == 2 and all(len(s["steps"]) == 5 for s in scales), f"two scales of five steps: {scales}")
        shapes = []
        for scale in scales:
            steps = scale["steps"]
            widths = [s["width"] for s in steps]
            heights = [s["height"] for s in steps]
            rows = {}
            for s in steps:
                rows.setdefault(round(s["top"]), []).append(s)
            counts = [len(r) for r in rows.values()]
            check(len(set(counts)) == 1, f"the steps of {scale['legend']!r} wrap unevenly: rows of {counts}")
            check(max(widths) - min(widths) <= 1 and max(heights) - min(heights) <= 1,
                  f"the steps of {scale['legend']!r} differ in size: " + ", ".join(
                      f"{s['text']} {round(s['width'])}x{round(s['height'])}" for s in steps))
            check(min(heights) >= 44 and min(widths) >= 44, f"a step of {scale['legend']!r} is smaller than 44 px")
            shapes.append(f"{len(counts)} rows of {counts[0]}")
        return ", ".join(shapes)

    def open_disclosures(self):
        """Opens every closed disclosure of the page's main (a new food, a recipe, the calendar
        hosts); how many it opened."""
        summaries = self.all("main details:not([open]) > summary")
        for summary in summaries:
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
            summary.click()
        return len(summaries)

    def first_href(self, css):
        links = self.all(css)
        check(links, f"a link {css}")
        return urlparse(links[0].get_attribute("href")).path

    def run_layout(self, server):
        d = self.driver
        self.visit(server, "/", "dashboard")
        self.soft("dashboard current tab", lambda: self.active_tab_whole("dashboard"))

        # the log screen, quick add opened: the macro inputs in one row
        self.visit(server, "/log", "log")
        self.click("#manual summary")
        self.soft("quick-add macros", lambda: self.macros_aligned("quick add"))
        self.walk("log-quick-add")

        # portion screens: an apple, a Döner, a croissant (long unit names)
        for food, label in [("9003", "portion-apple"), ("95001", "portion-doener"), ("18239", "portion-croissant")]:
            self.visit(server, f"/log/food/{food}", label)
            check(len(self.all("#portion-unit option")) > 1, f"{label}: the unit select offers household measures")
        # a meal in words: the confirm screen's unit selects
        d.get(server.url + "/log")
        self.click("#text-entry summary")
        self.type("#meal-text", "1 Döner und 1 Croissant")
        self.load('#text-entry form[action="/log/text"] button[type=submit]')
        check(self.all("[data-text-item]"), "the meal in words has items")
        self.walk("text-confirm")
        self.visit(server, "/log/copy", "copy")

        # the meals list and a meal's edit screens: by its food (a unit select) and by its values
        self.visit(server, "/meals", "meals")
        apple = next((a.get_attribute("href") for a in self.all("a.meal-link") if "Apfel" in a.text), None)
        check(apple, "the apple is in the meals list")
        d.get(apple)
        check(self.all("#edit-unit"), "the apple's edit screen has a unit select")
        self.walk("meal-edit-food")
        d.get(apple + "?values=1")
        self.soft("meal-edit macros", lambda: self.macros_aligned("meal edit"))
        self.walk("meal-edit-values")

        # progress, its sections and ranges
        for path, label in [("/progress", "progress"), ("/progress?range=90d", "progress-90d"), ("/insights", "insights"),
                            ("/badges", "badges")]:
            d.get(server.url + path)
            self.soft(f"{label} sections", lambda: self.sections_one_line(label))
            self.soft(f"{label} current tab", lambda: self.active_tab_whole(label))
            self.walk(label)

        self.visit(server, "/learn", "learn")
        self.visit(server, self.first_href("main a.topic"), "article")

        # settings and each page it links to (the eating window's through the banner's pencil)
        self.visit(server, "/settings", "settings")
        self.soft("settings current tab", lambda: self.active_tab_whole("settings"))
        linked = ["/settings/window"]
        for a in self.all("main a[href]"):
            url = urlparse(a.get_attribute("href"))
            if url.netloc == urlparse(server.url).netloc and url.path not in linked + ["/settings", "/"]:
                linked.append(url.path)
        check("/import" in linked and "/about" in linked, f"settings links import and about: {linked}")
        for path in linked:
            self.visit(server, path, "settings-to-" + path.strip("/").replace("/", "-"))
        for path, label in [("/weight", "weight"), ("/briefing", "briefing"), ("/foods", "foods"), ("/explain", "explain")]:
            self.visit(server, path, label)
            if self.open_disclosures():
                self.walk(label + "-opened")

        # a recipe's review screen (issue 30): every ingredient shown before saving, a can flagged
        d.get(server.url + "/foods")
        self.click("#new-recipe summary")
        self.type("#recipe-name", "Tomatensuppe mit Hähnchen")
        self.type("#recipe-ingredients", "300 g Hähnchenbrust, 800 ml Gemüsebrühe, 1 Dose Tomaten")
        self.type("#recipe-servings", "4", clear=True)
        self.load('#new-recipe form button[type=submit]')
        items = self.all("[data-text-item]")
        check(len(items) == 3, f"the review shows the three ingredients: {len(items)}")
        check("Diese Menge kenne ich für Tomate nicht" in self.main_text(), "the can of tomatoes is flagged to check")
        self.walk("recipe-review")
        self.load('button[name="confirm"][value="yes"]')
        check("Tomatensuppe mit Hähnchen" in d.page_source, "the saved recipe is on the log screen")
        self.walk("recipe-saved")

        # recovery mode, turned on with the CLI; a mindful meal logged with it
        journey.wdiet(server.folder, "set", "recovery-mode", "on", now=NOW)
        journey.wdiet(server.folder, "log", "meal", "Gemüsesuppe", "--hunger", "2", "--fullness", "4", "--feeling", "calm",
                      "--at", "10:00", now=NOW)
        self.visit(server, "/", "recovery-dashboard")
        self.visit(server, "/log", "recovery-log")
        check(self.all('input[name="hunger"]') and not self.all("#meal-kcal"), "the log screen is mindful")
        self.soft("recovery-log scales", lambda: self.scales_even("recovery-log"))
        self.visit(server, "/meals", "recovery-meals")
        self.visit(server, self.first_href("main a[href^='/mindful/']"), "recovery-meal-edit")
        self.soft("recovery-meal-edit scales", lambda: self.scales_even("recovery-meal-edit"))
        self.visit(server, "/progress", "recovery-progress")
        self.soft("recovery-progress sections", lambda: self.sections_one_line("recovery-progress"))
        for path, label in [("/settings", "recovery-settings"), ("/settings/recovery/off", "recovery-off")]:
            self.visit(server, path, label)
        return f"{self.step} screenshots"

    def run_desktop(self, server):
        """The changed screens at 1280x800: the same checks, no phone layout leaking in."""
        d = self.driver
        d.get(server.url + "/log")
        self.click("#manual summary")
        self.soft("desktop quick-add macros", lambda: self.macros_aligned("desktop quick add"))
        self.walk("desktop-log-quick-add")
        self.visit(server, "/log/food/18239", "desktop-portion-croissant")
        d.get(server.url + "/insights")
        self.soft("desktop insights sections", lambda: self.sections_one_line("desktop insights"))
        self.walk("desktop-insights")
        self.visit(server, "/settings", "desktop-settings")
        journey.wdiet(server.folder, "set", "recovery-mode", "on", now=NOW)
        self.visit(server, "/log", "desktop-recovery-log")
        self.soft("desktop recovery-log scales", lambda: self.scales_even("desktop-recovery-log"))
        return f"{self.step} screenshots"


def onboarded():
    """A German user's database: a breakfast with macros, an apple by its portion, a weight."""
    folder = tempfile.mkdtemp(prefix="wdiet-layout-")
    journey.wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "82.4", "--activity",
                  "light", "--goal", "lose", "--goal-weight", "75", "--window", "07:30-18:30", "--moments", "07:30,12:30,18:30", "--lang", "de",
                  now=NOW)
    journey.wdiet(folder, "log", "meal", "Haferflocken mit Milch", "--kcal", "420", "--protein", "18", "--carbs", "55",
                  "--fat", "12", "--at", "08:00", now=NOW)
    journey.wdiet(folder, "log", "meal", "--food", "9003", "--portion", "1 große", "--at", "10:00", now=NOW)
    journey.wdiet(folder, "log", "weight", "82,1", now=NOW)
    return folder


def trip(tally, name, width, height, mobile, walk):
    """`walk(journey, server)` in a browser of `width` x `height` on a fresh German user's
    database; its checks are steps of `tally`, and the walk as a whole one more."""
    folder = onboarded()
    server = journey.Server(folder=folder, now=NOW)
    LayoutJourney.tally = tally
    current = None

    def body():
        nonlocal current
        current = LayoutJourney(name, width, height, mobile)
        return walk(current, server)
    try:
        tally.run(f"{name} {width}x{height}", body, lambda: current)
    finally:
        if current:
            current.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    tally = journey.Tally()
    trip(tally, "layout", 390, 844, True, LayoutJourney.run_layout)
    trip(tally, "layout-desktop", 1280, 800, False, LayoutJourney.run_desktop)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
