#!/usr/bin/env python3
"""A German user's first meals (issue 29) at 390x844, in chromium through WebDriver.

The findings of issue 29 walked as a German user walked them: an apple logged in grams on its
portion screen is saved as 150 g (it was refused as 45,000 g); "Latte macchiato, 100g Hähnchen
und eine Pizza Margherita" in words finds the coffee drink, chicken breast and a whole pizza (it
found a white wine, a Caesar salad from the history and one slice); the apple's amount is then
edited to 200 g and its calories follow; oats are offered in a Portion, no US measuring cup; the
chicken is fried, as on the plate; the about page names BLS 4.0 with its licence. Every
screen is audited with axe in light and dark.

Usage: Tests/Browser/journey_german.py WDIET_BINARY ARTEFACTS_DIR
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

NOW = "2026-03-02T12:30:00Z"  # Monday 13:30 in Berlin: inside the eating window


def kcal_of(text, name):
    """The kcal of the meal called `name` in the meals list's text."""
    found = re.search(re.escape(name) + r"\s*([\d.]+)\s*kcal", text)
    return int(found.group(1).replace(".", "")) if found else None


class GermanJourney(journey.Journey):
    def run_german(self, server):
        d = self.driver
        # an apple in grams on its portion screen
        d.get(server.url + "/log/food/9003")
        self.type("#portion-amount", "150", clear=True)
        self.choose("#portion-unit", "g")
        check("150 g" in self.main_text(), "the preview says 150 g")
        self.screens("apple-150-g")
        self.load("form[data-portion] button[type=submit]")
        d.get(server.url + "/meals")
        apple = kcal_of(self.main_text(), "Apfel")
        check(apple is not None and 70 <= apple <= 100, f"150 g of apple are saved, about 87 kcal: {apple}")

        # oats on a German portion screen: a Portion, no US measuring cup
        d.get(server.url + "/log/food/8120")
        units = [e.text for e in self.all("#portion-unit option")]
        check(any(u.startswith("1 Portion") for u in units) and not any("Messbecher" in u for u in units),
              f"oats offer a Portion and no Messbecher: {units}")
        self.screens("oats-units")

        # three things in words: the coffee drink, chicken breast, a whole pizza
        d.get(server.url + "/log")
        self.click("#text-entry summary")
        self.type("#meal-text", "Latte macchiato, 100g Hähnchen und eine Pizza Margherita")
        self.load('#text-entry form[action="/log/text"] button[type=submit]')
        chosen = [e.text for e in self.all("select[id$='-food'] option:checked")]
        text = self.main_text()
        check(any("Latte macchiato" in c for c in chosen), f"Latte macchiato is the coffee drink: {chosen}")
        check(any("Hähnchen" in c for c in chosen) and not any("Caesar" in c for c in chosen), f"100g Hähnchen is chicken: {chosen}")
        check(any("Pizza Margherita" in c for c in chosen), f"the pizza is a Pizza Margherita: {chosen}")
        check("wine" not in text.lower() and "Wein" not in text, "no wine anywhere on the confirm screen")
        self.screens("meal-in-words")
        self.load('button[name="confirm"][value="yes"]')
        d.get(server.url + "/meals")
        text = self.main_text()
        pizza = kcal_of(text, "Pizza Margherita")
        check(pizza is not None and 700 <= pizza <= 1000, f"a pizza is a whole pizza, 700–1,000 kcal: {pizza}")
        # chicken as it comes on the plate: 100 g fried breast (BLS 148 kcal), not raw
        chicken = kcal_of(text, "Hähnchenbrust gebraten")
        check(chicken is not None and 130 <= chicken <= 165, f"100 g of fried chicken breast, about 148 kcal: {chicken}")
        latte = kcal_of(text, "Latte macchiato")
        check(latte is not None and 100 <= latte <= 200, f"a latte macchiato is a glass, 100–200 kcal: {latte}")

        # the apple edited by amount
        links = [e.get_attribute("href") for e in self.all("a[href*='/meals/']") if "Apfel" in e.text]
        check(links, "the apple's meal can be opened")
        d.get(links[0])
        self.type("#edit-amount", "200", clear=True)
        self.screens("edit-apple-amount")
        self.load("form[data-portion] button.button-primary[type=submit]")
        d.get(server.url + "/meals")
        edited = kcal_of(self.main_text(), "Apfel")
        check(edited is not None and abs(edited - apple * 200 / 150) <= 1, f"200 g of apple: the calories follow the amount ({apple} → {edited})")
        self.screens("meals")

        # where the numbers come from
        d.get(server.url + "/about")
        about = self.main_text()
        check("Bundeslebensmittelschlüssel" in about and "CC BY 4.0" in about, "the about page names BLS 4.0 and its licence")
        wide = d.execute_script("return document.documentElement.scrollWidth")
        check(wide <= 390, f"the about page fits 390 px (scroll width {wide})")
        self.screens("about")
        return f"apple 150 g = {apple} kcal, edited to 200 g = {edited} kcal; latte {latte}, chicken {chicken}, pizza {pizza} kcal"


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-german-")
    journey.wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "70", "--activity",
                  "light", "--goal", "lose", "--window", "12:00-18:00", "--moments", "12:00,15:00,18:00", "--lang", "de",
                  now=NOW)
    tally = journey.Tally()
    server = journey.Server(folder=folder, now=NOW)
    return journey.run_phone_trip(tally, "german 390x844", GermanJourney, lambda trip: trip.run_german(server), server, folder)


if __name__ == "__main__":
    sys.exit(main())
