import Foundation
import Logging

/// How `wdiet-server` writes its log to standard error (`WDIET_LOG_FORMAT`).
public enum LogFormat: String, Sendable {
    /// swift-log's plain lines, for people.
    case text
    /// One JSON object per line (`time`, `level`, `label`, `message`, `metadata`), for machines.
    case json
}

/// A swift-log handler writing one JSON object per line:
/// `{"time":"2026-11-24T12:00:00.000Z","level":"info","label":"wdiet-server","message":"…","metadata":{…}}`.
/// Each line is one write, so lines of concurrent requests do not interleave.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (Data) -> Void

    /// A handler writing to standard error.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, metadataProvider: metadataProvider) { FileHandle.standardError.write($0) }
    }

    /// A handler handing each line (ending in a newline) to `write`.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, write: @escaping @Sendable (Data) -> Void) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let object: [String: Any] = [
            "time": Self.timestamp(Date()),
            "level": event.level.rawValue,
            "label": label,
            "message": event.message.description,
            "metadata": merged.mapValues(Self.json),
        ]
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(0x0A)
        write(line)
    }

    static func json(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case let .string(text): text
        case let .stringConvertible(convertible): convertible.description
        case let .array(values): values.map(json)
        case let .dictionary(dictionary): dictionary.mapValues(json)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).format(date)
    }
}

extension LogFormat {
    /// The handler factory for `LoggingSystem.bootstrap` that writes this format to standard error.
    public func handlerFactory(level: Logger.Level) -> @Sendable (String) -> any LogHandler {
        switch self {
        case .text:
            { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}
