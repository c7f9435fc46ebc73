import DietCore
import Foundation
import Hummingbird
import Mustache

/// The Mustache templates of `Resources/templates`, loaded once; each page is rendered into
/// `layout.mustache`.
struct Renderer: Sendable {
    let library: MustacheLibrary
    /// The assets' version, for their links.
    let assetVersion: String

    init(assetVersion: String) throws {
        self.assetVersion = assetVersion
        guard let folder = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources") else {
            throw WebError.missingResource("templates")
        }
        var library = MustacheLibrary()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mustache") }
        for name in names.sorted() {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            try library.register(text, named: String(name.dropLast(".mustache".count)))
        }
        self.library = library
    }

    /// `template` with `data`, inside the layout with the page's title and tab.
    func page(_ template: String, _ data: [String: Any], title: String, tab: Tab?, context: some PageContext,
              status: HTTPResponse.Status = .ok) -> Response {
        let l = Localizer(context.language)
        let strings = Strings(localizer: l)
        var values = data
        values["t"] = strings
        values["csrf"] = context.csrfToken
        let body = library.render(values, withTemplate: template) ?? ""
        var layout: [String: Any] = [
            "t": strings, "lang": context.language.rawValue, "title": title, "content": body,
            "csrf": context.csrfToken, "asset": assetVersion,
        ]
        if let tab {
            layout["nav"] = ["items": Tab.allCases.map { item in
                ["href": item.path, "icon": item.icon, "label": l.text("web.tab.\(item.rawValue)"), "current": item == tab] as [String: Any]
            }]
        }
        if let flash = context.flash { layout["toast"] = Self.toast(flash, l) }
        return html(library.render(layout, withTemplate: "layout") ?? "", status: status)
    }

    /// The toast of a flash cookie `toast[.roar][~meal id]`: its text, and the meal an "Undo"
    /// restores.
    static func toast(_ flash: String, _ l: Localizer) -> [String: Any]? {
        let halves = flash.split(separator: "~", maxSplits: 1)
        let parts = (halves.first ?? "").split(separator: ".")
        guard let toast = parts.first.flatMap({ Toast(rawValue: String($0)) }) else { return nil }
        let roar = parts.dropFirst().first.flatMap { Int($0) }.flatMap(Roar.init(rawValue:))
        var values: [String: Any] = ["text": l.text("web.toast.\(toast.rawValue)") + (roar.map { " " + l.text("cli.roar.\($0.rawValue)") } ?? ""),
                                     "hasUndo": false]
        if halves.count == 2, let id = UUID(uuidString: String(halves[1])) {
            values["undo"] = id.uuidString
            values["hasUndo"] = true
        }
        return values
    }

    /// A fragment without the layout (search results for the script).
    func fragment(_ template: String, _ data: [String: Any], context: some PageContext) -> Response {
        var values = data
        values["t"] = Strings(localizer: Localizer(context.language))
        values["csrf"] = context.csrfToken
        return html(library.render(values, withTemplate: template) ?? "")
    }

    /// A page or fragment; a control character in shown data (a meal name synced from
    /// elsewhere) is written visibly, as the CLI does, after Mustache has escaped the HTML.
    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: TextRules.visible(text))))
    }
}

/// The tabs of the bottom bar.
enum Tab: String, CaseIterable {
    case home, progress, briefing, learn, settings

    var path: String { self == .home ? "/" : "/\(rawValue)" }

    var icon: String {
        switch self {
        case .home: "🏠"
        case .progress: "📊"
        case .briefing: "☀️"
        case .learn: "🎓"
        case .settings: "⚙️"
        }
    }
}

/// The one-time messages shown after a redirect.
enum Toast: String {
    case mealSaved = "meal_saved", mealsSaved = "meals_saved", mealStreak = "meal_streak", mealUpdated = "meal_updated", mealDeleted = "meal_deleted"
    case weightSaved = "weight_saved", settingsSaved = "settings_saved", imported, welcome, streakLit = "streak_lit"
    case signedIn = "signed_in", signedOut = "signed_out", synced, syncFailed = "sync_failed"
    case calendarAdded = "calendar_added", calendarRemoved = "calendar_removed"
    case mealRestored = "meal_restored", dayCopied = "day_copied", nothingToCopy = "nothing_to_copy"
    case foodAdded = "food_added", foodDeleted = "food_deleted", recipeAdded = "recipe_added", foodUpdated = "food_updated"
    case recipeUpdated = "recipe_updated", recipeDeleted = "recipe_deleted", foodFromOpenFoodFacts = "food_from_off"
}

/// `{{t.dashboard.title}}` in a template is the string `web.dashboard.title` in the page's
/// language. A missing key renders as `[[missing web.…]]`, which the route tests look for.
struct Strings: MustacheParent, MustacheCustomRenderable {
    let localizer: Localizer
    var prefix = "web."

    func child(named name: String) -> Any? {
        let key = prefix + name
        if localizer.hasKey(key) { return localizer.text(key) }
        return Strings(localizer: localizer, prefix: key + ".")
    }

    var renderText: String { "[[missing \(prefix.dropLast())]]" }
    var isNull: Bool { false }
}

enum WebError: Error, CustomStringConvertible {
    case missingResource(String)

    var description: String {
        switch self {
        case .missingResource(let name): "the web app's resource \(name) is missing from the bundle"
        }
    }
}
