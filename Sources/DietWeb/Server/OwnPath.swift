import Foundation

/// Where the web app may send a browser when the target comes from a request (sign-in's
/// `next`, any return address): only this app's own pages. Every redirect built from input
/// goes through `OwnPath.safe`, and `SecurityHeadersMiddleware` checks every `Location` the app
/// answers with once more.
///
/// A target is one of ours when it
/// - starts with exactly one `/` (not `//` or `/\`: both name another host to a browser);
/// - holds no backslash (browsers read it as `/`), no whitespace (Unicode's too: U+2028, a
///   no-break space) and no control or invisible format character anywhere: browsers drop a
///   tab or line break inside a URL, so `/\t/evil.example` becomes `//evil.example`;
/// - keeps all of that once percent-decoded, however often (`/%09/evil.example`,
///   `/%2F/evil.example`, `%252F`), and decodes to UTF-8 at all;
/// - is at most `maxLength` bytes long and not empty.
///
/// Starting with one `/` it can name neither a scheme nor a host. Anything else becomes `/`.
enum OwnPath {
    static let fallback = "/"
    /// Longer than any page of the app, with its query, needs.
    static let maxLength = 2048

    /// `target` when it is one of this app's own paths (non-ASCII characters percent-encoded,
    /// so the `Location` header is plain ASCII), else `/`.
    static func safe(_ target: String?) -> String {
        guard let target, isOwn(target) else { return fallback }
        return encoded(target)
    }

    /// Whether `target` is one of this app's own paths (see the type's rules).
    static func isOwn(_ target: String) -> Bool {
        guard target.utf8.count <= maxLength else { return false }
        var current = target
        // each round decodes one level of percent-encoding; a path that still changes after
        // the length limit allows for is not one the app made
        for _ in 0..<8 {
            guard isPlainOwn(current) else { return false }
            guard current.contains("%") else { return true }
            guard let decoded = current.removingPercentEncoding else { return false }
            if decoded == current { return true }
            current = decoded
        }
        return false
    }

    /// The rules on one level of encoding.
    private static func isPlainOwn(_ path: String) -> Bool {
        let scalars = Array(path.unicodeScalars.prefix(2))
        guard scalars.first == "/" else { return false }
        if scalars.count > 1, scalars[1] == "/" || scalars[1] == "\\" { return false }
        return !path.unicodeScalars.contains(where: isForbidden)
    }

    /// A backslash, whitespace, or a control, format, separator, private-use, surrogate or
    /// unassigned code point.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\\" || scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate, .unassigned: return true
        default: return false
        }
    }

    /// RFC 3986's characters of a path, query and fragment stay; everything else (non-ASCII
    /// letters, quotes, angle brackets) is percent-encoded as UTF-8.
    private static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: allowed) ?? fallback
    }

    private static let allowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#[]%"
    )
}
