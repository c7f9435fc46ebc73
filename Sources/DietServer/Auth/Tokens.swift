import Crypto
import Foundation
import JWTKit

/// The claims of an access token: who, which session, until when.
struct AccessClaims: JWTPayload {
    static let issuer = "wdiet-server"

    var sub: SubjectClaim
    var sid: String
    var iss: IssuerClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        guard iss.value == Self.issuer else { throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "wrong issuer") }
    }
}

/// Signs and verifies access tokens (HS256 with the configured secret), verifies Sign in with
/// Apple identity tokens against the configured key set, and makes refresh tokens.
struct TokenService: Sendable {
    private let keys: JWTKeyCollection
    private let appleKeys: JWTKeyCollection?
    private let appleAudience: String?
    let accessLifetime: TimeInterval
    let refreshLifetime: TimeInterval
    /// How far apart two instances' clocks may be.
    static let clockLeeway: TimeInterval = 60

    init(configuration: ServerConfiguration) async throws {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: configuration.jwtSecret), digestAlgorithm: .sha256)
        if let jwks = configuration.appleJWKS, let audience = configuration.appleAudience {
            let apple = JWTKeyCollection()
            do {
                try await apple.add(jwksJSON: jwks)
            } catch {
                throw ConfigurationError.invalid("WDIET_APPLE_JWKS", "is not a valid JWKS document")
            }
            appleKeys = apple
            appleAudience = audience
        } else {
            appleKeys = nil
            appleAudience = nil
        }
        accessLifetime = configuration.accessTokenLifetime
        refreshLifetime = configuration.refreshTokenLifetime
    }

    func accessToken(userID: UUID, sessionID: UUID, now: Date = Date()) async throws -> String {
        let claims = AccessClaims(
            sub: .init(value: userID.uuidString),
            sid: sessionID.uuidString,
            iss: .init(value: AccessClaims.issuer),
            iat: .init(value: now),
            exp: .init(value: now.addingTimeInterval(accessLifetime))
        )
        return try await keys.sign(claims)
    }

    /// The caller of a valid access token; nil for anything else (expired, tampered, another
    /// algorithm, `alg: none`, not a token at all, or one made to live longer than this server
    /// issues them: a leaked secret must not yield tokens good for years).
    func verifyAccessToken(_ token: String, now: Date = Date()) async -> Caller? {
        guard let claims = try? await keys.verify(token, as: AccessClaims.self),
            claims.exp.value.timeIntervalSince(claims.iat.value) <= accessLifetime + Self.clockLeeway,
            claims.iat.value <= now.addingTimeInterval(Self.clockLeeway),
            let user = UUID(uuidString: claims.sub.value), let session = UUID(uuidString: claims.sid)
        else { return nil }
        return Caller(userID: user, sessionID: session)
    }

    var appleSignInEnabled: Bool { appleKeys != nil }

    /// The Apple user of a valid identity token for this app; nil otherwise.
    func verifyAppleToken(_ token: String) async -> AppleIdentityToken? {
        guard let appleKeys, let appleAudience else { return nil }
        guard let claims = try? await appleKeys.verify(token, as: AppleIdentityToken.self, expectedAudience: appleAudience),
            claims.issuer.value == "https://appleid.apple.com"
        else { return nil }
        return claims
    }
}

/// Refresh tokens: `<user id>.<32 random bytes, base64url>`. The user id lets the server
/// look the token up under that user's row-level security; only a SHA-256 of it is stored.
enum RefreshToken {
    static func make(userID: UUID) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return userID.uuidString + "." + Data(bytes).base64URLEncoded
    }

    /// The user id and the stored hash of a token; nil when it is not shaped like one.
    static func parse(_ token: String) -> (userID: UUID, hash: Data)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let user = UUID(uuidString: String(parts[0])), parts[1].count == 43 else { return nil }
        return (user, hash(token))
    }

    static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }
}

extension Data {
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
