import Foundation

/// Paths of the sync API, shared by client and server.
public enum SyncPaths {
    public static let push = "/v1/sync/push"
    public static let pull = "/v1/sync/pull"
    /// The largest push batch and pull page.
    public static let maxBatch = 500
}

/// `POST /v1/sync/push` body.
public struct PushRequest: Hashable, Sendable, Codable {
    public let deviceID: String
    public let changes: [Change]

    public init(deviceID: String, changes: [Change]) {
        self.deviceID = deviceID
        self.changes = changes
    }

    enum CodingKeys: String, CodingKey {
        case changes
        case deviceID = "device_id"
    }
}

/// What the server did with one pushed change.
public enum PushStatus: String, Hashable, Sendable, Codable {
    /// Stored: it was newer than the server's row.
    case applied
    /// Not stored: the server holds a newer or equal stamp (a replay or a lost race). The
    /// client may drop it from its outbox either way.
    case ignored
    /// Not stored: the row was invalid; `message` says why. The client keeps it for review.
    case rejected
}

public struct PushResult: Hashable, Sendable, Codable {
    public let id: UUID
    public let table: SyncTable
    public let status: PushStatus
    public let message: String?

    public init(id: UUID, table: SyncTable, status: PushStatus, message: String? = nil) {
        self.id = id
        self.table = table
        self.status = status
        self.message = message
    }
}

/// `POST /v1/sync/push` response: one result per change, in order.
public struct PushResponse: Hashable, Sendable, Codable {
    public let results: [PushResult]

    public init(results: [PushResult]) {
        self.results = results
    }
}

/// `GET /v1/sync/pull?cursor=&limit=` response.
public struct PullResponse: Hashable, Sendable, Codable {
    /// Changes after the request's cursor, in commit order.
    public let changes: [Change]
    /// The cursor to send next; equal to the request's when nothing was new.
    public let nextCursor: Int64
    public let hasMore: Bool

    public init(changes: [Change], nextCursor: Int64, hasMore: Bool) {
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }

    enum CodingKeys: String, CodingKey {
        case changes
        case nextCursor = "next_cursor"
        case hasMore = "has_more"
    }
}
