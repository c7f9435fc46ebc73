import Foundation
import GRDB
import TestSupport
import Testing

/// Runs the built `wdiet` executable as a user would, against a temporary database.
@Suite("wdiet end to end", .serialized)
struct EndToEndTests {
    static let binary = RepositoryFolder.url(".build/debug/wdiet")

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func wdiet(_ arguments: [String], database: String, now: String, input: String? = nil) throws -> Result {
        let output = try ChildProcess.run(
            binary,
            arguments,
            environment: [
                "WDIET_DATABASE": database, "WDIET_NOW": now, "LANG": "de_DE.UTF-8", "TZ": "Europe/Berlin",
                "HOME": NSTemporaryDirectory(), "NO_COLOR": "1",
            ],
            input: input
        )
        return Result(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }

    @Test("onboarding and a week of logging through the real executable, in German from LANG")
    func week() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("nested/w-diet.sqlite").path
        let onboard = try Self.wdiet(
            ["onboard"],
            database: database,
            now: "2026-01-05T08:00",
            input: "female\n34\n168\n72.5\nlight\nlose\n\n\n"
        )
        #expect(onboard.status == 0, "\(onboard.stderr)")
        #expect(onboard.stdout.contains("Willkommen an Bord!"))
        for day in 5...11 {
            let date = String(format: "2026-01-%02d", day)
            let weight = try Self.wdiet(["log", "weight", String(format: "72.%d", 11 - day)], database: database, now: "\(date)T07:30")
            let meal = try Self.wdiet(
                [
                    "log", "meal", "Quark mit Beeren", "--kcal", "350", "--protein", "40", "--carbs", "30",
                    "--fat", "6",
                ],
                database: database,
                now: "\(date)T12:15"
            )
            #expect(weight.status == 0 && meal.status == 0, "\(weight.stderr) \(meal.stderr)")
        }
        let today = try Self.wdiet(["today"], database: database, now: "2026-01-11T19:00")
        #expect(today.status == 0)
        #expect(today.stdout.contains("Gewohnheitswoche · Tag 7 von 7"))
        #expect(today.stdout.contains("7 Tage in Folge"))
        #expect(today.stdout.contains("72,0 kg · Schnitt der letzten 7 Einträge 72,3 kg"))
        #expect(today.stdout.contains("\u{1B}[") == false)
        let monday = try Self.wdiet(["today"], database: database, now: "2026-01-12T08:00")
        #expect(monday.stdout.contains("🔔 Heute beginnt: Diät"))
        let bad = try Self.wdiet(["log", "meal", "Toast", "--kcal", "12000"], database: database, now: "2026-01-12T09:00")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("Kalorien") && bad.stderr.contains("12000"))
        #expect(bad.stdout.isEmpty)
    }

    @Test("kill -9 in the middle of a stream of writes loses no acknowledged write and no outbox entry")
    func crash() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("w-diet.sqlite").path
        _ = try Self.wdiet(
            [
                "onboard", "--sex", "male", "--age", "40", "--height", "180", "--weight", "90", "--activity",
                "moderate", "--goal", "lose",
            ],
            database: database,
            now: "2026-01-05T08:00"
        )
        // A shell loop logs meals one process at a time and acknowledges each after the process succeeded.
        let loop = Process()
        loop.executableURL = URL(fileURLWithPath: "/bin/sh")
        loop.arguments = [
            "-c",
            """
            i=0; while [ $i -lt 400 ]; do i=$((i+1)); "\(Self.binary.path)" log meal "Meal $i" --kcal 100 >/dev/null && echo "ack $i"; done
            """,
        ]
        loop.environment = ["WDIET_DATABASE": database, "WDIET_NOW": "2026-01-05T12:00", "LANG": "C", "HOME": NSTemporaryDirectory()]
        let out = Pipe()
        loop.standardOutput = out
        try loop.run()
        var acknowledged: [String] = []
        var buffer = ""
        while acknowledged.count < 25 {
            let data = out.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            buffer += String(decoding: data, as: UTF8.self)
            let lines = buffer.split(separator: "\n", omittingEmptySubsequences: false)
            acknowledged += lines.dropLast().map(String.init)
            buffer = String(lines.last ?? "")
        }
        // Kill the loop and the wdiet process it is running right now, mid-write or not.
        let killer = Process()
        killer.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        killer.arguments = ["-9", "-P", "\(loop.processIdentifier)"]
        try killer.run()
        killer.waitUntilExit()
        kill(loop.processIdentifier, SIGKILL)
        loop.waitUntilExit()
        #expect(acknowledged.count >= 25)

        let queue = try DatabaseQueue(path: database)
        try queue.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            for line in acknowledged {
                let name = "Meal " + line.dropFirst(4)
                let id = try String.fetchOne(db, sql: "SELECT id FROM meal_logs WHERE name = ?", arguments: [name])
                #expect(id != nil, "\(name) was acknowledged but is missing")
                let queued = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox WHERE row_id = ?", arguments: [id])
                #expect(queued == 1, "\(name) has no outbox entry")
            }
            // Every stored meal, acknowledged or not, has its outbox entry: never one without the other
            let orphans = try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM meal_logs m WHERE NOT EXISTS (SELECT 1 FROM sync_outbox o WHERE o.row_id = m.id)
                    """
            )
            #expect(orphans == 0)
        }
    }
}
