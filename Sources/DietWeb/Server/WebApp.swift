import DietCore
import DietStore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import ServerConnections

/// The local web app: one store shared with the CLI, the templates and the assets. Pages are
/// thin: they read a snapshot, call one store intention and render; every rule lives in
/// DietCore and DietStore.
public final class WebApp: Sendable {
    public let configuration: WebConfiguration
    let store: AppDatabase
    let renderer: Renderer
    let assets: Assets
    /// Every sync of this device, one at a time.
    let sync: BackgroundSync
    /// Sign-in from other devices: the setup code, attempts, hashing.
    let signIn: SignInGate

    public init(configuration: WebConfiguration) throws {
        self.configuration = configuration
        store = try AppDatabase.open(path: configuration.databasePath, clock: configuration.clock)
        assets = try Assets()
        renderer = try Renderer(assetVersion: assets.version)
        sync = BackgroundSync(store: store, databasePath: configuration.databasePath, automatic: configuration.autoSync)
        let hasPassphrase = try store.webSignInState().passphraseHash != nil
        let needsCode = configuration.requiresSignIn && (configuration.resetPassphrase || !hasPassphrase)
        signIn = SignInGate(store: store, policy: configuration.signIn, offerSetupCode: needsCode)
    }

    /// The one-time code that lets the first browser choose the passphrase (shown in the
    /// terminal), while it is unused; nil when sign-in is not required or a passphrase is set.
    public var setupCode: String? { signIn.setupCode }

    /// Waits until a background sync in progress has finished.
    public func settleSync() async {
        await sync.settle()
    }

    var clock: any Clock { configuration.clock }
    var timeZone: TimeZone { configuration.timeZone }
    var today: LocalDate { clock.today(in: timeZone) }

    /// The router with every page, behind the Host allow-list, the security headers and the
    /// session (language, CSRF, form parsing). Pages that need a profile sit in the "onboarded"
    /// group, which sends a browser without one to onboarding. HEAD answers every GET route like
    /// GET, without the body (link checkers and monitors ask with HEAD).
    public func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: HostAllowListMiddleware(allowed: configuration.allowedHosts))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: CompressionMiddleware())
        router.add(middleware: SignInMiddleware(app: self))
        router.add(middleware: SessionMiddleware(app: self))
        router.get("/assets/:name") { [assets] _, context in
            assets.response(context.parameters.get("name") ?? "")
        }
        router.get("/favicon.ico") { [assets] _, _ in assets.response("icon.svg") }
        let onboarded = router.group().add(middleware: RequireOnboarding()).group(context: OnboardedContext.self)
        OnboardingController(app: self).register(on: router)
        DashboardController(app: self).register(on: onboarded)
        LogController(app: self).register(on: onboarded)
        MealsController(app: self).register(on: onboarded)
        WeightController(app: self).register(on: onboarded)
        FoodsController(app: self).register(on: onboarded)
        SettingsController(app: self).register(public: router, onboarded: onboarded)
        LearnController(app: self).register(public: router, onboarded: onboarded)
        BriefingController(app: self).register(on: router)
        DataController(app: self).register(on: router)
        InsightsController(app: self).register(on: onboarded)
        BadgesController(app: self).register(on: onboarded)
        RecoveryController(app: self).register(on: onboarded)
        SignInController(app: self).register(on: router)
        LiveController(app: self).register(on: router)
        OfflineController(app: self).register(on: router)
        return router
    }

    /// The application listening on the configured address, over HTTPS when certificate files
    /// are configured; `onListening` gets the bound port (useful with port 0). Throws when the
    /// certificate or key cannot be read.
    public func application(
        logger: Logger? = nil,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    )
        throws -> some ApplicationProtocol
    {
        var logger = logger ?? Logger(label: "wdiet.serve")
        if logger.logLevel < .notice { logger.logLevel = .notice }
        let limits = connectionLimits
        let http1: HTTPServerBuilder = .http1(configuration: limits.http1Configuration(logger: logger))
        let server: HTTPServerBuilder = if let files = configuration.tls { try .tls(http1, tlsConfiguration: Self.tls(files)) } else { http1 }
        return Application(
            router: router(),
            server: server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: nil,
                availableConnectionsDelegate: limits.availableConnections(logger: logger)
            ),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// The connection limits of the configuration. Behind `--trust-proxy` the proxy's
    /// loopback address has no per-address cap (every client comes through it).
    var connectionLimits: ConnectionLimits {
        let policy = configuration.connections
        let trustProxy = configuration.trustProxy
        return ConnectionLimits(
            maxConnections: policy.maxConnections,
            maxConnectionsPerAddress: policy.maxConnectionsPerAddress,
            idleTimeout: policy.idleTimeout,
            headerTimeout: policy.headerTimeout,
            isExempt: { trustProxy && WebConfiguration.isLoopback($0) }
        )
    }

    /// The server's TLS from PEM files: the certificate chain (leaf first) and its key.
    static func tls(_ files: WebConfiguration.TLSFiles) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificatePath)
        } catch {
            throw TLSFileError(path: files.certificatePath, reason: "not a readable PEM certificate (\(error))")
        }
        guard !chain.isEmpty else { throw TLSFileError(path: files.certificatePath, reason: "holds no certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: files.privateKeyPath, format: .pem)
        } catch {
            throw TLSFileError(path: files.privateKeyPath, reason: "not a readable PEM private key (\(error))")
        }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }

    /// The language of a request: the profile's once onboarded, else the `lang` cookie, else
    /// the first of Accept-Language we speak, else the configured default.
    func language(for request: Request, settings: UserSettings?) -> Language {
        if let settings { return settings.profile.language }
        if let chosen = request.cookies[SessionMiddleware.languageCookie]?.value, let language = Language(rawValue: chosen) {
            return language
        }
        for part in (request.headers[.acceptLanguage] ?? "").split(separator: ",") {
            let tag = part.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if let language = Language(localeIdentifier: tag) { return language }
        }
        return configuration.fallbackLanguage
    }

    /// See other: the browser loads `path` with GET, showing `toast` (and its roar) once; with
    /// `undo`, the toast offers to restore that deleted meal.
    func redirect(_ path: String, toast: Toast? = nil, roar: Roar? = nil, undo: UUID? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: path])
        if let toast {
            let value = toast.rawValue + (roar.map { ".\($0.rawValue)" } ?? "") + (undo.map { "~\($0.uuidString)" } ?? "")
            response.setCookie(Cookie(name: SessionMiddleware.flashCookie, value: value, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// After logging meals: to the dashboard, where today's meals are, with "Meal saved!" (or
    /// the streak lighting up) and the roar the day has earned (docs/rules.md §5: single for a meal,
    /// double when every macro is good or at a streak milestone, triple with "New badge: …"
    /// when the save earned a badge).
    func mealsSaved(count: Int, streakWasLit: Bool, at instant: Date? = nil) throws -> Response {
        let badges = claimNewBadges()
        // back to the day the meal went to: a past day's diary stays shown
        let day = instant.map { LocalDate($0, in: timeZone) }.map { ShownDay(text: $0.iso, today: today) }
        let path = "/" + (day?.query ?? "")
        guard let report = try store.today(timeZone: timeZone)?.report else { return redirect(path, toast: .mealSaved) }
        let saved = MealSaved(report: report, count: count, streakWasLit: streakWasLit, newBadges: badges)
        let toast: Toast =
            switch saved.toast {
            case .streakLit: .mealStreak
            case .mealSaved: .mealSaved
            case .mealsSaved: .mealsSaved
            case .badgeEarned: .badgeEarned
            }
        if toast == .badgeEarned { return badgeRedirect(path, badges: saved.newBadges) }
        return redirect(path, toast: toast, roar: saved.roar)
    }

    /// Whether today's flame is lit, before a write that may light it.
    func streakLit() throws -> Bool {
        try store.today(timeZone: timeZone)?.report.streak.isLit ?? false
    }

    func localizer(_ context: some PageContext) -> Localizer { Localizer(context.language) }

    /// A store or validation error as one line in the user's language.
    func message(for error: any Error, _ l: Localizer) -> String {
        switch error {
        case let error as DietCore.ValidationError: l.render(error.message)
        case let error as StoreError: error.webMessage(l)
        default: l.text("web.error.unexpected", ["reason": .text("\(error)")])
        }
    }
}

extension StoreError {
    /// The error in the web app's words: the store's own messages for a missing row or
    /// profile name the CLI command that lists the ids ("`wdiet food search`"), of no use in the
    /// browser.
    func webMessage(_ l: Localizer) -> String {
        switch self {
        case .unknownFood: l.text("web.error.foodNotFound")
        case .notFound("recipes", _): l.text("web.error.recipeNotFound")
        case .notFound("calendars", _): l.text("web.error.calendarNotFound")
        case .notFound("meal_logs", _): l.text("web.error.mealNotFound")
        case .notOnboarded: l.text("web.error.notOnboarded")
        case .alreadyOnboarded: l.text("web.error.alreadyOnboarded")
        default: message(l)
        }
    }
}
