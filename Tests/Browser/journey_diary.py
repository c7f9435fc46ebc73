#!/usr/bin/env python3
"""The diary a German user keeps (issue 30) at 390x844, in chromium through WebDriver.

A German user with moments at 07:30, 12:30 and 18:30 sees them named Frühstück, Mittagessen
and Abendessen (they read "Mahlzeit 1/2/3"); a 10:00 breakfast is under Frühstück (it landed
in "Mahlzeit 2 · 12:30"); after that one breakfast the smileys are not three frowns; the
dashboard steps back to yesterday (it could not show another day), where yesterday's
forgotten dinner is logged without typing a time and lands at 18:30 of yesterday, shown there
and not today; the date picker behind the day's name reaches any day. Every screen is audited
with axe in light and dark, and each is checked for layout at 390 px: nothing wider than the
viewport, no tab label cut with an ellipsis, tap targets at least 44 px.

Usage: Tests/Browser/journey_diary.py WDIET_BINARY ARTEFACTS_DIR
"""
import os
import sys
import tempfile

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

NOW = "2026-03-04T09:10:00Z"  # Wednesday 10:10 in Berlin

LAYOUT = """
var problems = [];
var width = document.documentElement.clientWidth;
document.querySelectorAll('body *').forEach(function (el) {
  var box = el.getBoundingClientRect();
  if (box.width === 0 || getComputedStyle(el).visibility === 'hidden') { return; }
  if (box.right > width + 1 && !el.closest('.visually-hidden, .chart, svg, .skip-link')) { problems.push('wider than the screen: ' + el.outerHTML.slice(0, 80)); }
});
document.querySelectorAll('.tab-label').forEach(function (el) {
  if (el.scrollWidth > el.clientWidth + 1) { problems.push('tab label cut: ' + el.textContent); }
});
document.querySelectorAll('main a[href], main button, main summary, main select, .tab-bar a').forEach(function (el) {
  var box = el.getBoundingClientRect();
  if (box.width === 0 || el.closest('.visually-hidden, p, li.meal-row .meal-actions, .meal-meta')) { return; }
  if (box.height < 43.5 || box.width < 43.5) { problems.push('tap target ' + Math.round(box.width) + 'x' + Math.round(box.height) + ': ' + el.outerHTML.slice(0, 80)); }
});
return problems;
"""


class DiaryJourney(journey.Journey):
    def layout(self, label):
        problems = self.driver.execute_script(LAYOUT)
        check(not problems, f"{label} at 390 px: " + "; ".join(problems[:5]))

    def walk(self, label):
        self.layout(label)
        self.screens(label)

    def run_diary(self, server):
        d = self.driver
        d.get(server.url + "/")
        titles = [t.text for t in self.all(".moment-title")]
        check(titles == ["Frühstück · 07:30", "Mittagessen · 12:30", "Abendessen · 18:30"], f"the moments are named: {titles}")
        # a breakfast at 10:00 (logged as the CLI would, at that time)
        journey.wdiet(server.folder, "log", "meal", "Haferflocken mit Milch", "--kcal", "420", "--protein", "18", "--carbs", "55",
                      "--fat", "12", "--at", "10:00", now=NOW)
        d.get(server.url + "/")
        breakfast = self.find("#moment-1").find_element(By.XPATH, "..")
        check("Haferflocken" in breakfast.text, "a 10:00 breakfast is under Frühstück")
        smileys = self.macro_emojis()
        check(smileys.count("😞") < 3, f"one breakfast is not three frowns: {smileys}")
        self.walk("dashboard-today")

        # yesterday, one step back
        self.load('a.day-step[rel="prev"]')
        check(d.current_url.endswith("/?date=2026-03-03"), "the previous day: " + d.current_url)
        check("Gestern" in self.find(".day-title").text, "the day is named: " + self.find(".day-title").text)
        check(not self.all("[data-coach]"), "a past day has no coach speaking of today")
        self.walk("dashboard-yesterday")
        # the forgotten dinner: quick add without a time, at the dinner moment
        self.load("a[data-log-meal]")
        check("Gestern" in self.find(".log-day").text, "the log screen says whose day it logs: " + self.find(".log-day").text)
        self.walk("log-yesterday")
        self.click("#manual summary")
        self.type("#meal-kcal", "650")
        self.type("#meal-name", "Spaghetti Bolognese")
        self.choose("#quick-moment", "3")
        self.load("#manual button[type=submit]")
        check(d.current_url.endswith("/?date=2026-03-03"), "the save returns to yesterday: " + d.current_url)
        dinner = self.find("#moment-3").find_element(By.XPATH, "..")
        check("Spaghetti" in dinner.text and "18:30" in dinner.text, "yesterday's dinner at 18:30: " + dinner.text)
        self.walk("dashboard-yesterday-dinner")
        # the date picker behind the day's name
        self.click(".day-title")
        self.walk("day-picker-open")
        self.load('a.day-step[rel="next"]')
        check("Spaghetti" not in self.main_text(), "today does not show yesterday's dinner")
        d.get(server.url + "/meals?date=2026-03-03")
        check("Spaghetti Bolognese" in self.main_text(), "yesterday's list shows the dinner")
        self.walk("meals-yesterday")

        # copy yesterday at 10:10: breakfast ticked, the 18:30 dinner offered but not ticked
        d.get(server.url + "/log")
        self.load('a[href="/log/copy"]')
        rows = self.all(".check-row")
        ticked = [r.text for r in rows if r.find_element(By.CSS_SELECTOR, "input").is_selected()]
        check(len(rows) == 1 and not ticked, f"yesterday's 18:30 dinner is later than now: offered, not ticked ({[r.text for r in rows]})")
        self.walk("copy")
        self.click(".check-row input")
        self.load(".copy-meals button[type=submit]")
        check("Spaghetti" in self.main_text(), "the ticked dinner is copied")
        check(self.all("[data-toast-undo]"), "the copy's toast offers Undo")
        self.walk("copied")
        self.load(".toast-action")
        check("Spaghetti" not in self.main_text(), "one Undo removes the copy")

        # the moments renamed in settings
        d.get(server.url + "/settings/window")
        self.walk("settings-window")
        self.type("#moment-name-1", "Müsli-Zeit")
        self.load("form button.button-primary[type=submit]")
        d.get(server.url + "/")
        titles = [t.text for t in self.all(".moment-title")]
        check(titles[0] == "Müsli-Zeit · 07:30", f"the renamed moment: {titles}")
        return "moments named; 10:00 breakfast under Frühstück; smileys " + "".join(smileys) + "; yesterday's dinner at 18:30"


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-diary-")
    journey.wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "82.4", "--activity",
                  "light", "--goal", "lose", "--window", "07:30-18:30", "--moments", "07:30,12:30,18:30", "--lang", "de",
                  now=NOW)
    tally = journey.Tally()
    server = journey.Server(folder=folder, now=NOW)
    return journey.run_phone_trip(tally, "diary 390x844", DiaryJourney, lambda trip: trip.run_diary(server), server, folder)


if __name__ == "__main__":
    sys.exit(main())
