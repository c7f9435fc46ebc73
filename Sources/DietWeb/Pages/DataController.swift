import DietCore
import DietStore
import Foundation
import Hummingbird

/// Export and import of the user's data. Both work before onboarding too (import restores a
/// device).
struct DataController: Controller {
    let app: WebApp

    func register(on router: Router<WebContext>) {
        router.post("/settings/export", use: export)
        router.get("/import") { _, context in
            renderer.page("import", [:], title: localizer(context).text("web.import.title"), tab: nil, context: context)
        }
        router.post("/import", use: importFile)
    }

    func export(_ request: Request, context: WebContext) async throws -> Response {
        let export = try store.exportData()
        try store.record(.dataExported(format: "json"), timeZone: timeZone)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(export)
        return Response(status: .ok, headers: [
            .contentType: "application/json; charset=utf-8",
            .contentDisposition: "attachment; filename=\"w-diet-\(today.iso).json\"",
        ], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func importFile(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        func failed(_ message: String) -> Response {
            renderer.page("import", ["error": message], title: l.text("web.import.title"), tab: nil, context: context,
                          status: .unprocessableContent)
        }
        guard let file = context.form.file("file"), !file.data.isEmpty else { return failed(l.text("web.import.noFile")) }
        let export: DataExport
        do {
            export = try JSONDecoder().decode(DataExport.self, from: file.data)
        } catch {
            return failed(l.text("cli.import.unreadable", ["path": .text(file.filename)]))
        }
        do {
            try store.importData(export)
        } catch {
            return failed(message(for: error, l))
        }
        return redirect("/", toast: .imported)
    }
}
