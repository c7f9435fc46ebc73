#!/usr/bin/env python3
"""A Spanish-speaking user's first day (issue 30) at 390x844, in chromium through WebDriver.

Issue 30 asks for a browser journey in Spanish next to the German ones. The browser says
German (the harness's chromium); on the welcome step the user picks Español, and from there
every screen must be Spanish. Walked:
  the nine onboarding steps for losing weight ("1 de 9" … "9 de 9"), the weight typed with a
  decimal comma "68,5" and a goal weight "63" -> the dashboard shows the weight card at
  68,5 kg and the goal card at 63,0 kg -> the eating moments of the default 12:00–18:00
  window are named (Comida, Merienda, Cena), not numbered -> a meal in words, "2 huevos y
  una tostada", quoted «…» on the confirm screen and saved, its foods listed on the dashboard
  with the confirmed total -> a quick add with "12,5" g protein and "9,5" g fat, saved under
  its Spanish default name and opened again with 12,5 and 9,5 -> yesterday through the day
  navigation, titled "Ayer" -> progress with the trend in kg as its headline, insights and
  settings.
Every screen is checked for layout at 390 px (journey_diary's LAYOUT: nothing wider than the
viewport, tab labels whole, tap targets at least 44 px), for lang="es" and for common German
or English interface words, and is saved and audited with axe in light and dark; a screen
taller than the phone is also saved as it scrolls (`NN-label-scrollN.png`, light and dark).

Usage: Tests/Browser/journey_spanish.py WDIET_BINARY ARTEFACTS_DIR
"""
import os
import re
import sys
import tempfile

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402
from journey_diary import LAYOUT  # noqa: E402

NOW = "2026-03-04T11:10:00Z"  # Wednesday 12:10 in Berlin (and Madrid)

# the eating moments' names in es.json ("moment.breakfast" …)
MOMENT_NAMES = {"Desayuno", "Media mañana", "Comida", "Merienda", "Cena", "Tentempié"}

# interface words that give away a German or English string on a Spanish screen
FOREIGN = ["Weiter", "Zurück", "Speichern", "Abbrechen", "Heute", "Gestern", "Mahlzeit", "Gewicht", "Ziel",
           "Einstellungen", "Fortschritt", "Frühstück", "Mittagessen", "Abendessen", "Schnell erfasst", "Kalorien",
           "Next", "Back", "Save", "Cancel", "Today", "Yesterday", "Meal", "Weight", "Goal", "Settings",
           "Progress", "Breakfast", "Lunch", "Dinner", "Quick add", "Calories", "Log meal"]

VISIBLE_TEXT = """
var parts = [document.body.innerText];
document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]').forEach(function (el) {
  ['aria-label', 'placeholder', 'title', 'alt'].forEach(function (name) {
    if (el.hasAttribute(name)) { parts.push(el.getAttribute(name)); }
  });
});
parts.push(document.title);
return parts.join('\\n');
"""


class SpanishJourney(journey.Journey):
    def walk(self, label):
        """Layout at 390 px, Spanish throughout, then light and dark with axe."""
        problems = self.driver.execute_script(LAYOUT)
        check(not problems, f"{label} at 390 px: " + "; ".join(problems[:5]))
        lang = self.find("html").get_attribute("lang")
        check(lang == "es", f"{label}: the page is lang={lang!r}, not es")
        text = self.driver.execute_script(VISIBLE_TEXT)
        foreign = sorted({w for w in FOREIGN if re.search(r"(?<![\wÀ-ÿ])" + re.escape(w) + r"(?![\wÀ-ÿ])", text)})
        check(not foreign, f"{label}: German or English words on a Spanish screen: {foreign}")
        self.settle()
        self.screens(label)
        self.scroll_shots(label)

    def settle(self):
        """Waits for the page's finite animations (a toast sliding in) to end."""
        self.wait.until(lambda d: d.execute_script(
            "return document.getAnimations().every(function (a) { return a.playState !== 'running' || "
            "a.effect.getComputedTiming().iterations === Infinity; })"))

    def scroll_shots(self, label):
        """Where the screen is taller than the phone, the rest of it as the user scrolls, in light
        and dark (`NN-label-scroll1.png`, …), so that what lies below the fold is looked at too."""
        d = self.driver
        view = d.execute_script("return window.innerHeight")
        height = d.execute_script("return document.documentElement.scrollHeight")
        stride = view - 120  # an overlap, so nothing falls between two shots
        for number, top in enumerate(range(stride, max(height - view, 0) + stride, stride), start=1):
            d.execute_script("window.scrollTo(0, arguments[0])", min(top, height - view))
            for dark in (False, True):
                self.dark(dark)
                d.save_screenshot(os.path.join(self.folder, f"{self.step:02d}-{label}-scroll{number}{'-dark' if dark else ''}.png"))
        self.dark(False)
        d.execute_script("window.scrollTo(0, 0)")

    def progress(self, expected):
        text = self.find(".step-progress").text
        check(f"{expected} de 9" in text, f"the step counter reads '{expected} de 9': {text!r}")

    def meal_rows(self):
        return [e.text for e in self.all(".meal-row")]

    def run_spanish(self, server):
        d = self.driver
        d.get(server.url + "/")
        check(d.current_url.endswith("/onboarding"), "a new user lands on onboarding")
        # the browser says German; the user chooses Español on the welcome step
        page = self.find("html")
        self.click('input[name="language"][value="es"]')
        self.wait_for_new_page(page)
        check(d.current_url.endswith("/onboarding?lang=es"), "choosing Español reloads onboarding in Spanish: " + d.current_url)
        check(self.find('input[name="language"][value="es"]').is_selected(), "Español stays chosen")
        self.progress(1)
        self.walk("welcome")
        self.next()
        self.progress(2)
        self.walk("sex")
        self.click('input[name="sex"][value="female"]')
        self.next()
        self.progress(3)
        self.type("#age", "34", clear=True)
        self.walk("age")
        self.next()
        self.progress(4)
        self.type("#height", "165", clear=True)
        self.walk("height")
        self.next()
        self.progress(5)
        self.type("#weight", "68,5", clear=True)
        self.walk("weight")
        self.next()
        self.progress(6)
        self.click('input[name="activity"][value="light"]')
        self.walk("activity")
        self.next()
        self.progress(7)
        self.click('input[name="goal"][value="lose"]')
        self.walk("goal")
        self.next()
        self.progress(8)
        check(self.find("#goal_weight").get_attribute("value") == "", "the goal weight is optional and starts empty")
        self.type("#goal_weight", "63")
        self.walk("goal-weight")
        self.next()
        check(not self.all(".form-error"), "a goal weight of 63 below 68,5 is taken: " + " ".join(e.text for e in self.all(".form-error")))
        self.progress(9)
        self.walk("eating-window")
        self.next()

        # the dashboard: the onboarding weight with its comma, the goal
        check(d.current_url.rstrip("/") == server.url, "onboarding ends on the dashboard: " + d.current_url)
        weight = self.find(".weight-value").text
        check("68,5 kg" in weight, "the weight card shows the onboarding weight 68,5 kg: " + weight)
        goal = self.find(".goal-card").text
        check("63,0 kg" in goal, "the goal card names 63,0 kg: " + goal)
        check("faltan 5,5 kg" in goal, "the goal card says how far: " + goal)
        # the eating moments are named as people say them, not numbered
        titles = [t.text for t in self.all(".moment-title")]
        names = [t.split(" · ")[0] for t in titles]
        check(titles and all(n in MOMENT_NAMES for n in names), f"the moments are named in Spanish: {titles}")
        check(not any(re.search(r"\d\s*·|\s\d+$", n) for n in names), f"no numbered moments: {titles}")
        check(len(set(names)) == len(names), f"each moment has its own name: {titles}")
        self.walk("dashboard-empty")

        # a meal in words
        self.load("a[data-log-meal]")
        self.walk("log")
        self.click("#text-entry summary")
        words = "2 huevos y una tostada"
        self.type("#meal-text", words)
        self.walk("log-words-typed")
        self.load('#text-entry form[action="/log/text"] button[type=submit]')
        quoted = self.find("main p.muted").text
        check(quoted == f"«{words}»", f"the typed words are quoted «…»: {quoted!r}")
        chosen = [e.text for e in self.all("select[id$='-food'] option:checked")]
        check(len(self.all("[data-text-item]")) >= 2, f"the words give two foods: {chosen}")
        check(any("huevo" in c.lower() for c in chosen), f"«2 huevos» is eggs: {chosen}")
        check(any(w in c.lower() for c in chosen for w in ("tostada", "pan")), f"«una tostada» is toast: {chosen}")
        total = re.search(r"(\d+) kcal en total", self.main_text())
        check(total, "the confirm screen gives the total in Spanish: " + self.main_text())
        self.walk("text-confirm")
        self.load('button[name="confirm"][value="yes"]')
        check(d.current_url.rstrip("/") == server.url, "saving the meal in words goes to the dashboard: " + d.current_url)
        rows = self.meal_rows()
        check(all(any(r.startswith(c) for r in rows) for c in chosen), f"the dashboard lists {chosen}: {rows}")
        eaten = sum(int(m) for r in rows for m in re.findall(r"(\d+) kcal", r))
        check(eaten == int(total.group(1)), f"the saved foods add up to the confirmed {total.group(1)} kcal: {eaten} ({rows})")
        self.walk("dashboard-words")

        # a quick add with a decimal comma in a macro, no name: the Spanish default name
        self.load("a[data-log-meal]")
        self.click("#manual summary")
        self.type("#meal-kcal", "230")
        self.type("#meal-protein", "12,5")
        self.type("#meal-carbs", "20")
        self.type("#meal-fat", "9,5")
        self.walk("quick-add")
        self.load("#manual button[type=submit]")
        check(not self.all(".field-error, .form-error"), "the quick add is taken: " + " ".join(e.text for e in self.all(".field-error, .form-error")))
        quick = [r for r in self.meal_rows() if "Añadido rápido" in r]
        check(quick and "230 kcal" in quick[0], f"a quick add of 230 kcal named 'Añadido rápido': {self.meal_rows()}")
        self.walk("dashboard-quick")
        link = next(e for e in self.all(".meal-row") if "Añadido rápido" in e.text).find_element(By.CSS_SELECTOR, "a[href*='/meals/']")
        d.get(link.get_attribute("href"))
        protein = self.find("#meal-protein").get_attribute("value")
        check(protein == "12,5", f"the saved meal keeps 12,5 g protein, with a comma: {protein!r}")
        check(self.find("#meal-fat").get_attribute("value") == "9,5", "and 9,5 g fat: " + self.find("#meal-fat").get_attribute("value"))
        self.walk("quick-saved")

        # yesterday, one step back
        d.get(server.url + "/")
        self.load('a.day-step[rel="prev"]')
        check(d.current_url.endswith("/?date=2026-03-03"), "the previous day: " + d.current_url)
        title = self.find(".day-title").text
        check("Ayer" in title, "the day is named Ayer: " + title)
        self.walk("dashboard-yesterday")

        # progress, insights, settings
        d.get(server.url + "/progress")
        headline = self.find(".weight-headline").text
        trend = self.find(".weight-headline .weight-value").text
        check(re.fullmatch(r"\d+,\d kg", trend) and trend == "68,5 kg", f"the headline is the trend in kg, 68,5 kg: {trend!r}")
        check("63,0 kg" in headline, "the headline names the goal: " + headline)
        self.walk("progress")
        for path, label in [("/insights", "insights"), ("/settings", "settings")]:
            d.get(server.url + path)
            check(self.all("main h1"), f"{path} renders a screen with a title")
            self.walk(label)
        return f"{self.step} screens; moments {names}; words → {chosen}; trend {trend}"


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-spanish-")
    tally = journey.Tally()
    server = journey.Server(folder=folder, now=NOW)
    return journey.run_phone_trip(tally, "spanish 390x844", SpanishJourney, lambda trip: trip.run_spanish(server), server, folder)


if __name__ == "__main__":
    sys.exit(main())
