#!/usr/bin/env python3
"""Time to first render of the dashboard on a phone-sized chromium, run by scripts/bench.

`wdiet serve` (the given binary, release) on a fresh onboarded database; the dashboard is
loaded once so the service worker installs and takes control, then reloaded 30 times warm:
first-contentful-paint (Paint Timing) and the navigation's responseEnd, online, and with the
network cut (the worker answers from its copy). Prints percentiles in milliseconds.

Usage: Benchmarks/Browser/first_render.py WDIET_BINARY
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BINARY = sys.argv[1]
RUNS = 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentiles(values):
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return f"p50 {pick(0.5):.1f} ms, p95 {pick(0.95):.1f} ms, max {ordered[-1]:.1f} ms (n={len(ordered)})"


def measure(driver, url):
    paints, responses = [], []
    for _ in range(RUNS):
        driver.get(url)
        for _ in range(100):
            fcp = driver.execute_script(
                "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null")
            if fcp is not None:
                break
            time.sleep(0.02)
        paints.append(fcp)
        responses.append(driver.execute_script("return performance.getEntriesByType('navigation')[0].responseEnd"))
    return paints, responses


def main():
    folder = tempfile.mkdtemp(prefix="wdiet-render-")
    database = os.path.join(folder, "w-diet.sqlite")
    env = dict(os.environ, TZ="Europe/Berlin", WDIET_NO_AUTO_SYNC="1", LANG="en_US.UTF-8", WDIET_DATABASE=database)
    env.pop("WDIET_SERVER", None)
    subprocess.run([BINARY, "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5",
                    "--activity", "light", "--goal", "lose"], env=env, check=True, capture_output=True)
    subprocess.run([BINARY, "log", "meal", "Porridge", "--kcal", "420"], env=env, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([BINARY, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    driver = None
    try:
        url = f"http://127.0.0.1:{port}/"
        for _ in range(200):
            try:
                urllib.request.urlopen(url, timeout=1)
                break
            except Exception:
                time.sleep(0.05)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=390,844"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        driver.get(url)
        controlled = False
        for _ in range(100):
            if driver.execute_script("return !!navigator.serviceWorker.controller"):
                controlled = True
                break
            driver.refresh()
            time.sleep(0.1)
        print("\nFirst render of the dashboard (chromium, 390x844, release `wdiet serve` on loopback):")
        if not controlled:
            print("  the service worker never took control: no warm-worker figure")
            return 1
        paints, responses = measure(driver, url)
        print("  warm service worker, online:  first contentful paint " + percentiles(paints))
        print("                                 navigation response end " + percentiles(responses))
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                               {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        server.terminate()
        server.wait(10)
        paints, responses = measure(driver, url)
        print("  warm service worker, offline: first contentful paint " + percentiles(paints))
        print("                                 navigation response end " + percentiles(responses))
        return 0
    finally:
        if driver:
            driver.quit()
        if server.poll() is None:
            server.terminate()
            server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
