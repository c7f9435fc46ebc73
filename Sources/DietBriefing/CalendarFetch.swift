import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTPCompression
import NIOPosix

extension CalendarSource {
    /// Fetches an http(s) address as a stream: the body is counted as it arrives (after
    /// gzip/deflate decoding, which has the same limit) and the whole fetch races the time
    /// limit, so neither an endless body, a compression bomb nor a trickle can hold on.
    static func fetch(_ url: URL, limits: Limits) async -> Result<String, Failure> {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .follow(max: limits.maximumRedirects, allowCycles: false)
        configuration.timeout = .init(connect: connectTimeout.timeAmount, read: limits.timeLimit.timeAmount)
        configuration.decompression = .enabled(limit: .size(limits.maximumBytes))
        // One fetch on one connection: a refused connection or an unknown host is said at once,
        // not retried until the connect timeout (a mistyped port kept `calendar add` 10 s).
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result = await withTaskGroup(of: Result<String, Failure>?.self) { group in
            group.addTask { await download(url, client: client, limits: limits) }
            group.addTask {
                do {
                    try await Task.sleep(for: limits.timeLimit)
                } catch {
                    return nil  // the download finished first
                }
                return .failure(limits.tooSlow)
            }
            var outcome = Result<String, Failure>.failure(limits.tooSlow)
            while let next = await group.next() {
                guard let next else { continue }
                outcome = next
                break
            }
            group.cancelAll()
            return outcome
        }
        try? await client.shutdown()
        return result
    }

    private static func download(_ url: URL, client: HTTPClient, limits: Limits) async -> Result<String, Failure> {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "text/calendar, */*;q=0.5")
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        do {
            let response = try await client.execute(request, timeout: limits.timeLimit.timeAmount)
            guard (200..<300).contains(response.status.code) else {
                return .failure(Failure("the server answered HTTP \(response.status.code)"))
            }
            // A declared length over the limit is refused before reading anything (unless
            // compressed: then the length is that of the compressed body).
            if response.headers["Content-Encoding"].isEmpty, let length = response.headers.first(name: "Content-Length").flatMap(Int.init),
                length > limits.maximumBytes
            {
                return .failure(limits.tooLarge)
            }
            var body = Data()
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= limits.maximumBytes else { return .failure(limits.tooLarge) }
                body.append(contentsOf: chunk.readableBytesView)
            }
            return .success(String(decoding: body, as: UTF8.self))
        } catch {
            return .failure(reason(error, limits: limits))
        }
    }

    /// A failed fetch in words for the person who typed the address.
    private static func reason(_ error: any Error, limits: Limits) -> Failure {
        if let error = error as? NIOHTTPDecompression.DecompressionError {
            return error == .limit ? limits.tooLarge : Failure("its compressed body is damaged")
        }
        if error is NIOHTTPDecompression.ExtraDecompressionError { return Failure("its compressed body is damaged") }
        if error is CancellationError { return limits.tooSlow }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil { return Failure("its host name was not found") }
            return error.connectionErrors.first.map { unreachable($0.error) } ?? Failure("the server could not be reached")
        }
        guard let error = error as? HTTPClientError else { return unreachable(error) }
        switch error {
        case .redirectLimitReached: return Failure("it redirects more than \(limits.maximumRedirects) times")
        case .redirectCycleDetected: return Failure("it redirects in a circle")
        case .connectTimeout: return Failure("the server did not answer within \(connectTimeout.components.seconds) s")
        case .readTimeout, .deadlineExceeded, .cancelled: return limits.tooSlow
        case .remoteConnectionClosed: return closedEarly
        default: return Failure("the server could not be reached (\(error))")
        }
    }

    /// How long a connection may take to open.
    private static let connectTimeout: Duration = .seconds(10)

    private static let closedEarly = Failure("the server closed the connection before it answered")

    /// A connection that failed, in words rather than errno text.
    private static func unreachable(_ error: any Error) -> Failure {
        guard let error = error as? IOError else { return Failure("the server could not be reached (\(error))") }
        switch error.errnoCode {
        case ECONNREFUSED: return Failure("the server refused the connection")
        case ECONNRESET: return closedEarly
        case ENETUNREACH, EHOSTUNREACH: return Failure("the network is unreachable")
        case ETIMEDOUT: return Failure("the server did not answer")
        default: return Failure("the server could not be reached (\(String(cString: strerror(error.errnoCode))))")
        }
    }
}

extension Duration {
    fileprivate var timeAmount: TimeAmount {
        .nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}
