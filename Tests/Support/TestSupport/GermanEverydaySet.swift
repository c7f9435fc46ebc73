import Foundation

/// The German everyday set (`Tests/DietStoreTests/Foods/german-everyday.tsv`, issue 29): searches
/// and meals in words a German-speaking person types, each with the food kinds that count as
/// right (BLS 4.0 codes, or w-diet ids where BLS lacks the food) and a kcal range from BLS values,
/// labelled by hand before the search ran (its header and `german-everyday.md` say how).
public enum GermanEverydaySet {
    public static let url = RepositoryFolder.url("Tests/DietStoreTests/Foods/german-everyday.tsv")

    /// One accepted reference: a BLS code, every BLS code under a prefix, or a w-diet food id.
    public enum Kind: Hashable, Sendable {
        case bls(String)
        case blsPrefix(String)
        case id(String)

        public func accepts(id: String, blsCode: String?) -> Bool {
            switch self {
            case .bls(let code): blsCode == code
            case .blsPrefix(let prefix): blsCode?.hasPrefix(prefix) == true
            case .id(let wanted): id == wanted
            }
        }
    }

    public struct Case: Hashable, Sendable, CustomStringConvertible {
        public let isMeal: Bool
        public let text: String
        /// One group per item typed (a search has one).
        public let groups: [[Kind]]
        /// kcal per 100 g of the top hit (a search) or of the whole meal.
        public let kcal: ClosedRange<Double>

        public var description: String { "\(isMeal ? "meal" : "search") \(text)" }
    }

    public struct MalformedLine: Error, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { "german-everyday.tsv line \(line) is malformed: \(text)" }
    }

    public static func load(from url: URL = url) throws -> [Case] {
        var cases: [Case] = []
        let text = try String(contentsOf: url, encoding: .utf8)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            let bad = MalformedLine(line: index + 1, text: String(line))
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 4, ["search", "meal"].contains(columns[0]) else { throw bad }
            let bounds = columns[3].split(separator: "-").compactMap { Double($0) }
            // "0-0": a drink of no energy at all
            guard bounds.count == 2, bounds[0] <= bounds[1] else { throw bad }
            let groups = try columns[2].components(separatedBy: " ; ").map { group in
                try group.split(separator: ",").map { reference -> Kind in
                    let reference = reference.trimmingCharacters(in: .whitespaces)
                    if reference.hasPrefix("id:") { return .id(String(reference.dropFirst(3))) }
                    guard reference.hasPrefix("bls:"), reference.count > 4 else { throw bad }
                    let code = String(reference.dropFirst(4))
                    return code.hasSuffix("*") ? .blsPrefix(String(code.dropLast())) : .bls(code)
                }
            }
            guard columns[0] == "meal" || groups.count == 1 else { throw bad }
            cases.append(Case(isMeal: columns[0] == "meal", text: columns[1], groups: groups, kcal: bounds[0]...bounds[1]))
        }
        return cases
    }

    /// What the app answered: the chosen foods (id, BLS code) and the kcal that count.
    public struct Answer: Sendable {
        public let foods: [(id: String, blsCode: String?, name: String)]
        public let kcal: Double

        public init(foods: [(id: String, blsCode: String?, name: String)], kcal: Double) {
            self.foods = foods
            self.kcal = kcal
        }
    }

    public struct Report: Sendable {
        public var searches = 0
        public var rightSearches = 0
        public var meals = 0
        public var rightMeals = 0
        /// Meals whose items are as many as typed and whose total kcal lies in the range, whatever
        /// kind of each food was chosen (Kasseler boiled where the label says smoked): what the
        /// person's day adds up to.
        public var mealsInRange = 0
        public var failures: [String] = []

        public var searchShare: Double { searches == 0 ? 0 : Double(rightSearches) / Double(searches) }
        public var mealShare: Double { meals == 0 ? 0 : Double(rightMeals) / Double(meals) }
        public var share: Double { Double(rightSearches + rightMeals) / Double(max(1, searches + meals)) }
        public var mealsInRangeShare: Double { meals == 0 ? 0 : Double(mealsInRange) / Double(meals) }

        public var line: String {
            String(
                format: "searches right %.1f %% (%d of %d) · meals right %.1f %% (%d of %d) · all %.1f %% · meals with their kcal in range %.1f %%",
                searchShare * 100,
                rightSearches,
                searches,
                mealShare * 100,
                rightMeals,
                meals,
                share * 100,
                mealsInRangeShare * 100
            )
        }
    }

    /// Scores the answers: a search is right when its top hit is one of the kinds with its kcal
    /// per 100 g in the range; a meal when it has one food per group, each one of its group's
    /// kinds, and its total kcal in the range.
    public static func score(_ cases: [Case], answer: (Case) throws -> Answer?) rethrows -> Report {
        var report = Report()
        for item in cases {
            let answer = try answer(item)
            let foods = answer?.foods ?? []
            let kindsRight =
                foods.count == item.groups.count
                && zip(foods, item.groups).allSatisfy { food, group in group.contains { $0.accepts(id: food.id, blsCode: food.blsCode) } }
            let right = kindsRight && answer.map { item.kcal.contains($0.kcal.rounded()) } == true
            if item.isMeal {
                report.meals += 1
                if right { report.rightMeals += 1 }
                if foods.count == item.groups.count, answer.map({ item.kcal.contains($0.kcal.rounded()) }) == true { report.mealsInRange += 1 }
            } else {
                report.searches += 1
                if right { report.rightSearches += 1 }
            }
            if !right {
                let found = foods.map { "\($0.name) [\($0.blsCode ?? $0.id)]" }.joined(separator: " + ")
                report.failures.append(
                    "\(item): \(found.isEmpty ? "nothing" : found), \(answer.map { String(format: "%.0f", $0.kcal) } ?? "-") kcal"
                        + " (want \(Int(item.kcal.lowerBound))–\(Int(item.kcal.upperBound)))"
                )
            }
        }
        return report
    }
}
