import DietCore
import DietStore
import FoodKit
import Foundation
import Hummingbird

/// Log meal (docs/rules.md §4): search as you type, a food's portions, manual entry,
/// recipes and meal text; every save goes to today's meals.
struct LogController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/log", use: logScreen)
        group.get("/foods/search", use: search)
        group.get("/log/food/:id", use: portionScreen)
        group.post("/log/food/:id", use: logPortion)
        group.post("/log/manual", use: logManual)
        group.post("/log/recipe/:id", use: logRecipe)
        group.post("/log/text", use: logText)
        group.get("/log/copy", use: copyScreen)
        group.post("/log/copy-day", use: copyDay)
        group.post("/log/copy/:batch/undo", use: undoCopy)
    }

    /// "Copy a day" (docs/rules.md §4): the meals of a source day (default the day before the
    /// target), each to tick, all ticked but those later in the day than now when the target is
    /// today; the target is the day the log screen showed.
    func copyScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        // recovery mode logs mindfully, without amounts (docs/rules.md §8)
        if context.settings.recoveryMode { return app.mindfulLogPage(FormState(), context: context) }
        let target = ShownDay(request, today: app.today)
        let asked = request.uri.queryParameters.get("from").flatMap { LocalDate(iso: $0) }
        let source = asked.map { min($0, app.today) } ?? target.date.adding(days: -1)
        return try copyPage(source: source, target: target, context: context)
    }

    private func copyPage(
        source: LocalDate,
        target: ShownDay,
        chosen: Set<UUID>? = nil,
        error: String? = nil,
        context: OnboardedContext,
        status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let l = app.localizer(context)
        let now = app.clock.now()
        let meals = try app.store.meals(on: source)
        let rows = meals.map { meal -> [String: Any] in
            let later = target.date.instant(at: meal.entry.localTime, in: app.timeZone) > now
            return [
                "id": meal.id.uuidString, "name": meal.entry.name, "time": meal.entry.localTime.formatted,
                "kcal": l.text("web.insights.kcal", ["kcal": .integer(meal.entry.kcal)]), "later": later,
                "checked": chosen.map { $0.contains(meal.id) } ?? !later,
            ]
        }
        var values: [String: Any] = [
            "fromIso": source.iso, "maxFrom": app.today.iso, "meals": rows, "hasMeals": !rows.isEmpty,
            "into": l.text("web.copy.into", ["day": .text(target.title(l))]), "dateQuery": target.query,
            "none": l.text("web.copy.none", ["date": .date(source)]),
        ]
        if !target.isToday { values["date"] = target.date.iso }
        if let error { values["error"] = error }
        return app.renderer.page("copy", values, title: l.text("web.copy.title"), tab: nil, context: context, status: status)
    }

    /// Copies the ticked meals of `from` (default the day before the target, all of them up to
    /// now when none is ticked) into the day shown; one "Undo" on the toast removes the copy.
    func copyDay(_ request: Request, context: OnboardedContext) async throws -> Response {
        // read from the parsed form: the ticked meals repeat one name, which the decoder refuses
        let text = context.form["from"] ?? ""
        let target = formDay(context)
        let day = text.isEmpty ? target.date.adding(days: -1) : LocalDate(iso: text)
        guard let day, day != target.date, day <= app.today else {
            let error = ValidationError(field: .init("date"), allowed: .rule(Message("allowed.pastDate")), received: TextRules.quoted(text))
            throw HTTPError(.unprocessableContent, message: localizer(context).render(error.message))
        }
        let picked = context.form.all("meal").compactMap(UUID.init(uuidString:))
        if context.form["picking"] == "yes", picked.isEmpty {
            return try copyPage(
                source: day,
                target: target,
                chosen: [],
                error: app.localizer(context).text("web.copy.nothingChosen"),
                context: context,
                status: .unprocessableContent
            )
        }
        let batch = UUID()
        let copied = try app.store.copyDay(
            from: day,
            to: target.date,
            only: picked.isEmpty ? nil : Set(picked),
            later: !picked.isEmpty,
            batch: batch,
            timeZone: app.timeZone
        )
        guard !copied.isEmpty else {
            // nothing up to now: the meals to choose from, later ones too
            if try !app.store.meals(on: day).isEmpty {
                return app.redirect("/log/copy?from=\(day.iso)" + target.query.replacingOccurrences(of: "?", with: "&"))
            }
            return app.redirect("/log" + target.query, toast: .nothingToCopy)
        }
        return app.redirectAnnouncingBadges("/" + target.query, toast: .dayCopied, undo: batch)
    }

    /// "Undo" on the toast of a copy: every meal it logged is removed again.
    func undoCopy(_ request: Request, context: OnboardedContext) async throws -> Response {
        guard let batch = context.parameters.get("batch").flatMap(UUID.init(uuidString:)) else {
            throw HTTPError(.notFound, message: app.localizer(context).text("web.error.mealNotFound"))
        }
        try app.store.undoCopy(batch)
        return app.redirect("/", toast: .copyUndone)
    }

    /// In recovery mode the log screen is mindful logging (docs/rules.md §8), and every numeric flow (a
    /// food, a recipe, a meal in words) leads to it with the name filled in; numeric saves that
    /// still arrive (kept offline before it was turned on) are saved and answered without numbers.
    func logScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        if context.settings.recoveryMode { return app.mindfulLogPage(FormState(), context: context) }
        let day = ShownDay(request, today: app.today)
        return try app.logPage(query: request.uri.queryParameters.get("q") ?? "", day: day, context: context)
    }

    func search(_ request: Request, context: OnboardedContext) async throws -> Response {
        let query = request.uri.queryParameters.get("q") ?? ""
        var values = try app.searchValues(query, amounts: !context.settings.recoveryMode, context: context)
        values["dateQuery"] = ShownDay(request, today: app.today).query
        return app.renderer.fragment("search-results", values, context: context)
    }

    func portionScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        let food = try food(context)
        if context.settings.recoveryMode { return app.mindfulLogPage(FormState(values: ["name": food.name]), note: true, context: context) }
        let day = ShownDay(request, today: app.today)
        return app.portionPage(food, form: FormState(values: day.isToday ? [:] : ["date": day.date.iso]), context: context)
    }

    func logPortion(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = app.localizer(context)
        let offline = try app.offlineWrite(context)
        if let replayed = try app.replayed(offline) { return replayed }
        let food = try food(context)
        let form = try context.decode(PortionForm.self)
        var state = FormState(values: context.form.typed)
        do {
            let grams = try app.portionGrams(form, food: food, l)
            let instant = try app.mealInstant(
                form.when,
                l,
                loggedAt: offline.loggedAt,
                moment: form.moment.flatMap { Int($0) },
                window: context.profile.eatingWindow
            )
            let moment = try momentOrField(form.moment, context)
            let wasLit = try app.streakLit()
            try app.store.logFood(
                food.id,
                grams: grams,
                at: instant,
                moment: moment,
                timeZone: app.timeZone,
                language: context.language,
                source: .search,
                id: offline.id
            )
            return try app.mealsSaved(count: 1, streakWasLit: wasLit, at: instant)
        } catch let error as FieldError {
            state.errors[error.field] = error.message
        } catch {
            state.errors["amount"] = app.message(for: error, l)
        }
        if context.settings.recoveryMode {
            return app.mindfulLogPage(FormState(values: ["name": food.name]), note: true, context: context, status: .unprocessableContent)
        }
        return app.portionPage(food, form: state, context: context, status: .unprocessableContent)
    }

    func logManual(_ request: Request, context: OnboardedContext) async throws -> Response {
        let offline = try app.offlineWrite(context)
        if let replayed = try app.replayed(offline) { return replayed }
        var state = FormState(values: context.form.typed)
        do {
            let entry = try app.quickAdd(from: try context.decode(MealForm.self), context: context, loggedAt: offline.loggedAt)
            let wasLit = try app.streakLit()
            try app.store.logMeal(entry, source: .manual, id: offline.id ?? UUID())
            return try app.mealsSaved(count: 1, streakWasLit: wasLit, at: entry.instant)
        } catch let error as FieldError {
            state.errors[error.field] = error.message
            if context.settings.recoveryMode { return app.mindfulLogPage(FormState(), note: true, context: context, status: .unprocessableContent) }
            return try app.logPage(query: "", manual: state, day: formDay(context), context: context, status: .unprocessableContent)
        }
    }

    func logRecipe(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = app.localizer(context)
        let id = context.parameters.get("id") ?? ""
        let offline = try app.offlineWrite(context)
        if let replayed = try app.replayed(offline) { return replayed }
        guard let recipe = try app.store.recipe(id) else {
            throw HTTPError(.notFound, message: l.text("web.error.recipeNotFound"))
        }
        let form = try context.decode(ServingsForm.self)
        var state = FormState(values: ["recipe": recipe.id, "servings": form.servings ?? "", "moment": form.moment ?? ""])
        do {
            let servings = try NumberInput.value(form.servings.given ?? "1", field: .servings, range: Recipe.servingsPerMeal, digits: 1, unit: nil)
            var entry = try app.store.mealEntry(
                servings: servings,
                of: recipe,
                at: try app.mealInstant(
                    form.when,
                    l,
                    loggedAt: offline.loggedAt,
                    moment: form.moment.flatMap { Int($0) },
                    window: context.profile.eatingWindow
                ),
                in: app.timeZone,
                language: context.language
            )
            entry.moment = try momentOrField(form.moment, context)
            let wasLit = try app.streakLit()
            try app.store.logMeal(entry, source: .recipe, recipe: RecipeServings(recipeID: recipe.id, servings: servings), id: offline.id ?? UUID())
            return try app.mealsSaved(count: 1, streakWasLit: wasLit, at: entry.instant)
        } catch let error as FieldError {
            state.errors[error.field] = error.message
        } catch let error as DietCore.ValidationError {
            state.errors["servings"] = l.render(error.message)
        }
        if context.settings.recoveryMode {
            return app.mindfulLogPage(FormState(values: ["name": recipe.name]), note: true, context: context, status: .unprocessableContent)
        }
        return try app.logPage(query: "", recipe: state, day: formDay(context), context: context, status: .unprocessableContent)
    }

    /// A meal in words: checked against its limits before any lookup, shown for confirmation
    /// with each item's food, amount and unit changeable (or the item removed), then the
    /// confirmed items logged together; any refusal re-shows the form with the reason.
    func logText(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = app.localizer(context)
        let offline = try app.offlineWrite(context)
        if context.form["mindful"] == "yes" { return try app.logMindful(offline, context: context) }
        let form = try context.decode(TextItemsForm.self)
        if form.confirm == "yes", let replayed = try app.replayed(offline) { return replayed }
        let text = form.text.given ?? ""
        let recovery = context.settings.recoveryMode
        func refuse(_ message: String) throws -> Response {
            if recovery {
                // the first step of a meal in words is not an error: its words, noted mindfully
                return app.mindfulLogPage(
                    FormState(values: ["name": String(text.prefix(80))]),
                    note: true,
                    context: context,
                    status: message.isEmpty ? .ok : .unprocessableContent
                )
            }
            return try app.logPage(
                query: "",
                text: FormState(values: ["text": text], errors: ["text": message]),
                day: formDay(context),
                context: context,
                status: .unprocessableContent
            )
        }
        guard !text.isEmpty else { return try refuse(l.text("web.error.textEmpty")) }
        do throws(DietCore.ValidationError) {
            _ = try MealTextParser.checkedParse(text)
        } catch {
            return try refuse(l.render(error.message))
        }
        var unmatched: [String] = []
        let items: [TextItem]
        if form.items != nil {
            items = try app.textItems(form, context: context)
        } else {
            let meal = try app.store.resolveMealText(text, language: context.language, timeZone: app.timeZone)
            guard !meal.items.isEmpty else { return try refuse(l.text("web.error.textNothing")) }
            items = try app.textItems(meal, context: context)
            unmatched =
                meal.unmatched.map { l.text("web.text.unmatched", ["food": .text($0.food)]) }
                + meal.unparsed.map { l.text("cli.text.unparsed", ["text": .text($0)]) }
        }
        let invalid = items.contains { $0.grams == nil }
        guard form.confirm == "yes", !items.isEmpty, !invalid else {
            if recovery { return try refuse("") }
            return app.textConfirmPage(
                items,
                text: text,
                unmatched: unmatched,
                context: context,
                status: invalid || (form.confirm == "yes" && items.isEmpty) ? .unprocessableContent : .ok
            )
        }
        do {
            return try logTextItems(items, form: form, offline: offline, context: context)
        } catch let error as FieldError {
            return try refuse(error.message)
        }
    }

    /// The confirmed items of a meal in words, saved together in one transaction.
    private func logTextItems(_ items: [TextItem], form: TextItemsForm, offline: OfflineWrite, context: OnboardedContext) throws -> Response {
        let l = app.localizer(context)
        let instant = try app.mealInstant(
            WhenForm(date: form.date, time: form.time),
            l,
            loggedAt: offline.loggedAt,
            moment: form.moment.flatMap { Int($0) },
            window: context.profile.eatingWindow
        )
        let moment = try momentOrField(form.moment, context)
        let wasLit = try app.streakLit()
        do {
            let meals = try app.store.logFoods(
                items.map { FoodAmount(foodID: $0.food.id, grams: $0.grams ?? 0) },
                at: instant,
                moment: moment,
                timeZone: app.timeZone,
                language: context.language,
                source: .text,
                ids: offline.id.map { AppDatabase.mealIDs(for: $0, count: items.count) }
            )
            return try app.mealsSaved(count: meals.count, streakWasLit: wasLit, at: instant)
        } catch {
            throw FieldError(field: "text", message: app.message(for: error, l))
        }
    }

    /// The day a log form was sent for (its hidden `date`), today when none.
    private func formDay(_ context: OnboardedContext) -> ShownDay {
        ShownDay(text: context.form["date"], today: app.today)
    }

    /// The chosen eating moment, or the field's message.
    private func momentOrField(_ text: String?, _ context: OnboardedContext) throws -> Int? {
        do throws(DietCore.ValidationError) {
            return try app.moment(text, context)
        } catch {
            throw FieldError(field: "moment", message: app.localizer(context).render(error.message))
        }
    }

    private func food(_ context: OnboardedContext) throws -> Food {
        guard let food = try app.store.food(id: context.parameters.get("id") ?? "", language: context.language) else {
            throw HTTPError(.notFound, message: app.localizer(context).text("web.error.foodNotFound"))
        }
        return food
    }
}
