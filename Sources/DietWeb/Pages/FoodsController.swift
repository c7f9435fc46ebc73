import DietCore
import DietStore
import FoodFacts
import FoodKit
import Foundation
import Hummingbird

/// Your own foods, recipes and barcodes (docs/rules.md §6): create a food per 100 g (with a barcode),
/// a recipe from its ingredients in words, look a barcode up by its digits or the camera,
/// and delete a food of your own. The rules are the store's and FoodKit's.
struct FoodsController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/foods", use: screen)
        group.post("/foods", use: addFood)
        group.get("/foods/:id/edit", use: editScreen)
        group.post("/foods/:id", use: updateFood)
        group.post("/foods/:id/delete", use: deleteFood)
        group.post("/recipes", use: addRecipe)
        group.get("/recipes/:id/edit", use: editRecipeScreen)
        group.post("/recipes/:id", use: updateRecipe)
        group.post("/recipes/:id/delete", use: deleteRecipe)
        group.post("/barcode", use: lookUp)
    }

    func screen(_ request: Request, context: OnboardedContext) async throws -> Response {
        try page(FormState(), context: context)
    }

    func addFood(_ request: Request, context: OnboardedContext) async throws -> Response {
        try save(editing: nil, context: context)
    }

    /// The new-food form, prefilled with one of the user's foods (numbers as the user types
    /// them, "2,5" in German).
    func editScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        if context.settings.recoveryMode { return app.restPage("foods", context: context) }
        let l = localizer(context)
        let food = try ownFood(context)
        let n = food.per100g
        var values = [
            "name": food.name, "kcal": l.typed(n.kcal), "protein": l.typed(n.proteinG), "carbs": l.typed(n.carbsG),
            "fat": l.typed(n.fatG),
        ]
        if let portion = food.portions.first {
            values["portion"] = "\(l.typed(portion.amount)) \(portion.name)"
            values["portion_grams"] = l.typed(portion.grams)
        }
        // the barcode is shown back, so saving without touching it keeps it
        values["barcode"] = try store.customFoodDraft(id: food.id)?.barcode?.digits
        return try page(FormState(values: values), open: "new-food", editing: food.id, context: context)
    }

    func updateFood(_ request: Request, context: OnboardedContext) async throws -> Response {
        try save(editing: try ownFood(context).id, context: context)
    }

    /// Adds a food, or replaces the one being edited (same id, so meals and recipes keep it).
    private func save(editing id: String?, context: OnboardedContext) throws -> Response {
        let l = localizer(context)
        let form = try context.decode(CustomFoodForm.self)
        var state = FormState(values: context.form.typed)
        do {
            let draft = try draft(form, l, editing: try id.flatMap { try store.customFoodDraft(id: $0) })
            let food = try id.map { try store.updateCustomFood(id: $0, draft) } ?? store.addCustomFood(draft)
            return redirect("/log/food/\(food.id)", toast: id == nil ? .foodAdded : .foodUpdated)
        } catch let error as FieldError {
            state.errors[error.field] = error.message
        } catch StoreError.duplicateBarcode(let code) {
            state.errors["barcode"] = StoreError.duplicateBarcode(code).message(l)
        } catch {
            state.errors["name"] = message(for: error, l)
        }
        return try page(state, open: "new-food", editing: id, context: context, status: .unprocessableContent)
    }

    /// The user's own food of the route's id (the bundled foods cannot be edited).
    private func ownFood(_ context: OnboardedContext) throws -> Food {
        let id = context.parameters.get("id") ?? ""
        guard UUID(uuidString: id) != nil, let food = try store.food(id: id, language: context.language) else {
            throw HTTPError(.notFound, message: StoreError.unknownFood(id).webMessage(localizer(context)))
        }
        return food
    }

    /// The food the form describes; a field's message when something is off. Editing, what the
    /// form does not show (fibre, sugars, sodium, further portions) stays as it was.
    private func draft(_ form: CustomFoodForm, _ l: Localizer, editing base: CustomFood? = nil) throws -> CustomFood {
        let barcode: Barcode?
        do {
            barcode = try form.barcode.given.map { try Self.barcode($0, l) }
        } catch let error as FieldError {
            throw FieldError(field: "barcode", message: error.message)
        }
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
            let kept = base?.per100g
            let nutrients = Nutrients(
                kcal: kcal,
                proteinG: grams[0],
                carbsG: grams[1],
                totalCarbsG: grams[1] + (kept?.fiberG ?? 0),
                fiberG: kept?.fiberG ?? 0,
                sugarsG: kept?.sugarsG ?? 0,
                fatG: grams[2],
                sodiumMg: kept?.sodiumMg ?? 0
            )
            portions += base?.portions.dropFirst() ?? []
            return try CustomFood(name: form.name.given ?? "", barcode: barcode, per100g: nutrients, portions: portions)
        } catch {
            let field =
                [
                    ValidationError.Field.calories: "kcal", .protein: "protein", .carbs: "carbs", .fat: "fat", .portion: "portion",
                    .foodName: "name",
                ][error.field] ?? "kcal"
            throw FieldError(field: field, message: l.render(error.message))
        }
    }

    func deleteFood(_ request: Request, context: OnboardedContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        do {
            try store.deleteCustomFood(id: id)
        } catch let error as StoreError {
            throw HTTPError(.notFound, message: error.webMessage(localizer(context)))
        }
        return redirect("/foods", toast: .foodDeleted)
    }

    func addRecipe(_ request: Request, context: OnboardedContext) async throws -> Response {
        try saveRecipe(editing: nil, context: context)
    }

    /// The recipe form prefilled: its ingredients in words ("300 g Chicken breast, …").
    func editRecipeScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        if context.settings.recoveryMode { return app.restPage("foods", context: context) }
        let l = localizer(context)
        let recipe = try ownRecipe(context)
        let words = try recipe.items.map { item in
            "\(l.typed(item.grams)) g \(try store.food(id: item.foodID, language: context.language)?.name ?? item.foodID)"
        }
        let state = FormState(values: ["name": recipe.name, "servings": l.typed(recipe.servings), "ingredients": words.joined(separator: ", ")])
        return try page(state, open: "new-recipe", editing: recipe.id, context: context)
    }

    func updateRecipe(_ request: Request, context: OnboardedContext) async throws -> Response {
        try saveRecipe(editing: try ownRecipe(context).id, context: context)
    }

    func deleteRecipe(_ request: Request, context: OnboardedContext) async throws -> Response {
        try store.deleteRecipe(try ownRecipe(context).id)
        return redirect("/log", toast: .recipeDeleted)
    }

    private func ownRecipe(_ context: OnboardedContext) throws -> Recipe {
        let id = context.parameters.get("id") ?? ""
        guard let recipe = try store.recipe(id) else {
            throw HTTPError(.notFound, message: StoreError.notFound(table: "recipes", id: id).webMessage(localizer(context)))
        }
        return recipe
    }

    /// A recipe from its ingredients in words, matched as a meal in words is; a new one, or
    /// the one being edited. Nothing is saved unseen (issue 30: "800 ml Gemüsebrühe" was dropped and
    /// "1 Dose Tomaten" became "123 g Tomate"): the review screen shows each ingredient as it was
    /// understood, changeable or removable, and names the words no food was found for; "edit"
    /// goes back to the words, "yes" saves what the screen shows.
    private func saveRecipe(editing id: String?, context: OnboardedContext) throws -> Response {
        let l = localizer(context)
        let form = try context.decode(RecipeForm.self)
        var state = FormState(values: ["name": form.name ?? "", "ingredients": form.ingredients ?? "", "servings": form.servings ?? ""])
        do {
            let text = form.ingredients.given ?? ""
            do throws(ValidationError) {
                _ = try TextRules.name(form.name ?? "", field: .recipeName)
            } catch {
                throw FieldError(field: "recipe_name", message: l.render(error.message))
            }
            do throws(ValidationError) { _ = try MealTextParser.checkedParse(text) } catch {
                throw FieldError(field: "ingredients", message: l.render(error.message))
            }
            let servings: Double
            do throws(ValidationError) {
                servings = try NumberInput.value(form.servings.given ?? "1", field: .servings, range: Recipe.yieldRange, digits: 1, unit: nil)
            } catch {
                throw FieldError(field: "servings", message: l.render(error.message))
            }
            if form.confirm == "edit" { return try page(state, open: "new-recipe", editing: id, context: context) }
            let meal = try store.resolveMealText(text, language: context.language, timeZone: timeZone)
            guard !meal.items.isEmpty else { throw FieldError(field: "ingredients", message: l.text("web.recipes.nothing")) }
            let unmatched =
                meal.unmatched.map { l.text("web.text.unmatched", ["food": .text($0.food)]) }
                + meal.unparsed.map { l.text("cli.text.unparsed", ["text": .text($0)]) }
            let items =
                form.items == nil ? try app.textItems(meal, context: context) : try app.textItems(TextItemsForm(items: form.items), context: context)
            let invalid = items.contains { $0.grams == nil }
            guard form.confirm == "yes", !items.isEmpty, !invalid else {
                return recipeConfirmPage(
                    items,
                    form: form,
                    servings: servings,
                    unmatched: unmatched,
                    editing: id,
                    context: context,
                    status: invalid || (form.confirm == "yes" && items.isEmpty) ? .unprocessableContent : .ok
                )
            }
            let recipeItems = items.compactMap { item in item.grams.map { Recipe.Item(foodID: item.food.id, grams: $0) } }
            if let id {
                try store.updateRecipe(id: id, name: form.name.given ?? "", items: recipeItems, servings: servings)
            } else {
                try store.addRecipe(name: form.name.given ?? "", items: recipeItems, servings: servings)
            }
            return redirect("/log#recipes", toast: id == nil ? .recipeAdded : .recipeUpdated)
        } catch let error as FieldError {
            state.errors[error.field] = error.message
        } catch {
            state.errors["recipe_name"] = message(for: error, l)
        }
        return try page(state, open: "new-recipe", editing: id, context: context, status: .unprocessableContent)
    }

    /// The recipe's review screen: its name and servings, each ingredient as understood.
    private func recipeConfirmPage(
        _ items: [TextItem],
        form: RecipeForm,
        servings: Double,
        unmatched: [String],
        editing id: String?,
        context: OnboardedContext,
        status: HTTPResponse.Status
    ) -> Response {
        let l = localizer(context)
        var values = WebApp.textItemsValues(items, unmatched: unmatched, l)
        values.merge([
            "action": id.map { "/recipes/\($0)" } ?? "/recipes",
            "name": form.name ?? "", "servings": form.servings ?? "", "ingredients": form.ingredients ?? "",
            "servingsLabel": l.text("web.recipes.makes", ["count": .decimal(servings, digits: servings == servings.rounded() ? 0 : 1)]),
            "saveLabel": l.text(unmatched.isEmpty ? "web.recipes.save" : "web.recipes.saveWithout"),
        ]) { $1 }
        return renderer.page("recipe-confirm", values, title: l.text("web.recipes.confirmTitle"), tab: nil, context: context, status: status)
    }

    /// A barcode: your own food with it, else Open Food Facts unless offline (FoodFacts'
    /// `BarcodeLookup`, the CLI's too); every outcome worded for the page.
    func lookUp(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let typed = try context.decode(BarcodeForm.self).code.given ?? ""
        var state = FormState(values: ["code": typed])
        let barcode: Barcode
        do {
            barcode = try Self.barcode(typed, l)
        } catch let error as FieldError {
            state.errors["code"] = error.message
            return try page(state, context: context, status: .unprocessableContent)
        }
        let store = self.store
        let client = BarcodeLookup.client(environment: configuration.environment)
        let outcome = try await BarcodeLookup(client: client).find(
            barcode,
            language: context.language,
            local: { try store.customFood(barcode: barcode) },
            save: { try store.addCustomFood($0) }
        )
        let code: Message.Argument = .text(barcode.digits)
        // A code nobody knows yet is no mistake of the user's: a calm notice, and the new-food
        // form with the barcode filled in and no error marked (those come once that form is sent).
        state.values["barcode"] = barcode.digits
        let notice: String
        var answer = HTTPResponse.Status.notFound
        switch outcome {
        case let .found(food, fromOpenFoodFacts):
            return redirect("/log/food/\(food.id)", toast: fromOpenFoodFacts ? .foodFromOpenFoodFacts : nil)
        case .unknown:
            notice = l.text("web.barcode.unknown", ["code": code])
        case .notOnDevice:
            // offline Open Food Facts is not asked; online it could not be reached
            notice = l.text(client == nil ? "web.barcode.unknownHere" : "web.barcode.unreachable", ["code": code])
        case .incomplete(let name):
            state.values["name"] = name
            notice = l.text("web.barcode.incomplete", ["name": .text(name), "code": code])
        case .serverError(let status):
            notice = l.text("web.barcode.serverError", ["status": .integer(status)])
            answer = .badGateway
        }
        return try page(state, open: "new-food", notice: notice, context: context, status: answer)
    }

    /// FoodKit's barcode check (EAN-13, EAN-8, UPC-A with the check digit), worded for the page.
    static func barcode(_ text: String, _ l: Localizer) throws -> Barcode {
        do throws(Barcode.Problem) {
            return try Barcode(text)
        } catch {
            let message =
                switch error {
                case .notDigits(let code): l.text("web.barcode.notDigits", ["code": .text(code)])
                case .wrongLength(let count): l.text("web.barcode.length", ["count": .integer(count)])
                case .checkDigit(let expected, let got): l.text("web.barcode.checkDigit", ["expected": .integer(expected), "got": .integer(got)])
                }
            throw FieldError(field: "code", message: message)
        }
    }

    /// The foods area: barcode lookup (with `notice`, what a lookup found out), the user's own
    /// foods, the food and recipe forms. In recovery mode foods and recipes rest with their
    /// numbers (docs/rules.md §8): the kind page.
    private func page(
        _ state: FormState,
        open: String? = nil,
        editing: String? = nil,
        notice: String? = nil,
        context: OnboardedContext,
        status: HTTPResponse.Status = .ok
    ) throws -> Response {
        if context.settings.recoveryMode { return app.restPage("foods", context: context) }
        let l = localizer(context)
        var values = state.template
        if let open { values[open == "new-food" ? "openFood" : "openRecipe"] = true }
        if let editing { values[open == "new-recipe" ? "editingRecipe" : "editing"] = ["id": editing] }
        if let notice { values["notice"] = notice }
        let own = try store.customFoods()
        values["hasOwnFoods"] = !own.isEmpty
        values["ownFoods"] = own.map { food in
            ["id": food.id, "name": food.name, "per100": l.text("web.food.per100", ["kcal": .integer(Int(food.per100g.kcal.rounded()))])]
        }
        return renderer.page("foods", values, title: localizer(context).text("web.foods.title"), tab: nil, context: context, status: status)
    }
}
