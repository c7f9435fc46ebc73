import Crypto
import Foundation
import WhoopAPI

/// Seals a user's WHOOP tokens for the database with AES-GCM under `WDIET_TOKEN_KEY`: a fresh
/// nonce per seal, and the user id as authenticated data, so a box copied to another user's
/// row (or sealed under another key) does not open.
struct TokenBox: Sendable {
    enum Failure: Error, Equatable {
        /// The key is not 32 bytes.
        case badKey
        /// The box was altered, moved to another user or sealed under another key.
        case cannotOpen
    }

    private let key: SymmetricKey

    init(key: Data) throws {
        guard key.count == 32 else { throw Failure.badKey }
        self.key = SymmetricKey(data: key)
    }

    /// Nonce, ciphertext and tag in one value (AES-GCM's combined form).
    func seal(_ tokens: WhoopTokens, for userID: UUID) throws -> Data {
        let plain = try JSONEncoder.tokens.encode(tokens)
        let box = try AES.GCM.seal(plain, using: key, nonce: AES.GCM.Nonce(), authenticating: Self.associatedData(userID))
        guard let combined = box.combined else { throw Failure.cannotOpen }
        return combined
    }

    func open(_ sealed: Data, for userID: UUID) throws -> WhoopTokens {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try AES.GCM.open(box, using: key, authenticating: Self.associatedData(userID))
            return try JSONDecoder.tokens.decode(WhoopTokens.self, from: plain)
        } catch {
            throw Failure.cannotOpen
        }
    }

    private static func associatedData(_ userID: UUID) -> Data {
        Data("wdiet-whoop-tokens:\(userID.uuidString.lowercased())".utf8)
    }
}

extension JSONEncoder {
    fileprivate static var tokens: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }
}

extension JSONDecoder {
    fileprivate static var tokens: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }
}
