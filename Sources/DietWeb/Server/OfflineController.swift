import DietCore
import Foundation
import Hummingbird

/// The service worker and what it needs to keep the app usable offline (issue 16): `/sw.js`
/// with this build's asset version, so every deploy installs a new worker that drops the old
/// caches.
struct OfflineController {
    let app: WebApp

    func register(on router: Router<WebContext>) {
        router.get("/sw.js") { [app] _, _ in app.serviceWorker() }
    }
}

extension WebApp {
    /// `sw.js` with `VERSION` (the `?v=` of every asset link) and `ASSETS` (the app shell's file
    /// names) set on its first lines; never cached without asking, so an update is seen at once.
    func serviceWorker() -> Response {
        guard let file = assets.files["sw.js"] else { return Response(status: .notFound) }
        let names = assets.files.keys.filter { $0 != "sw.js" }.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        var body = ByteBuffer(string: "const VERSION = \"\(assets.version)\";\nconst ASSETS = [\(names)];\n")
        var script = file.data
        body.writeBuffer(&script)
        return Response(
            status: .ok,
            headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: body)
        )
    }

    /// A logging form's offline fields, checked before anything else so that a refusal saves
    /// nothing: `client_id` must be a UUID, `logged_at` a local date-time within the last
    /// `OfflineWrite.maxAge` and not later than now plus `OfflineWrite.clockSkew`. Throws the
    /// page's 422 with the field's message.
    func offlineWrite(_ context: some PageContext) throws -> OfflineWrite {
        let l = Localizer(context.language)
        let fields = try context.decode(OfflineFields.self)
        var write = OfflineWrite()
        if let text = fields.clientID.given {
            guard let id = UUID(uuidString: text) else {
                let error = ValidationError(field: .init("client_id"), allowed: .rule(Message("allowed.uuid")), received: TextRules.quoted(text))
                throw HTTPError(.unprocessableContent, message: l.render(error.message))
            }
            write.id = id
        }
        if let text = fields.loggedAt.given {
            let days = Int(OfflineWrite.maxAge / 86_400)
            let error = ValidationError(
                field: .init("logged_at"),
                allowed: .rule(Message("allowed.loggedAt", ["days": .integer(days)])),
                received: TextRules.quoted(text)
            )
            let now = clock.now()
            guard let moment = OfflineWrite.Moment(text, in: timeZone), moment.instant <= now.addingTimeInterval(OfflineWrite.clockSkew),
                moment.instant >= now.addingTimeInterval(-OfflineWrite.maxAge)
            else {
                throw HTTPError(.unprocessableContent, message: l.render(error.message))
            }
            write.loggedAt = moment
        }
        return write
    }
}

extension WebApp {
    /// The answer to a meal sent again with a client id already stored (the first answer was
    /// lost, or the meal was deleted since): a success that changes nothing. Nil otherwise.
    func replayed(_ write: OfflineWrite) throws -> Response? {
        guard let id = write.id, try store.mealExists(id) else { return nil }
        return try mealsSaved(count: 1, streakWasLit: streakLit())
    }
}

/// The checked offline fields of a logging form: the entry's client-made id and the moment the
/// phone logged it (nil when not sent: logged now, online).
struct OfflineWrite {
    /// How old a kept entry may be when it arrives.
    static let maxAge: TimeInterval = 7 * 86_400
    /// How far ahead of the server's clock a phone's clock may be.
    static let clockSkew: TimeInterval = 10 * 60

    var id: UUID?
    var loggedAt: Moment?

    /// A local date-time `YYYY-MM-DDTHH:MM[:SS[.fff]]` in the app's time zone.
    struct Moment {
        let day: LocalDate
        let time: TimeOfDay
        let instant: Date

        init?(_ text: String, in timeZone: TimeZone) {
            let pattern = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$"#
            guard text.range(of: pattern, options: .regularExpression) != nil,
                let day = LocalDate(iso: String(text.prefix(10))),
                let time = TimeOfDay(string: String(text.dropFirst(11).prefix(5)))
            else { return nil }
            let seconds = text.count > 16 ? Double(text.dropFirst(17)) ?? 0 : 0
            guard seconds < 60 else { return nil }
            self.day = day
            self.time = time
            instant = day.instant(at: time, in: timeZone).addingTimeInterval(seconds)
        }
    }
}
