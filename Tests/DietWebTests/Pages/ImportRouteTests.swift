import DietCore
import DietStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Import and export pages")
struct ImportRouteTests {
    static let servings = """
        Day,Time,Group,Food Name,Amount,Energy (kcal),Carbs (g),Fiber (g),Fat (g),Protein (g)
        2026-01-04,7:45 AM,Breakfast,"Brötchen, Vollkorn",2.00 each,280,48.2,6.1,3.9,11.4
        2026-01-04,,Lunch,Käsespätzle,350 g,620,70,3,28,24

        """

    /// An Apple Health export.xml of about `records` step records around three weights.
    static func healthExport(records: Int) -> String {
        let step =
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" unit=\"count\" "
            + "startDate=\"2026-01-01 08:00:00 +0100\" endDate=\"2026-01-01 08:10:00 +0100\" value=\"800\"/>\n"
        func weight(_ day: Int, _ kg: String) -> String {
            "<Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Withings\" unit=\"kg\" "
                + "startDate=\"2026-01-0\(day) 07:00:00 +0100\" endDate=\"2026-01-0\(day) 07:00:00 +0100\" value=\"\(kg)\"/>\n"
        }
        let noise = String(repeating: step, count: records / 2)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record)*)>\n]>\n"
            + "<HealthData locale=\"en_US\">\n" + weight(1, "71.0") + noise + weight(2, "70.8") + noise + weight(3, "70.6") + "</HealthData>\n"
    }

    @Test("a Cronometer diary sent with the plain form is imported, and the result page says what came in")
    func plainForm() async throws {
        // Given an onboarded app
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            // When the diary is posted with the form (under a name that says nothing of its format)
            let page = try await browser.upload("/import", file: Data(Self.servings.utf8), filename: "diary.txt")
            // Then the result page lists it
            #expect(page.status == .ok)
            #expect(page.shows("Imported from Cronometer food entries: meals 2, weights 0."))
            // And the same file again adds nothing
            let again = try await browser.upload("/import", file: Data(Self.servings.utf8), filename: "diary.txt")
            #expect(again.shows("Imported from Cronometer food entries: meals 0, weights 0."))
            #expect(again.shows("2 entries were already here from an earlier import; nothing was added twice."))
        }
        let meals = try harness.store().meals(on: .ymd(2026, 1, 4))
        #expect(meals.map(\.entry.name) == ["Brötchen, Vollkorn", "Käsespätzle"])
    }

    @Test("a damaged file is refused with its line and reason, in the user's language, and nothing is saved")
    func damaged() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let broken = Self.servings.replacingOccurrences(of: ",620,", with: ",6x0,")
            let page = try await browser.upload("/import", file: Data(broken.utf8), filename: "servings.csv")
            #expect(page.status == .unprocessableContent)
            #expect(page.shows("servings.csv: Import abgelehnt: Zeile 3: „6x0“ in Energy (kcal) ist keine Zahl"))
        }
        #expect(try harness.store().meals(on: .ymd(2026, 1, 4)).isEmpty)
    }

    @Test(
        "a large file goes up in pieces (a repeated piece is not added twice, a piece out of order is refused) and the status follows the import to its summary"
    )
    func pieces() async throws {
        // Given an onboarded app and a 9 MB Health export (three pieces of 4 MB)
        let harness = try WebHarness()
        defer { harness.remove() }
        let file = Data(Self.healthExport(records: 60_000).utf8)
        try await harness.run { browser in
            try await browser.onboard()
            // When a job is opened and the pieces are sent, the second one twice
            let opened = try await browser.post("/import/jobs", [("size", "\(file.count)"), ("name", "export.xml")])
            let job = try #require(try JSONSerialization.jsonObject(with: Data(opened.body.utf8)) as? [String: Any])
            let id = try #require(job["id"] as? String)
            let chunk = try #require(job["chunk"] as? Int)
            var offset = 0
            var pieces = 0
            while offset < file.count {
                let piece = file[offset..<min(offset + chunk, file.count)]
                let sent = try await browser.uploadPiece("/import/jobs/\(id)/chunk", offset: offset, data: Data(piece))
                #expect(sent.status == .ok)
                if pieces == 1 {
                    // the answer was lost and the piece is sent again: nothing is added twice
                    let repeated = try await browser.uploadPiece("/import/jobs/\(id)/chunk", offset: offset, data: Data(piece))
                    #expect(repeated.status == .ok && repeated.body == "{\"received\":\(offset + piece.count)}")
                    let skipping = try await browser.uploadPiece("/import/jobs/\(id)/chunk", offset: offset + 2 * chunk, data: Data(piece))
                    #expect(skipping.status == .conflict)
                }
                offset += piece.count
                pieces += 1
            }
            #expect(pieces == 3)
            let started = try await browser.post("/import/jobs/\(id)/start")
            #expect(started.status == .ok)
            // Then the status ends with the summary
            var last: [String: Any] = [:]
            let finished = await eventually {
                guard let page = try? await browser.get("/import/status/\(id)"),
                    let json = try? JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
                else { return false }
                last = json
                return json["state"] as? String == "done" || json["state"] as? String == "failed"
            }
            #expect(finished)
            #expect(last["state"] as? String == "done")
            #expect(last["percent"] as? Int == 100)
            #expect(last["lines"] as? [String] == ["Imported from Apple Health (export.xml): meals 0, weights 3."])
        }
        #expect(try harness.store().weights(from: .ymd(2026, 1, 1), through: .ymd(2026, 1, 3)).map(\.kg) == [71.0, 70.8, 70.6])
    }

    @Test("the CSV export downloads one zip holding a CSV per table, readable by another zip reader")
    func csvExport() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let zip = try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "Suppe, scharf"), ("kcal", "300")])
            return try await browser.postBytes("/settings/export/csv")
        }
        let (headers, bytes) = zip
        #expect(headers[.contentType] == "application/zip")
        #expect(headers[.contentDisposition] == "attachment; filename=\"w-diet-2026-01-05-csv.zip\"")
        let path = harness.folder.appendingPathComponent("export.zip")
        try Data(bytes).write(to: path)
        let listing = try python(
            """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print(" ".join(z.namelist()))
            print(z.read("meal_logs.csv").decode().splitlines()[1].split(",")[1:3])
            """,
            path.path
        )
        #expect(listing.contains("profile.csv cycle_states.csv meal_logs.csv weight_entries.csv analytics_events.csv custom_foods.csv recipes.csv"))
        #expect(listing.contains("['\"Suppe', ' scharf\"']"))
    }

    /// Runs a Python script (an independent zip reader) and returns what it printed.
    func python(_ script: String, _ argument: String) throws -> String {
        let output = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, argument])
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout
    }
}

extension Browser {
    /// One piece of an upload in pieces, as import.js sends it: multipart with the CSRF token,
    /// the offset and the bytes as a file.
    func uploadPiece(_ path: String, offset: Int, data: Data) async throws -> Page {
        let boundary = "----wdiet\(UUID().uuidString)"
        var body = Data()
        for (name, value) in [("_csrf", csrf), ("offset", "\(offset)")] {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        body.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"chunk\"; filename=\"chunk\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8
            )
        )
        body.append(data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        var headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
        headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(data: body)) { response in
            Page(status: response.status, body: String(buffer: response.body), headers: response.headers)
        }
    }

    /// A POST of the CSRF token alone, answered with bytes (a download).
    func postBytes(_ path: String) async throws -> (HTTPFields, [UInt8]) {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: "_csrf=\(csrf)")) { response in
            (response.headers, Array(response.body.readableBytesView))
        }
    }
}
