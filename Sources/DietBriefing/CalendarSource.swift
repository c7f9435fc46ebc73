import DietCore
import Foundation
import SyncProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a calendar comes from: an .ics file this device was given, or an http(s)/webcal
/// address. Reading is bounded in size (also after decompression) and time, never blocks on
/// something that is not a regular file, and fetches only public hosts unless the user allowed
/// one of their own network, so neither a hostile source nor a synced row can exhaust memory,
/// hang a briefing or make this device a probe of its network.
public enum CalendarSource {
    /// The largest calendar read: a year of a busy work calendar is a few MB.
    public static let maximumBytes = 20 << 20

    /// How much and how long reading a calendar may take.
    public struct Limits: Sendable {
        /// The most bytes read, counted after decompression.
        public var maximumBytes: Int
        /// The whole read: for an address from resolving its name to the last byte.
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

    /// Which hosts an address may name besides public ones: those on this machine or the
    /// user's own network that the user listed in this device's settings (never synced).
    public struct AddressPolicy: Hashable, Sendable {
        /// Host names and IP addresses, lower-case, without brackets.
        public let localHosts: Set<String>

        public init(localHosts: some Sequence<String>) {
            self.localHosts = Set(localHosts.map(Self.normalized))
        }

        /// Public hosts only: the default.
        public static let publicOnly = AddressPolicy(localHosts: [String]())

        func allows(_ host: String) -> Bool { localHosts.contains(Self.normalized(host)) }

        static func normalized(_ host: String) -> String {
            var host = host.lowercased()
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return host.hasSuffix(".") ? String(host.dropLast()) : host
        }

        /// The hosts of `text` (one per line, or separated by commas or spaces), or the first
        /// entry that is no host name or IP address.
        public static func parse(_ text: String) -> Result<[String], HostProblem> {
            var hosts: [String] = []
            for entry in text.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
                let host = normalized(String(entry))
                guard HostAddress.isHostName(host) || HostAddress(literal: host) != nil else {
                    return .failure(HostProblem(entry: String(entry)))
                }
                if !hosts.contains(host) { hosts.append(host) }
            }
            return hosts.count <= 20 ? .success(hosts) : .failure(HostProblem(entry: hosts[20]))
        }

        /// An entry of a host list that is no host name or IP address (or the 21st).
        public struct HostProblem: Error, Hashable, Sendable {
            public let entry: String
        }
    }

    /// Whether `location` is an address (http, https or webcal) rather than a file.
    public static func isURL(_ location: String) -> Bool {
        ["http://", "https://", "webcal://"].contains { location.lowercased().hasPrefix($0) }
    }

    /// The text of a regular .ics file, or why it could not be read. Anything else (a FIFO,
    /// a terminal, /dev/zero, a directory) is refused without waiting on it; at most
    /// `limits.maximumBytes` are read, within `limits.timeLimit`.
    public static func readFile(_ path: String, limits: Limits = .standard) -> Result<String, Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Failure("no such readable file")) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(Failure("no such readable file")) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(Failure("it is not a regular file")) }
        guard status.st_size <= limits.maximumBytes else { return .failure(limits.tooLarge) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limits.timeLimit)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(Failure("no such readable file"))
            }
            guard data.count + count <= limits.maximumBytes else { return .failure(limits.tooLarge) }
            data.append(contentsOf: buffer[0..<count])
            guard clock.now < deadline else { return .failure(limits.tooSlow) }
        }
        return text(data, limits: limits)
    }

    /// The text at an address, or why it could not be read (in English: a reason that the
    /// caller places in its own localized sentence). Only an http, https or webcal address is
    /// fetched, and only from a public host unless `policy` lists it; each redirect is checked
    /// the same way.
    public static func fetch(address location: String, policy: AddressPolicy, limits: Limits = .standard) async -> Result<String, Failure> {
        if let problem = CalendarRow.addressProblem(location) { return .failure(Failure(problem)) }
        let address = location.lowercased().hasPrefix("webcal://") ? "https://" + location.dropFirst(9) : location
        guard let url = URL(string: address), url.host?.isEmpty == false else { return .failure(Failure("not an address")) }
        return await fetch(url, policy: policy, limits: limits)
    }

    /// Uploaded or read bytes as calendar text, within the size limit.
    public static func text(_ data: Data, limits: Limits = .standard) -> Result<String, Failure> {
        guard data.count <= limits.maximumBytes else { return .failure(limits.tooLarge) }
        return .success(String(decoding: data, as: UTF8.self))
    }

    /// Why a calendar could not be read, in English ("it is larger than 20 MB").
    public struct Failure: Error, Sendable, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }

        /// The one answer for an address on this machine or a private network that the user
        /// did not allow: the same whatever listens there, so it tells nothing about ports.
        public static let notPublic = Failure("it is on this device or a private network")
        /// A file calendar another device added: its path is that device's, never read here.
        public static let otherDevice = Failure("it was added from a file on another device; refresh it there")

        /// The reason in the user's language where it tells them what to do; the others stay
        /// as they are (technical reasons in English).
        public func localized(_ l: Localizer) -> String {
            switch self {
            case .notPublic: l.text("calendar.reason.notPublic")
            case .otherDevice: l.text("calendar.reason.otherDevice")
            default: description
            }
        }
    }
}
