#!/usr/bin/env python3
"""Live-update journey (issue 16) at 390x844, in chromium through WebDriver.

A profile made with the CLI; the dashboard is open; the real `wdiet` binary, in another
process on the same database, logs a meal: within a second the dashboard shows it (polled up
to 3 s; the measured delay is printed as `LIVE …`) and `window.__marker` set before is still
there, so the page was not reloaded. The meals, progress, weight and briefing pages update the
same way. While the user has typed into a form's field, a change does not wipe what they typed;
a field focused but untouched gets its update once the user leaves it.

Usage: Tests/Browser/journey_live.py WDIET_BINARY ARTEFACTS_DIR
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

NOW = "2026-01-05T07:30:00Z"  # journey.Server's moment: the CLI must share it


def wdiet(folder, *arguments):
    return journey.wdiet(folder, *arguments, now=NOW)


class LiveJourney(journey.Journey):
    def open_live(self, url):
        """Opens a page and waits until its event stream is open; counts its swaps."""
        self.driver.get(url)
        self.wait.until(lambda d: d.execute_script("return document.documentElement.getAttribute('data-live')") == "on")
        self.driver.execute_script("window.__marker = 1;")

    def value(self, id):
        """A field's current value, read in one script (the element may be swapped meanwhile)."""
        return self.driver.execute_script("var f = document.getElementById(arguments[0]); return f && f.value", id)

    def text(self, css):
        return self.driver.execute_script("var e = document.querySelector(arguments[0]); return e ? e.textContent : ''", css)

    def marker(self):
        return self.driver.execute_script("return window.__marker")

    def swaps(self):
        return self.driver.execute_script("return window.__swaps")

    def until(self, condition, seconds=3.0):
        """Polls `condition` every 25 ms for at most `seconds`; the delay until it held, or None."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            if condition():
                return time.monotonic() - start
            time.sleep(0.025)
        return None

    def live_change(self, label, folder, arguments, shows):
        """Runs the CLI and waits for `shows()` on the open page; returns the delay in ms."""
        wdiet(folder, *arguments)
        delay = self.until(shows)
        check(delay is not None, f"{label}: the page did not show the CLI's change within 3 s")
        check(self.marker() == 1, f"{label}: the page was reloaded (window.__marker is gone)")
        ms = round(delay * 1000)
        print(f"LIVE {label}: CLI write -> page updated in {ms} ms{'' if ms <= 1000 else ' (over 1 s!)'}")
        return ms

    def run_live(self, server, folder):
        d = self.driver
        url = server.url
        # every page counts its swaps from its first moment
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
                          "window.__swaps = 0; document.addEventListener('wdiet:content', function () { window.__swaps++; });"})
        # the dashboard: the CLI logs a meal
        self.open_live(url + "/")
        eaten = self.text(".ring-eaten")
        self.screen("dashboard-before")
        self.live_change("dashboard", folder, ["log", "meal", "--kcal", "432", "Linsensuppe"],
                         lambda: "Linsensuppe" in self.main_text() and self.text(".ring-eaten") != eaten)
        check("432 kcal" in " ".join(e.text for e in self.all(".meal-row")), "the new meal's row shows 432 kcal")
        check(self.swaps() >= 1, "the other scripts were told of the new content (wdiet:content)")
        # fetching the page again writes nothing, so one change is one swap, not an endless loop
        settled = self.swaps()
        time.sleep(2)
        check(self.swaps() == settled, f"an idle page stays still: {self.swaps() - settled} more swaps in 2 s")
        self.screen("dashboard-after")

        # the focus stays where it was: on the same meal's link, though a meal came before it
        href = d.execute_script("var a = document.querySelector('.meal-row a[href]'); a.focus(); return a.getAttribute('href')")
        wdiet(folder, "log", "meal", "--kcal", "60", "--at", "07:00", "Tee mit Honig")
        check(self.until(lambda: "Tee mit Honig" in self.main_text()) is not None, "the earlier meal appears")
        focused = d.execute_script("return document.activeElement && document.activeElement.getAttribute('href')")
        check(focused == href, f"the focus stays on the same link: {href} before, {focused} after")

        # a tab in the background holds no stream; back in view it asks what it missed
        d.execute_script("document.addEventListener('visibilitychange', function () {"
                         " if (document.hidden) window.__hiddenLive = document.documentElement.getAttribute('data-live'); });")
        first = d.current_window_handle
        d.switch_to.new_window("tab")  # the dashboard's tab goes to the background
        d.get(url + "/learn")
        wdiet(folder, "log", "meal", "--kcal", "75", "Mandarinen")
        time.sleep(0.5)
        d.close()
        d.switch_to.window(first)  # back in view
        delay = self.until(lambda: "Mandarinen" in self.main_text())
        check(delay is not None, "a tab back in view shows the meal logged while it was in the background")
        check(self.marker() == 1, "the tab back in view was not reloaded")
        hidden_live = d.execute_script("return window.__hiddenLive")
        check(hidden_live == "off", f"the hidden tab closed its stream (data-live was {hidden_live!r})")
        print(f"LIVE background tab back in view: page updated in {round(delay * 1000)} ms")

        # a meal saved in this browser: the page after the redirect already shows it, so it is
        # not fetched again (its content, focus and animations stay as they are)
        d.get(url + "/log")
        self.find("#manual summary").click()
        self.find("#meal-kcal").send_keys("275")
        self.load('#manual button[type="submit"]')
        check("275 kcal" in " ".join(e.text for e in self.all(".meal-row")), "the browser's own meal is on the dashboard")
        time.sleep(1.5)
        check(self.swaps() == 0, f"the page after saving was swapped {self.swaps()} times: it was already up to date")

        # the other pages that must follow the store
        self.open_live(url + "/meals")
        self.live_change("meals", folder, ["log", "meal", "--kcal", "210", "Apfelkuchen"], lambda: "Apfelkuchen" in self.main_text())
        self.open_live(url + "/progress")
        self.live_change("progress", folder, ["log", "meal", "--kcal", "150", "Joghurt"], lambda: self.swaps() >= 1)
        self.open_live(url + "/briefing")
        self.live_change("briefing", folder, ["log", "meal", "--kcal", "90", "Banane"], lambda: self.swaps() >= 1)
        self.open_live(url + "/weight")
        self.live_change("weight", folder, ["log", "weight", "69,5"],
                         lambda: self.value("weight-kg") == "69,5")
        self.screen("weight-after")

        # typing in a form: a change does not wipe it, nor takes the focus
        self.open_live(url + "/weight")
        field = self.find("#weight-kg")
        field.click()
        field.clear()
        field.send_keys("71,3")
        wdiet(folder, "log", "meal", "--kcal", "120", "Birne")
        time.sleep(1.5)  # a change that would be applied has arrived by now
        check(self.value("weight-kg") == "71,3", "what the user typed is kept")
        check(d.switch_to.active_element.get_attribute("id") == "weight-kg", "the field keeps the focus")
        check(self.swaps() == 0, "no swap while the user is typing")
        self.screen("weight-typing")

        # a field focused but left as it was: the change comes once the user leaves it
        self.open_live(url + "/weight")
        self.find("#weight-kg").click()
        wdiet(folder, "log", "weight", "69,8")
        time.sleep(1.0)
        check(self.swaps() == 0 and self.value("weight-kg") == "69,5", "no swap while the field has the focus")
        d.execute_script("document.activeElement.blur()")
        delay = self.until(lambda: self.value("weight-kg") == "69,8")
        check(delay is not None, "after leaving the field the page shows the new weight")
        check(self.marker() == 1, "and it was not reloaded")
        print(f"LIVE weight after leaving the field: {round(delay * 1000)} ms")


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-live-")
    wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "70", "--activity", "light",
          "--goal", "lose", "--window", "12:00-18:00", "--moments", "12:00,15:00,18:00")
    server = journey.Server(folder=folder, now=NOW)
    tally = journey.Tally()
    live = None

    def walk():
        nonlocal live
        live = LiveJourney("live", 390, 844, True)
        live.run_live(server, folder)
        return "the CLI's changes appear on the open pages without a reload"

    def stop():
        # stopped while the page's event stream is still open: it must not hold the server up
        started = time.monotonic()
        server.stop()
        stopped = time.monotonic() - started
        check(stopped <= 5, f"wdiet serve took {stopped:.1f} s to stop")
        return f"wdiet serve stopped {round(stopped * 1000)} ms after SIGTERM, with a page's stream open"
    try:
        tally.run("live 390x844", walk, lambda: live)
        tally.run("stop", stop)
    finally:
        if live:
            live.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return tally.finish()

if __name__ == "__main__":
    sys.exit(main())
