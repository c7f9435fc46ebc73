import ArgumentParser
import DietCore
import DietStore
import DietSync
import Foundation
import SyncProtocol

/// `wdiet account …`: the optional cloud account that syncs this device with others.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Sign up, sign in or out of a w-diet server to sync your devices.",
        subcommands: [
            AccountSignupCommand.self, AccountLoginCommand.self, AccountLogoutCommand.self, AccountStatusCommand.self,
            AccountDevicesCommand.self,
        ]
    )
}

/// The options of sign-up and sign-in.
struct SignInOptions: ParsableArguments {
    @Option(help: "The server, e.g. https://sync.example.org (default: $WDIET_SERVER).") var server: String?
    @Option(help: "Your email address.") var email: String
    @Option(help: "A name for this device in your device list (default: the host name).") var device: String?
    @Flag(help: "Read the password from the first line of standard input (else $WDIET_PASSWORD, else a prompt).")
    var passwordStdin = false

    func serverURL(_ context: CLIContext, _ l: Localizer) throws -> URL {
        guard let text = server ?? context.environment["WDIET_SERVER"], !text.isEmpty else {
            throw CLIError(l.text("cli.account.error.noServer"))
        }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil else {
            throw CLIError(l.text("cli.account.error.serverURL", ["value": .text(text)]))
        }
        return url
    }

    func password(_ context: CLIContext, _ l: Localizer) throws -> String {
        var password: String?
        if passwordStdin {
            password = context.readLine()
        } else if let fromEnvironment = context.environment["WDIET_PASSWORD"] {
            password = fromEnvironment
        } else if context.isTerminal, let typed = getpass(l.text("cli.account.passwordPrompt")) {
            password = String(cString: typed)
        } else {
            password = context.readLine()
        }
        guard let password, !password.isEmpty else { throw CLIError(l.text("cli.account.error.noPassword")) }
        // a NUL would cut the password short on the way to the server; never echo it
        do throws(DietCore.ValidationError) {
            try TextRules.check(password, field: .password, secret: true)
        } catch {
            throw CLIError(error, language: l.language)
        }
        return password
    }

    var deviceName: String {
        device ?? ProcessInfo.processInfo.hostName
    }

    /// Signs up or in, then syncs at once so the device's data goes up and the account's comes down.
    func signIn(newAccount: Bool, store: StoreOptions, context: CLIContext) async throws -> String {
        let session = try Session.open(store, context: context)
        let l = session.localizer
        let server = try serverURL(context, l)
        let credentials = PasswordCredentials(email: email, password: try password(context, l), deviceName: deviceName)
        let synchronizer = Synchronizer(store: session.store, file: AccountFile(databasePath: store.resolvedPath(environment: context.environment)))
        let account: Account
        do {
            account = try await synchronizer.signIn(server: server, credentials: credentials, newAccount: newAccount)
        } catch {
            throw SyncCommand.cliError(error, server: server, session: session)
        }
        var lines = [
            l.text(
                newAccount ? "cli.account.signedUp" : "cli.account.signedIn",
                ["email": .text(account.email), "server": .text(server.absoluteString), "device": .text(deviceName)]
            )
        ]
        // the first sync may fail (offline a moment later): the sign-in stands, and the next sync catches up
        if let report = try? await synchronizer.sync() { lines.append(SyncCommand.summary(report, l)) }
        return lines.joined(separator: "\n")
    }
}

struct AccountSignupCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Create an account and sync this device into it.")

    @OptionGroup var signIn: SignInOptions
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        try await signIn.signIn(newAccount: true, store: options, context: context)
    }
}

struct AccountLoginCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in to your account and sync this device.")

    @OptionGroup var signIn: SignInOptions
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        try await signIn.signIn(newAccount: false, store: options, context: context)
    }
}

struct AccountLogoutCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign this device out; its data stays.")

    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        let synchronizer = Synchronizer(store: session.store, file: AccountFile(databasePath: options.resolvedPath(environment: context.environment)))
        do {
            try await synchronizer.signOut()
        } catch {
            throw SyncCommand.cliError(error, server: nil, session: session)
        }
        return session.localizer.text("cli.account.loggedOut")
    }
}

struct AccountStatusCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the account, pending changes and the last sync.")

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        try SyncCommand.status(options: options, context: context, json: json)
    }
}

struct AccountDevicesCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the signed-in devices, or sign one out.")

    @Option(help: "Sign out the device with this id.") var revoke: String?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let file = AccountFile(databasePath: options.resolvedPath(environment: context.environment))
        var revokeID: UUID?
        if let revoke {
            guard let id = UUID(uuidString: revoke) else { throw CLIError(l.text("cli.account.error.deviceID", ["value": .text(revoke)])) }
            revokeID = id
        }
        let synchronizer = Synchronizer(store: session.store, file: file)
        let devices: [DeviceSession]
        do {
            devices = try await synchronizer.withAccessToken { [revokeID] api, token in
                if let revokeID {
                    try await api.revokeDevice(revokeID, accessToken: token)
                    return []
                }
                return try await api.devices(accessToken: token)
            }
        } catch {
            throw SyncCommand.cliError(error, server: try? file.load()?.server, session: session)
        }
        if revokeID != nil { return l.text("cli.account.revoked") }
        if json { return try JSONOutput.encode(devices) }
        return devices.map { device in
            l.text(
                "cli.account.device",
                [
                    "name": .text(device.deviceName), "date": .date(LocalDate(device.createdAt, in: session.timeZone)),
                    "lastUsed": .date(LocalDate(device.lastUsedAt, in: session.timeZone)),
                    "current": .text(device.current ? l.text("cli.account.thisDevice") : ""), "id": .text(device.id.uuidString),
                ]
            )
        }.joined(separator: "\n")
    }
}
