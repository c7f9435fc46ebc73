import DietCore
import DietStore
import Foundation
import Hummingbird
import Logging

/// Sign-in when `wdiet serve` answers the home network: the first browser chooses the
/// passphrase with the setup code from the terminal; later ones sign in with it. Wrong
/// attempts in a row from one address lock that address for a while (`SignInPolicy`: the
/// household's other devices still sign in); sign-out ends this browser's session or all.
struct SignInController: Controller {
    let app: WebApp
    static let logger = Logger(label: "wdiet.serve.signin")

    func register(on router: Router<WebContext>) {
        router.get("/signin", use: signInPage)
        router.post("/signin", use: signIn)
        router.get("/setup", use: setupPage)
        router.post("/setup", use: setUp)
        router.post("/signout", use: signOut)
        router.post("/signout/everywhere", use: signOutEverywhere)
    }

    func signInPage(_ request: Request, context: WebContext) async throws -> Response {
        guard context.signInRequired else { return redirect("/") }
        guard try store.webSignInState().passphraseHash != nil, app.signIn.setupCode == nil else { return redirect("/setup") }
        let next = request.uri.queryParameters["next"].map(String.init)
        if context.sessionTokenHash != nil { return redirect(OwnPath.safe(next)) }
        return await page("signin", withLock(FormState(values: ["next": next.map(OwnPath.safe) ?? ""]), context), context: context)
    }

    /// The form as it opens: while this address is locked it says so at once, before anyone types.
    private func withLock(_ state: FormState, _ context: WebContext) async -> FormState {
        var state = state
        if let until = await app.signIn.lockedUntil(address(context), now: clock.now()) {
            state.errors["locked"] = lockedMessage(until, Localizer(context.language))
        }
        return state
    }

    /// The client's address as the web app determines it (`SignInMiddleware`: the peer, or
    /// behind the trusted proxy the address it forwarded); attempts are counted by it.
    private func address(_ context: WebContext) -> String { context.clientAddress ?? "unknown" }

    func signIn(_ request: Request, context: WebContext) async throws -> Response {
        guard context.signInRequired else { return redirect("/") }
        let l = Localizer(context.language)
        let next = context.form["next"].map(OwnPath.safe)
        var state = FormState(values: ["next": next ?? ""])
        guard let hash = try store.webSignInState().passphraseHash, app.signIn.setupCode == nil else { return redirect("/setup") }
        if let refusal = try await refusal(context, template: "signin", values: state.values) { return refusal }
        guard try await app.signIn.verify(context.form["passphrase"] ?? "", hash: hash) else {
            state.errors["passphrase"] = l.text("web.signin.wrongPassphrase") + " " + (try await failed(l, context))
            return page("signin", state, context: context, status: .unauthorized)
        }
        await app.signIn.succeeded(address(context))
        let (token, tokenHash) = SignInGate.newSessionToken()
        try store.startWebSession(tokenHash: tokenHash)
        // browsers long gone are forgotten here rather than on a schedule
        try store.endWebSessions(idleSince: clock.now().addingTimeInterval(-app.signIn.policy.idleTimeout))
        return signedIn(token, path: next ?? OwnPath.fallback)
    }

    func setupPage(_ request: Request, context: WebContext) async throws -> Response {
        guard context.signInRequired else { return redirect("/") }
        guard app.signIn.setupCode != nil else { return redirect("/signin") }
        return await page("setup", withLock(FormState(), context), context: context)
    }

    func setUp(_ request: Request, context: WebContext) async throws -> Response {
        guard context.signInRequired else { return redirect("/") }
        guard app.signIn.setupCode != nil else { return redirect("/signin") }
        let l = Localizer(context.language)
        var state = FormState()
        if let refusal = try await refusal(context, template: "setup", values: [:]) { return refusal }
        guard app.signIn.setupCodeMatches(context.form["code"] ?? "") else {
            // Another browser spent the code since the check above: the passphrase is set, and
            // this one signs in with it (not told its right code was wrong, nor counted a try).
            guard app.signIn.setupCode != nil else { return redirect("/signin") }
            state.errors["code"] = l.text("web.setup.wrongCode") + " " + (try await failed(l, context))
            return page("setup", state, context: context, status: .unauthorized)
        }
        let passphrase = context.form["passphrase"] ?? ""
        let length = passphrase.count
        if length < SignInPolicy.passphraseLength.lowerBound {
            state.errors["passphrase"] = l.text(
                "web.setup.short",
                ["min": .integer(SignInPolicy.passphraseLength.lowerBound), "count": .integer(length)]
            )
        } else if length > SignInPolicy.passphraseLength.upperBound {
            state.errors["passphrase"] = l.text(
                "web.setup.long",
                ["max": .integer(SignInPolicy.passphraseLength.upperBound), "count": .integer(length)]
            )
        } else if passphrase != context.form["repeat"] {
            state.errors["repeat"] = l.text("web.setup.mismatch")
        }
        guard state.errors.isEmpty else { return page("setup", state, context: context, status: .unprocessableContent) }
        let hash = try await app.signIn.hash(passphrase)
        let (token, tokenHash) = SignInGate.newSessionToken()
        // the code works once: spent before the store is written, so two tabs cannot both set one
        guard app.signIn.consumeSetupCode(context.form["code"] ?? "") else { return redirect("/signin") }
        await app.signIn.succeeded(address(context))
        try store.setWebPassphrase(hash: hash, sessionTokenHash: tokenHash)
        return signedIn(token, path: "/")
    }

    func signOut(_ request: Request, context: WebContext) async throws -> Response {
        if let hash = context.sessionTokenHash { try store.endWebSessions(tokenHash: hash) }
        return signedOut()
    }

    func signOutEverywhere(_ request: Request, context: WebContext) async throws -> Response {
        guard context.sessionTokenHash != nil else { return signedOut() }
        try store.endWebSessions(tokenHash: nil)
        return signedOut()
    }

    /// This address is locked, or tries too often: the page says until when, nothing is checked.
    /// While wrong attempts from many addresses slow sign-in, an attempt waits its turn here.
    private func refusal(_ context: WebContext, template: String, values: [String: String]) async throws -> Response? {
        let l = Localizer(context.language)
        var form = FormState(values: values)
        switch try await app.signIn.admit(address(context), now: clock.now()) {
        case .allowed:
            return nil
        case .locked(let until):
            form.errors["locked"] = lockedMessage(until, l)
            return page(template, form, context: context, status: .tooManyRequests, retryAfter: until.timeIntervalSince(clock.now()))
        case .tooFast:
            form.errors["locked"] = l.text("web.signin.tooFast")
            return page(template, form, context: context, status: .tooManyRequests, retryAfter: 60)
        }
    }

    /// Counts a wrong passphrase or code from this address; the message says how many tries it
    /// has left, or until when it is now locked. The terminal hears of a lock and of a slowdown.
    private func failed(_ l: Localizer, _ context: WebContext) async throws -> String {
        let policy = app.signIn.policy
        let (failure, slowedUntil) = try await app.signIn.failed(address(context), now: clock.now())
        if let slowedUntil {
            Self.logger.notice(
                "w-diet sign-in slowed until \(slowedUntil): \(policy.failuresToSlow) wrong attempts in a row from any addresses (last from \(address(context)))"
            )
        }
        switch failure {
        case .locked(let until):
            Self.logger.notice("w-diet sign-in from \(address(context)) locked until \(until) after \(policy.failuresToLock) wrong attempts")
            return lockedMessage(until, l)
        case .attemptsLeft(let left):
            return l.text(
                "web.signin.triesLeft",
                ["count": .integer(left), "minutes": .integer(Int(policy.lockDuration / 60))]
            )
        }
    }

    private func lockedMessage(_ until: Date, _ l: Localizer) -> String {
        l.text("web.signin.lockedHere", ["time": .text(TimeOfDay(until, in: timeZone).formatted)])
    }

    /// The session cookie (HttpOnly, SameSite=Strict, as long as the idle timeout; `Secure` is
    /// added under HTTPS) and on to `path`.
    private func signedIn(_ token: String, path: String) -> Response {
        var response = Response(status: .seeOther, headers: [.location: path])
        response.setCookie(
            Cookie(
                name: SignInMiddleware.sessionCookie,
                value: token,
                maxAge: Int(app.signIn.policy.idleTimeout),
                path: "/",
                httpOnly: true,
                sameSite: .strict
            )
        )
        return response
    }

    private func signedOut() -> Response {
        var response = app.redirect("/signin", toast: .signedOut)
        response.setCookie(Cookie(name: SignInMiddleware.sessionCookie, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    private func page(
        _ template: String,
        _ state: FormState,
        context: WebContext,
        status: HTTPResponse.Status = .ok,
        retryAfter: TimeInterval? = nil
    ) -> Response {
        let l = Localizer(context.language)
        var values = state.template
        values["next"] = state.values["next"] ?? ""
        var response = renderer.page(template, values, title: l.text("web.\(template).title"), tab: nil, context: context, status: status)
        if let retryAfter { response.headers[.retryAfter] = String(max(1, Int(retryAfter.rounded(.up)))) }
        return response
    }
}
