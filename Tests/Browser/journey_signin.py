#!/usr/bin/env python3
"""Sign-in from another machine on the network (issue 16), in a real browser.

The phone is a network namespace joined to this machine by a veth pair (made here, removed at
the end; needs root or sudo). This machine runs the built `wdiet serve`:
  A  --listen HOST:PORT, a fresh database: the setup code from its terminal output;
  B  the default (loopback only): unreachable from the phone;
  C  --trust-proxy behind nginx with docs/nginx-wdiet.conf (HTTPS, a self-signed certificate).
Chromium runs inside the namespace, at 390x844:
  A: the first visit lands on the setup page; a wrong code is refused; the right one sets the
     passphrase and signs in (cookie HttpOnly, SameSite=Strict); a second phone finds the code
     spent; signing in with a hostile `next` (a tab before `/evil.example`) stays on the app;
     five wrong passphrases lock sign-in, and the right one is refused while locked.
  C: over HTTPS through the proxy the setup works and the session cookie is Secure; the app is
     installable there (DevTools Page.getInstallabilityErrors).
Screens are saved with axe audits (no serious or critical violation). Prints "N passed, N
failed" and exits non-zero on a failure.

Usage: Tests/Browser/journey_signin.py WDIET_BINARY ARTEFACTS_DIR
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import journey  # noqa: E402  (reads WDIET_BINARY and ARTEFACTS_DIR from argv)
from journey import Journey, check  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NOW = "2026-01-05T07:30:00Z"


def as_root(arguments):
    return arguments if os.geteuid() == 0 else ["sudo", "-n"] + arguments


def run(arguments, **kwargs):
    return subprocess.run(as_root(arguments), check=True, capture_output=True, text=True, **kwargs)


class Phone:
    """A network namespace with a veth pair: the host side has HOST, the phone PHONE."""

    def __init__(self):
        tag = os.getpid() % 200 + 20
        self.name = f"wdiet-phone-{os.getpid()}"
        self.host_link, self.phone_link = f"wdh{os.getpid()}"[:15], f"wdp{os.getpid()}"[:15]
        self.host, self.phone = f"10.213.{tag}.1", f"10.213.{tag}.2"
        run(["ip", "netns", "add", self.name])
        try:
            run(["ip", "link", "add", self.host_link, "type", "veth", "peer", "name", self.phone_link])
            run(["ip", "link", "set", self.phone_link, "netns", self.name])
            run(["ip", "addr", "add", f"{self.host}/24", "dev", self.host_link])
            run(["ip", "link", "set", self.host_link, "up"])
            inside = ["ip", "netns", "exec", self.name]
            run(inside + ["ip", "addr", "add", f"{self.phone}/24", "dev", self.phone_link])
            run(inside + ["ip", "link", "set", self.phone_link, "up"])
            run(inside + ["ip", "link", "set", "lo", "up"])
        except Exception:
            self.remove()
            raise

    def remove(self):
        subprocess.run(as_root(["ip", "link", "del", self.host_link]), capture_output=True)
        subprocess.run(as_root(["ip", "netns", "del", self.name]), capture_output=True)

    def run_inside(self, arguments):
        return subprocess.run(as_root(["ip", "netns", "exec", self.name] + arguments), capture_output=True, text=True)


class Serve:
    """The built `wdiet serve` with its terminal output collected line by line."""

    def __init__(self, arguments, folder):
        env = dict(os.environ, WDIET_NOW=NOW, TZ="Europe/Berlin", WDIET_NO_AUTO_SYNC="1", LANG="de_DE.UTF-8",
                   WDIET_PASSPHRASE_COST="4")
        env.pop("WDIET_SERVER", None)
        self.lines = []
        self.process = subprocess.Popen([journey.BINARY, "serve", "--database", os.path.join(folder, "w-diet.sqlite")] + arguments,
                                        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def wait_for(self, pattern):
        for _ in range(200):
            for line in self.lines:
                match = re.search(pattern, line)
                if match:
                    return match
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise journey.Failure(f"wdiet serve never printed {pattern}: {''.join(self.lines)}")

    def stop(self):
        journey.stop_process(self.process)


def nginx(folder, listen, upstream_port):
    """nginx with the documented configuration, its three CHANGE values filled in."""
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", f"/CN={listen.split(':')[0]}", "-addext", f"subjectAltName=IP:{listen.split(':')[0]}",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    with open(os.path.join(ROOT, "docs", "nginx-wdiet.conf"), encoding="utf-8") as f:
        server = f.read()
    server = (server.replace("listen 8443 ssl;", f"listen {listen} ssl;")
              .replace("/etc/wdiet/cert.pem", cert).replace("/etc/wdiet/key.pem", key)
              .replace("proxy_pass http://127.0.0.1:8080;", f"proxy_pass http://127.0.0.1:{upstream_port};"))
    check(f"listen {listen} ssl;" in server and cert in server and str(upstream_port) in server, "the example's CHANGE values are filled in")
    temp = os.path.join(folder, "nginx-temp")
    os.makedirs(temp)
    with open(os.path.join(folder, "nginx.conf"), "w", encoding="utf-8") as f:
        f.write(f"""
user root;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    {server}
}}
""")
    # the certificate's public key hash: chromium trusts exactly this key (a secure origin)
    public = subprocess.run(["openssl", "x509", "-pubkey", "-noout", "-in", cert], check=True, capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public, check=True, capture_output=True).stdout
    spki = subprocess.run(["openssl", "dgst", "-sha256", "-binary"], input=der, check=True, capture_output=True).stdout
    process = subprocess.Popen(as_root([shutil.which("nginx") or "/usr/sbin/nginx", "-c", os.path.join(folder, "nginx.conf"), "-p", folder]),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(0.5)
    if process.poll() is not None:
        raise journey.Failure("nginx did not start: " + process.stdout.read())
    return process, base64.b64encode(spki).decode()


def outer():
    folder = tempfile.mkdtemp(prefix="wdiet-signin-")
    phone = Phone()
    servers, proxy = [], None
    try:
        port, loopback_port, proxied_port, proxy_port = (journey.free_port() for _ in range(4))
        a = Serve(["--listen", f"{phone.host}:{port}"], os.path.join(folder, "a"))
        servers.append(a)
        code = a.wait_for(r"(\d{4}-\d{4})").group(1)
        check(a.wait_for(r"http://(\S+)/").group(1) == f"{phone.host}:{port}", "the terminal shows the address to open")
        b = Serve(["--port", str(loopback_port)], os.path.join(folder, "b"))
        servers.append(b)
        b.wait_for(r"127\.0\.0\.1")
        check(not any(re.search(r"\d{4}-\d{4}", line) for line in b.lines), "on loopback no setup code is printed")
        # C's household has a profile already (made with the CLI): its phone goes straight to the dashboard
        env = dict(os.environ, WDIET_NOW=NOW, TZ="Europe/Berlin", LANG="de_DE.UTF-8", WDIET_NO_AUTO_SYNC="1")
        subprocess.run([journey.BINARY, "onboard", "--database", os.path.join(folder, "c", "w-diet.sqlite"), "--sex", "female",
                        "--age", "34", "--height", "168", "--weight", "72,5", "--activity", "light", "--goal", "lose"],
                       env=env, check=True, capture_output=True)
        c = Serve(["--trust-proxy", "--port", str(proxied_port), "--allow-host", phone.host], os.path.join(folder, "c"))
        servers.append(c)
        proxied_code = c.wait_for(r"(\d{4}-\d{4})").group(1)
        proxy, spki = nginx(folder, f"{phone.host}:{proxy_port}", proxied_port)
        inner = phone.run_inside([sys.executable, os.path.abspath(__file__), journey.BINARY, journey.ARTEFACTS, "--inner", json.dumps({
            "a": f"http://{phone.host}:{port}", "code": code, "loopback": [phone.host, loopback_port],
            "c": f"https://{phone.host}:{proxy_port}", "proxied_code": proxied_code, "spki": spki})])
        sys.stdout.write(inner.stdout)
        sys.stderr.write(inner.stderr)
        return inner.returncode
    finally:
        if proxy:
            subprocess.run(as_root(["kill", str(proxy.pid)]), capture_output=True)
            proxy.wait(10)
        for server in servers:
            server.stop()
        phone.remove()
        shutil.rmtree(folder, ignore_errors=True)


def cookie(j, name):
    cookies = j.driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
    return next((c for c in cookies if c["name"] == name), None)


def dark(j, label):
    """The screen again in the dark scheme, with its audit; then back to light."""
    j.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    j.screen(label)
    j.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})


def left_signin(d):
    """The address the tab went to after a sign-in form was sent (another site, if it failed to
    load, shows as the error chromium met there)."""
    for _ in range(100):
        url = d.current_url
        if "/signin" not in url:
            return url
        try:
            error = d.execute_script("return document.documentElement.innerText.match(/ERR_[A-Z_]+/)?.[0] || ''")
        except WebDriverException as failure:
            error = failure.msg.splitlines()[0]
        if error:
            return f"another site ({error})"
        time.sleep(0.1)
    return d.current_url


def visit(d, url):
    """Opens `url`; where the tab ended up, or the error chromium met on another site."""
    try:
        d.get(url)
    except WebDriverException as error:
        return f"another site ({error.msg.splitlines()[0]})"
    return d.current_url


def fill_setup(j, code, passphrase):
    j.type("#setup-code", code, clear=True)
    j.type("#new-passphrase", passphrase, clear=True)
    j.type("#repeat-passphrase", passphrase, clear=True)
    j.load("form.setup-form button[type=submit]")


def inner(arguments):
    settings = json.loads(arguments)
    import socket
    with socket.socket() as s:
        s.settimeout(2)
        check(s.connect_ex(tuple(settings["loopback"])) != 0, "the default loopback server is unreachable from the phone")
    tally = journey.Tally()
    trust = [f"--ignore-certificate-errors-spki-list={settings['spki']}"]
    steps = [("signin-setup", lambda j: setup_and_lock(j, settings), []), ("signin-proxy", lambda j: through_proxy(j, settings), trust)]
    for name, step, extra in steps:
        trip = None

        def walk():
            nonlocal trip
            trip = Journey(name, 390, 844, True, extra_arguments=extra)
            step(trip)
            return f"{trip.step} screens, no serious or critical axe violation"
        try:
            tally.run(name, walk, lambda: trip)
        finally:
            if trip:
                trip.close()
    return tally.finish()


def setup_and_lock(j, settings):
    d = j.driver
    d.get(settings["a"] + "/")
    check(d.current_url.endswith("/setup"), "the first visit from the phone lands on the setup page: " + d.current_url)
    j.screen("setup")
    dark(j, "setup-dark")
    fill_setup(j, "1111-1111", "Korrektes Pferd")
    check("Einrichtungscode stimmt nicht" in j.find("#code-error").text, "a wrong setup code is refused: " + j.find("#code-error").text)
    fill_setup(j, settings["code"], "Korrektes Pferd")
    check(d.current_url.endswith("/onboarding"), "the right code signs in and onboarding starts: " + d.current_url)
    session = cookie(j, "wdiet_session")
    check(session and session["httpOnly"] and session["sameSite"] == "Strict" and not session["secure"],
          f"the session cookie is HttpOnly and SameSite=Strict: {session}")
    # a second phone: the code is spent, sign-in asks for the passphrase
    d.delete_all_cookies()
    d.get(settings["a"] + "/setup")
    check(d.current_url.endswith("/signin"), "the setup code works once: " + d.current_url)
    j.screen("signin")
    # issue 32: a next with a tab in it once sent the tab to evil.example after sign-in
    exploit = settings["a"] + "/signin?next=%2F%09%2Fevil.example%2F"
    d.get(exploit)
    j.type("#passphrase", "Korrektes Pferd", clear=True)
    j.click("form.signin-form button[type=submit]")
    landed = left_signin(d)
    check(landed.startswith(settings["a"] + "/") and "evil" not in landed and "/signin" not in landed,
          "signing in with a hostile next lands on a page of the app (not evil.example, not a failed load): " + landed)
    landed = visit(d, exploit)
    check(landed.startswith(settings["a"] + "/") and "evil" not in landed, "signed in, the hostile next still stays on the app: " + landed)
    d.delete_all_cookies()
    d.get(settings["a"] + "/signin")
    for attempt in range(1, 6):
        j.type("#passphrase", f"falsch {attempt}", clear=True)
        j.load("form.signin-form button[type=submit]")
    check("gesperrt" in j.find(".form-error, #passphrase-error").text, "five wrong passphrases lock sign-in")
    j.type("#passphrase", "Korrektes Pferd", clear=True)
    j.load("form.signin-form button[type=submit]")
    check(d.current_url.split("?")[0].endswith("/signin") and "gesperrt" in j.find(".form-error").text,
          "while locked even the right passphrase is refused")
    check(cookie(j, "wdiet_session") is None, "no session while locked")
    j.screen("locked")
    dark(j, "locked-dark")


def through_proxy(j, settings):
    d = j.driver
    d.get(settings["c"] + "/")
    check(d.current_url == settings["c"] + "/setup", "through nginx the first visit lands on the setup page: " + d.current_url)
    fill_setup(j, settings["proxied_code"], "Korrektes Pferd")
    check(d.current_url == settings["c"] + "/", "the setup through the proxy signs in to the dashboard: " + d.current_url)
    session = cookie(j, "wdiet_session")
    check(session and session["secure"] and session["httpOnly"], f"over HTTPS the session cookie is Secure: {session}")
    j.screen("proxied-dashboard")
    errors = d.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
    check(not errors, f"installable over HTTPS through the proxy: {errors}")
    # the service worker runs over HTTPS and keeps copies of the pages; signing out drops them
    copies = "return caches.keys().then(names => Promise.all(names.filter(n => n.startsWith('wdiet-pages-'))" \
             ".map(n => caches.open(n).then(c => c.keys())))).then(lists => lists.flat().map(r => new URL(r.url).pathname))"
    kept = []
    for _ in range(100):
        if d.execute_script("return !!navigator.serviceWorker.controller"):
            kept = d.execute_script(copies)
            if "/" in kept:
                break
        time.sleep(0.1)
    state = d.execute_script("return navigator.serviceWorker.getRegistrations().then(r => JSON.stringify(r.map(x => "
                             "[x.scope, !!x.active, !!x.installing, !!x.waiting])) + ' controller=' + !!navigator.serviceWorker.controller"
                             " + ' secure=' + window.isSecureContext)")
    check("/" in kept, f"over HTTPS the service worker keeps a copy of the dashboard: {kept} ({state})")
    d.get(settings["c"] + "/settings")
    j.load('form[action="/signout"] button')
    check(d.current_url.split("?")[0].endswith("/signin"), "sign out leads to sign-in: " + d.current_url)
    for _ in range(50):
        kept = d.execute_script(copies)
        if not kept:
            break
        time.sleep(0.1)
    check(not kept, f"signed out, the phone keeps no copy of the pages: {kept}")
    check(cookie(j, "wdiet_session") is None, "signed out, the session cookie is gone")


if __name__ == "__main__":
    if "--inner" in sys.argv:
        sys.exit(inner(sys.argv[sys.argv.index("--inner") + 1]))
    try:
        sys.exit(outer())
    except Exception as error:  # the namespace or a server could not be set up
        traceback.print_exc()
        print(f"FAIL signin: {error}")
        print("0 passed, 1 failed")
        sys.exit(1)
