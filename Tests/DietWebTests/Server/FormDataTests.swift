import DietCore
import Foundation
import Testing

@testable import DietWeb

@Suite("Form bodies")
struct FormDataTests {
    @Test("url-encoded: plus as space, percent escapes, repeated names, blanks trimmed to nil")
    func urlEncoded() {
        let form = FormData.urlEncoded("name=H%C3%A4hnchen+mit+Reis&moment=12%3A00&moment=15%3A00&kcal=+&empty&bad=%ZZ")
        #expect(form["name"] == "Hähnchen mit Reis")
        #expect(form.all("moment") == ["12:00", "15:00"])
        #expect(form["kcal"] == nil)
        #expect(form["empty"] == nil)
        #expect(form["bad"] == "%ZZ", "an invalid escape is kept as typed, not dropped")
        #expect(form["missing"] == nil)
    }

    @Test("multipart: fields and a file, quoted parameters, CRLF kept inside the file")
    func multipart() throws {
        let body = Data(
            ("--XyZ\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\nabc\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"w-diet.json\"\r\nContent-Type: application/json\r\n\r\n{\"a\":\r\n1}\r\n"
                + "--XyZ--\r\n").utf8
        )
        let form = try #require(FormData.multipart(body, boundary: "XyZ"))
        #expect(form["_csrf"] == "abc")
        let file = try #require(form.file("file"))
        #expect(file.filename == "w-diet.json")
        #expect(String(decoding: file.data, as: UTF8.self) == "{\"a\":\r\n1}")
    }

    @Test("multipart that is not: no boundary in the body, parts without a name or headers")
    func brokenMultipart() throws {
        #expect(FormData.multipart(Data("just text".utf8), boundary: "XyZ") == nil)
        let odd = Data("--XyZ\r\nno headers here\r\n--XyZ\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--XyZ--".utf8)
        let form = try #require(FormData.multipart(odd, boundary: "XyZ"))
        #expect(form.fields.isEmpty && form.files.isEmpty)
    }

    @Test("Host names: ports and case ignored, IPv6 brackets kept")
    func hostNames() {
        #expect(HostAllowListMiddleware.name(of: "LOCALHOST:8080") == "localhost")
        #expect(HostAllowListMiddleware.name(of: "[::1]:8080") == "[::1]")
        #expect(HostAllowListMiddleware.name(of: "127.0.0.1") == "127.0.0.1")
        #expect(HostAllowListMiddleware.name(of: "evil.example:80") == "evil.example")
        let configuration = WebConfiguration(databasePath: "/dev/null", extraAllowedHosts: ["My-Laptop.local"])
        #expect(configuration.allowedHosts == ["127.0.0.1", "localhost", "[::1]", "my-laptop.local"])
    }

    @Test("the Markdown of the articles: headings, lists, emphasis, and no markup passes through")
    func markdown() {
        let html = Markdown.html("# Title\n\nA **bold** and *italic* <b>tag</b>.\n\n- one\n- two\n\n1. first\n2. second\n\n## Part")
        #expect(html.contains("<h2>Title</h2>"))
        #expect(html.contains("<p>A <strong>bold</strong> and <em>italic</em> &lt;b&gt;tag&lt;/b&gt;.</p>"))
        #expect(html.contains("<ul><li>one</li><li>two</li></ul>"))
        #expect(html.contains("<ol><li>first</li><li>second</li></ol>"))
        #expect(html.contains("<h3>Part</h3>"))
    }
}
