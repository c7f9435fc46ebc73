import DietCore
import DietImport
import DietStore
import Foundation
import Hummingbird
import NIOPosix

/// Export and import of the user's data. Both work before onboarding too (import restores a
/// device).
///
/// An import file comes one of two ways. Without JavaScript, a plain form POST of the file to
/// `/import` (the session middleware reads a form whole, up to its 32 MB limit) imports it at
/// once and shows the result. With JavaScript (static/import.js), the file of any size goes up
/// in 4 MB pieces, each appended to a temporary file, so neither the browser nor the server
/// ever holds it whole: `POST /import/jobs` opens a job, `POST /import/jobs/:id/chunk` adds
/// the piece at `offset`, `POST /import/jobs/:id/start` starts reading it in the background and
/// `GET /import/status/:id` says how far it got as JSON, until the summary.
struct DataController: Controller {
    let app: WebApp
    static let chunkSize = 4 << 20

    func register(on router: Router<WebContext>) {
        router.post("/settings/export", use: export)
        router.post("/settings/export/csv", use: exportCSV)
        router.get("/import") { _, context in importPage([:], context) }
        router.post("/import", use: importFile)
        router.post("/import/jobs", use: openJob)
        router.post("/import/jobs/:id/chunk", use: addChunk)
        router.post("/import/jobs/:id/start", use: startJob)
        router.get("/import/status/:id", use: status)
    }

    func importPage(_ values: [String: Any], _ context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        var values = values
        values["chunk"] = Self.chunkSize
        return renderer.page(
            "import",
            values,
            title: localizer(context).text("web.import.title"),
            tab: nil,
            context: context,
            status: status
        )
    }

    func export(_ request: Request, context: WebContext) async throws -> Response {
        let export = try store.exportData()
        try store.record(.dataExported(format: "json"), timeZone: timeZone)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(export)
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json; charset=utf-8",
                .contentDisposition: "attachment; filename=\"w-diet-\(today.iso).json\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The CSV files of `wdiet export`, one per table, in one zip.
    func exportCSV(_ request: Request, context: WebContext) async throws -> Response {
        let data = try store.exportCSVArchive(timeZone: timeZone)
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/zip",
                .contentDisposition: "attachment; filename=\"w-diet-\(today.iso)-csv.zip\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The plain form: the file came whole with the form; import it now and show the result.
    func importFile(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        guard let file = context.form.file("file"), !file.data.isEmpty else {
            return importPage(["error": l.text("web.import.noFile")], context, status: .unprocessableContent)
        }
        let path = try ImportJob.temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try file.data.write(to: URL(fileURLWithPath: path))
        do {
            let (store, options) = (store, options(context))
            // on the thread pool: an import blocks its thread for seconds, which no task of the
            // server's cooperative pool may do
            let summary = try await NIOThreadPool.singleton.runIfActive { try Importer.run(path: path, into: store, options: options) }
            if summary.format == .wdietJSON { return redirect("/", toast: .imported) }
            return renderer.page(
                "import-result",
                ["lines": summary.lines(l)],
                title: l.text("web.import.doneTitle"),
                tab: nil,
                context: context
            )
        } catch {
            let reason = Self.message(for: error, l, app: app)
            return importPage(
                ["error": l.text("web.import.failed", ["file": .text(file.filename), "reason": .text(reason)])],
                context,
                status: .unprocessableContent
            )
        }
    }

    func options(_ context: WebContext, progress: ImportProgress? = nil) -> Importer.Options {
        Importer.Options(
            timeZone: timeZone,
            language: context.language,
            weightUnit: context.form["weight_unit"] == "lb" ? "lb" : "kg",
            progress: progress
        )
    }

    static func message(for error: any Error, _ l: Localizer, app: WebApp) -> String {
        if let error = error as? ImportError { return l.text("store.error.importRefused", ["reason": .text(error.message(l))]) }
        return app.message(for: error, l)
    }

    // MARK: - The upload in pieces

    func openJob(_ request: Request, context: WebContext) async throws -> Response {
        guard let size = context.form["size"].flatMap(Int64.init), size > 0 else { return Self.json(["error": "size"], status: .badRequest) }
        let job = try ImportJob(size: size, name: context.form["name"] ?? "", weightUnit: context.form["weight_unit"] ?? "kg")
        ImportJob.registry.add(job)
        return Self.json(["id": job.id, "chunk": Self.chunkSize, "status": "/import/status/\(job.id)"])
    }

    func addChunk(_ request: Request, context: WebContext) async throws -> Response {
        guard let job = ImportJob.registry.job(context.parameters.get("id")) else { return Self.json(["error": "job"], status: .notFound) }
        guard let offset = context.form["offset"].flatMap(Int64.init), let piece = context.form.file("chunk") else {
            return Self.json(["error": "chunk"], status: .badRequest)
        }
        let received = try job.append(piece.data, at: offset)
        return Self.json(["received": received], status: received == offset + Int64(piece.data.count) ? .ok : .conflict)
    }

    func startJob(_ request: Request, context: WebContext) async throws -> Response {
        guard let job = ImportJob.registry.job(context.parameters.get("id")) else { return Self.json(["error": "job"], status: .notFound) }
        guard job.beginReading() else { return Self.json(["error": "incomplete"], status: .conflict) }
        let l = localizer(context)
        var options = options(context, progress: { done, total in job.progress(done: done, total: total) })
        options.weightUnit = job.weightUnit == "lb" ? "lb" : "kg"
        let (store, app, importOptions) = (store, app, options)
        Task {
            do {
                let summary = try await NIOThreadPool.singleton.runIfActive { try Importer.run(path: job.path, into: store, options: importOptions) }
                job.finish(lines: summary.lines(l), error: nil)
                await app.sync.changed()
            } catch {
                job.finish(
                    lines: [],
                    error: l.text("web.import.failed", ["file": .text(job.name), "reason": .text(Self.message(for: error, l, app: app))])
                )
            }
        }
        return Self.json(["status": "/import/status/\(job.id)"])
    }

    func status(_ request: Request, context: WebContext) async throws -> Response {
        guard let job = ImportJob.registry.job(context.parameters.get("id")) else { return Self.json(["error": "job"], status: .notFound) }
        return Self.json(job.snapshot(localizer(context)))
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// One import sent in pieces: its temporary file (owner-only: health data), how much arrived,
/// and, once reading, its progress and result. Jobs live in memory for an hour.
final class ImportJob: @unchecked Sendable {
    enum State: String { case uploading, reading, done, failed }

    let id = UUID().uuidString.lowercased()
    let path: String
    let size: Int64
    let name: String
    let weightUnit: String
    let created = ContinuousClock.now
    private let lock = NSLock()
    private var received: Int64 = 0
    private var state = State.uploading
    private var read: (done: Int64, total: Int64) = (0, 1)
    private var lines: [String] = []
    private var error: String?

    static let registry = Registry()

    init(size: Int64, name: String, weightUnit: String) throws {
        path = try Self.temporaryFile()
        self.size = size
        self.name = name
        self.weightUnit = weightUnit
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// An empty file only its owner can read, in the temporary folder.
    static func temporaryFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-import-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return path
    }

    /// Appends `data` when it is the piece at `offset` (a repeated piece is ignored); the bytes
    /// received so far.
    func append(_ data: Data, at offset: Int64) throws -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        guard state == .uploading, offset == received, received + Int64(data.count) <= size else { return received }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
        received += Int64(data.count)
        return received
    }

    /// Whether the whole file is there; it then moves on to reading (once).
    func beginReading() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard state == .uploading, received == size else { return false }
        state = .reading
        return true
    }

    func progress(done: Int64, total: Int64) {
        lock.lock()
        read = (done, max(total, 1))
        lock.unlock()
    }

    func finish(lines: [String], error: String?) {
        lock.lock()
        self.lines = lines
        self.error = error
        state = error == nil ? .done : .failed
        lock.unlock()
        try? FileManager.default.removeItem(atPath: path)
    }

    func snapshot(_ l: Localizer) -> [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        let percent = state == .uploading ? Int(received * 100 / max(size, 1)) : Int(read.done * 100 / read.total)
        let label =
            switch state {
            case .uploading: l.text("web.import.uploading", ["percent": .integer(percent)])
            case .reading: l.text("web.import.reading", ["percent": .integer(percent)])
            case .done: l.text("web.import.doneTitle")
            case .failed: error ?? ""
            }
        var result: [String: Any] = ["state": state.rawValue, "percent": percent, "label": label, "lines": lines]
        if let error { result["error"] = error }
        return result
    }

    /// The open jobs by id; a job older than an hour is dropped (and its file with it).
    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var jobs: [String: ImportJob] = [:]

        func add(_ job: ImportJob) {
            lock.lock()
            defer { lock.unlock() }
            jobs = jobs.filter { ContinuousClock.now - $0.value.created < .seconds(3600) }
            jobs[job.id] = job
        }

        func job(_ id: String?) -> ImportJob? {
            lock.lock()
            defer { lock.unlock() }
            return id.flatMap { jobs[$0] }
        }
    }
}
