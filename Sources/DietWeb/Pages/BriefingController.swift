import DietBriefing
import DietCore
import DietStore
import DietSync
import Foundation
import Hummingbird
import ICalendar
import ReadyDay
import SyncProtocol

/// The ReadyDay morning briefing from the stored calendars and WHOOP copy.
struct BriefingController: Controller {
    let app: WebApp

    func register(on router: Router<WebContext>) {
        router.get("/briefing") { request, context in
            refreshStaleAddresses()
            return try briefingPage(error: nil, context: context, request: request)
        }
        router.post("/briefing/calendars", use: addCalendar)
        router.post("/briefing/calendars/:id/remove", use: removeCalendar)
        router.post("/briefing/calendars/local-hosts", use: saveLocalHosts)
        router.get("/briefing/whoop/connect", use: connectWhoop)
        router.get(RouterPath(WhoopConnection.callbackPath), use: whoopCallback)
        router.post("/briefing/whoop/sync", use: syncWhoop)
        router.post("/briefing/whoop/disconnect", use: disconnectWhoop)
    }

    /// A calendar from an uploaded .ics file or an address, kept on the device.
    func addCalendar(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        let form = context.form
        let text: String
        let location: String
        let name: String
        let isURL: Bool
        if let file = form.file("file"), !file.data.isEmpty {
            switch CalendarSource.text(file.data) {
            case .success(let value): text = value
            case .failure(let failure):
                return try briefingPage(
                    error: l.text("cli.calendar.error.read", ["location": .text(file.filename), "reason": .text(failure.description)]),
                    context: context,
                    request: request,
                    status: .unprocessableContent
                )
            }
            (location, isURL) = (file.filename, false)
            name = form["name"] ?? URL(fileURLWithPath: file.filename).deletingPathExtension().lastPathComponent
        } else if let address = form["url"] {
            guard CalendarSource.isURL(address), URL(string: address)?.host != nil else {
                return try briefingPage(
                    error: l.text("web.calendar.badURL", ["value": .text(address)]),
                    context: context,
                    request: request,
                    status: .unprocessableContent,
                    typedURL: address
                )
            }
            switch await CalendarSource.fetch(address: address, policy: CalendarSource.AddressPolicy(store: store)) {
            case .success(let value): text = value
            case .failure(let failure):
                return try briefingPage(
                    error: l.text(
                        "cli.calendar.error.read",
                        [
                            "location": .text(address),
                            "reason": .text(failure == .notPublic ? l.text("web.calendar.reason.notPublic") : failure.localized(l)),
                        ]
                    ),
                    context: context,
                    request: request,
                    status: .unprocessableContent,
                    typedURL: address,
                    openHosts: failure == .notPublic
                )
            }
            (location, isURL) = (address, true)
            name = form["name"] ?? URL(string: address)?.host ?? address
        } else {
            return try briefingPage(error: l.text("web.calendar.nothing"), context: context, request: request, status: .unprocessableContent)
        }
        do {
            try store.addCalendar(name: String(name.prefix(80)), location: location, isURL: isURL, ics: text)
        } catch let error as ICalendarError {
            return try briefingPage(
                error: l.text("cli.calendar.error.invalid", ["location": .text(location), "reason": .text(error.description)]),
                context: context,
                request: request,
                status: .unprocessableContent,
                typedURL: isURL ? location : nil
            )
        }
        return redirect("/briefing", toast: .calendarAdded)
    }

    /// The hosts of the household's own network whose calendars this device may read (a
    /// setting of this device only: a synced row can never widen it).
    func saveLocalHosts(_ request: Request, context: WebContext) async throws -> Response {
        let typed = context.form["hosts"] ?? ""
        switch CalendarSource.AddressPolicy.parse(String(typed.prefix(2000))) {
        case .success(let hosts):
            try store.setCalendarLocalHosts(hosts)
            return redirect("/briefing", toast: .settingsSaved)
        case .failure(let problem):
            let l = localizer(context)
            return try briefingPage(
                error: nil,
                context: context,
                request: request,
                status: .unprocessableContent,
                hostsError: l.text("web.calendar.hosts.bad", ["value": .text(String(problem.entry.prefix(80)))]),
                typedHosts: typed
            )
        }
    }

    func removeCalendar(_ request: Request, context: WebContext) async throws -> Response {
        guard let id = context.parameters.get("id"), UUID(uuidString: id) != nil else {
            throw HTTPError(.notFound, message: localizer(context).text("web.error.notFound"))
        }
        do {
            _ = try store.removeCalendar(idPrefix: id)
        } catch let error as StoreError {
            throw HTTPError(.notFound, message: error.webMessage(localizer(context)))
        }
        return redirect("/briefing", toast: .calendarRemoved)
    }

    /// The briefing's own refresh (`StaleCalendars`): stale addresses are read again in the
    /// background; the page shows the stored copy at once, the next one the new text.
    /// Offline (`WDIET_OFFLINE`) nothing is fetched.
    private func refreshStaleAddresses() {
        let due = StaleCalendars.due(in: store, now: clock.now(), environment: configuration.environment)
        guard !due.isEmpty else { return }
        let (store, sync) = (store, sync)
        Task {
            if await StaleCalendars.refresh(due, in: store, timeLimit: .seconds(20)).changed { await sync.changed() }
        }
    }

    /// Each calendar's line: its events (counted here once for one that came from another
    /// device), damaged parts, and whether it stays on this device only.
    private func calendarValues(_ l: Localizer) throws -> [[String: Any]] {
        try store.calendars().map { calendar -> [String: Any] in
            var counts = (events: calendar.eventCount, problems: calendar.problemCount)
            if counts.events == nil || counts.problems == nil, let document = try? ICalendarDocument(parsing: calendar.ics) {
                counts = (document.events.count, document.problems.count)
                try? store.setCalendarCounts(calendar.id, eventCount: document.events.count, problemCount: document.problems.count)
            }
            let events = counts.events ?? 0
            let problems = counts.problems ?? 0
            var detail = l.text("web.calendar.detail", ["count": .integer(events), "date": .date(LocalDate(calendar.fetchedAt, in: timeZone))])
            if problems > 0 { detail += " · " + l.text("cli.calendar.problems", ["count": .integer(problems)]) }
            if calendar.localOnly { detail += " · " + l.text("web.calendar.localOnly") }
            return [
                "id": calendar.id.uuidString, "name": calendar.name, "detail": detail,
                "remove": l.text("web.calendar.remove", ["name": .text(calendar.name)]),
            ]
        }
    }

    private func briefingPage(
        error: String?,
        context: WebContext,
        request: Request,
        status: HTTPResponse.Status = .ok,
        typedURL: String? = nil,
        hostsError: String? = nil,
        typedHosts: String? = nil,
        openHosts: Bool = false
    ) throws -> Response {
        let l = localizer(context)
        let stored = try StoredBriefing.make(
            store: store,
            databasePath: configuration.databasePath,
            day: today,
            today: today,
            now: clock.now(),
            timeZone: timeZone
        )
        var values = BriefingValues(stored, timeZone: timeZone, localizer: l).values
        values["empty"] = stored.hasNoSources
        values["whoop"] = whoopValues(request: request, context: context, l)
        if stored.whoopWaiting { values["whoopDone"] = whoopWaiting(l) }
        if let outcome = request.uri.queryParameters.get("whoop").flatMap(WhoopOutcome.init(rawValue:)),
            outcome.applies(connected: stored.whoopConnected)
        {
            values[outcome.isError ? "whoopError" : "whoopDone"] = l.text(outcome.key)
        }
        values["calendars"] = try calendarValues(l)
        if let error { values["calendarError"] = error }
        values["typedURL"] = typedURL ?? ""
        values["localHosts"] = try typedHosts ?? store.calendarLocalHosts().joined(separator: ", ")
        if let hostsError { values["hostsError"] = hostsError }
        values["hostsOpen"] = openHosts || hostsError != nil
        return renderer.page("briefing", values, title: l.text("web.briefing.title"), tab: .briefing, context: context, status: status)
    }
}

/// What a WHOOP action ended in, carried to the briefing page as `?whoop=…` (the callback
/// arrives from WHOOP's site, so the SameSite=Strict flash cookie would not come along).
enum WhoopOutcome: String {
    case connected, synced, disconnected
    case denied, unreachable, server, rejected, rateLimited, reconnect, invalid, fetch
    /// Through the account: the server has no WHOOP registration, cannot be reached, the
    /// session ended, or it refused the request.
    case notConfigured, offline, signedOut, account

    var isError: Bool { ![.connected, .synced, .disconnected].contains(self) }

    var key: String { isError ? "web.briefing.whoop.error.\(rawValue)" : "web.briefing.whoop.done.\(rawValue)" }

    /// A success is only said when it is true now (a stale or hand-typed address says nothing).
    func applies(connected: Bool) -> Bool {
        switch self {
        case .connected, .synced: connected
        case .disconnected: !connected
        default: true
        }
    }

    /// What a call to the account's server ended in.
    init(account error: any Error) {
        self =
            switch error {
            case SyncError.server(_, "whoop_not_configured", _): .notConfigured
            case SyncError.offline: .offline
            case SyncError.signedOut, SyncError.notSignedIn: .signedOut
            default: .account
            }
    }

    init(_ error: any Error) {
        self =
            switch WhoopConnection.Failure(error) {
            case .rejected: .rejected
            case .unreachable: .unreachable
            case .server: .server
            case .rateLimited: .rateLimited
            case .reconnect: .reconnect
            case .invalid: .invalid
            }
    }
}

/// Connecting WHOOP in the browser (OAuth 2.0 authorization code): "Connect" sends the browser
/// to WHOOP with a fresh state kept beside the database; WHOOP sends it back to the callback,
/// which checks and uses up the state, exchanges the code, stores the tokens and fetches the
/// last 30 days.
extension BriefingController {
    var whoop: WhoopConnection? { WhoopConnection(environment: configuration.environment, databasePath: configuration.databasePath) }

    /// This server's callback address for the request (the Host was checked against the
    /// allow-list), and the configured address when that does not lead here.
    func redirectAddress(_ request: Request, context: WebContext, connection: WhoopConnection) -> (uri: String, configuredElsewhere: String?) {
        let own =
            (context.isSecure ? "https://" : "http://") + (request.head.authority ?? "127.0.0.1:\(configuration.port)")
            + WhoopConnection.callbackPath
        guard connection.redirectConfigured else { return (own, nil) }
        let configured = connection.configuration.redirectURI
        return URLComponents(string: configured)?.path == WhoopConnection.callbackPath ? (configured, nil) : (own, configured)
    }

    func whoopValues(request: Request, context: WebContext, _ l: Localizer) -> [String: Any] {
        if signedIn, whoop?.isConnected != true {
            // Through the account: connected once the account said so or its records are here.
            let connected =
                (try? store.whoopRecordCount()).map { $0 > 0 } == true
                || WhoopAccountMark.load(databasePath: configuration.databasePath)?.connected == true
            return ["configured": true, "connected": connected, "usable": true]
        }
        // Plain words only: the set-up (the app registration, its redirect address) is told by
        // `wdiet serve` in the terminal, `wdiet whoop --help` and docs/whoop.md.
        guard let connection = whoop else { return ["configured": false] }
        let (_, elsewhere) = redirectAddress(request, context: context, connection: connection)
        var values: [String: Any] = ["configured": true, "connected": connection.isConnected, "usable": elsewhere == nil]
        if elsewhere != nil { values["mismatch"] = l.text("web.briefing.whoop.redirectMismatch") }
        return values
    }

    /// "Connect WHOOP": a link (a form's redirect to another site would break the page's
    /// form-action policy), so another site must not start it: a cross-site GET is refused.
    func connectWhoop(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        // HEAD (a link checker) starts nothing
        if request.method == .head { return Response(status: .ok) }
        if let site = request.headers[.secFetchSite], !["same-origin", "none"].contains(site) {
            return renderer.page(
                "error",
                ["message": l.text("web.error.csrf")],
                title: l.text("web.error.title"),
                tab: nil,
                context: context,
                status: .forbidden
            )
        }
        if signedIn, whoop?.isConnected != true { return try await connectThroughAccount() }
        guard let connection = whoop else { return redirect("/briefing") }
        let (uri, elsewhere) = redirectAddress(request, context: context, connection: connection)
        guard elsewhere == nil else { return redirect("/briefing") }
        let url = try connection.begin(redirectURI: uri, now: clock.now())
        return Response(status: .seeOther, headers: [.location: url.absoluteString])
    }

    /// WHOOP's redirect back. A state problem gets a page of its own (nothing stored, no data
    /// of the user on it); everything else lands on the briefing with what happened.
    func whoopCallback(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        // HEAD (a link checker, a preview) must not use up the attempt
        if request.method == .head { return Response(status: .ok) }
        guard let connection = whoop else { return redirect("/briefing") }
        let query = request.uri.queryParameters
        let attempt: WhoopConnection.Attempt
        do throws(WhoopConnection.AttemptProblem) {
            attempt = try connection.takeAttempt(state: query.get("state"), now: clock.now())
        } catch {
            let key =
                switch error {
                case .missingState: "missing"
                case .noAttempt: "noAttempt"
                case .mismatch: "mismatch"
                case .expired: "expired"
                }
            return renderer.page(
                "error",
                ["message": l.text("web.briefing.whoop.state.\(key)")],
                title: l.text("web.error.title"),
                tab: nil,
                context: context,
                status: .badRequest
            )
        }
        if query.get("error") != nil { return landing(.denied, context) }
        guard let code = query.get("code"), !code.isEmpty else { return landing(.invalid, context) }
        do {
            _ = try await connection.exchange(code: code, attempt: attempt)
        } catch {
            return landing(WhoopOutcome(error), context)
        }
        do {
            _ = try await connection.sync(store, days: WhoopConnection.initialDays, now: clock.now())
        } catch {
            return landing(.fetch, context)
        }
        return landing(.connected, context)
    }

    /// A page that moves on to the briefing by itself. The callback is a navigation from
    /// WHOOP's site: SameSite=Strict cookies (the session, the CSRF token) come along only on
    /// a navigation that starts here, so a redirect would show the briefing signed out.
    func landing(_ outcome: WhoopOutcome, _ context: WebContext) -> Response {
        let l = localizer(context)
        let target = "/briefing?whoop=\(outcome.rawValue)"
        let html = """
            <!doctype html><html lang="\(context.language.rawValue)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
            <meta http-equiv="refresh" content="0;url=\(target)"><title>\(escape(l.text("web.briefing.title")))</title></head>\
            <body><p><a href="\(target)">\(escape(l.text("web.briefing.whoop.continue")))</a></p></body></html>
            """
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    func syncWhoop(_ request: Request, context: WebContext) async throws -> Response {
        if signedIn, whoop?.isConnected != true {
            do {
                _ = try await sync.exclusively { try await $0.syncWithRetry() }
            } catch {
                return redirect("/briefing?whoop=\(WhoopOutcome(account: error).rawValue)")
            }
            return redirect("/briefing?whoop=synced")
        }
        guard let connection = whoop, connection.isConnected else { return redirect("/briefing") }
        do {
            _ = try await connection.sync(store, days: 7, now: clock.now())
        } catch {
            return redirect("/briefing?whoop=\(WhoopOutcome(error).rawValue)")
        }
        return redirect("/briefing?whoop=synced")
    }

    /// Revokes at WHOOP (best effort) and removes the tokens and every WHOOP record here.
    func disconnectWhoop(_ request: Request, context: WebContext) async throws -> Response {
        if signedIn, whoop?.isConnected != true { return await disconnectThroughAccount() }
        guard let connection = whoop else { return redirect("/briefing") }
        try await connection.disconnect(store)
        return redirect("/briefing?whoop=disconnected")
    }
}

/// WHOOP through the account (the store is signed in and this device holds no WHOOP tokens of
/// its own): the server connects, fetches and syncs the records to every device.
extension BriefingController {
    var signedIn: Bool { FileManager.default.fileExists(atPath: AccountFile(databasePath: configuration.databasePath).path) }

    /// Asks the server for WHOOP's authorize address and sends the browser there (this route
    /// is a same-site link, checked above, then a redirect, as for the device's own connection).
    func connectThroughAccount() async throws -> Response {
        let start: WhoopConnectStart
        do {
            start = try await sync.exclusively { synchronizer in
                try await synchronizer.withAccessToken { api, token in try await api.whoopConnect(accessToken: token) }
            }
        } catch {
            return redirect("/briefing?whoop=\(WhoopOutcome(account: error).rawValue)")
        }
        try WhoopAccountMark(startedAt: clock.now(), connected: false, authorizeURL: start.authorizeURL)
            .save(databasePath: configuration.databasePath)
        return Response(status: .seeOther, headers: [.location: start.authorizeURL])
    }

    /// `DELETE /v1/whoop`, then a sync that brings the server's tombstones here.
    func disconnectThroughAccount() async -> Response {
        do {
            try await sync.exclusively { synchronizer in
                try await synchronizer.withAccessToken { api, token in try await api.whoopDisconnect(accessToken: token) }
                _ = try await synchronizer.syncWithRetry()
            }
        } catch {
            return redirect("/briefing?whoop=\(WhoopOutcome(account: error).rawValue)")
        }
        WhoopAccountMark.remove(databasePath: configuration.databasePath)
        return redirect("/briefing?whoop=disconnected")
    }

    /// "Waiting for WHOOP", and a quiet sync to bring the records sooner.
    func whoopWaiting(_ l: Localizer) -> String {
        let sync = sync
        Task { await sync.changed() }
        return l.text("web.briefing.whoop.waiting")
    }
}

/// The briefing's shared text as template values.
struct BriefingValues {
    let values: [String: Any]

    init(_ stored: StoredBriefing, timeZone: TimeZone, localizer l: Localizer) {
        let text = BriefingText(stored, timeZone: timeZone, localizer: l)
        let zone = stored.briefing.zone
        var values: [String: Any] = [
            "date": text.date, "zone": zone.rawValue, "zoneName": l.text("cli.briefing.zone.\(zone.rawValue)"),
            "recommendations": text.recommendations.map { ["title": $0.title, "body": $0.body] },
            "windows": stored.briefing.workoutWindows.map { window -> [String: Any] in
                [
                    "time": "\(TimeOfDay(window.start, in: timeZone).formatted)–\(TimeOfDay(window.end, in: timeZone).formatted)",
                    "intensity": l.text("cli.briefing.intensity.\(window.intensity.rawValue)"),
                    "reason": BriefingText.reason(window.reason, localizer: l),
                ]
            },
            "alerts": text.alerts, "notes": text.notes,
        ]
        if let recovery = text.recovery { values["recovery"] = recovery }
        if let sleep = text.sleep { values["sleep"] = sleep }
        if let nutrition = text.nutrition { values["nutrition"] = nutrition }
        if let summary = text.calendarSummary {
            values["calendar"] =
                [
                    "summary": summary,
                    "events": text.events.map {
                        ["when": $0.when, "title": $0.title, "demand": $0.demand.rawValue, "tag": $0.tag]
                    },
                ] as [String: Any]
        }
        self.values = values
    }
}
