import DietServer
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import ServerTestSupport
import SyncProtocol
import Testing
import _CryptoExtras

/// Sign in with Apple against a key set the test makes, published to the server as its JWKS.
@Suite("Sign in with Apple")
struct AppleSignInTests {
    static let audience = "org.wdiet.app"

    struct Signer {
        let keys: JWTKeyCollection
        let jwks: String
    }

    static func signer(kid: String = "test-key") async throws -> Signer {
        let key = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        let jwks = #"{"keys":[{"kty":"RSA","kid":"\#(kid)","use":"sig","alg":"RS256","n":"\#(modulus.base64URL)","e":"\#(exponent.base64URL)"}]}"#
        return Signer(keys: keys, jwks: jwks)
    }

    static func token(
        _ signer: Signer,
        subject: String = "001234.apple.user",
        email: String? = nil,
        audience: String = audience,
        issuer: String = "https://appleid.apple.com",
        expires: Date = Date().addingTimeInterval(600)
    ) async throws -> String {
        let claims = AppleIdentityToken(
            issuer: .init(value: issuer),
            audience: .init(value: [audience]),
            expires: .init(value: expires),
            issuedAt: .init(value: Date()),
            subject: .init(value: subject),
            email: email
        )
        return try await signer.keys.sign(claims, kid: JWKIdentifier(string: "test-key"))
    }

    @Test("a valid identity token creates the account once and signs the same user in afterwards")
    func validToken() async throws {
        let apple = try await Self.signer()
        try await ServerHarness.withServer(configure: {
            $0.appleJWKS = apple.jwks
            $0.appleAudience = Self.audience
        }) { _, client in
            let token = try await Self.token(apple, email: "anna@privaterelay.appleid.com")
            let first = try await client.send(.post, AccountPaths.apple, json: AppleSignIn(identityToken: token, deviceName: "iPhone"))
                .decoded(TokenResponse.self, expecting: .created)
            let second = try await client.send(.post, AccountPaths.apple, json: AppleSignIn(identityToken: token, deviceName: "iPad"))
                .decoded(TokenResponse.self, expecting: .ok)
            #expect(first.userID == second.userID)
            let export = try await client.send(.get, AccountPaths.export, token: second.accessToken).decoded(AccountExport.self)
            #expect(export.email == "anna@privaterelay.appleid.com")
            #expect(export.devices.count == 2)
        }
    }

    @Test("tokens for another app, from another issuer, expired, or signed by another key are refused")
    func invalidTokens() async throws {
        let apple = try await Self.signer()
        let impostor = try await Self.signer()
        try await ServerHarness.withServer(configure: {
            $0.appleJWKS = apple.jwks
            $0.appleAudience = Self.audience
        }) { _, client in
            let tokens = [
                try await Self.token(apple, audience: "com.example.other"),
                try await Self.token(apple, issuer: "https://evil.example.org"),
                try await Self.token(apple, expires: Date().addingTimeInterval(-60)),
                try await Self.token(impostor),
                "not.a.token",
            ]
            for token in tokens {
                let response = try await client.send(.post, AccountPaths.apple, json: AppleSignIn(identityToken: token, deviceName: "iPhone"))
                #expect(response.status == .unauthorized)
                #expect(response.errorBody?.error.code == "invalid_identity_token")
            }
        }
    }

    @Test("an Apple email already used by a password account is not linked to it")
    func noSilentLinking() async throws {
        let apple = try await Self.signer()
        try await ServerHarness.withServer(configure: {
            $0.appleJWKS = apple.jwks
            $0.appleAudience = Self.audience
        }) { _, client in
            let password = try await client.signup("anna@example.org")
            let token = try await Self.token(apple, email: "anna@example.org")
            let viaApple = try await client.send(.post, AccountPaths.apple, json: AppleSignIn(identityToken: token, deviceName: "iPhone"))
                .decoded(TokenResponse.self, expecting: .created)
            #expect(viaApple.userID != password.userID)
            let export = try await client.send(.get, AccountPaths.export, token: viaApple.accessToken).decoded(AccountExport.self)
            #expect(export.email == nil)
        }
    }

    @Test("without a configured key set the endpoint says Sign in with Apple is off")
    func disabled() async throws {
        try await ServerHarness.withServer { _, client in
            let response = try await client.send(.post, AccountPaths.apple, json: AppleSignIn(identityToken: "x", deviceName: "iPhone"))
            #expect(response.status == .serviceUnavailable)
        }
    }
}
