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
    func page(
        _ template: String,
        _ data: [String: Any],
        title: String,
        tab: Tab?,
        context: some PageContext,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let l = Localizer(context.language)
        let strings = Strings(localizer: l)
        var values = data
        values["t"] = strings
        values["icon"] = Icons()
        if values["mascot"] == nil { values["mascot"] = Mascot.values(.default, size: 120) }
        values["csrf"] = context.csrfToken
        let body = library.render(values, withTemplate: template) ?? ""
        var layout: [String: Any] = [
            "t": strings, "lang": context.language.rawValue, "title": title, "content": body,
            "csrf": context.csrfToken, "asset": assetVersion, "icon": Icons(),
        ]
        if let tab {
            layout["nav"] = [
                "items": Tab.allCases.map { item in
                    ["href": item.path, "icon": item.icon.svg, "label": l.text("web.tab.\(item.rawValue)"), "current": item == tab] as [String: Any]
                }
            ]
        }
        if let flash = context.flash, let toast = Self.toast(flash, l) {
            layout["toast"] = toast
            // the roar reaches the page: the mascot and the streak flame pulse once, twice or
            // three times (app.css), the phone buzzes as often (app.js)
            if let roar = toast["roar"] { layout["roar"] = roar }
        }
        return html(library.render(layout, withTemplate: "layout") ?? "", status: status)
    }

    /// The toast of a flash cookie `toast[.roar][~id]`: its text, and what its "Undo" does (a
    /// deleted meal restored, a copy removed).
    static func toast(_ flash: String, _ l: Localizer) -> [String: Any]? {
        let halves = flash.split(separator: "~", maxSplits: 1)
        let parts = (halves.first ?? "").split(separator: ".")
        guard let toast = parts.first.flatMap({ Toast(rawValue: String($0)) }) else { return nil }
        let roar = parts.dropFirst().first.flatMap { Int($0) }.flatMap(Roar.init(rawValue:))
        // a badge's toast names it: "New badge: Bronze: 50 meals logged"
        let text = (toast == .badgeEarned ? WebApp.badgeToastText(flash: flash, l) : nil) ?? l.text("web.toast.\(toast.rawValue)")
        var values: [String: Any] = [
            "text": text + (roar.map { " " + l.text("cli.roar.\($0.rawValue)") } ?? ""),
            "hasUndo": false,
        ]
        if let roar { values["roar"] = roar.rawValue }
        if halves.count == 2, let id = UUID(uuidString: String(halves[1])) {
            // a copy's Undo removes the whole copy; a deletion's restores the meal
            values["undoAction"] = toast == .dayCopied ? "/log/copy/\(id.uuidString)/undo" : "/meals/\(id.uuidString)/restore"
            values["hasUndo"] = true
        }
        return values
    }

    /// A fragment without the layout (search results for the script).
    func fragment(_ template: String, _ data: [String: Any], context: some PageContext) -> Response {
        var values = data
        values["t"] = Strings(localizer: Localizer(context.language))
        values["icon"] = Icons()
        values["csrf"] = context.csrfToken
        return html(library.render(values, withTemplate: template) ?? "")
    }

    /// A page or fragment; a control character in shown data (a meal name synced from
    /// elsewhere) is written visibly, as the CLI does, after Mustache has escaped the HTML.
    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: TextRules.visible(text)))
        )
    }
}

/// The tabs of the bottom bar.
enum Tab: String, CaseIterable {
    case home, progress, briefing, learn, settings

    var path: String { self == .home ? "/" : "/\(rawValue)" }

    var icon: Icon {
        switch self {
        case .home: .home
        case .progress: .progress
        case .briefing: .sun
        case .learn: .learn
        case .settings: .settings
        }
    }
}

/// The app's one icon set: 24 × 24 strokes in `currentColor`, drawn inline (the CSP allows no
/// external sprite with `<use>` across documents, and inline SVG needs no extra request).
/// Always decorative: the label next to it (or the control's `aria-label`) says what it is.
enum Icon: String, CaseIterable {
    case home, progress, sun, learn, settings, info, help, edit, meal, scale, flame, star, back, forward, clock, warning, trash

    /// The drawing inside the 24 × 24 box.
    private var shapes: String {
        switch self {
        case .home: #"<path d="M3 10.5 12 3l9 7.5"/><path d="M5.5 9v11a1 1 0 0 0 1 1H10v-6h4v6h3.5a1 1 0 0 0 1-1V9"/>"#
        case .progress: #"<path d="M4 4v16h16"/><path d="m7.5 14.5 3.5-4 3 3 5-6"/>"#
        case .sun:
            #"<circle cx="12" cy="12" r="4"/><path d="M12 2.5v2M12 19.5v2M2.5 12h2M19.5 12h2M5.3 5.3l1.4 1.4M17.3 17.3l1.4 1.4M5.3 18.7l1.4-1.4M17.3 6.7l1.4-1.4"/>"#
        case .learn: #"<path d="M2.5 9 12 4.5 21.5 9 12 13.5z"/><path d="M6.5 11.2V16c0 1.4 2.5 3 5.5 3s5.5-1.6 5.5-3v-4.8"/><path d="M21.5 9v5.5"/>"#
        case .settings:
            #"<path d="M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1"/><circle cx="15" cy="6" r="2"/><circle cx="9" cy="12" r="2"/><circle cx="17" cy="18" r="2"/>"#
        case .info: #"<circle cx="12" cy="12" r="9"/><path d="M12 11v5.5"/><path d="M12 7.6v.1"/>"#
        case .help: #"<circle cx="12" cy="12" r="9"/><path d="M9.4 9.4a2.6 2.6 0 1 1 3.7 2.4c-.7.3-1.1.9-1.1 1.6v.5"/><path d="M12 16.9v.1"/>"#
        case .edit: #"<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="m13.5 6.5 4 4"/>"#
        case .meal: #"<path d="M6 3v5a2 2 0 0 0 4 0V3M8 3v18"/><path d="M18 21V3c-2.2 1.2-3.5 4.2-3.5 8.5H18"/>"#
        case .scale: #"<rect x="3.5" y="3.5" width="17" height="17" rx="4"/><path d="M8 10a4 4 0 0 1 8 0z"/><path d="m12 10 1.5-2"/>"#
        case .flame:
            #"<path fill="currentColor" d="M12.5 2.5c.8 3.6 5.5 5.8 5.5 11a6 6 0 0 1-12 0c0-3 1.7-4.9 3-6.2 0 1.9.8 3 1.9 3.4-.8-3.2.4-5.9 1.6-8.2z"/>"#
        case .star: #"<path d="m12 3 2.7 5.6 6.1.8-4.5 4.2 1.2 6.1L12 16.8l-5.5 2.9 1.2-6.1-4.5-4.2 6.1-.8z"/>"#
        case .back: #"<path d="M15 5 8 12l7 7"/>"#
        case .forward: #"<path d="m9 5 7 7-7 7"/>"#
        case .clock: #"<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3.5 2"/>"#
        case .warning: #"<path d="M12 3.5 2.5 20h19z"/><path d="M12 10v4.5"/><path d="M12 17.4v.1"/>"#
        case .trash: #"<path d="M4 7h16"/><path d="M9.5 7V4.5h5V7"/><path d="M6 7l1 13h10l1-13"/><path d="M10 11v5M14 11v5"/>"#
        }
    }

    /// The inline `<svg>`: fixed 24 px so nothing moves when it paints.
    var svg: String {
        #"<svg class="icon icon-\#(rawValue)" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">\#(shapes)</svg>"#
    }
}

/// The fire coach as drawn by `mascot.mustache`: `{{#mascot}}{{> mascot}}{{/mascot}}`. Which
/// look is the domain's choice (`CoachAdvice.variation`); pages without a coach's advice (the
/// welcome, an error) show the everyday one.
enum Mascot {
    static func values(_ variation: FireVariation, size: Int) -> [String: Any] {
        ["variation": variation.rawValue, variation.rawValue: true, "size": size]
    }
}

/// `{{{icon.info}}}` in a template is the info icon's SVG (triple braces: it is markup).
struct Icons: MustacheParent {
    func child(named name: String) -> Any? { Icon(rawValue: name)?.svg }
}

/// The one-time messages shown after a redirect.
enum Toast: String {
    case mealSaved = "meal_saved"
    case mealsSaved = "meals_saved"
    case mealStreak = "meal_streak"
    case mealUpdated = "meal_updated"
    case mealDeleted = "meal_deleted"
    case weightSaved = "weight_saved"
    case settingsSaved = "settings_saved"
    case imported, welcome
    case streakLit = "streak_lit"
    case signedIn = "signed_in"
    case signedOut = "signed_out"
    case synced
    case syncFailed = "sync_failed"
    case calendarAdded = "calendar_added"
    case calendarRemoved = "calendar_removed"
    case mealRestored = "meal_restored"
    case dayCopied = "day_copied"
    case copyUndone = "copy_undone"
    case nothingToCopy = "nothing_to_copy"
    case foodAdded = "food_added"
    case foodDeleted = "food_deleted"
    case recipeAdded = "recipe_added"
    case foodUpdated = "food_updated"
    case recipeUpdated = "recipe_updated"
    case recipeDeleted = "recipe_deleted"
    case foodFromOpenFoodFacts = "food_from_off"
    case badgeEarned = "badge_earned"
    case goalReached = "goal_reached"
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
