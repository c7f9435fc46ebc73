import CompressNIO
import DietCore
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import DietWeb

/// Pages travel gzip-compressed when the browser accepts it, and read the same.
@Suite("Compression")
struct CompressionTests {
    @Test("the dashboard is sent gzip-compressed to a browser that accepts it, the same page once unpacked, far smaller")
    func dashboardCompressed() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.get("/")  // shows the welcome toast once
            let plain = try await browser.get("/")
            #expect(plain.headers[.contentEncoding] == nil)
            let packed = try await browser.client.execute(uri: "/", method: .get, headers: Self.headers(browser, "gzip, deflate, br"), body: nil) {
                ($0.headers, $0.body)
            }
            #expect(packed.0[.contentEncoding] == "gzip")
            #expect(packed.0[values: .vary].contains("Accept-Encoding"))
            var body = packed.1
            let unpacked = try body.decompress(with: .gzip())
            // the CSRF token and the asset version are the same for one browser: the pages match byte for byte
            #expect(String(buffer: unpacked) == plain.body)
            #expect(packed.1.readableBytes * 3 < plain.body.utf8.count, "\(packed.1.readableBytes) of \(plain.body.utf8.count) bytes")
        }
    }

    @Test("no gzip when the browser does not accept it (or refuses it with q=0); small bodies and streams pass as they are")
    func notCompressed() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            for accepted in ["identity", "gzip;q=0", "br"] {
                let encoding = try await browser.client.execute(uri: "/", method: .get, headers: Self.headers(browser, accepted), body: nil) {
                    $0.headers[.contentEncoding]
                }
                #expect(encoding == nil, "\(accepted)")
            }
            let favicon = try await browser.client.execute(uri: "/favicon.ico", method: .get, headers: Self.headers(browser, "gzip"), body: nil) {
                $0.headers[.contentEncoding]
            }
            #expect(favicon == nil, "an SVG icon under 1 KB stays as it is")
        }
        #expect(
            CompressionMiddleware.isText("text/html; charset=utf-8") && !CompressionMiddleware.isText("text/event-stream")
                && !CompressionMiddleware.isText("image/png")
        )
    }

    static func headers(_ browser: Browser, _ encoding: String) -> HTTPFields {
        [.acceptEncoding: encoding, .cookie: browser.cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")]
    }
}
