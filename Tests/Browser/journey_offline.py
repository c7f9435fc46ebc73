#!/usr/bin/env python3
"""Offline-first journey (issue 16) at 390x844, in chromium through WebDriver.

A profile made with the CLI; the dashboard loads and its service worker installs and takes
control; the network goes away (DevTools `Network.emulateNetworkConditions` offline, and the
server process stopped: a really dead network. The emulation, sent to the page's target, makes
the page's own fetch() fail and navigator.onLine false, but a navigation is answered by the
worker, whose fetch() still reaches the server: the line EMULATION says what it covered); a cached page still opens and its banner says offline and when it was
last updated; a meal (quick add) and a weight are logged and kept on the phone; the tab is
closed; the network comes back (a new server on the same port and database); the app opened
again saves both exactly once, in order: checked on the page and with `wdiet` reading the same
database.

Usage: Tests/Browser/journey_offline.py WDIET_BINARY ARTEFACTS_DIR
"""
import datetime
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

os.environ["TZ"] = "Europe/Berlin"  # the browser's local time is the server's (logged_at is local)
time.tzset()
sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
ONLINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Server(journey.Server):
    """journey.Server at the real moment (the browser's clock), on a given port if one is given."""

    def __init__(self, folder, port=None):
        chosen = journey.free_port
        if port:
            journey.free_port = lambda: port
        try:
            super().__init__(folder, now=utc_now())
        finally:
            journey.free_port = chosen


def wdiet(folder, *arguments):
    result = subprocess.run([journey.BINARY, *arguments, "--database", os.path.join(folder, "w-diet.sqlite"),
                             "--time-zone", "Europe/Berlin", "--lang", "en"],
                            capture_output=True, text=True, env=dict(os.environ, WDIET_NO_AUTO_SYNC="1"))
    check(result.returncode == 0, f"wdiet {' '.join(arguments)}: {result.stderr or result.stdout}")
    return result.stdout


class OfflineJourney(journey.Journey):
    def wait_js(self, script, message, timeout=15):
        """Waits until `script` returns something true."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.driver.execute_script(script):
                    return
            except Exception:  # a page being replaced
                pass
            time.sleep(0.2)
        raise journey.Failure(message)

    def banner(self):
        return self.driver.execute_script(
            "var b = document.querySelector('[data-offline-banner]'); return b && !b.hidden ? b.textContent : '';")

    def wait_banner(self, text, message, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if text in self.banner():
                return self.banner()
            time.sleep(0.2)
        raise journey.Failure(f"{message}; the banner says: {self.banner()!r}")

    def said(self, attribute):
        """One of the banner's localized texts (docs/architecture.md, "The web app")."""
        return self.find("[data-offline-banner]").get_attribute(attribute)

    def network(self, conditions):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)

    def status(self):
        """The worker's view of this page: {cachedAt, queued, …} (cachedAt set when the page is its stored copy)."""
        return self.driver.execute_async_script("""
            var done = arguments[arguments.length - 1];
            if (!navigator.serviceWorker.controller) { done(null); return; }
            var channel = new MessageChannel();
            channel.port1.onmessage = function (e) { done(e.data); };
            navigator.serviceWorker.controller.postMessage({type: 'status'}, [channel.port2]);
            setTimeout(function () { done(null); }, 5000);""")

    def run_offline(self, folder, server):
        d = self.driver
        # 1. online: the dashboard, its worker installed and in control
        d.get(server.url + "/")
        self.wait_js("return !!navigator.serviceWorker.controller", "the service worker controls the dashboard")
        for path in ["/meals", "/weight", "/log", "/"]:
            d.get(server.url + path)
        self.wait_js("return !!navigator.serviceWorker.controller", "the service worker controls the page")
        check(self.banner() == "", "online with nothing waiting, the banner is hidden: " + self.banner())
        self.screen("online-dashboard")

        # 2. offline: DevTools emulation first (what does it cover?), then the server stopped
        self.network(OFFLINE)
        page_fetch = d.execute_async_script("""
            var done = arguments[arguments.length - 1];
            fetch('/learn', {cache: 'no-store'}).then(function () { done('answered'); }, function () { done('failed'); });""")
        try:
            d.get(server.url + "/progress")
            status = self.status()
            worker = "the worker's fetch failed (stored copy shown)" if status and status.get("cachedAt") else "the worker's fetch still reached the server"
        except Exception as error:  # the navigation itself failed
            worker = "the navigation failed: " + str(error).splitlines()[0]
        self.emulation_note = f"a page's fetch {page_fetch}; navigating: {worker}"
        print("EMULATION " + self.emulation_note)
        server.stop()
        d.get(server.url + "/meals")
        text = self.wait_banner(self.said("data-offline"), "a cached page says it is offline")
        check(self.said("data-updated") in text and any(c.isdigit() for c in text), "the banner says when it was last updated: " + text)
        self.screen("offline-meals")
        # 3. log a meal (quick add) and a weight while offline
        d.get(server.url + "/log")
        self.wait_banner(self.said("data-offline"), "the cached log page says it is offline")
        d.execute_script("document.getElementById('manual').open = true")
        self.type("#meal-kcal", "432", clear=True)
        self.type("#meal-name", "Offline-Suppe", clear=True)
        self.logged_at = datetime.datetime.now().strftime("%H:%M")  # TZ is Berlin: the phone's local time
        self.load("form[action='/log/manual'] button[type=submit]")
        text = self.wait_banner(self.said("data-kept"), "after the form, the page says the meal is kept on the phone")
        check(self.all(".queued-count") and self.find(".queued-count").text == "1", "one entry waits: " + text)
        self.screen("offline-kept-meal")
        d.get(server.url + "/weight")
        self.type("#weight-kg", "79,3", clear=True)
        self.load("form.weight-form button[type=submit]")
        self.wait_js("var c = document.querySelector('.queued-count'); return c && c.textContent === '2';",
                     "two entries wait: " + self.banner())
        self.screen("offline-kept-weight")
        # and one the server will refuse (0 kcal): it must not linger silently
        d.get(server.url + "/log")
        d.execute_script("document.getElementById('manual').open = true")
        self.type("#meal-kcal", "0", clear=True)
        self.type("#meal-name", "Nullsuppe", clear=True)
        self.load("form[action='/log/manual'] button[type=submit]")
        self.wait_js("var c = document.querySelector('.queued-count'); return c && c.textContent === '3';",
                     "three entries wait: " + self.banner())
        check("Offline-Suppe" not in wdiet(folder, "meals", "--json"), "nothing reached the database while offline")

        # 4. close the tab (a new window first), the network comes back, the app is opened again
        old = d.current_window_handle
        d.switch_to.new_window("window")
        new = d.current_window_handle
        d.switch_to.window(old)
        d.close()
        d.switch_to.window(new)
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        again = Server(folder, port=server.port)
        self.server = again
        self.network(ONLINE)
        d.get(again.url + "/")
        self.wait_js("return !!navigator.serviceWorker.controller", "the worker controls the reopened app")
        self.wait_js("return document.body.textContent.indexOf('Offline-Suppe') >= 0",
                     "the meal kept offline is on the dashboard: " + self.banner(), timeout=30)
        text = self.wait_banner(self.said("data-synced"), "the banner says what was kept is saved")
        check(self.said("data-refused") in text and "0" in text.split(self.said("data-refused"))[1],
              "the refused entry is named with the reason: " + text)
        check(not self.all(".queued-count"), "nothing waits any more: " + text)
        # the replay's toast ("Weight logged!") fades in and out over the banner: audit once it is gone
        self.wait_js("return !document.querySelector('[data-toast]')", "the toast is gone", timeout=8)
        self.screen("back-online")

        # 5. exactly once, in order: the page and the CLI reading the same database
        d.get(again.url + "/meals")
        names = [e.text for e in self.all(".meal-name")]
        meals = json.loads(wdiet(folder, "meals", "--json"))
        return meals, names

    def behind_the_queue(self, folder):
        """Online while an entry still waits (as when the network came back a moment ago): a meal
        logged now is kept behind it, and both are saved in the order they were logged."""
        d = self.driver
        d.get(self.server.url + "/log")
        waiting = d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const open = indexedDB.open('wdiet-offline');
            open.onsuccess = () => {
              const t = open.result.transaction('queue', 'readwrite');
              const now = new Date(), two = (n) => String(n).padStart(2, '0');
              const at = now.getFullYear() + '-' + two(now.getMonth() + 1) + '-' + two(now.getDate()) + 'T' + two(now.getHours()) + ':' +
                two(now.getMinutes()) + ':' + two(now.getSeconds());
              t.objectStore('queue').add({ path: '/log/manual', createdAt: Date.now(),
                body: 'name=Zuerst-Suppe&kcal=111&client_id=' + crypto.randomUUID() + '&logged_at=' + at });
              t.oncomplete = () => { const c = open.result.transaction('queue').objectStore('queue').count(); c.onsuccess = () => done(c.result); };
            };
            open.onerror = () => done(-1);""")
        check(waiting == 1, f"one entry waits in the phone's queue: {waiting}")
        d.execute_script("document.getElementById('manual').open = true")
        self.type("#meal-kcal", "222", clear=True)
        self.type("#meal-name", "Danach-Suppe", clear=True)
        self.load("form[action='/log/manual'] button[type=submit]")
        try:
            self.wait_js("return document.body.textContent.indexOf('Danach-Suppe') >= 0 && "
                         "document.body.textContent.indexOf('Zuerst-Suppe') >= 0", "both meals reach the dashboard", timeout=30)
        except journey.Failure:
            state = d.execute_async_script("""const done = arguments[arguments.length - 1];
              const open = indexedDB.open('wdiet-offline'); open.onsuccess = () => { const r = open.result.transaction('queue').objectStore('queue').getAll();
              r.onsuccess = () => done(JSON.stringify(r.result.map(x => [x.seq, x.path, x.body.slice(0, 40), x.shown]))); };""")
            with sqlite3.connect(os.path.join(folder, "w-diet.sqlite")) as db:
                saved = [row[0] for row in db.execute("SELECT name FROM meal_logs ORDER BY rowid")]
            raise journey.Failure(f"both meals reach the dashboard: url {d.current_url}, queue {state}, banner {self.banner()}, saved {saved}")
        with sqlite3.connect(os.path.join(folder, "w-diet.sqlite")) as db:
            order = [row[0] for row in db.execute(
                "SELECT name FROM meal_logs WHERE name IN ('Zuerst-Suppe', 'Danach-Suppe') ORDER BY rowid")]
        check(order == ["Zuerst-Suppe", "Danach-Suppe"], f"saved once each, in the order logged: {order}")
        return "a meal logged while an entry waits is saved after it"


def saved_once(folder, meals, logged_at):
    listed = meals.get("meals", meals) if isinstance(meals, dict) else meals
    soup = [m for m in listed if "Offline-Suppe" in json.dumps(m, ensure_ascii=False)]
    check(len(soup) == 1, f"the meal is saved exactly once: {soup}")
    check(not [m for m in listed if m.get("name") == "Nullsuppe"], "the refused meal is not saved")
    check(soup[0].get("kcal") == 432, f"with its calories: {soup[0]}")
    minutes = lambda hhmm: int(hhmm[:2]) * 60 + int(hhmm[3:5])
    check(abs(minutes(soup[0].get("local_time", "99:99")) - minutes(logged_at)) <= 1,
          f"at the moment it was logged offline ({logged_at}), not when it was saved: {soup[0]}")
    history = json.loads(wdiet(folder, "history", "--days", "1", "--json"))
    check("79.3" in json.dumps(history), f"the weight 79.3 is today's: {history}")
    # in order: the store's events in the order written (the meal was logged first)
    with sqlite3.connect(os.path.join(folder, "w-diet.sqlite")) as db:
        names = [row[0] for row in db.execute("SELECT name FROM analytics_events ORDER BY rowid")]
    logged = [name for name in names if name in ("meal_logged", "weight_logged")]
    check(logged == ["meal_logged", "weight_logged"], f"saved once each, the meal first: {logged}")
    return soup[0]


def main():
    tally = journey.Tally()
    folder = tempfile.mkdtemp(prefix="wdiet-offline-")
    wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "80", "--activity", "light",
          "--goal", "maintain")
    server = Server(folder)
    run = None

    def walk():
        nonlocal run
        run = OfflineJourney("offline", 390, 844, True)
        run.server = server
        meals, names = run.run_offline(folder, server)
        check(names.count("Offline-Suppe") == 1, f"the meals page lists it once: {names}")
        meal = saved_once(folder, meals, run.logged_at)
        return (f"kept offline at {run.logged_at}, saved once after the tab was closed ({meal['local_time']}, id {meal['id']}); "
                f"DevTools offline emulation: {run.emulation_note}")
    try:
        if tally.run("offline 390x844", walk, lambda: run):
            tally.run("queue-order", lambda: run.behind_the_queue(folder), lambda: run)
    finally:
        if run:
            run.close()
            run.server.stop()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return tally.finish()

if __name__ == "__main__":
    sys.exit(main())
