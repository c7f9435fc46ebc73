import Foundation
import Hummingbird

/// The static files of `Resources/static`, read once and served with a long cache lifetime.
struct Assets: Sendable {
    struct File: Sendable {
        let data: ByteBuffer
        let contentType: String
    }

    let files: [String: File]
    /// Changes whenever the files change (a hash of their names and contents); pages link the
    /// files with `?v=<version>`.
    let version: String

    init() throws {
        guard let folder = Bundle.module.url(forResource: "static", withExtension: nil, subdirectory: "Resources") else {
            throw WebError.missingResource("static")
        }
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            files[name] = File(data: ByteBuffer(bytes: data), contentType: Self.contentType(of: name))
        }
        self.files = files
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (name, file) in files.sorted(by: { $0.key < $1.key }) {
            for byte in Array(name.utf8) + Array(file.data.readableBytesView) {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        version = String(hash, radix: 36)
    }

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "webmanifest": "application/manifest+json"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }

    func response(_ name: String) -> Response {
        guard let file = files[name] else { return Response(status: .notFound) }
        return Response(
            status: .ok,
            headers: [.contentType: file.contentType, .cacheControl: "public, max-age=31536000, immutable"],
            body: .init(byteBuffer: file.data)
        )
    }
}
