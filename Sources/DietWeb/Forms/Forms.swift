import DietCore
import Foundation

// The forms of the pages, decoded from the url-encoded body with `URLEncodedFormDecoder`
// (`PageContext.decode`). Every field is the text as typed: a blank field is nil after
// `given`, and numbers are read by DietCore's rules, so a page re-shown after an error
// keeps exactly what the user entered.

extension String? {
    /// The text trimmed; nil when absent or blank.
    var given: String? {
        guard let value = self?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}

/// When a meal was eaten: `date` (default today) at `time` (default now).
struct WhenForm: Decodable {
    var date: String?
    var time: String?
}

/// A meal typed by hand (manual entry, quick add and editing).
struct MealForm: Decodable {
    var name: String?
    var kcal: String?
    var protein: String?
    var carbs: String?
    var fat: String?
    var fiber: String?
    var date: String?
    var time: String?
    var moment: String?

    var when: WhenForm { WhenForm(date: date, time: time) }
}

/// An amount of one food.
struct PortionForm: Decodable {
    var amount: String?
    var unit: String?
    var date: String?
    var time: String?
    var moment: String?

    var when: WhenForm { WhenForm(date: date, time: time) }
}

/// Servings of a recipe.
struct ServingsForm: Decodable {
    var servings: String?
    var date: String?
    var time: String?
    var moment: String?

    var when: WhenForm { WhenForm(date: date, time: time) }
}

/// A meal in words, checked first and then confirmed.
struct MealTextForm: Decodable {
    var text: String?
    var confirm: String?
    var date: String?
    var time: String?
    var moment: String?

    var when: WhenForm { WhenForm(date: date, time: time) }
}

/// A weight, typed in kilograms ("72,4" or "72.4").
struct WeightForm: Decodable {
    var weight: String?
}

/// Settings: the profile's body and goal.
struct ProfileForm: Decodable {
    var age: String?
    var height: String?
    var sex: String?
    var activity: String?
    var goal: String?
    var goalWeight: String?

    enum CodingKeys: String, CodingKey {
        case age, height, sex, activity, goal
        case goalWeight = "goal_weight"
    }
}

/// Settings: the language.
struct LanguageForm: Decodable {
    var language: String?
}

/// Settings: deficit, preset and the locked goals of each target kind.
struct PlanForm: Decodable {
    var preset: String?
    var deficit: String?
    var locks: [TargetKind: [String: String]] = [:]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        preset = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "preset"))
        deficit = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "deficit"))
        for kind in TargetKind.allCases {
            for field in ["kcal", "protein", "carbs", "fat"] {
                let key = Key(stringValue: "lock_\(kind.rawValue)_\(field)")
                if let value = try container.decodeIfPresent(String.self, forKey: key) { locks[kind, default: [:]][field] = value }
            }
        }
    }

    /// The typed values of `kind`'s lock: kcal, protein, carbs, fat.
    func lock(_ kind: TargetKind) -> [String?] {
        ["kcal", "protein", "carbs", "fat"].map { locks[kind]?[$0] }
    }
}

/// Settings: which maintenance to use.
struct MaintenanceForm: Decodable {
    var use: String?
}

/// Settings: the word that confirms deleting everything.
struct DeleteForm: Decodable {
    var confirm: String?
}

/// Settings: signing in to (or signing up at) a sync server.
struct SignInForm: Decodable {
    var server: String?
    var email: String?
    var password: String?
    var new: String?
}

/// The confirm screen of a meal in words, after the user changed it: each item's food, amount
/// and unit, or its removal.
struct TextItemsForm: Decodable {
    struct Item: Decodable {
        /// The words that named the food, for the other matches offered.
        var query: String?
        var typed: String?
        var food: String?
        var amount: String?
        var unit: String?
        /// The food whose units the unit select offered (another may have been chosen since).
        var unitFood: String?
        var remove: String?
    }

    var text: String?
    var confirm: String?
    var date: String?
    var time: String?
    var moment: String?
    /// By key "i0", "i1", …: Hummingbird's decoder takes maps, not arrays of maps.
    var items: [String: Item]?

    /// The items in the order shown.
    var orderedItems: [Item] {
        (items ?? [:]).sorted { (Int($0.key.dropFirst()) ?? 0) < (Int($1.key.dropFirst()) ?? 0) }.map(\.value)
    }
}

/// One of the user's own foods, per 100 g, with an optional portion and barcode.
struct CustomFoodForm: Decodable {
    var name: String?
    var kcal: String?
    var protein: String?
    var carbs: String?
    var fat: String?
    var portion: String?
    var portionGrams: String?
    var barcode: String?

    enum CodingKeys: String, CodingKey {
        case name, kcal, protein, carbs, fat, portion, barcode
        case portionGrams = "portion_grams"
    }
}

/// A recipe: its name, the servings it makes and its ingredients in words.
struct RecipeForm: Decodable {
    var name: String?
    var servings: String?
    var ingredients: String?
    /// The review screen's button: update, edit (back to the words), yes (save).
    var confirm: String?
    /// The ingredients as reviewed, by key "i0", "i1", … as on a meal in words' confirm screen.
    var items: [String: TextItemsForm.Item]?
}

/// A barcode typed (or read by the camera).
struct BarcodeForm: Decodable {
    var code: String?
}

/// What a phone adds to a form that logs a meal or a weight, so that one it kept offline is
/// saved once and on its day: the entry's client-made id and when it was logged (local time).
struct OfflineFields: Decodable {
    var clientID: String?
    var loggedAt: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case loggedAt = "logged_at"
    }
}
