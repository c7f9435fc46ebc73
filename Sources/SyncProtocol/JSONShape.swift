import Foundation

/// What the JSON inside a text field must look like: the shape the apps decode, with the same
/// ranges, formats and list lengths, so the server refuses on push what no device could read
/// (docs/architecture.md, "The row contract").
indirect enum JSONShape: Sendable {
    /// A scalar the rule accepts: a number in a range, a time, a date, an identifier, a text.
    case value(FieldRule)
    /// An object with these fields and no others; `check` sees the whole object once every
    /// field kept its own rule (rules across fields, such as a window's length).
    case object([Field], check: (@Sendable ([String: JSONValue]) -> String?)? = nil)
    /// An object keyed by some of `keys` (a dictionary keyed by an enum), each value of `values`.
    case dictionary(keys: Set<String>, values: JSONShape)
    /// An array of `count` items, each of `items`.
    case array(JSONShape, count: ClosedRange<Int>)
    /// Any object: its contents are free (an event's properties, a WHOOP record as WHOOP sent it).
    case anyObject
    /// Null, or a value of this shape: an item of a list that may be left out (a moment
    /// without a name of its own).
    case nullable(JSONShape)

    struct Field: Sendable {
        let name: String
        let shape: JSONShape
        let optional: Bool
    }

    /// Why `value` does not have this shape, with where inside it ("moments[2]: …"), or nil.
    func problem(_ value: JSONValue, at path: String = "") -> String? {
        switch self {
        case .value(let rule):
            return rule.problem(value).map { Self.located($0, at: path) }
        case let .object(fields, check):
            guard case .object(let members) = value else { return Self.located("must be a JSON object; got \(FieldRule.shown(value))", at: path) }
            let known = Set(fields.map(\.name))
            if let unknown = members.keys.filter({ !known.contains($0) }).sorted().first {
                return Self.located("has the field \(FieldRule.shown(unknown)), which it must not have", at: path)
            }
            for field in fields {
                guard let member = members[field.name], member != .null else {
                    if field.optional { continue }
                    return Self.located("must have the field \"\(field.name)\"", at: path)
                }
                if let problem = field.shape.problem(member, at: Self.join(path, field.name)) { return problem }
            }
            return check?(members).map { Self.located($0, at: path) }
        case let .dictionary(keys, values):
            guard case .object(let members) = value else { return Self.located("must be a JSON object; got \(FieldRule.shown(value))", at: path) }
            for key in members.keys.sorted() {
                guard keys.contains(key) else {
                    return Self.located(
                        "has the key \(FieldRule.shown(key)); the keys must be among \(keys.sorted().joined(separator: ", "))",
                        at: path
                    )
                }
                if let problem = values.problem(members[key] ?? .null, at: Self.join(path, key)) { return problem }
            }
            return nil
        case let .array(items, count):
            guard case .array(let elements) = value else { return Self.located("must be a JSON array; got \(FieldRule.shown(value))", at: path) }
            guard count.contains(elements.count) else {
                return Self.located("must hold \(count.lowerBound)–\(count.upperBound) items; got \(elements.count)", at: path)
            }
            for (index, element) in elements.enumerated() {
                if let problem = items.problem(element, at: path + "[\(index)]") { return problem }
            }
            return nil
        case .anyObject:
            guard case .object = value else { return Self.located("must be a JSON object; got \(FieldRule.shown(value))", at: path) }
            return nil
        case .nullable(let shape):
            return value == .null ? nil : shape.problem(value, at: path)
        }
    }

    private static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "." + name
    }

    private static func located(_ reason: String, at path: String) -> String {
        path.isEmpty ? reason : "\(path): \(reason)"
    }
}

func required(_ name: String, _ shape: JSONShape) -> JSONShape.Field {
    JSONShape.Field(name: name, shape: shape, optional: false)
}

func optional(_ name: String, _ shape: JSONShape) -> JSONShape.Field {
    JSONShape.Field(name: name, shape: shape, optional: true)
}

/// The shapes of the JSON text fields, each mirroring the type the apps decode it into.
extension JSONShape {
    /// `EatingWindow` (docs/rules.md §2): start and end as HH:MM, 1–16 hours long (it may cross
    /// midnight), 2–5 distinct moments inside it, and optionally the moments' names by their
    /// place, each 1–30 characters or null (the default name).
    static let eatingWindow = JSONShape.object(
        [
            required("start", .value(.time)), required("end", .value(.time)), required("moments", .array(.value(.time), count: 2...5)),
            optional("names", .array(.nullable(.value(.text(EatingWindowRule.nameLength))), count: 0...5)),
        ],
        check: { window in
            guard let start = window["start"]?.stringValue.flatMap(CivilText.minutes),
                let end = window["end"]?.stringValue.flatMap(CivilText.minutes),
                case .array(let moments) = window["moments"]
            else { return nil }
            let length = EatingWindowRule.offset(of: end, from: start)
            guard EatingWindowRule.minutes.contains(length) else {
                return "must last 1–16 hours from start to end; got \(length / 60) h \(length % 60) min"
            }
            let times = moments.compactMap { $0.stringValue }
            guard Set(times).count == times.count else { return "must not name the same moment twice" }
            if let outside = times.first(where: { CivilText.minutes($0).map { EatingWindowRule.offset(of: $0, from: start) > length } ?? true }) {
                return "moments must lie inside the window; \(outside) does not"
            }
            return nil
        }
    )

    /// `[TargetKind: LockedGoals]`: whole calories up to 6,000 (the floor by sex is the
    /// profile's own check), grams 0–999.
    static let lockedGoals = JSONShape.dictionary(
        keys: ["deficit", "maintenance", "surplus"],
        values: .object([
            required("kcal", .value(.integer(Int64(LockedGoalsRule.minimumFloor)...Int64(LockedGoalsRule.maximumKcal)))),
            required("protein_g", .value(.number(0...999))),
            required("carbs_g", .value(.number(0...999))),
            required("fat_g", .value(.number(0...999))),
        ])
    )

    /// `[RecoveryPeriod]`: closed stretches of recovery mode, `from` not after `until`.
    static let recoveryPeriods = JSONShape.array(
        .object(
            [required("from", .value(.date)), required("until", .value(.date))],
            check: { period in
                guard let from = period["from"]?.stringValue, let until = period["until"]?.stringValue, from > until else { return nil }
                return "must not end (\(until)) before it starts (\(from))"
            }
        ),
        count: 0...80
    )

    /// `[Portion]` of a user's food: more than 0 and at most 5,000 g, a positive amount, a name.
    static let portions = JSONShape.array(
        .object([
            required("amount", .value(.number(0...1000, positive: true))),
            required("name", .value(.text(1...80))),
            required("grams", .value(.number(0...5000, positive: true))),
            optional("reference", .value(.text(1...80))),
        ]),
        count: 0...100
    )

    /// `[Recipe.Item]`: 1–50 items of a food's id and 0.1–5,000 g.
    static let recipeItems = JSONShape.array(
        .object([required("food_id", .value(.identifier(maxLength: 64))), required("grams", .value(.number(0.1...5000)))]),
        count: 1...50
    )
}

/// The eating window's limits as the contract checks them (DietCore's `EatingWindow` has the same).
public enum EatingWindowRule {
    /// 1–16 hours, in minutes.
    public static let minutes = 60...960
    /// The characters of a moment's name.
    public static let nameLength = 1...30

    static func offset(of time: Int, from start: Int) -> Int {
        ((time - start) % 1440 + 1440) % 1440
    }
}

/// Locked goals' limits as the contract checks them (DietCore's `LockedGoals` and
/// `SafetyFloor` have the same).
public enum LockedGoalsRule {
    public static let maximumKcal = 6000
    /// The safety floor by the profile's `sex` (male 1,500 kcal, otherwise 1,200).
    public static func floor(sex: String) -> Int { sex == "male" ? 1500 : 1200 }
    static let minimumFloor = 1200
}
