#!/usr/bin/env python3
"""Real-browser journeys of `wdiet serve` (issues 7 and 14), driven by WebDriver.

Runs the built `wdiet` executable on a fresh SQLite file and Debian's chromium through
chromedriver, at 390x844 (phone) and 1280x800 (desktop), as a German user:
  onboarding (weight typed "92,4") -> search "hähn" -> chicken breast, 150 g typed -> 150 g
  saved -> the same food again in three taps from the dashboard -> a calories-only meal of
  "450,5" kcal -> delete and Undo -> a meal in words corrected before saving -> the "over"
  state -> log weight "92,1" -> streak lit -> reload, state kept;
then every other screen. Taps (clicks; a select counts 2: open and choose) and keystrokes
from the dashboard to a saved meal are counted for a repeat food, a new food by search and a
meal in words, and printed as `TAPS repeat=… keys=… | search=… keys=… | words=… keys=…`. Each step is saved as a screenshot under the artefacts folder and
audited with axe-core (bundled by axe-selenium-python): no serious or critical violation
may remain. Prints "N passed, N failed" and exits non-zero on any failure.

Usage: Tests/Browser/journey.py WDIET_BINARY ARTEFACTS_DIR
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

BINARY, ARTEFACTS = sys.argv[1], sys.argv[2]
VIEWPORTS = {"phone": (390, 844, True), "desktop": (1280, 800, False)}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wdiet(folder, *arguments, now="2026-01-05T07:30:00Z"):
    """The real binary in another process, on a journey server's database, at its moment `now`,
    in Berlin and in German; checks it succeeded and returns what it printed."""
    env = dict(os.environ, WDIET_NOW=now, TZ="Europe/Berlin", WDIET_NO_AUTO_SYNC="1", LANG="de_DE.UTF-8")
    env.pop("WDIET_SERVER", None)
    result = subprocess.run([BINARY, *arguments, "--database", os.path.join(folder, "w-diet.sqlite")],
                            capture_output=True, text=True, env=env)
    check(result.returncode == 0, f"wdiet {' '.join(arguments)}: {result.stderr or result.stdout}")
    return result.stdout


class Tally:
    """The outcome of a journey's steps: each reported as it ends, then `N passed, N failed`."""

    def __init__(self):
        self.passed = self.failed = 0

    def run(self, label, body, journey=lambda: None):
        """Runs `body`; prints `PASS label[: what it returned]`, or `FAIL label: reason` with a
        traceback for an unexpected error and a screenshot of `journey()` when there is one."""
        try:
            note = body()
        except Exception as error:  # report and go on with the next step
            self.failed += 1
            print(f"FAIL {label}: {error}")
            if not isinstance(error, Failure):
                traceback.print_exc()
            current = journey()
            if current:
                current.driver.save_screenshot(os.path.join(current.folder, f"failure-{label.split()[0]}.png"))
            return False
        self.passed += 1
        print(f"PASS {label}" + (f": {note}" if note else ""))
        return True

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`wdiet serve` on a fresh database, at a fixed moment (a Monday morning in Berlin)."""

    def __init__(self, folder=None, now="2026-01-05T07:30:00Z"):
        self.folder = folder or tempfile.mkdtemp(prefix="wdiet-browser-")
        self.port = free_port()
        env = dict(os.environ, WDIET_NOW=now, TZ="Europe/Berlin", WDIET_NO_AUTO_SYNC="1", LANG="de_DE.UTF-8")
        env.pop("WDIET_SERVER", None)
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--database", os.path.join(self.folder, "w-diet.sqlite")],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = f"http://127.0.0.1:{self.port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(self.url + "/learn", timeout=1)
                return
            except Exception:
                if self.process.poll() is not None:
                    raise Failure("wdiet serve exited: " + self.process.stdout.read())
                time.sleep(0.05)
        raise Failure("wdiet serve did not answer")

    def stop(self):
        stop_process(self.process)


def stop_process(process):
    """SIGTERM, then SIGKILL if the process has not ended within 10 s."""
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


def run_phone_trip(tally, label, make_trip, body, server, folder):
    """Runs `body(trip)` as the step `label` on a 390 × 844 phone made by `make_trip(name,
    width, height, mobile)`, then closes the browser, stops `server` and removes `folder`."""
    trip = None

    def walk():
        nonlocal trip
        trip = make_trip(label.split()[0], 390, 844, True)
        return body(trip)
    try:
        tally.run(label, walk, lambda: trip)
    finally:
        if trip:
            trip.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return tally.finish()


class Journey:
    def __init__(self, name, width, height, mobile, extra_arguments=()):
        self.name = name
        self.folder = os.path.join(ARTEFACTS, name)
        os.makedirs(self.folder, exist_ok=True)
        self.step = 0
        self.audits = []
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=de-DE",
                         f"--window-size={width},{height}", "--force-device-scale-factor=1", "--hide-scrollbars",
                         *extra_arguments]:
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": "de-DE,de"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        self.wait = WebDriverWait(self.driver, 10)
        self.taps = 0
        self.keys = 0
        self.counts = {}

    def type(self, css, text, clear=False):
        """Types `text` into a field, counting each keystroke (clearing counts one)."""
        field = self.find(css)
        if clear:
            field.clear()
            self.keys += 1
        for letter in text:
            field.send_keys(letter)
            self.keys += 1
        return field

    def choose(self, css, value):
        """Chooses an option of a select: two taps on a phone (open, choose)."""
        Select(self.find(css)).select_by_value(value)
        self.taps += 2

    def start_count(self):
        self.taps = 0
        self.keys = 0

    def end_count(self, name):
        self.counts[name] = (self.taps, self.keys)

    def above_fold(self, css):
        bottom = self.driver.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().bottom", css)
        return bottom <= self.driver.execute_script("return window.innerHeight")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def click(self, css):
        element = self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, css)))
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        self.taps += 1

    def load(self, css):
        """Clicks a link or submit button and waits for the next page."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        self.click(css)
        self.wait_for_new_page(page)

    def wait_for_new_page(self, old):
        """Waits until `old` (the previous page's root) is gone and the new page is loaded."""
        def replaced(driver):
            try:
                old.tag_name
                return False
            except StaleElementReferenceException:
                pass
            except WebDriverException as error:  # a node of a document being replaced
                if "does not belong to the document" not in str(error):
                    raise
            return driver.execute_script("return document.readyState") == "complete"
        self.wait.until(replaced)

    def next(self):
        self.load('button[name="action"][value="next"]')

    def screen(self, label):
        """Screenshot and axe audit of the current screen."""
        self.step += 1
        self.driver.save_screenshot(os.path.join(self.folder, f"{self.step:02d}-{label}.png"))
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run(options={"resultTypes": ["violations"]})
        serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        self.audits.append({"screen": label, "url": self.driver.current_url,
                            "violations": [{"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"])} for v in results["violations"]]})
        check(not serious, f"{label}: axe found " + "; ".join(
            f'{v["id"]} ({v["impact"]}): {v["nodes"][0]["html"][:160]}' for v in serious))

    def screens(self, label):
        """The current screen audited in light and in dark."""
        self.screen(label)
        self.dark(True)
        self.screen(label + "-dark")
        self.dark(False)

    def dark(self, on):
        """Emulates the system's dark (or light) colour scheme."""
        scheme = "dark" if on else "light"
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def main_text(self):
        """The text of the page's <main> (the body's where a page has none)."""
        return self.driver.execute_script("var m = document.getElementById('main'); return m ? m.textContent : document.body.textContent")

    def macro_emojis(self):
        return [e.text for e in self.all(".macro-emoji")]

    def run(self, server):
        d = self.driver
        d.get(server.url + "/")
        check(d.current_url.endswith("/onboarding"), "a new user lands on onboarding")
        check(d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de", "the browser's German is used")
        check("1 von 9" in self.find(".step-progress").text, "progress 1 of 9: " + self.find(".step-progress").text)
        # keyboard: the first Tab reaches the skip link
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        check(d.switch_to.active_element.get_attribute("class") == "skip-link", "Tab reaches the skip link first")
        self.screen("welcome")
        self.next()
        check("2 von 9" in self.find(".step-progress").text, "progress 2 of 9")
        self.next()  # nothing chosen: an inline message, still step 2
        check(self.all(".form-error"), "choosing nothing shows a message")
        self.screen("sex-error")
        self.click('input[name="sex"][value="male"]')
        self.next()
        age = self.find("#age")
        age.send_keys("17")
        self.next()
        check(self.find("#age").get_attribute("value") == "17" and self.all(".form-error"), "age 17 is refused, typed value kept")
        self.screen("age-error")
        self.find("#age").clear()
        self.find("#age").send_keys("34")
        self.next()
        self.find("#height").send_keys("181")
        self.next()
        check(self.find("#weight").get_attribute("value") == "90,0", "the weight starts at 90,0 for men, in German")
        self.type("#weight", "92,4", clear=True)
        self.screen("weight-typed")
        self.next()
        self.click('input[name="activity"][value="light"]')
        self.next()
        self.click('input[name="goal"][value="lose"]')
        self.next()
        # the goal weight (issue 30): a weight above the one typed is refused for losing, 85,0 taken
        check("8 von 9" in self.find(".step-progress").text, "the goal weight is step 8 of 9")
        self.type("#goal_weight", "95")
        self.next()
        check("unter deinem jetzigen von 92,4 kg" in self.find(".form-error").text, "a goal above the weight is refused: " + self.find(".form-error").text)
        self.type("#goal_weight", "85", clear=True)
        self.screen("goal-weight")
        self.next()
        check("9 von 9" in self.find(".step-progress").text, "the eating window is step 9 of 9")
        self.screen("eating-window")
        self.next()

        # the dashboard, empty; "Log meal" above the fold
        check(d.current_url.rstrip("/") == server.url, "onboarding ends on the dashboard")
        check(self.above_fold("a[data-log-meal]"), "the dashboard's Log meal button is above the fold")
        # the weight typed in onboarding is the first weigh-in (issue 30: it read "-- kg · Tippe, um …")
        check("92,4 kg" in self.find(".weight-value").text and not self.all(".prompt-card"),
              "the weight card shows the onboarding weight: " + self.find(".weight-value").text)
        check(self.all(".streak-badge.is-lit"), "the onboarding weigh-in makes today active")
        goal = self.find(".goal-card").text
        check("Ziel 85,0 kg · noch 7,4 kg" in goal and "Voraussichtlich am" in goal, "the goal with its date: " + goal)
        check(self.macro_emojis() == ["😐", "😐", "😐"], "nothing logged: all neutral")
        check(not self.all(".ring-segment"), "an empty ring")
        self.screen("dashboard-empty")
        # installable on the home screen: chromium finds nothing missing in the manifest or icons
        installability = self.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
        check(installability == [], "chromium reports no installability error: %s" % installability)
        manifest = self.driver.execute_cdp_cmd("Page.getAppManifest", {})
        check(not manifest.get("errors"), "the manifest parses without errors: %s" % manifest.get("errors"))
        self.click('a[data-dialog="phase-info"]')
        check(self.find("#phase-info").is_displayed(), "the info icon opens the phase dialog")
        time.sleep(0.5)  # the slide-in has finished
        self.screen("phase-info")
        d.switch_to.active_element.send_keys(Keys.ESCAPE)
        check(not self.find("#phase-info").is_displayed(), "Escape closes the dialog")

        # (b) a new food by search: search as you type, 150 g typed is 150 g saved
        self.start_count()
        self.load('a[data-log-meal]')
        check(d.switch_to.active_element.get_attribute("id") == "food-search", "the search field has the focus")
        check(self.above_fold("#food-search"), "the search field is above the fold")
        self.type("#food-search", "hähn")
        self.wait.until(lambda _: any("Hähnchenbrust" in e.text for e in self.all(".result-name")))
        check("Ergebnis" in self.find("#search-status").text, "the result count is announced")
        self.screen("search-haehn")
        result = next(e for e in self.all("a.result") if "Hähnchenbrust" in e.text)
        page = d.find_element(By.TAG_NAME, "html")
        result.click()
        self.taps += 1
        self.wait_for_new_page(page)
        self.choose("#portion-unit", "g")
        self.type("#portion-amount", "150", clear=True)
        self.wait.until(lambda _: "150 g" in self.find("[data-portion-preview]").text)
        preview_kcal = self.find("[data-portion-preview]").text.split("·")[1].strip().split(" ")[0]
        self.screen("portion-150g")
        self.load('form[data-portion] button[type="submit"]')
        self.end_count("search")
        check(d.current_url.rstrip("/") == server.url, "saving goes to the dashboard with today's meals")
        rows = [e for e in self.all(".meal-row") if "Hähnchenbrust" in e.text]
        check(rows and f"{preview_kcal} kcal" in rows[0].text, f"150 g typed is 150 g saved: preview {preview_kcal} kcal, saved {rows[0].text if rows else '-'}")
        self.wait.until(lambda _: self.all(".toast"))
        time.sleep(0.5)  # the toast has slid in
        self.screen("dashboard-meal")
        check(len(self.all(".ring-segment")) >= 1, "the ring has segments")
        check(self.macro_emojis() != ["😐", "😐", "😐"], "the smileys changed")
        check(self.all(".streak-badge.is-lit"), "the streak stays lit")

        # (a) the repeat food: "Log meal", then the recent food's "Log"
        self.start_count()
        self.load('a[data-log-meal]')
        check("150 g" in self.find(".used-row").text, "the recent food shows its last amount: " + self.find(".used-row").text)
        self.screen("log-recent")
        self.load('.used-row button[data-log-food]')
        self.end_count("repeat")
        check(len([e for e in self.all(".meal-row") if "Hähnchenbrust" in e.text]) == 2, "the repeat food is logged again")

        # a calories-only meal with a German decimal comma
        d.get(server.url + "/log")
        self.find("#manual summary").click()
        self.type("#meal-kcal", "450,5")
        self.load('#manual button[type="submit"]')
        quick = [e for e in self.all(".meal-row") if "Schnell erfasst" in e.text]
        check(quick and "451 kcal" in quick[0].text, "a quick add of 450,5 kcal is saved as 451 kcal named 'Schnell erfasst'")

        # delete and Undo
        row = next(e for e in self.all(".meal-row") if "Schnell erfasst" in e.text)
        page = d.find_element(By.TAG_NAME, "html")
        button = row.find_element(By.CSS_SELECTOR, 'form[action$="/delete"] button')
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        self.wait_for_new_page(page)
        check(not [e for e in self.all(".meal-row") if "Schnell erfasst" in e.text], "the quick add is deleted")
        self.wait.until(lambda _: self.all(".toast-action"))
        time.sleep(0.5)
        self.screen("undo-toast")
        before = len(self.all(".meal-row"))
        self.load(".toast-action")
        check(len(self.all(".meal-row")) == before + 1 and [e for e in self.all(".meal-row") if "Schnell erfasst" in e.text],
              "Undo restores the deleted meal")

        # (c) a meal in words, corrected before saving
        self.start_count()
        self.load('a[data-log-meal]')
        self.click("#text-entry summary")
        self.type("#meal-text", "2 Eier und 1 Scheibe Toast")
        self.load('#text-entry button[type="submit"]')
        items = self.all("[data-text-item]")
        check(len(items) >= 2, f"the meal in words has two items: {len(items)}")
        self.screen("text-confirm")
        self.load('button[name="confirm"][value="yes"]')
        self.end_count("words")
        meals_before = len(self.all(".meal-row"))
        d.get(server.url + "/log")
        self.find("#text-entry summary").click()
        self.find("#meal-text").send_keys("2 Eier und 1 Scheibe Toast")
        self.load('#text-entry button[type="submit"]')
        self.find('input[name="items[i0][amount]"]').clear()
        self.find('input[name="items[i0][amount]"]').send_keys("3")
        self.click('input[name="items[i1][remove]"]')
        self.load('button[name="confirm"][value="update"]')
        check(len(self.all("[data-text-item]")) == 1, "the removed item is gone from the confirm screen")
        self.screen("text-corrected")
        self.load('button[name="confirm"][value="yes"]')
        check(len(self.all(".meal-row")) == meals_before + 1, "only the corrected item is saved")

        # the over state: a big quick add
        d.get(server.url + "/log")
        self.find("#manual summary").click()
        self.find("#meal-kcal").send_keys("3000")
        self.load('#manual button[type="submit"]')
        check(self.all(".ring.is-over") and self.all(".ring-overshoot"), "over the target the ring is full and marked")
        line = self.find("[data-calorie-line]").text
        check("drüber" in line, "the calorie line says how far over: " + line)
        self.screen("dashboard-over")
        eaten = self.find(".ring-eaten").text
        emojis = self.macro_emojis()

        # a new weigh-in through the weight card: it starts at the onboarding weight
        self.load('a.weight-card[href="/weight"]')
        check(self.find("#weight-kg").get_attribute("value") == "92,4", "the weigh-in starts at the onboarding weight 92,4")
        self.type("#weight-kg", "92,1", clear=True)
        self.screen("weight")
        self.load('form.weight-form button[type="submit"]')
        check(d.current_url.rstrip("/") == server.url, "saving the weight returns to the dashboard")
        check("92,1 kg" in self.find(".weight-value").text, "the weight card shows 92,1 kg: " + self.find(".weight-value").text)
        check(not self.all(".prompt-card"), "the prompt card is gone")
        check(self.all(".streak-badge.is-lit"), "the streak is lit")
        self.screen("dashboard-weight")

        # reload: everything is kept
        d.refresh()
        check("92,1 kg" in self.find(".weight-value").text and self.all(".streak-badge.is-lit") and self.find(".ring-eaten").text == eaten,
              "a reload keeps weight, streak and ring")
        check(self.macro_emojis() == emojis, "a reload keeps the smileys")
        self.screen("dashboard-reloaded")

        # every other screen
        for path, label in [("/explain", "explain"), ("/log", "log"), ("/progress", "progress"), ("/briefing", "briefing"), ("/learn", "learn"),
                            ("/learn/matador-study", "article"), ("/settings", "settings"), ("/settings/window", "window"), ("/foods", "foods"),
                            ("/import", "import")]:
            d.get(server.url + path)
            check(not self.all("html[lang]") or d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de", path)
            self.screen(label)
        # a manual entry error keeps the typed values
        d.get(server.url + "/log")
        self.find("#manual summary").click()
        self.find("#meal-kcal").send_keys("20000")
        self.find("#meal-name").send_keys("Kuchen")
        self.load('#manual button[type="submit"]')
        check(self.find("#meal-name").get_attribute("value") == "Kuchen" and self.all("#kcal-error"), "a bad calorie value is explained")
        self.screen("manual-error")

        # reduced motion: no animation at all
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        d.get(server.url + "/")
        animation = d.execute_script("return getComputedStyle(document.querySelector('.streak-fire')).animationName")
        check(animation == "none", "prefers-reduced-motion turns animations off: " + animation)

        # a week later the diet block starts: the phase-switch message shows once, as a dialog
        server.stop()
        later = Server(folder=server.folder, now="2026-01-12T07:30:00Z")
        try:
            d.get(later.url + "/")
            dialog = self.find("[data-dialog-panel].is-open")
            check(dialog.is_displayed() and dialog.get_attribute("aria-modal") == "true", "the phase-switch dialog is open")
            check(d.switch_to.active_element.tag_name in ("a", "button"), "focus moves into the dialog")
            time.sleep(0.5)
            self.screen("phase-switch")
            self.load('[data-dialog-panel].is-open form button[type="submit"]')
            check(not self.all("[data-dialog-panel].is-open"), "after 'got it' the message is gone")
            d.refresh()
            check(not self.all("[data-dialog-panel].is-open"), "and it does not come back")
            check("Diät" in self.find(".phase-name").text, "the dashboard shows the diet block")
            self.screen("diet-block")
        finally:
            later.stop()

    def close(self):
        with open(os.path.join(self.folder, "axe.json"), "w", encoding="utf-8") as f:
            json.dump(self.audits, f, ensure_ascii=False, indent=2)
        self.driver.quit()


def main():
    tally = Tally()
    for name, (width, height, mobile) in VIEWPORTS.items():
        server = Server()
        trip = None

        def walk():
            nonlocal trip
            trip = Journey(name, width, height, mobile)
            trip.run(server)
            c = trip.counts
            print("TAPS " + " | ".join(f"{key}={c[key][0]} keys={c[key][1]}" for key in ("repeat", "search", "words") if key in c)
                  + f" ({name}, from the dashboard to a saved meal)")
            return f"{trip.step} screens, no serious or critical axe violation"
        try:
            tally.run(f"{name} {width}x{height}", walk, lambda: trip)
        finally:
            if trip:
                trip.close()
            server.stop()
            shutil.rmtree(server.folder, ignore_errors=True)
    return tally.finish()

if __name__ == "__main__":
    sys.exit(main())
