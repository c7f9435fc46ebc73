#!/usr/bin/env python3
"""Connecting WHOOP from the briefing (issue 17) at 390x844, in chromium through WebDriver.

A fake WHOOP runs in this script (http.server) and speaks WHOOP's documented OAuth 2.0
(GET /oauth/oauth2/auth with a consent page, POST /oauth/oauth2/token) and the v2 recovery
and sleep collections (limit <= 25, next_token), and DELETE /v2/user/access. It answers at
http://localhost:PORT while `wdiet serve` answers at http://127.0.0.1:PORT: two sites, so the
return from WHOOP is a cross-site navigation as in real life (SameSite=Strict cookies stay
behind on it).

The journey: the briefing offers "Connect WHOOP" -> WHOOP's consent page -> "Allow" -> back on
the briefing with the recovery (55 %) and the confirmation; the same WHOOP answer used again
is refused; "Disconnect" (confirmed) revokes at WHOOP and removes the tokens; connecting again
and refusing consent says so on the briefing. Each screen is audited with axe.

Usage: Tests/Browser/journey_whoop.py WDIET_BINARY ARTEFACTS_DIR
"""
import json
import os
import socket
import sys
import tempfile
import threading
import urllib.parse
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(__file__))
import journey  # noqa: E402
from journey import check  # noqa: E402

NOW = "2026-01-05T07:30:00Z"
CALLBACK = "/briefing/whoop/callback"
RECORDS = 30  # two pages of 25 for each collection


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


class FakeWhoop:
    """WHOOP's side: one app (client/secret), one user, the codes and tokens it issued."""

    def __init__(self):
        self.lock = threading.Lock()
        self.registered_redirect = None  # set once the app's address is known
        self.codes = {}  # code -> redirect_uri it was issued for
        self.access = set()
        self.exchanges = []
        self.pages = {"recovery": 0, "sleep": 0}
        self.revoked = False
        self.last_answer = None
        now = datetime.strptime(NOW, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        self.recoveries, self.sleeps = [], []
        for index in range(RECORDS):
            woke = now - timedelta(hours=1, days=index)
            self.recoveries.append({
                "cycle_id": 5000 + index, "sleep_id": f"b1b2c3d4-0000-4000-8000-{index:012d}", "user_id": 10129,
                "created_at": iso(woke), "updated_at": iso(woke), "score_state": "SCORED",
                "score": {"user_calibrating": False, "recovery_score": 55.0 if index == 0 else 70.0,
                          "resting_heart_rate": 54.0, "hrv_rmssd_milli": 51.5}})
            self.sleeps.append({
                "id": f"b1b2c3d4-0000-4000-8000-{index:012d}", "cycle_id": 5000 + index, "user_id": 10129,
                "created_at": iso(woke), "updated_at": iso(woke), "start": iso(woke - timedelta(hours=7, minutes=30)),
                "end": iso(woke), "timezone_offset": "+01:00", "nap": False, "score_state": "SCORED",
                "score": {"stage_summary": {"total_in_bed_time_milli": 27000000, "total_awake_time_milli": 1800000,
                                            "total_no_data_time_milli": 0, "total_light_sleep_time_milli": 14400000,
                                            "total_slow_wave_sleep_time_milli": 5400000, "total_rem_sleep_time_milli": 5400000,
                                            "sleep_cycle_count": 5, "disturbance_count": 7},
                          "sleep_needed": {"baseline_milli": 28800000, "need_from_sleep_debt_milli": 0,
                                           "need_from_recent_strain_milli": 0, "need_from_recent_nap_milli": 0},
                          "respiratory_rate": 15.0, "sleep_performance_percentage": 88, "sleep_consistency_percentage": 80,
                          "sleep_efficiency_percentage": 93}})

    def page(self, kind, query):
        records = self.recoveries if kind == "recovery" else self.sleeps
        limit = int(query.get("limit", "10"))
        if limit > 25:
            return 400, {"error": "limit above 25"}
        start, end = query.get("start"), query.get("end")
        chosen = [r for r in records if (not start or r["created_at"] >= start[:19]) and (not end or r["created_at"] <= end)]
        offset = int(query.get("nextToken", "0"))
        body = {"records": chosen[offset:offset + limit]}
        if offset + limit < len(chosen):
            body["next_token"] = str(offset + limit)
        with self.lock:
            self.pages[kind] += 1
        return 200, body


def handler_for(fake):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

        def reply(self, status, body=None, headers=()):
            data = b"" if body is None else (body.encode() if isinstance(body, str) else json.dumps(body).encode())
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if body is not None:
                self.send_header("Content-Type", "text/html; charset=utf-8" if isinstance(body, str) else "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if url.path == "/oauth/oauth2/auth":
                return self.authorize(query)
            if url.path == "/oauth/oauth2/answer":
                return self.answer(query)
            kinds = {"/developer/v2/recovery": "recovery", "/developer/v2/activity/sleep": "sleep"}
            if url.path not in kinds:
                return self.reply(404, {"error": "not found"})
            if not self.authorized():
                return self.reply(401, {"error": "unauthorized"})
            status, body = fake.page(kinds[url.path], query)
            self.reply(status, body)

        def authorized(self):
            token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
            return token in fake.access and not fake.revoked

        def authorize(self, query):
            """WHOOP's consent page: the app asks for these scopes; Allow or Deny."""
            scopes = set(query.get("scope", "").split())
            ok = (query.get("response_type") == "code" and query.get("client_id") == "journey-client"
                  and len(query.get("state", "")) >= 8 and {"read:recovery", "read:sleep", "offline"} <= scopes
                  and query.get("redirect_uri") == fake.registered_redirect)
            if not ok:
                return self.reply(400, f"<!doctype html><title>WHOOP</title><p id='refused'>invalid_request: {query}</p>")
            keep = urllib.parse.urlencode({"redirect_uri": query["redirect_uri"], "state": query["state"]})
            self.reply(200, "<!doctype html><html lang='en'><head><meta name='viewport' content='width=device-width'>"
                            "<title>WHOOP consent</title></head><body><main><h1>Allow w-diet to read your recovery and sleep?</h1>"
                            f"<a id='allow' href='/oauth/oauth2/answer?allow=1&{keep}'>Allow</a> "
                            f"<a id='deny' href='/oauth/oauth2/answer?allow=0&{keep}'>Deny</a></main></body></html>")

        def answer(self, query):
            """Back to the app's redirect address with a code, or with error=access_denied."""
            target = query["redirect_uri"]
            if query.get("allow") == "1":
                code = os.urandom(12).hex()
                with fake.lock:
                    fake.codes[code] = target
                params = {"code": code, "scope": "read:recovery read:sleep offline", "state": query["state"]}
            else:
                params = {"error": "access_denied", "error_description": "The user denied the request", "state": query["state"]}
            fake.last_answer = target + "?" + urllib.parse.urlencode(params)
            self.reply(302, None, [("Location", fake.last_answer)])

        def do_POST(self):
            if self.path != "/oauth/oauth2/token":
                return self.reply(404, {"error": "not found"})
            form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()))
            with fake.lock:
                fake.exchanges.append(form.get("redirect_uri"))
                issued_for = fake.codes.pop(form.get("code", ""), None)
            if (form.get("grant_type") != "authorization_code" or form.get("client_id") != "journey-client"
                    or form.get("client_secret") != "journey-secret" or issued_for is None
                    or issued_for != form.get("redirect_uri")):
                return self.reply(400, {"error": "invalid_grant"})
            access = os.urandom(16).hex()
            with fake.lock:
                fake.access.add(access)
            self.reply(200, {"access_token": access, "expires_in": 3600, "refresh_token": os.urandom(16).hex(),
                             "scope": "offline read:recovery read:sleep", "token_type": "bearer"})

        def do_DELETE(self):
            if self.path != "/developer/v2/user/access" or not self.authorized():
                return self.reply(401, {"error": "unauthorized"})
            fake.revoked = True
            self.reply(204)

    return Handler


class DualStackServer(ThreadingHTTPServer):
    """Answers on ::1 and 127.0.0.1, whichever `localhost` resolves to first."""
    address_family = socket.AF_INET6
    daemon_threads = True

    def server_bind(self):
        self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        super().server_bind()


def wdiet(folder, *arguments):
    return journey.wdiet(folder, *arguments, now=NOW)


class WhoopJourney(journey.Journey):
    def until_url(self, fragment):
        self.wait.until(lambda driver: fragment in driver.current_url and
                        driver.execute_script("return document.readyState") == "complete")

    def run_whoop(self, server, fake, tokens):
        d = self.driver
        d.get(server.url + "/briefing")
        check(self.all("#whoop-connect"), "the briefing offers Connect WHOOP")
        self.screen("briefing-before")

        # Connect: to WHOOP's consent page (another site), Allow, and back
        self.load("#whoop-connect")
        check(d.current_url.startswith(fake.base + "/oauth/oauth2/auth?"), f"on WHOOP's consent page: {d.current_url}")
        check(self.all("#allow"), "WHOOP's consent page answered: " + self.main_text()[:200])
        self.click("#allow")
        self.until_url("/briefing?whoop=connected")
        status = self.find("#whoop-status").text
        check(status, "the briefing confirms the connection")
        recovery = self.find(".recovery-score").text
        check("55 %" in recovery, f"the recovery fetched from WHOOP shows: {recovery!r}")
        check(fake.exchanges == [server.url + CALLBACK], f"the code was exchanged with the registered redirect: {fake.exchanges}")
        check(fake.pages == {"recovery": 2, "sleep": 2}, f"both collections read page by page: {fake.pages}")
        check(os.path.exists(tokens) and (os.stat(tokens).st_mode & 0o777) == 0o600, "the tokens are stored owner-only")
        check(self.all("form[action='/briefing/whoop/disconnect']") and not self.all("#whoop-connect"), "connected: Disconnect offered")
        reasons = [e.text for e in self.all(".plain-list li .muted")]
        check(reasons and all("55 %" in r for r in reasons), f"each workout window says why, with the recovery: {reasons}")
        self.screen("briefing-connected")

        # The same answer from WHOOP again: refused, nothing new stored
        d.get(fake.last_answer)
        check("/briefing/whoop/callback" in d.current_url and not self.all(".recovery-score"),
              f"a used WHOOP answer is refused on a page of its own: {d.current_url}")
        check(len(fake.exchanges) == 1, "no second exchange")
        self.screen("whoop-answer-reused")

        # Disconnect (confirmed): revoked at WHOOP, tokens gone
        d.get(server.url + "/briefing")
        page = self.find("html")
        self.click("form[action='/briefing/whoop/disconnect'] button")
        self.wait.until(lambda driver: driver.switch_to.alert)
        d.switch_to.alert.accept()
        self.wait_for_new_page(page)
        self.until_url("/briefing?whoop=disconnected")
        check(fake.revoked, "WHOOP was told to revoke access")
        check(not os.path.exists(tokens), "the tokens are removed")
        check(self.all("#whoop-status") and self.all("#whoop-connect"), "disconnected, Connect WHOOP offered again")
        check(not self.all(".recovery-score"), "no WHOOP recovery left on the briefing")
        self.screen("briefing-disconnected")

        # Connect again and refuse consent
        self.load("#whoop-connect")
        self.click("#deny")
        self.until_url("/briefing?whoop=denied")
        check(self.all("#whoop-error"), "a refused consent is said on the briefing")
        check(not os.path.exists(tokens), "nothing stored after a refused consent")
        self.screen("briefing-consent-refused")
        return f"connected (recovery {recovery!r}), reuse refused, disconnected and revoked, refusal explained"


def main():
    fake = FakeWhoop()
    whoop_server = DualStackServer(("::", 0), handler_for(fake))
    fake.base = f"http://localhost:{whoop_server.server_address[1]}"
    threading.Thread(target=whoop_server.serve_forever, daemon=True).start()
    os.environ.update({"WDIET_WHOOP_CLIENT_ID": "journey-client", "WDIET_WHOOP_CLIENT_SECRET": "journey-secret",
                       "WDIET_WHOOP_API_URL": fake.base + "/developer", "WDIET_WHOOP_OAUTH_URL": fake.base + "/oauth/oauth2"})
    os.environ.pop("WDIET_WHOOP_REDIRECT_URI", None)  # the server's own address, from the Host it is reached at
    folder = tempfile.mkdtemp(prefix="wdiet-whoop-")
    wdiet(folder, "onboard", "--sex", "female", "--age", "35", "--height", "168", "--weight", "70", "--activity", "light",
          "--goal", "lose", "--window", "12:00-18:00", "--moments", "12:00,15:00,18:00")
    server = journey.Server(folder=folder, now=NOW)
    fake.registered_redirect = server.url + CALLBACK
    tokens = os.path.join(folder, "w-diet.sqlite.whoop.json")
    tally = journey.Tally()
    try:
        return journey.run_phone_trip(tally, "whoop 390x844", WhoopJourney, lambda trip: trip.run_whoop(server, fake, tokens), server, folder)
    finally:
        whoop_server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
