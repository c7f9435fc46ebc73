#!/usr/bin/env python3
"""Badge journey (issue 17, docs/rules.md §5) at 390x844, in chromium through WebDriver.

A profile made with the CLI and 49 meals logged with the real binary on earlier days (never
two days in a row, so no streak badge); the 50th meal logged in the browser: the dashboard
roars three times (data-roar="3") and its toast says "Neues Abzeichen"; /badges shows the
bronze milestone medal, the next badges with their bars and the points with the decay rule.
The dashboard and the badges page are audited with axe in light and dark; the badges page
must not scroll sideways at 390 px.

Usage: Tests/Browser/journey_badges.py WDIET_BINARY ARTEFACTS_DIR
"""
import datetime
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

NOW = "2026-03-02T12:30:00Z"  # Monday 13:30 in Berlin: inside the eating window


def wdiet(folder, *arguments):
    return journey.wdiet(folder, *arguments, now=NOW)


def seed(folder):
    """49 meals: seven a day on seven days, every other day before today."""
    today = datetime.date(2026, 3, 2)
    outputs = []
    for index in range(49):
        day = today - datetime.timedelta(days=2 * (1 + index // 7))
        outputs.append(wdiet(folder, "log", "meal", "Suppe", "--kcal", "300", "--date", day.isoformat(),
                             "--at", f"{12 + index % 7:02d}:00"))
    check(not any("Abzeichen" in output for output in outputs), "49 meals on alternate days earn no badge in the CLI")


class BadgesJourney(journey.Journey):
    def run_badges(self, server):
        d = self.driver
        d.get(server.url + "/log")
        self.click("#manual summary")
        self.type("#meal-kcal", "300")
        self.type("#meal-name", "Suppe")
        # every toast's text, recorded as it appears (app.js shows one for 3 s only)
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.__toasts = [];
            new MutationObserver(function () {
              var t = document.querySelector('[data-toast]');
              if (t && t.textContent && window.__toasts.indexOf(t.textContent) < 0) window.__toasts.push(t.textContent);
            }).observe(document, {subtree: true, childList: true, characterData: true});
        """})
        self.load('#manual button[type="submit"]')
        roar = d.execute_script("return document.body.dataset.roar || ''")
        check(roar == "3", f"the 50th meal roars three times (data-roar={roar!r})")
        # the toast shows for 3 s only: the recorder installed before the save has kept its text
        toast = " ".join(d.execute_script("return window.__toasts || []"))
        check("Neues Abzeichen" in toast, f"the toast names a new badge: {toast!r}")
        self.screens("dashboard-badge")

        d.get(server.url + "/badges")
        medals = self.all('.medal-bronze[data-badge="milestone-bronze"]')
        check(len(medals) == 1, "the badges page shows the bronze milestone medal")
        check("Bronze" in medals[0].text, f"the medal names its tier in words: {medals[0].text!r}")
        check(self.all('.next-badge[data-badge="milestone-silver"] progress'), "the next milestone badge has a progress bar")
        check(self.all("[data-points]"), "the points are shown")
        # the page's own cards (the section nav above them is the progress tab's)
        wide = d.execute_script("""return Array.from(document.querySelectorAll('main > section.card, main > section.card *'))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5 || e.scrollWidth > e.clientWidth + 1)
            .filter(e => !e.closest('.points-scroll') || e.classList.contains('points-scroll'))
            .map(e => e.tagName + '.' + e.className)""")
        check(not wide, f"the badges page's cards fit 390 px: {wide}")
        table = d.execute_script("var t = document.querySelector('.points-scroll'); return t ? [t.scrollWidth, t.clientWidth] : null")
        self.screens("badges")
        page = d.execute_script("return document.documentElement.scrollWidth")
        return (f"triple roar and 'Neues Abzeichen' after the 50th meal, the bronze medal on /badges "
                f"(points table scroll/client width {table}, page scroll width {page})")


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-badges-")
    wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "70", "--activity", "light",
          "--goal", "lose", "--window", "12:00-18:00", "--moments", "12:00,15:00,18:00")
    tally = journey.Tally()
    if not tally.run("seed 49 meals with the CLI", lambda: seed(folder)):
        shutil.rmtree(folder, ignore_errors=True)
        return tally.finish()
    server = journey.Server(folder=folder, now=NOW)
    return journey.run_phone_trip(tally, "badges 390x844", BadgesJourney, lambda trip: trip.run_badges(server), server, folder)


if __name__ == "__main__":
    sys.exit(main())
