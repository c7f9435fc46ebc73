#!/usr/bin/env python3
"""Import journey (issue 17, docs/rules.md §8) at 390x844, in chromium through WebDriver.

A profile made with the CLI; a 10 MB Apple Health export.xml from scripts/dev/make-health-export
chosen in /import's file field: static/import.js sends it in 4 MB pieces and follows the
import's progress; the page ends with "Import abgeschlossen" and the summary (meals and
weights in German), the progress bar at 100. Choosing the same file again adds nothing twice.
The import page is audited with axe before and after.

Usage: Tests/Browser/journey_import.py WDIET_BINARY ARTEFACTS_DIR
"""
import os
import subprocess
import sys
import tempfile

from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def wdiet(folder, *arguments):
    return journey.wdiet(folder, *arguments, now="2026-01-05T07:30:00Z")


class ImportJourney(journey.Journey):
    def upload(self, server, path):
        d = self.driver
        d.get(server.url + "/import")
        self.find("#import-file").send_keys(path)
        self.click('form[data-import] button[type="submit"]')
        WebDriverWait(d, 120).until(lambda driver: driver.execute_script(
            "var b = document.querySelector('[data-import-label]'); return b && /abgeschlossen|abgelehnt/.test(b.textContent)"))
        label = self.find("[data-import-label]").text
        lines = [item.text for item in self.all("[data-import-lines] li")]
        value = d.execute_script("return document.querySelector('[data-import-progress] progress').value")
        return label, lines, value

    def run_import(self, server, path):
        self.driver.get(server.url + "/import")
        self.screen("import")
        label, lines, value = self.upload(server, path)
        check(label == "Import abgeschlossen", f"the import finishes: {label!r}")
        check(value == 100, f"the progress bar ends at 100: {value}")
        check(lines and lines[0].startswith("Aus Apple Health (export.xml) importiert: Mahlzeiten "), f"the summary: {lines}")
        self.screen("import-done")
        check(self.driver.current_url.endswith("/import"), "the page followed the import without leaving it")
        label, again, _ = self.upload(server, path)
        check(again and again[0].endswith("Mahlzeiten 0, Gewichte 0."), f"the same file again adds nothing: {again}")
        return f"{lines[0]} then {again[0]}"


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-import-")
    export = os.path.join(folder, "export.xml")
    subprocess.run([os.path.join(ROOT, "scripts/dev/make-health-export"), export, "--size-mb", "10"], check=True,
                   capture_output=True)
    wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "70", "--activity", "light",
          "--goal", "lose")
    tally = journey.Tally()
    server = journey.Server(folder=folder)
    return journey.run_phone_trip(tally, "import 390x844", ImportJourney, lambda trip: trip.run_import(server, export), server, folder)


if __name__ == "__main__":
    sys.exit(main())
