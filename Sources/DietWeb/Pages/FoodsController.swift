import DietCore
import DietStore
import FoodKit
import Foundation
import Hummingbird

/// Your own foods, recipes and barcodes (SPEC §6): create a food per 100 g (with a barcode),
/// a recipe from its ingredients in words, look a barcode up by its digits or the camera,
/// and delete a food of your own. The rules are the store's and FoodKit's.
struct FoodsController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/foods", use: screen)
        group.post("/foods", use: addFood)
        group.post("/foods/:id/delete", use: deleteFood)
        group.post("/recipes", use: addRecipe)
        group.post("/barcode", use: lookUp)
    }

    func screen(_ request: Request, context: OnboardedContext) async throws -> Response {
        page(FormState(), context: context)
    }

    func addFood(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let form = try context.decode(CustomFoodForm.self)
        var state = FormState(values: context.form.typed)
        do {
            let food = try store.addCustomFood(try draft(form, l))
            return redirect("/log/food/\(food.id)", toast: .foodAdded)
        } catch let error as FieldError {
            state.errors[error.field] = error.message
        } catch {
            state.errors["name"] = message(for: error, l)
        }
        return page(state, open: "new-food", context: context, status: .unprocessableContent)
    }

    /// The food the form describes; a field's message when something is off.
    private func draft(_ form: CustomFoodForm, _ l: Localizer) throws -> CustomFood {
        let barcode = try form.barcode.given.map { try Self.barcode($0, l) }
        do throws(ValidationError) {
            let kcal = try NumberInput.value(form.kcal, field: .calories, range: 0...900, digits: 0, unit: "kcal")
            let fields: [ValidationError.Field] = [.protein, .carbs, .fat]
            let grams = try zip([form.protein, form.carbs, form.fat], fields).map { text, field throws(ValidationError) in
                try NumberInput.optionalValue(text, field: field, range: 0...100, digits: 1, unit: "g") ?? 0
            }
            var portions: [Portion] = []
            if let name = form.portion.given {
                let weight = try NumberInput.value(form.portionGrams, field: .portion, range: 1...5000, digits: 0, unit: "g")
                let words = name.split(separator: " ", maxSplits: 1).map(String.init)
                let amount = words.count == 2 ? NumberInput.decimal(words[0]) : nil
                portions = [Portion(amount: amount ?? 1, name: amount == nil ? name : words[1], grams: weight)]
            }
            let nutrients = Nutrients(kcal: kcal, proteinG: grams[0], carbsG: grams[1], totalCarbsG: grams[1], fiberG: 0, sugarsG: 0,
                                      fatG: grams[2], sodiumMg: 0)
            return try CustomFood(name: form.name.given ?? "", barcode: barcode, per100g: nutrients, portions: portions)
        } catch {
            let field = [ValidationError.Field.calories: "kcal", .protein: "protein", .carbs: "carbs", .fat: "fat", .portion: "portion",
                         .foodName: "name"][error.field] ?? "kcal"
            throw FieldError(field: field, message: l.render(error.message))
        }
    }

    func deleteFood(_ request: Request, context: OnboardedContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        do {
            try store.deleteCustomFood(id: id)
        } catch let error as StoreError {
            throw HTTPError(.notFound, message: error.message(localizer(context)))
        }
        return redirect("/foods", toast: .foodDeleted)
    }

    /// A recipe from its ingredients in words, matched as a meal in words is.
    func addRecipe(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let form = try context.decode(RecipeForm.self)
        var state = FormState(values: context.form.typed)
        do {
            let text = form.ingredients.given ?? ""
            do throws(ValidationError) { _ = try MealTextParser.checkedParse(text) } catch {
                throw FieldError(field: "ingredients", message: l.render(error.message))
            }
            let meal = try store.resolveMealText(text, language: context.language, timeZone: timeZone)
            guard !meal.items.isEmpty else { throw FieldError(field: "ingredients", message: l.text("web.recipes.nothing")) }
            let servings: Double
            do throws(ValidationError) {
                servings = try NumberInput.value(form.servings.given ?? "1", field: .servings, range: 1...50, digits: 1, unit: nil)
            } catch {
                throw FieldError(field: "servings", message: l.render(error.message))
            }
            try store.addRecipe(name: form.name.given ?? "", items: meal.items.map { Recipe.Item(foodID: $0.food.id, grams: $0.choice.grams) },
                                servings: servings)
            return redirect("/log#recipes", toast: .recipeAdded)
        } catch let error as FieldError {
            state.errors[error.field] = error.message
        } catch {
            state.errors["recipe_name"] = message(for: error, l)
        }
        return page(state, open: "new-recipe", context: context, status: .unprocessableContent)
    }

    /// A barcode: your own food with it, else a clear message and the new-food form with the code.
    func lookUp(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let typed = try context.decode(BarcodeForm.self).code.given ?? ""
        var state = FormState(values: ["code": typed])
        do {
            let barcode = try Self.barcode(typed, l)
            if let food = try store.customFood(barcode: barcode) { return redirect("/log/food/\(food.id)") }
            state.values["barcode"] = barcode.digits
            state.errors["code"] = l.text("web.barcode.unknownHere", ["code": .text(barcode.digits)])
            return page(state, open: "new-food", context: context, status: .notFound)
        } catch let error as FieldError {
            state.errors["code"] = error.message
            return page(state, context: context, status: .unprocessableContent)
        }
    }

    /// FoodKit's barcode check (EAN-13, EAN-8, UPC-A with the check digit), worded for the page.
    static func barcode(_ text: String, _ l: Localizer) throws -> Barcode {
        do throws(Barcode.Problem) {
            return try Barcode(text)
        } catch {
            let message = switch error {
            case .notDigits(let code): l.text("web.barcode.notDigits", ["code": .text(code)])
            case .wrongLength(let count): l.text("web.barcode.length", ["count": .integer(count)])
            case .checkDigit(let expected, let got): l.text("web.barcode.checkDigit", ["expected": .integer(expected), "got": .integer(got)])
            }
            throw FieldError(field: "code", message: message)
        }
    }

    private func page(_ state: FormState, open: String? = nil, context: OnboardedContext, status: HTTPResponse.Status = .ok) -> Response {
        var values = state.template
        if let open { values[open == "new-food" ? "openFood" : "openRecipe"] = true }
        return renderer.page("foods", values, title: localizer(context).text("web.foods.title"), tab: nil, context: context, status: status)
    }
}
