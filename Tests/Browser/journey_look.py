#!/usr/bin/env python3
"""Browser journey of issue 16's look and feel, at 390x844 (phone), as a German user:

  every screen (onboarding, dashboard, log, meals, weight, progress, foods, settings, learn,
  briefing, and the offline banner) in the light and in the dark scheme (DevTools Emulation.setEmulatedMedia), each
  saved as look/light-<screen>.png and look/dark-<screen>.png and audited with axe-core (no
  serious or critical violation, colour contrast included); the tab bar's icons and labels;
  the dashboard's cumulative layout shift on load (PerformanceObserver 'layout-shift',
  buffered) below 0.01; a saved meal's roar animating the mascot, and with
  prefers-reduced-motion: reduce no animation at all.

Usage: Tests/Browser/journey_look.py WDIET_BINARY ARTEFACTS_DIR
Prints "N passed, N failed" and exits non-zero on any failure.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journey  # noqa: E402  (reads BINARY and ARTEFACTS from argv)
from journey import check  # noqa: E402

SCREENS = [("/", "dashboard"), ("/log", "log"), ("/meals", "meals"), ("/weight", "weight"), ("/progress", "progress"),
           ("/foods", "foods"), ("/settings", "settings"), ("/learn", "learn"), ("/briefing", "briefing"),
           ("/explain", "explain"), ("/learn/matador-study", "article"), ("/import", "import"), ("/settings/window", "window")]
BACKGROUNDS = {"light": "rgb(250, 247, 243)", "dark": "rgb(28, 23, 20)"}

CLS_SCRIPT = """
const done = arguments[arguments.length - 1];
let total = 0;
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) { if (!entry.hadRecentInput) { total += entry.value; } }
}).observe({type: "layout-shift", buffered: true});
setTimeout(() => done(total), 1500);
"""


class LookJourney(journey.Journey):
    def __init__(self):
        super().__init__("look", 390, 844, True)
        self.scheme = "light"
        self.results = []

    def media(self, scheme, reduce_motion=False):
        features = [{"name": "prefers-color-scheme", "value": scheme},
                    {"name": "prefers-reduced-motion", "value": "reduce" if reduce_motion else "no-preference"}]
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
        self.scheme = scheme

    def shot(self, label):
        """Screenshot `<scheme>-<label>.png` and the axe audit (journey.Journey.screen's checks)."""
        path = os.path.join(self.folder, f"{self.scheme}-{label}.png")
        before = set(os.listdir(self.folder))
        try:
            self.screen(f"{self.scheme}-{label}")
        finally:
            for name in set(os.listdir(self.folder)) - before:  # journey's numbered file, renamed
                if name.endswith(".png"):
                    os.replace(os.path.join(self.folder, name), path)
        background = self.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        check(background == BACKGROUNDS[self.scheme], f"{self.scheme} {label}: the page background is {background}")

    def onboard(self, server):
        d = self.driver
        d.get(server.url + "/")
        check(d.current_url.endswith("/onboarding"), "a new user lands on onboarding")
        for scheme in ("light", "dark"):
            self.media(scheme)
            check(self.all('.mascot-hero svg[data-mascot="default"]'), "the welcome shows the drawn mascot")
            self.shot("onboarding")
        self.media("light")
        self.next()
        self.click('input[name="sex"][value="male"]')
        self.next()
        self.find("#age").send_keys("34")
        self.next()
        self.find("#height").send_keys("181")
        self.next()
        self.next()  # the weight's starting value
        self.click('input[name="activity"][value="light"]')
        self.next()
        self.click('input[name="goal"][value="lose"]')
        self.next()
        self.next()  # no goal weight (the step is optional)
        self.next()  # the eating window as proposed
        check(d.current_url.rstrip("/") == server.url, "onboarding ends on the dashboard")

    def tab_bar(self):
        tabs = self.all(".tab-bar .tab")
        check(len(tabs) == 5, f"five tabs: {len(tabs)}")
        for tab in tabs:
            icon = tab.find_elements("css selector", ".tab-icon svg")
            label = tab.find_elements("css selector", ".tab-label")
            check(icon and icon[0].size["width"] == 24, "every tab has a 24 px SVG icon")
            check(label and label[0].is_displayed() and label[0].text.strip(), "every tab shows its label: " + tab.text)
        check(tabs[0].text.strip() == "Start", "the home tab reads 'Start': " + tabs[0].text)

    def log_meal(self, server, kcal):
        self.driver.get(server.url + "/log")
        self.find("#manual summary").click()
        self.find("#meal-kcal").send_keys(kcal)
        self.load('#manual button[type="submit"]')

    def roars(self, server):
        d = self.driver
        self.log_meal(server, "500")
        roar = d.execute_script("return document.body.getAttribute('data-roar')")
        check(roar in ("1", "2", "3"), f"a saved meal roars on the dashboard: data-roar={roar}")
        animation = d.execute_script("return getComputedStyle(document.querySelector('.mascot-fire')).animationName")
        check("roar" in animation, "the mascot roars: " + animation)
        count = d.execute_script("return getComputedStyle(document.querySelector('.mascot-fire')).animationIterationCount")
        check(count.split(",")[0].strip() == roar, f"as many pulses as the roar: {count} for {roar}")
        self.media("light", reduce_motion=True)
        self.log_meal(server, "300")
        check(d.execute_script("return document.body.getAttribute('data-roar')"), "the roar is on the page")
        animation = d.execute_script("return getComputedStyle(document.querySelector('.mascot-fire')).animationName")
        check(animation == "none", "prefers-reduced-motion: reduce stops the mascot: " + animation)
        glow = d.execute_script("return getComputedStyle(document.querySelector('.mascot-fire')).filter")
        check("drop-shadow" in glow, "a still highlight instead: " + glow)
        self.media("light")

    def layout_shift(self, server, scheme):
        self.media(scheme)
        self.driver.get(server.url + "/")
        shift = self.driver.execute_async_script(CLS_SCRIPT)
        print(f"CLS dashboard load ({scheme}): {shift:.4f}")
        check(shift < 0.01, f"the dashboard's load shifts the layout by {shift:.4f} (< 0.01)")
        return shift

    def offline_banner(self):
        """The banner as offline.js fills it (docs/architecture.md, "The web app"), shown by hand: its contrast in both schemes."""
        self.driver.execute_script("""
            const banner = document.querySelector('[data-offline-banner]');
            banner.innerHTML = '<p>' + banner.getAttribute('data-offline') + '</p><span class="queued-count">2</span>';
            banner.hidden = false;""")
        height = self.driver.execute_script("return document.querySelector('[data-offline-banner]').getBoundingClientRect().height")
        check(0 < height <= 48, f"the offline banner is a slim bar: {height}px")
        self.shot("offline-banner")

    def run(self, server):
        self.onboard(server)
        self.tab_bar()
        self.roars(server)
        for scheme in ("light", "dark"):
            self.layout_shift(server, scheme)
        # a meal's edit screen: the first meal the roars logged
        self.driver.get(server.url + "/meals")
        meal = self.find(".meal-link").get_attribute("href").replace(server.url, "")
        for scheme in ("light", "dark"):
            self.media(scheme)
            for path, label in SCREENS + [(meal, "meal-edit")]:
                self.driver.get(server.url + path)
                self.shot(label)
            self.driver.get(server.url + "/")
            self.offline_banner()


def main():
    tally = journey.Tally()
    server = journey.Server()
    look = None

    def walk():
        nonlocal look
        look = LookJourney()
        look.run(server)
        return f"{look.step} screens in light and dark, no serious or critical axe violation"
    try:
        tally.run("look 390x844", walk, lambda: look)
    finally:
        if look:
            look.close()
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)
    return tally.finish()

if __name__ == "__main__":
    sys.exit(main())
