import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTPCompression
import NIOPosix
import SyncProtocol

extension CalendarSource {
    /// Fetches an http(s) address as a stream: the body is counted as it arrives (after
    /// gzip/deflate decoding, which has the same limit) and the whole fetch, name look-ups and
    /// redirects included, races the time limit, so neither an endless body, a compression
    /// bomb, a trickle nor a slow resolver can hold on. Each hop's host is resolved here and
    /// checked against `policy`, and the connection goes to exactly the address checked (a
    /// name that resolves differently a moment later cannot slip a private address past it).
    static func fetch(_ url: URL, policy: AddressPolicy, limits: Limits) async -> Result<String, Failure> {
        await withTaskGroup(of: Result<String, Failure>?.self) { group in
            group.addTask { await follow(url, policy: policy, limits: limits) }
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
    }

    /// Fetches `url`, following at most `limits.maximumRedirects` redirects, each checked.
    private static func follow(_ start: URL, policy: AddressPolicy, limits: Limits) async -> Result<String, Failure> {
        var url = start
        var visited: Set<String> = []
        for _ in 0...limits.maximumRedirects {
            guard visited.insert(url.absoluteString).inserted else { return .failure(Failure("it redirects in a circle")) }
            guard let host = url.host.map(AddressPolicy.normalized), !host.isEmpty else { return .failure(Failure("not an address")) }
            let addresses = await HostAddress.resolve(host)
            if Task.isCancelled { return .failure(limits.tooSlow) }
            guard let target = addresses.first else { return .failure(Failure("its host name was not found")) }
            // Every address of the name must be public: the client could connect to any of them.
            guard policy.allows(host) || addresses.allSatisfy(\.isPublic) else { return .failure(.notPublic) }
            switch await download(url, connectingTo: target, limits: limits) {
            case .finished(let result): return result
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                    ["http", "https"].contains(next.scheme?.lowercased() ?? ""), CalendarRow.addressProblem(next.absoluteString) == nil
                else { return .failure(Failure("it redirects to something that is not an http or https address")) }
                url = next
            }
        }
        return .failure(Failure("it redirects more than \(limits.maximumRedirects) times"))
    }

    private enum Hop {
        case finished(Result<String, Failure>)
        case redirect(String)
    }

    /// One request to `url` on a connection to `address`; a redirect is returned, not followed.
    private static func download(_ url: URL, connectingTo address: HostAddress, limits: Limits) async -> Hop {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: connectTimeout.timeAmount, read: limits.timeLimit.timeAmount)
        configuration.decompression = .enabled(limit: .size(limits.maximumBytes))
        if let host = url.host, HostAddress(literal: AddressPolicy.normalized(host)) == nil {
            configuration.dnsOverride = [host: address.description]
        }
        // One fetch on one connection: a refused connection or an unknown host is said at once,
        // not retried until the connect timeout (a mistyped port kept `calendar add` 10 s).
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let hop = await request(url, client: client, limits: limits)
        try? await client.shutdown()
        return hop
    }

    private static func request(_ url: URL, client: HTTPClient, limits: Limits) async -> Hop {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "text/calendar, */*;q=0.5")
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        do {
            let response = try await client.execute(request, timeout: limits.timeLimit.timeAmount)
            if [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headers.first(name: "Location") {
                return .redirect(location)
            }
            guard (200..<300).contains(response.status.code) else {
                return .finished(.failure(Failure("the server answered HTTP \(response.status.code)")))
            }
            // A declared length over the limit is refused before reading anything (unless
            // compressed: then the length is that of the compressed body).
            if response.headers["Content-Encoding"].isEmpty, let length = response.headers.first(name: "Content-Length").flatMap(Int.init),
                length > limits.maximumBytes
            {
                return .finished(.failure(limits.tooLarge))
            }
            var body = Data()
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= limits.maximumBytes else { return .finished(.failure(limits.tooLarge)) }
                body.append(contentsOf: chunk.readableBytesView)
            }
            return .finished(.success(String(decoding: body, as: UTF8.self)))
        } catch {
            return .finished(.failure(reason(error, limits: limits)))
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
        case .connectTimeout: return Failure("the server did not answer within \(connectTimeout.components.seconds) s")
        case .readTimeout, .deadlineExceeded, .cancelled: return limits.tooSlow
        case .remoteConnectionClosed: return closedEarly
        default: return unreachable(error)
        }
    }

    /// How long a connection may take to open.
    private static let connectTimeout: Duration = .seconds(10)

    private static let closedEarly = Failure("the server closed the connection before it answered")

    /// A connection that failed, in words rather than errno text.
    /// Never the error's own text: a TLS error's names the file of the library's source it
    /// was raised in, a path of the machine that built the app.
    private static func unreachable(_ error: any Error) -> Failure {
        if String(reflecting: type(of: error)).hasPrefix("NIOSSL.") {
            return Failure("its secure connection could not be set up (the certificate is not trusted, has expired or names another host)")
        }
        guard let error = error as? IOError else { return Failure("the server could not be reached") }
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
