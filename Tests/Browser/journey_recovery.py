#!/usr/bin/env python3
"""Recovery-mode journey (issue 17, docs/rules.md §8) at 390x844, in chromium through WebDriver.

A profile made with the CLI; a meal of 1234 kcal logged with numbers through the quick add;
recovery mode turned on in settings with one tap: the dashboard shows no digit of the meal's
calories. A mindful meal (words, hunger before and fullness after) is logged and shows under
its eating moment. Recovery mode turned off, asked once: the numbers are back. The recovery
screens are audited with axe in light and dark.

Usage: Tests/Browser/journey_recovery.py WDIET_BINARY ARTEFACTS_DIR
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

NOW = "2026-01-05T12:30:00Z"  # 13:30 in Berlin: inside the eating window, the second moment
KCAL = re.compile(r"(?<![0-9.,])1[.,\u202f\u00a0 ]?234(?![0-9])")


def wdiet(folder, *arguments):
    return journey.wdiet(folder, *arguments, now=NOW)


class RecoveryJourney(journey.Journey):
    def page_html(self):
        return self.driver.execute_script("return document.getElementById('main').innerHTML")

    def run_recovery(self, server):
        d = self.driver
        d.get(server.url + "/log")
        self.click("#manual summary")
        self.type("#meal-kcal", "1234")
        self.type("#meal-name", "Eintopf")
        self.load('#manual button[type="submit"]')
        check(KCAL.search(self.main_text()), "before recovery mode the dashboard shows the meal's 1234 kcal")

        d.get(server.url + "/settings")
        self.start_count()
        self.load('form[action="/settings/recovery/on"] [data-recovery-toggle]')
        self.end_count("on")
        check(self.counts["on"][0] == 1, f"turning recovery mode on took {self.counts['on'][0]} taps")
        check(d.current_url.rstrip("/") == server.url, f"after turning it on: {d.current_url}")
        text = self.main_text()
        check("Eintopf" in text, "the meal's name stays on the dashboard")
        check(not KCAL.search(text) and not KCAL.search(self.page_html()), "recovery mode: the dashboard shows no digit of the 1234 kcal")
        check(not self.all("[data-ring]") and not self.all(".macro-card") and not self.all(".weight-card"),
              "no ring, no macros, no weight card")
        self.screens("recovery-dashboard")

        self.load("[data-log-meal]")
        check(self.all('input[name="hunger"]') and not self.all("#meal-kcal"), "the log screen is mindful: hunger and fullness, no calories")
        self.screens("recovery-log")
        self.type("#mindful-name", "Gemüsesuppe")
        self.click('input[name="hunger"][value="2"]')
        self.click('input[name="fullness"][value="4"]')
        self.load('[data-mindful-form] button[type="submit"]')
        moment = self.driver.execute_script(
            "var s = document.querySelector('section.moment.is-current'); return s ? s.textContent : ''")
        check("Gemüsesuppe" in moment, f"the mindful meal shows under the current eating moment: {moment!r}")
        check(not KCAL.search(self.main_text()), "still no calories after the mindful meal")
        self.screens("recovery-dashboard-mindful")

        d.get(server.url + "/progress")
        check(self.all(".rhythm-list") and not self.all(".chart"), "progress is a calm page about regularity, no charts")
        self.screens("recovery-progress")

        d.get(server.url + "/settings")
        self.screens("recovery-settings")
        self.start_count()
        self.load("a[data-recovery-toggle]")
        self.screens("recovery-off")
        self.load("[data-recovery-off]")
        self.end_count("off")
        check(self.counts["off"][0] == 2, f"turning recovery mode off took {self.counts['off'][0]} taps (asked once)")
        text = self.main_text()
        check(KCAL.search(text), "recovery mode off: the numbers are back")
        return "on in one tap, no calories while on, a mindful meal under its moment, off asked once, numbers back"


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-recovery-")
    wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "70", "--activity", "light",
          "--goal", "lose", "--window", "12:00-18:00", "--moments", "12:00,15:00,18:00")
    server = journey.Server(folder=folder, now=NOW)
    tally = journey.Tally()
    return journey.run_phone_trip(tally, "recovery 390x844", RecoveryJourney, lambda trip: trip.run_recovery(server), server, folder)


if __name__ == "__main__":
    sys.exit(main())
