import Foundation

/// Where a calendar comes from: an .ics file or an http(s)/webcal address. Reading is bounded
/// in size (also after decompression) and, for an address, in time, so a hostile source cannot
/// exhaust memory or hang a briefing.
public enum CalendarSource {
    /// The largest calendar read: a year of a busy work calendar is a few MB.
    public static let maximumBytes = 20 << 20

    /// How much and how long reading a calendar may take.
    public struct Limits: Sendable {
        /// The most bytes read, counted after decompression.
        public var maximumBytes: Int
        /// For an address: the whole fetch, from connecting to the last byte.
        public var timeLimit: Duration
        /// For an address: redirects followed before giving up.
        public var maximumRedirects: Int

        /// Defaults: 20 MB, 30 s, 5 redirects (tests shorten the time).
        public init(maximumBytes: Int = CalendarSource.maximumBytes, timeLimit: Duration = .seconds(30), maximumRedirects: Int = 5) {
            self.maximumBytes = maximumBytes
            self.timeLimit = timeLimit
            self.maximumRedirects = maximumRedirects
        }

        /// 20 MB in 30 s, at most 5 redirects.
        public static let standard = Limits()

        var tooLarge: Failure { Failure("it is larger than \(Self.megabytes(maximumBytes))") }
        var tooSlow: Failure { Failure("it took longer than \(timeLimit.components.seconds) s") }

        private static func megabytes(_ bytes: Int) -> String {
            bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
        }
    }

    /// Whether `location` is an address (http, https or webcal) rather than a file.
    public static func isURL(_ location: String) -> Bool {
        ["http://", "https://", "webcal://"].contains { location.lowercased().hasPrefix($0) }
    }

    /// The text of an .ics file, or why it could not be read. At most `limits.maximumBytes`
    /// are read, so a huge file (or /dev/zero) is refused without being held in memory.
    public static func readFile(_ path: String, limits: Limits = .standard) -> Result<String, Failure> {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(Failure("no such readable file")) }
        defer { try? handle.close() }
        if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > limits.maximumBytes {
            return .failure(limits.tooLarge)
        }
        do {
            let data = try handle.read(upToCount: limits.maximumBytes + 1) ?? Data()
            return text(data, limits: limits)
        } catch {
            return .failure(Failure("no such readable file"))
        }
    }

    /// The text of the file or address, or why it could not be read (in English: a reason
    /// that the caller places in its own localized sentence).
    public static func read(_ location: String, limits: Limits = .standard) async -> Result<String, Failure> {
        guard isURL(location) else { return readFile(location, limits: limits) }
        let address = location.lowercased().hasPrefix("webcal://") ? "https://" + location.dropFirst(9) : location
        guard let url = URL(string: address), url.host?.isEmpty == false else { return .failure(Failure("not an address")) }
        return await fetch(url, limits: limits)
    }

    /// Uploaded or read bytes as calendar text, within the size limit.
    public static func text(_ data: Data, limits: Limits = .standard) -> Result<String, Failure> {
        guard data.count <= limits.maximumBytes else { return .failure(limits.tooLarge) }
        return .success(String(decoding: data, as: UTF8.self))
    }

    /// Why a calendar could not be read, in English ("it is larger than 20 MB").
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
