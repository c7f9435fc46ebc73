import DietCore
import DietStore
import FoodKit
import Foundation
import Hummingbird

/// One item of a meal in words on the confirm screen: the food chosen among the best matches,
/// its amount and unit, and what that comes to.
struct TextItem {
    let query: String
    let typed: String
    let food: Food
    let choices: [Food]
    let amount: String
    let unit: String
    /// nil when the amount or unit cannot be read (the error says why).
    let grams: Double?
    var error: String?
    /// "… the middle, 2.5, is counted" for a typed range, shown until the amount is changed.
    var note: String?
    /// "Which one?" where the words name several foods alike or only part of one: shown until
    /// the person sends the screen again (having looked at the choice).
    var check: String?

    var nutrients: Nutrients? { grams.map { food.per100g.scaled(toGrams: $0) } }

    func values(index: Int, _ l: Localizer) -> [String: Any] {
        var values: [String: Any] = [
            "index": index, "query": query, "typed": typed, "amount": amount, "name": food.name, "foodID": food.id,
            "foodLabel": l.text("web.text.food", ["typed": .text(typed)]),
            "amountLabel": l.text("web.text.amountOf", ["name": .text(food.name)]),
            "unitLabel": l.text("web.text.unitOf", ["name": .text(food.name)]),
            "removeLabel": l.text("web.text.removeLabel", ["name": .text(food.name)]),
            "foods": choices.map { ["id": $0.id, "name": $0.name, "selected": $0.id == food.id] as [String: Any] },
            "units": food.webUnits(keeping: unit).map { ["value": $0.value, "label": $0.label, "selected": $0.value == unit] as [String: Any] },
            "hasError": error != nil, "error": error ?? "", "kcal": "", "macros": "", "note": note ?? "",
        ]
        if let check { values["check"] = check }
        // as the meal will keep them, so the saved entry shows the same numbers
        if let n = nutrients?.asLogged, let grams {
            values["kcal"] = l.number(n.kcal, digits: 0)
            values["macros"] = l.number(grams, digits: 0) + " g · " + l.macros(protein: n.proteinG, carbs: n.carbsG, fat: n.fatG)
        }
        return values
    }
}

extension WebApp {
    /// The items of a resolved meal in words, each with its other matches.
    func textItems(_ meal: TextMeal, context: OnboardedContext) throws -> [TextItem] {
        try meal.items.map { item in
            let unit = item.choice.portion.flatMap { item.food.unit(named: $0.name) } ?? .grams
            let amount = item.choice.grams / (item.food.gramsPerUnit(of: unit) ?? 1)
            return TextItem(
                query: item.parsed.food,
                typed: item.parsed.text,
                food: item.food,
                choices: try choices(item.parsed.food, chosen: item.food, context: context),
                amount: WebApp.plain((amount * 100).rounded() / 100),
                unit: unit.id,
                grams: item.choice.grams,
                note: item.parsed.note(localizer(context)),
                check: item.isSure
                    ? nil
                    : item.choice.unitIgnored && item.rivals.isEmpty && !item.partly
                        ? localizer(context).text("web.text.unitIgnored", ["typed": .text(item.parsed.text), "food": .text(item.food.name)])
                        : localizer(context).text(item.partly ? "web.text.partly" : "web.text.whichOne", ["typed": .text(item.parsed.text)])
            )
        }
    }

    /// The items as the user changed them on the confirm screen; removed ones left out.
    func textItems(_ form: TextItemsForm, context: OnboardedContext) throws -> [TextItem] {
        let l = localizer(context)
        return try form.orderedItems.filter { $0.remove.given == nil }.compactMap { item -> TextItem? in
            guard let id = item.food.given, let food = try store.food(id: id, language: context.language) else { return nil }
            let query = item.query.given ?? food.name
            var amount = item.amount ?? ""
            var unit = FoodUnit(id: item.unit.given ?? "g")
            // another food chosen: the unit was one of the other food's, so its grams carry over
            if let previous = item.unitFood.given, previous != id, let unitFood = unit, unitFood != .grams {
                let before = try store.food(id: previous, language: context.language)
                let value = NumberInput.decimal(amount)
                let grams = value.flatMap { value in before?.grams(amount: value, unit: unitFood) }
                amount = grams.map { WebApp.plain(($0 * 100).rounded() / 100) } ?? amount
                unit = grams == nil ? nil : .grams
            }
            var problem: String?
            var grams: Double?
            if let unit, let perUnit = food.gramsPerUnit(of: unit) {
                do throws(ValidationError) {
                    grams = try NumberInput.value(amount, field: .quantity, range: 0.01...5000, digits: 2, unit: unit == .grams ? "g" : nil) * perUnit
                } catch {
                    problem = l.render(error.message)
                }
            } else {
                problem = l.text("web.error.choose")
            }
            return TextItem(
                query: query,
                typed: item.typed.given ?? query,
                food: food,
                choices: try choices(query, chosen: food, context: context),
                amount: amount,
                unit: unit.flatMap { food.gramsPerUnit(of: $0) == nil ? nil : $0.id } ?? "g",
                grams: grams,
                error: problem
            )
        }
    }

    /// The chosen food first, then the other best matches of `query`.
    private func choices(_ query: String, chosen: Food, context: OnboardedContext) throws -> [Food] {
        let hits = try store.searchFoods(query, language: context.language, timeZone: timeZone, limit: 5).map(\.food)
        return [chosen] + hits.filter { $0.id != chosen.id }
    }

    /// The values of `text-items.mustache`: each item, the total as it will be saved, and the
    /// words no food was found for.
    static func textItemsValues(_ items: [TextItem], unmatched: [String], _ l: Localizer) -> [String: Any] {
        let totals = items.compactMap(\.nutrients).map(\.asLogged)
        return [
            "items": items.enumerated().map { $0.element.values(index: $0.offset, l) },
            "total": l.text("web.text.total", ["kcal": .decimal(totals.map(\.kcal).reduce(0, +), digits: 0)]),
            "totalMacros": l.macros(
                protein: totals.map(\.proteinG).reduce(0, +),
                carbs: totals.map(\.carbsG).reduce(0, +),
                fat: totals.map(\.fatG).reduce(0, +)
            ),
            "unmatched": unmatched, "hasItems": !items.isEmpty,
        ]
    }

    /// The confirm screen of a meal in words.
    func textConfirmPage(
        _ items: [TextItem],
        text: String,
        unmatched: [String],
        context: OnboardedContext,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let l = localizer(context)
        var values = Self.textItemsValues(items, unmatched: unmatched, l)
        values.merge([
            "text": text, "quoted": l.text("web.quoted", ["text": .text(text)]),
            "logLabel": l.text("web.text.log", ["count": .integer(items.count)]),
            "moments": momentOptions(context, selected: context.form["moment"]), "momentId": "text-moment", "errors": [String: String](),
        ]) { $1 }
        // the meal goes to the day the log screen showed
        values.merge(ShownDay(text: context.form["date"], today: today).formValues(l)) { $1 }
        return renderer.page("text-confirm", values, title: l.text("web.text.confirmTitle"), tab: nil, context: context, status: status)
    }
}
