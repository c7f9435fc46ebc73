import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A local stand-in for the Open Food Facts product API v2 on a loopback port: serves
/// `Fixtures/api/v2/product/<code>.json`, answers unknown products like the real API (HTTP 404
/// with `{"status": 0, …}`) and anything else with a non-JSON 500. One request per connection,
/// on its own thread; it stops when released.
public final class FakeOpenFoodFacts: @unchecked Sendable {
    public let port: UInt16
    private let socketFD: Int32
    /// `Tests/FoodFactsTests/Fixtures` of this repository.
    private let root = RepositoryFolder.url("Tests/FoodFactsTests/Fixtures")

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        socketFD = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    private func serve() {
        while true {
            let client = accept(socketFD, nil, nil)
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(client, &buffer, buffer.count)
            let request = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            let path = request.split(separator: " ").dropFirst().first.map { String($0.split(separator: "?")[0]) } ?? "/"
            let (status, body) = respond(to: path)
            let head =
                "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            let response = Array(head.utf8) + body
            _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            close(client)
        }
    }

    private func respond(to path: String) -> (Int, [UInt8]) {
        let prefix = "/api/v2/product/"
        guard path.hasPrefix(prefix) else { return (500, Array("<html>not an API path</html>".utf8)) }
        if let data = try? Data(contentsOf: root.appendingPathComponent(String(path.dropFirst()))) {
            return (200, Array(data))
        }
        let code = path.dropFirst(prefix.count).replacingOccurrences(of: ".json", with: "")
        return (404, Array(#"{"code":"\#(code)","status":0,"status_verbose":"product not found"}"#.utf8))
    }

    deinit {
        shutdown(socketFD, Int32(SHUT_RDWR))
        close(socketFD)
    }
}
