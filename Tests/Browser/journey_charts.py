#!/usr/bin/env python3
"""Browser journey of issue 16's charts and inputs, at 390x844 as a German user.

A user who started on 1 December 2025 with a weigh-in and a meal on every day since (logged
through the `wdiet` binary on the same database, its clock set by WDIET_NOW) opens the
progress page on 5 January 2026: the range links switch between 30 days, 7 days, 90 days,
a year and everything without a script of their own; a touch on the weight chart shows the
day's date and weight in a small label, the arrow keys move it; the phases lie as bands
behind both charts. The weight wheel: scrolling it writes the value into the field, which
saves. A German time field takes "19:45" (and "0730" becomes "07:30"). Every step is a
screenshot with an axe-core audit (no serious or critical violation), and the progress page
once more in dark mode.

Usage: Tests/Browser/journey_charts.py WDIET_BINARY ARTEFACTS_DIR
"""
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402  (reads BINARY and ARTEFACTS from argv)
from journey import check  # noqa: E402
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

NOW = "2026-01-05T07:30:00Z"
START = datetime.date(2025, 12, 1)
TODAY = datetime.date(2026, 1, 5)


def seed(folder):
    """Onboards on START and logs a weigh-in and a meal on every day up to TODAY."""
    database = os.path.join(folder, "w-diet.sqlite")
    env = dict(os.environ, TZ="Europe/Berlin", WDIET_NO_AUTO_SYNC="1", LANG="de_DE.UTF-8", WDIET_NOW="2025-12-01T08:00:00Z")
    env.pop("WDIET_SERVER", None)

    def run(*args):
        subprocess.run([journey.BINARY, *args, "--database", database], env=env, check=True, capture_output=True)
    run("onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "80", "--activity", "light",
        "--goal", "lose", "--window", "12:00-18:00", "--moments", "12:00,15:00,18:00", "--lang", "de")
    env["WDIET_NOW"] = NOW
    day, index = START, 0
    while day <= TODAY:
        run("log", "weight", f"{80 - index * 0.1:.1f}".replace(".", ","), "--date", day.isoformat())
        run("log", "meal", "Mittag", "--kcal", str(1400 + index % 4 * 150), "--date", day.isoformat(), "--at", "13:00")
        day += datetime.timedelta(days=1)
        index += 1


class ChartsJourney(journey.Journey):
    def readout(self, frame):
        return frame.find_element(By.CSS_SELECTOR, "[data-chart-readout]")

    def choose_range(self, label, value, days):
        link = next(e for e in self.all(".range-link") if e.text == label)
        page = self.driver.find_element(By.TAG_NAME, "html")
        link.click()
        self.wait_for_new_page(page)
        check(self.driver.current_url.endswith("range=" + value), f"{label}: the address says range={value}")
        current = [e.text for e in self.all(".range-link[aria-current]")]
        check(current == [label], f"{label} is marked as current: {current}")
        shown = self.find(".range-span").get_attribute("data-days")
        check(shown == str(days), f"{label} spans {days} days: {shown}")

    def progress(self, server):
        d = self.driver
        d.get(server.url + "/progress")
        check([e.text for e in self.all(".range-link[aria-current]")] == ["30 Tage"], "30 days is the standard range")
        ticks = [e.text for e in self.all(".tick-date")]
        check("29. Dez." in ticks and "5. Jan." in ticks, "the date axis is German: %s" % ticks)
        phases = {e.get_attribute("data-phase") for e in self.all(".band")}
        check({"diet", "maintenance"} <= phases, "diet and maintenance lie as bands behind the charts: %s" % phases)
        check(len(self.all(".chart-frame")) == 2 and len(self.all(".legend .band-diet")) == 2, "both charts have the bands' legend")
        self.screen("progress-30d")
        self.choose_range("7 Tage", "7d", 7)
        self.screen("progress-7d")
        self.choose_range("90 Tage", "90d", 36)
        self.choose_range("1 Jahr", "1y", 36)
        self.choose_range("Alles", "all", 36)
        check("habit" in {e.get_attribute("data-phase") for e in self.all(".band")}, "everything starts with the habit week")
        self.screen("progress-all")
        self.choose_range("30 Tage", "30d", 30)

        # a touch on the weight chart: the nearest day's date and weight in a small label
        frame = self.all(".chart-frame")[0]
        svg = frame.find_element(By.TAG_NAME, "svg")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", svg)
        box = d.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", svg)
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        point = {"x": box[0] + box[2] * 0.5, "y": box[1] + box[3] * 0.5}
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        label = self.readout(frame)
        self.wait.until(lambda _: label.is_displayed() and label.text)
        text = label.text
        check(("Dez." in text or "Jan." in text) and text.endswith(" kg"), "the touch shows a date and a weight: " + text)
        check(len(self.all(".dot.is-active")) == 1, "the touched day's dot is marked")
        time.sleep(0.3)
        self.screen("progress-touch")
        # the keyboard: focus the chart, the arrow keys walk the days
        d.execute_script("arguments[0].focus()", frame)
        check(self.readout(frame).text == text, "focus keeps the touched day: " + self.readout(frame).text)
        frame.send_keys(Keys.END)
        last = self.readout(frame).text
        check(last.startswith("Mo. 5. Jan.") and "kg" in last, "End goes to the latest day: " + last)
        frame.send_keys(Keys.ARROW_LEFT)
        check(self.readout(frame).text.startswith("So. 4. Jan."), "the left arrow goes back a day: " + self.readout(frame).text)
        intake = self.all(".chart-frame")[1]
        d.execute_script("arguments[0].focus()", intake)
        check("kcal" in self.readout(intake).text, "the intake chart reads its kcal: " + self.readout(intake).text)
        # after live.js swaps <main> (`wdiet:content`, docs/architecture.md, "The web app") the new charts answer too
        d.execute_script("""return fetch(location.href).then(r => r.text()).then(text => {
            document.getElementById('main').innerHTML = new DOMParser().parseFromString(text, 'text/html').getElementById('main').innerHTML;
            document.dispatchEvent(new CustomEvent('wdiet:content'));
        })""")
        swapped = self.all(".chart-frame")[0]
        d.execute_script("arguments[0].focus()", swapped)
        check(self.readout(swapped).text.startswith("Mo. 5. Jan."), "a swapped-in chart is bound again: " + self.readout(swapped).text)
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        d.get(server.url + "/progress?range=90d")
        self.screen("progress-dark")
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})

    def wheel(self, server):
        d = self.driver
        d.get(server.url + "/weight")
        field = self.find("#weight-kg")
        start = f"{80 - (TODAY - START).days * 0.1:.1f}".replace(".", ",")
        check(field.get_attribute("value") == start, f"the field starts at the last weight {start}: " + field.get_attribute("value"))
        wheel = self.find("[data-weight-wheel]")
        check(wheel.is_displayed() and wheel.get_attribute("aria-hidden") == "true", "the wheel shows, hidden from screen readers")
        column = self.find("[data-wheel-kg]")
        ActionChains(d).scroll_from_origin(ScrollOrigin.from_element(column), 0, -80).perform()
        self.wait.until(lambda _: field.get_attribute("value") != start)
        time.sleep(0.6)  # the snap settles
        value = field.get_attribute("value")
        check(value.startswith("74,") or value.startswith("75,"), "scrolling up the kg wheel lowers the weight: " + value)
        tenths = self.find("[data-wheel-tenth]")
        ActionChains(d).scroll_from_origin(ScrollOrigin.from_element(tenths), 0, 40).perform()
        self.wait.until(lambda _: field.get_attribute("value") != value)
        time.sleep(0.6)
        value = field.get_attribute("value")
        check(len(value) == 4 and value[2] == ",", "the wheel writes kg and tenths with a German comma: " + value)
        # the audit scrolls every scrollable element; within 1.5 s of a finger on the wheel its
        # scrolling would count as the momentum of the user's flick (nothing a person does)
        time.sleep(1.6)
        self.screen("weight-wheel")
        self.load('form.weight-form button[type="submit"]')
        check(value + " kg" in self.find(".weight-value").text, f"the wheel's {value} kg is saved: " + self.find(".weight-value").text)
        # typing still works, and moves the wheel
        d.get(server.url + "/weight")
        self.type("#weight-kg", "81,3", clear=True)
        selected = [e.text for e in self.all(".wheel-item.is-selected")]
        check(selected == ["81", "3"], "typing 81,3 turns the wheel to 81 and 3: %s" % selected)

    def times(self, server):
        d = self.driver
        d.get(server.url + "/log")
        self.find("#manual summary").click()
        field = self.find("#meal-time")
        check(field.get_attribute("type") == "text" and field.get_attribute("inputmode") == "numeric", "the time is a 24-hour text field")
        self.type("#meal-time", "19:45", clear=True)
        self.type("#meal-kcal", "300")
        self.screen("time-field")
        self.load('#manual button[type="submit"]')
        d.get(server.url + "/meals")
        row = next((e for e in self.all(".meal-row") if "19:45" in e.text), None)
        check(row is not None, "the meal is saved at 19:45")
        self.load('.meal-row a[href^="/meals/"]')
        self.type("#meal-time", "0730", clear=True)
        check(self.find("#meal-time").get_attribute("value") == "07:30", "0730 typed becomes 07:30: " + self.find("#meal-time").get_attribute("value"))
        d.get(server.url + "/settings/window")
        moments = self.all('input[name="moment"]')
        check(moments and all(m.get_attribute("type") == "text" for m in moments), "the eating moments are 24-hour text fields")
        check(moments[0].get_attribute("value") == "12:00", "the first moment reads 12:00: " + moments[0].get_attribute("value"))
        self.screen("window-times")


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-charts-")
    seed(folder)
    server = journey.Server(folder=folder, now=NOW)
    tally = journey.Tally()
    trip = None
    try:
        trip = ChartsJourney("charts-phone", 390, 844, True)
        for step in (trip.progress, trip.wheel, trip.times):
            tally.run(step.__name__, lambda: step(server), lambda: trip)
    finally:
        if trip:
            trip.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return tally.finish()

if __name__ == "__main__":
    sys.exit(main())
