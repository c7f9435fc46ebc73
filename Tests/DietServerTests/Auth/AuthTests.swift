import DietServer
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import ServerTestSupport
import SyncProtocol
import Testing

@Suite("Accounts and tokens")
struct AuthTests {
    @Test("sign-up returns tokens that open the API; the email is stored lower-case")
    func signupWorks() async throws {
        try await ServerHarness.withServer { _, client in
            let tokens = try await client.signup("Anna@Example.org")
            #expect(tokens.expiresIn == 15 * 60)
            let devices = try await client.send(.get, AccountPaths.devices, token: tokens.accessToken).decoded([DeviceSession].self)
            #expect(devices.map(\.deviceName) == ["laptop"])
            #expect(devices.first?.current == true)
            let again = try await client.login("anna@example.org")
            #expect(again.status == .ok)
        }
    }

    @Test("sign-up refuses a bad email, a short password, a missing field and a taken email, saying which")
    func signupValidation() async throws {
        try await ServerHarness.withServer { _, client in
            let badEmail = try await client.send(
                .post,
                AccountPaths.signup,
                json: PasswordCredentials(email: "anna", password: "long enough pw", deviceName: "x")
            )
            #expect(badEmail.status == .badRequest)
            #expect(badEmail.errorBody?.error.message.contains("email address \"anna\"") == true)
            let short = try await client.send(
                .post,
                AccountPaths.signup,
                json: PasswordCredentials(email: "a@b.de", password: "short", deviceName: "x")
            )
            #expect(short.errorBody?.error.message == "The password needs at least 10 characters.")
            let missing = try await client.send(.post, AccountPaths.signup, rawBody: #"{"email":"a@b.de","password":"long enough pw"}"#)
            #expect(missing.status == .badRequest)
            #expect(missing.errorBody?.error.message == "Missing field device_name.")
            let notJSON = try await client.send(.post, AccountPaths.signup, rawBody: "email=a@b.de")
            #expect(notJSON.status == .badRequest)
            _ = try await client.signup("a@b.de")
            let taken = try await client.send(
                .post,
                AccountPaths.signup,
                json: PasswordCredentials(email: "A@B.de", password: "long enough pw", deviceName: "x")
            )
            #expect(taken.status == .conflict)
        }
    }

    @Test("a wrong password and an unknown email get the same answer")
    func genericLoginErrors() async throws {
        try await ServerHarness.withServer { _, client in
            _ = try await client.signup("anna@example.org")
            let wrong = try await client.login("anna@example.org", password: "not the password")
            let unknown = try await client.login("nobody@example.org")
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(wrong.errorBody == unknown.errorBody)
        }
    }

    @Test("five failed sign-ins from one address lock the account there for the window with Retry-After, even for the right password")
    func rateLimitPerAccount() async throws {
        try await ServerHarness.withServer { _, client in
            _ = try await client.signup("anna@example.org")
            for _ in 0..<5 {
                #expect(try await client.login("anna@example.org", password: "guess guess guess").status == .unauthorized)
            }
            let locked = try await client.login("anna@example.org")
            #expect(locked.status == .tooManyRequests)
            let retry = try #require(locked.headers[.retryAfter].flatMap(Int.init))
            #expect((800...900).contains(retry))
            // Another account is not locked by Anna's failures (the address limit is higher).
            _ = try await client.signup("ben@example.org")
            #expect(try await client.login("ben@example.org").status == .ok)
        }
    }

    @Test("failures from one address across many accounts hit the address limit")
    func rateLimitPerAddress() async throws {
        try await ServerHarness.withServer(configure: { $0.rateLimit.failuresPerAddress = 6 }) { _, client in
            for index in 0..<6 {
                let response = try await client.login("user\(index)@example.org")
                #expect(response.status == .unauthorized)
            }
            let blocked = try await client.login("fresh@example.org")
            #expect(blocked.status == .tooManyRequests)
        }
    }

    @Test("a refresh token works once; presenting it again revokes the whole session")
    func refreshRotationAndReuse() async throws {
        try await ServerHarness.withServer { _, client in
            let first = try await client.signup("anna@example.org")
            let second = try await client.send(.post, AccountPaths.refresh, json: RefreshRequest(refreshToken: first.refreshToken))
                .decoded(TokenResponse.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.sessionID == first.sessionID)

            let replay = try await client.send(.post, AccountPaths.refresh, json: RefreshRequest(refreshToken: first.refreshToken))
            #expect(replay.status == .unauthorized)
            // The family is revoked: the newest refresh token and the access token stop working.
            let next = try await client.send(.post, AccountPaths.refresh, json: RefreshRequest(refreshToken: second.refreshToken))
            #expect(next.status == .unauthorized)
            #expect(try await client.send(.get, SyncPaths.pull, token: second.accessToken).status == .unauthorized)
        }
    }

    @Test("expired, tampered, unsigned (alg none), other-secret and malformed access tokens are refused")
    func badAccessTokens() async throws {
        try await ServerHarness.withServer { configuration, client in
            let tokens = try await client.signup("anna@example.org")
            #expect(try await client.send(.get, SyncPaths.pull, token: tokens.accessToken).status == .ok)

            let parts = tokens.accessToken.split(separator: ".").map(String.init)
            let payload = try #require(Data(base64URL: parts[1]))
            var claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            claims["exp"] = Date().timeIntervalSince1970 + 86400 * 365
            let longer = try JSONSerialization.data(withJSONObject: claims).base64URL
            let tampered = [parts[0], longer, parts[2]].joined(separator: ".")
            let unsigned = [Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64URL, parts[1], ""].joined(separator: ".")

            let otherKeys = JWTKeyCollection()
            await otherKeys.add(hmac: HMACKey(from: "some other secret of enough length!!"), digestAlgorithm: .sha256)
            let forged = try await otherKeys.sign(
                TestClaims(
                    sub: tokens.userID.uuidString,
                    sid: tokens.sessionID.uuidString,
                    exp: Date().addingTimeInterval(600)
                )
            )
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: configuration.jwtSecret), digestAlgorithm: .sha256)
            let expired = try await keys.sign(
                TestClaims(
                    sub: tokens.userID.uuidString,
                    sid: tokens.sessionID.uuidString,
                    exp: Date().addingTimeInterval(-1)
                )
            )
            let valid = try await keys.sign(
                TestClaims(
                    sub: tokens.userID.uuidString,
                    sid: tokens.sessionID.uuidString,
                    exp: Date().addingTimeInterval(600)
                )
            )
            #expect(try await client.send(.get, SyncPaths.pull, token: valid).status == .ok, "the control token is accepted")
            for token in [tampered, unsigned, forged, expired, "not-a-token", ""] {
                let response = try await client.send(.get, SyncPaths.pull, token: token)
                #expect(response.status == .unauthorized, "\(token.prefix(30))")
            }
            #expect(try await client.send(.get, SyncPaths.pull).status == .unauthorized)
        }
    }

    @Test("logout and revoking a device end those sessions at once")
    func logoutAndRevoke() async throws {
        try await ServerHarness.withServer { _, client in
            let laptop = try await client.signup("anna@example.org")
            let phone = try await client.login("anna@example.org").decoded(TokenResponse.self)
            let devices = try await client.send(.get, AccountPaths.devices, token: laptop.accessToken).decoded([DeviceSession].self)
            #expect(devices.count == 2)

            #expect(try await client.send(.delete, AccountPaths.devices + "/\(phone.sessionID)", token: laptop.accessToken).status == .noContent)
            #expect(try await client.send(.get, SyncPaths.pull, token: phone.accessToken).status == .unauthorized)
            let refresh = try await client.send(.post, AccountPaths.refresh, json: RefreshRequest(refreshToken: phone.refreshToken))
            #expect(refresh.status == .unauthorized)

            #expect(try await client.send(.post, AccountPaths.logout, token: laptop.accessToken).status == .noContent)
            #expect(try await client.send(.get, AccountPaths.devices, token: laptop.accessToken).status == .unauthorized)
        }
    }
}

/// Claims shaped like the server's, signed by the test.
struct TestClaims: JWTPayload {
    var sub: String
    var sid: String
    var iss = "wdiet-server"
    var iat = Date()
    var exp: Date

    init(sub: String, sid: String, exp: Date) {
        self.sub = sub
        self.sid = sid
        self.exp = exp
    }

    enum CodingKeys: String, CodingKey { case sub, sid, iss, iat, exp }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sub, forKey: .sub)
        try container.encode(sid, forKey: .sid)
        try container.encode(iss, forKey: .iss)
        try container.encode(Int(iat.timeIntervalSince1970), forKey: .iat)
        try container.encode(Int(exp.timeIntervalSince1970), forKey: .exp)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension Data {
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }

    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
