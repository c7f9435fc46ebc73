import DietStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

/// Live updates of every open page when the store changes (issue 16): `GET /events` is a
/// stream of server-sent events with one `changed` whenever the store file was committed to —
/// by a page, the CLI in another process or a sync — at most one per `coalescing`, and a
/// comment as heartbeat. Each page's live.js fetches itself again on `changed`.
///
/// Every event's data is the store's version as this server counts it (`ready` opens the
/// stream with it). A page that closed its stream while hidden asks `?since=VERSION` when it
/// is back and hears `changed` at once if the store moved on meanwhile.
struct LiveController {
    let app: WebApp

    func register(on router: Router<WebContext>) {
        let streams = LiveStreams(changes: StoreChanges(path: app.configuration.databasePath))
        router.get("/events") { request, _ in
            await streams.response(head: request.method == .head, since: request.uri.queryParameters.get("since"))
        }
    }
}

/// The open event streams: at most `limit` at once (a page opened many times cannot exhaust
/// the server), fed by one watcher of the store while any is open.
actor LiveStreams {
    enum Signal: Sendable {
        /// The store changed; the number counts the changes seen so far.
        case changed(generation: Int)
        case heartbeat
    }

    let changes: StoreChanges
    let limit: Int
    let heartbeat: Duration
    let coalescing: Duration
    /// How long a browser waits before reconnecting after a dropped stream (the `retry:` hint).
    let retryMilliseconds = 3000
    private let logger = Logger(label: "wdiet.live")
    /// Distinguishes this server's versions from another run's, whose counts start again.
    private let run = String(UInt32.random(in: 1...UInt32.max), radix: 36)
    private var streams: [UUID: AsyncStream<Signal>.Continuation] = [:]
    private var feeder: Task<Void, Never>?
    private var ticker: Task<Void, Never>?

    init(changes: StoreChanges, limit: Int = 16, heartbeat: Duration = .seconds(15), coalescing: Duration = .milliseconds(250)) {
        self.changes = changes
        self.limit = limit
        self.heartbeat = heartbeat
        self.coalescing = coalescing
    }

    /// The event stream, or 503 with Retry-After when `limit` streams are open. `since` is the
    /// version the page last heard of, if it had a stream before.
    func response(head: Bool, since: String? = nil) async -> Response {
        var headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"]
        // a reverse proxy (nginx) must pass each event on at once, not buffer the response
        headers[.xAccelBuffering] = "no"
        if head { return Response(status: .ok, headers: headers) }
        guard let (id, signals, current) = await open() else {
            return Response(
                status: .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "15"],
                body: .init(byteBuffer: ByteBuffer(string: "Too many live pages open at once; try again later.\n"))
            )
        }
        let missed = since.map { $0 != version(current) } ?? false
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { [self] writer in
                await self.stream(id: id, signals: signals, since: current, missed: missed, to: &writer)
            }
        )
    }

    /// `run.generation`: a store version that no other run of the server gives.
    nonisolated func version(_ generation: Int) -> String { "\(run).\(generation)" }

    /// Writes the stream until the browser goes away, the server shuts down or the signals end.
    /// Changes up to generation `since` were committed before the page asked: it shows them,
    /// unless it `missed` some while it had no stream.
    private nonisolated func stream(
        id: UUID,
        signals: AsyncStream<Signal>,
        since: Int,
        missed: Bool,
        to writer: inout any ResponseBodyWriter
    ) async {
        do {
            try await withGracefulShutdownHandler {
                var opening = "retry: \(retryMilliseconds)\nevent: ready\ndata: \(version(since))\n\n"
                if missed { opening += "event: changed\ndata: \(version(since))\n\n" }
                try await writer.write(ByteBuffer(string: opening))
                var seen = since
                for await signal in signals {
                    switch signal {
                    case .changed(let generation):
                        guard generation > seen else { continue }
                        seen = generation
                        try await writer.write(ByteBuffer(string: "event: changed\ndata: \(version(generation))\n\n"))
                    case .heartbeat:
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                }
            } onGracefulShutdown: {
                Task { await self.close(id) }
            }
            await close(id)
            try await writer.finish(nil)
        } catch {
            // the browser went away: its write failed
            await close(id)
        }
    }

    /// A place for one more stream, or nil at the limit. At the limit, every stream is sent two
    /// heartbeats first: those whose browser has gone fail to write and leave. (The server
    /// allows half-closed connections, so the first write to a gone browser still succeeds;
    /// its reset makes the second fail.)
    private func open() async -> (UUID, AsyncStream<Signal>, since: Int)? {
        if streams.count >= limit {
            for _ in 0..<2 {
                broadcast(.heartbeat)
                try? await Task.sleep(for: .milliseconds(100))
            }
            guard streams.count < limit else {
                logger.notice("refused a live stream: \(limit) are open")
                return nil
            }
        }
        let (signals, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(4))
        let id = UUID()
        // also when the response is dropped unwritten (the browser left before its head went out)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.close(id) }
        }
        streams[id] = continuation
        if feeder == nil { start() }
        return (id, signals, changes.generation())
    }

    /// Ends a stream: its signals finish, and with the last one the watcher stops.
    private func close(_ id: UUID) {
        streams.removeValue(forKey: id)?.finish()
        guard streams.isEmpty else { return }
        feeder?.cancel()
        ticker?.cancel()
        feeder = nil
        ticker = nil
    }

    private func broadcast(_ signal: Signal) {
        for continuation in streams.values { continuation.yield(signal) }
    }

    /// Listens to the store (subscribed before returning, so no commit after it is missed)
    /// and beats the heart of every stream.
    private func start() {
        let source = changes.changes()
        feeder = Task { [changes, coalescing, logger] in
            for await change in source {
                switch change {
                case .changed:
                    self.broadcast(.changed(generation: changes.generation()))
                    // a burst of commits (an import, a sync) becomes one event per interval
                    try? await Task.sleep(for: coalescing)
                case .unavailable(let reason):
                    logger.error("live updates paused: \(reason); they resume when the database file is back")
                }
            }
        }
        ticker = Task { [heartbeat] in
            while !Task.isCancelled {
                try? await Task.sleep(for: heartbeat)
                self.broadcast(.heartbeat)
            }
        }
    }
}
