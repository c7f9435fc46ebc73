import DietCore
import DietStore
import DietSync
import DietWeb
import Foundation
import ServerTestSupport
import SyncProtocol
import Testing

@Suite("The sync account in the browser, against a real wdiet-server on PostgreSQL")
struct AccountRouteTests {
    @Test("sign up from settings, sync, see it on a second device; a wrong password is explained; delete removes the server account")
    func account() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            let harness = try WebHarness()
            defer { harness.remove() }
            let email = "web-\(UUID().uuidString.prefix(8).lowercased())@example.org"
            try await harness.run { browser in
                try await browser.onboard()
                try await browser.post("/log/manual", [("name", "Linsensuppe"), ("kcal", "520")])
                let wrongServer = try await browser.post(
                    "/settings/account/signin",
                    [
                        ("server", server.absoluteString), ("email", email),
                        ("password", "correct horse battery"),
                    ]
                )
                #expect(wrongServer.status == .unprocessableContent, "signing in to an account that does not exist yet fails")
                #expect(!wrongServer.body.contains("correct horse battery"), "a password is never shown back")
                let signedUp = try await browser.post(
                    "/settings/account/signin",
                    [
                        ("server", server.absoluteString), ("email", email),
                        ("password", "correct horse battery"), ("new", "yes"),
                    ]
                )
                #expect(signedUp.status == .seeOther)
                let settings = try await browser.get("/settings")
                #expect(settings.body.contains(email) && settings.shows(Localizer(.en).text("web.toast.signed_in")))
                #expect(settings.shows(Localizer(.en).text("web.account.pending", ["count": .integer(0)])), "the first sync ran")
                try await browser.post("/log/manual", [("name", "Apfel"), ("kcal", "80")])
                #expect(try await browser.post("/settings/account/sync").location == "/settings")
                #expect(try await browser.get("/settings").shows(Localizer(.en).text("web.toast.synced")))
                // without "sync now": a change made in the browser syncs by itself in the background
                try await browser.post("/log/manual", [("name", "Brot"), ("kcal", "200")])
            }
            await harness.app.settleSync()
            #expect(try harness.store().syncStatus().pending == 0, "the background sync pushed the last meal")
            // a second device sees both meals
            let phoneFolder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-phone-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: phoneFolder) }
            let phonePath = phoneFolder.appendingPathComponent("w-diet.sqlite").path
            let phone = try AppDatabase.open(path: phonePath)
            let synchronizer = Synchronizer(store: phone, file: AccountFile(databasePath: phonePath))
            _ = try await synchronizer.signIn(
                server: server,
                credentials: PasswordCredentials(
                    email: email,
                    password: "correct horse battery",
                    deviceName: "phone"
                ),
                newAccount: false
            )
            _ = try await synchronizer.sync()
            let day = LocalDate(WebHarness.now, in: harness.timeZone)
            #expect(Set(try phone.meals(on: day).map(\.entry.name)) == ["Linsensuppe", "Apfel", "Brot"])
            // deleting everything in the browser deletes the server account first
            try await harness.run { browser in
                try await browser.get("/settings")  // a fresh browser: its CSRF cookie first
                let deleted = try await browser.post("/settings/delete", [("confirm", Localizer(.en).text("cli.deleteAccount.word"))])
                #expect(deleted.location == "/onboarding")
            }
            await #expect(throws: (any Error).self) {
                try await ServerAPI(baseURL: server).login(PasswordCredentials(email: email, password: "correct horse battery", deviceName: "x"))
            }
            #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".account.json"))
        }
    }

    @Test("signing out keeps the data on the device")
    func signOut() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            let harness = try WebHarness()
            defer { harness.remove() }
            try await harness.run { browser in
                try await browser.onboard()
                let email = "out-\(UUID().uuidString.prefix(8).lowercased())@example.org"
                #expect(
                    try await browser.post(
                        "/settings/account/signin",
                        [
                            ("server", server.absoluteString), ("email", email),
                            ("password", "correct horse battery"), ("new", "yes"),
                        ]
                    ).status == .seeOther
                )
                #expect(try await browser.post("/settings/account/signout").location == "/settings")
                let settings = try await browser.get("/settings")
                #expect(settings.body.contains("name=\"password\""), "the sign-in form is back")
            }
            #expect(try harness.store().settings() != nil)
            #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".account.json"))
        }
    }
}
