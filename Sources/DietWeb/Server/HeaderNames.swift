import HTTPTypes

/// The header names the web app reads or sets that HTTPTypes does not name. Each literal is a
/// valid token, so the initialiser cannot fail (a test reads every name back).
extension HTTPField.Name {
    static let secFetchMode = Self.named("Sec-Fetch-Mode")
    static let secFetchSite = Self.named("Sec-Fetch-Site")
    static let xCSRFToken = Self.named("X-CSRF-Token")
    static let xForwardedFor = Self.named("X-Forwarded-For")
    static let xForwardedProto = Self.named("X-Forwarded-Proto")
    static let xFrameOptions = Self.named("X-Frame-Options")
    static let xAccelBuffering = Self.named("X-Accel-Buffering")
    static let referrerPolicy = Self.named("Referrer-Policy")
    static let crossOriginOpenerPolicy = Self.named("Cross-Origin-Opener-Policy")
    static let crossOriginResourcePolicy = Self.named("Cross-Origin-Resource-Policy")
    static let permissionsPolicy = Self.named("Permissions-Policy")
    static let serverTiming = Self.named("Server-Timing")

    private static func named(_ token: StaticString) -> Self {
        Self("\(token)") ?? .contentType
    }

    static let webAppNames: [Self] = [
        secFetchMode, secFetchSite, xCSRFToken, xForwardedFor, xForwardedProto, xFrameOptions, xAccelBuffering, referrerPolicy,
        crossOriginOpenerPolicy, crossOriginResourcePolicy, permissionsPolicy, serverTiming,
    ]
}
