import Foundation
import SyncProtocol

/// The rules for the text fields of sign-up and sign-in, answered as 400 naming the field.
/// Lengths count Unicode code points, as JSON Schema's `minLength`/`maxLength` in the
/// OpenAPI document do. No field may hold a control character other than tab and newline:
/// PostgreSQL refuses NUL in text, bcrypt stops reading a password at NUL ("a\0b" would be
/// "a"), and escape sequences in a device name would reach terminals.
enum Credentials {
    static func email(_ text: String) throws -> String {
        try refuseControlCharacters(in: text, field: "email")
        let email = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard text.unicodeScalars.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
        else { throw APIError.badRequest("The email address \"\(text.prefix(80))\" is not valid.") }
        return email
    }

    /// 1 to 100 code points, not only whitespace; stored without surrounding whitespace.
    static func deviceName(_ text: String) throws -> String {
        try refuseControlCharacters(in: text, field: "device_name")
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, text.unicodeScalars.count <= 100 else {
            throw APIError.badRequest("Field device_name needs 1 to 100 characters, not only spaces.")
        }
        return name
    }

    /// A password presented at sign-in: only the control-character rule (the stored hash
    /// decides the rest).
    static func presentedPassword(_ text: String) throws {
        try refuseControlCharacters(in: text, field: "password")
    }

    /// A new password: 10 to 200 code points (bcrypt reads 72 bytes; longer is allowed but no
    /// stronger).
    static func newPassword(_ text: String) throws {
        try refuseControlCharacters(in: text, field: "password")
        if let problem = problem(withNewPassword: text) { throw APIError.badRequest(problem) }
    }

    static func problem(withNewPassword password: String) -> String? {
        let length = password.unicodeScalars.count
        if length < 10 { return "The password needs at least 10 characters." }
        if length > 200 { return "The password may have at most 200 characters." }
        return nil
    }

    /// The contract's rule for text (`RowContract.forbiddenControlCharacter`), answered as 400.
    static func refuseControlCharacters(in text: String, field: String) throws {
        guard let scalar = RowContract.forbiddenControlCharacter(in: text) else { return }
        throw APIError.badRequest("Field \(field) must not contain the control character \(RowContract.name(of: scalar)).")
    }
}
