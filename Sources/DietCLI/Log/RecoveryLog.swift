import ArgumentParser
import DietCore
import DietStore
import Foundation

/// How a mindful meal is told (`wdiet log "Pasta with friends" --hunger 4 --fullness satisfied`).
struct MindfulOptions: ParsableArguments {
    @Option(help: "Recovery mode: how hungry you were before, 1–5 or in words (very hungry, hungry, neutral, satisfied, very full).")
    var hunger: String?
    @Option(help: "Recovery mode: how full you felt after, 1–5 or in words.") var fullness: String?
    @Option(help: "Recovery mode, optional: calm, happy, social, grateful, tired, stressed, anxious, sad or bored.")
    var feeling: String?
}

/// Logging in recovery mode (docs/rules.md §8): mindful and non-numeric.
enum RecoveryLog {
    /// `wdiet log meal` in recovery mode saves a mindful meal: the name, hunger and fullness
    /// (both required: noticing them is the point), an optional feeling. Amounts given anyway
    /// (calories, macros, a food's grams, a recipe's servings) are not saved, and the reply
    /// says so gently instead of refusing the meal. No badge is announced here: rewards rest
    /// in recovery mode.
    static func logMindful(
        name: [String],
        mindful: MindfulOptions,
        amountGiven: Bool,
        instant: Date,
        moment: Int?,
        _ session: Session
    ) throws -> String {
        let l = session.localizer
        let text = name.joined(separator: " ")
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw CLIError(l.text("cli.recovery.nameNeeded")) }
        let entry = try session.run {
            try MindfulMealEntry(
                name: text,
                hunger: mindful.hunger,
                fullness: mindful.fullness,
                feeling: mindful.feeling,
                at: instant,
                in: session.timeZone,
                moment: moment,
                language: session.language
            )
        }
        let saved = try session.run { try session.store.logMindfulMeal(entry) }
        var lines = [
            l.text(
                "cli.recovery.saved",
                [
                    "name": .text(entry.name), "time": .time(entry.localTime),
                    "id": .text(ShortID.make(saved.id)),
                ]
            )
        ]
        if amountGiven { lines.append(l.text("cli.recovery.amountLeftOut")) }
        if let snapshot = try session.store.today(timeZone: session.timeZone), entry.localDate == snapshot.report.date {
            lines.append(snapshot.report.coach.variation.emoji + "  " + l.render(snapshot.report.coach.message))
        }
        return lines.joined(separator: "\n")
    }

    /// A weight in recovery mode is kept, and nothing of it is shown: it is the person's own
    /// data (a weigh-in a clinician asked for, say), and refusing it would only push the
    /// number somewhere else. The reply neither echoes it nor shows an average or a trend.
    static func logWeight(_ entry: WeightEntry, _ session: Session) throws -> String {
        try session.run { try session.store.logWeight(entry, timeZone: session.timeZone) }
        return session.localizer.text("cli.recovery.weightSaved")
    }

    /// Commands that log amounts (`log text`, `log again`, `log copy-day`) point to the
    /// mindful log in recovery mode instead of saving numbers.
    static func refuseAmounts(_ session: Session) throws {
        guard session.recoveryMode else { return }
        throw CLIError(session.localizer.text("cli.recovery.mindfulOnly"))
    }
}
