import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a calendar comes from: an .ics file or an http(s)/webcal address.
public enum CalendarSource {
    /// The largest calendar read: a year of a busy work calendar is a few MB.
    public static let maximumBytes = 20 << 20

    public static func isURL(_ location: String) -> Bool {
        ["http://", "https://", "webcal://"].contains { location.lowercased().hasPrefix($0) }
    }

    /// The text of an .ics file, or why it could not be read.
    public static func readFile(_ path: String) -> Result<String, Failure> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(Failure("no such readable file")) }
        return text(data)
    }

    /// The text of the file or address, or why it could not be read (in English: a reason
    /// that the caller places in its own localized sentence).
    public static func read(_ location: String) async -> Result<String, Failure> {
        guard isURL(location) else { return readFile(location) }
        let address = location.lowercased().hasPrefix("webcal://") ? "https://" + location.dropFirst(9) : location
        guard let url = URL(string: address) else { return .failure(Failure("not an address")) }
        do {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 20
            let (data, response) = try await URLSession(configuration: configuration).data(from: url)
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                return .failure(Failure("the server answered HTTP \(http.statusCode)"))
            }
            return text(data)
        } catch {
            return .failure(Failure(error.localizedDescription))
        }
    }

    /// Uploaded or read bytes as calendar text, within the size limit.
    public static func text(_ data: Data) -> Result<String, Failure> {
        guard data.count <= maximumBytes else { return .failure(Failure("it is larger than 20 MB")) }
        return .success(String(decoding: data, as: UTF8.self))
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
