import DietCore
import DietStore
import Foundation

/// `wdiet set recovery-mode on|off` (docs/rules.md §8): turning it on is one step; turning it off asks
/// once, because the numbers come back, and says that nothing of the paused time is judged.
enum RecoverySwitch {
    static func set(_ words: [String], confirmed: Bool, _ session: Session, _ context: CLIContext) throws -> String {
        let l = session.localizer
        guard words.count == 2, words[0].lowercased() == "recovery-mode", let on = switchValue(words[1]) else {
            throw CLIError(l.text("cli.recovery.usage"))
        }
        let current = session.recoveryMode
        guard current != on else { return l.text(on ? "cli.recovery.alreadyOn" : "cli.recovery.alreadyOff") }
        if !on && !confirmed {
            if context.isTerminal { Terminal.print(l.text("cli.recovery.confirmOff"), terminator: " ") }
            guard let reply = context.readLine() else {
                return l.text("cli.recovery.keptOn") + "\n" + l.text("cli.recovery.confirmNeeded")
            }
            guard isYes(reply) else { return l.text("cli.recovery.keptOn") }
        }
        try session.run { try session.store.setRecoveryMode(on, timeZone: session.timeZone) }
        return l.text(on ? "cli.recovery.turnedOn" : "cli.recovery.turnedOff")
    }

    /// on/off, also true/false, yes/no, 1/0, an/aus, sí/no.
    static func switchValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "yes", "1", "an", "ein", "sí", "si": true
        case "off", "false", "no", "0", "aus": false
        default: nil
        }
    }

    /// y/yes and the German and Spanish yes.
    static func isYes(_ reply: String) -> Bool {
        ["y", "yes", "j", "ja", "s", "si", "sí"].contains(reply.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// `wdiet profile` in recovery mode: the settings without the weight, the deficit, locked
/// goals or the energy explanations; `--json` (with the eating moments of `ProfileOutput`)
/// omits `weight_kg`, `deficit` and `locked_goals` and adds `recovery_mode` and `recovery_since`.
enum RecoveryProfile {
    static let hiddenKeys = ["weight_kg", "deficit", "locked_goals"]

    static func json(_ output: ProfileOutput, _ settings: UserSettings) throws -> String {
        let data = try JSONEncoder().encode(output)
        var fields = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        for key in hiddenKeys { fields[key] = nil }
        fields["recovery_mode"] = true
        fields["recovery_since"] = settings.recoverySince?.iso
        let output = try JSONSerialization.data(withJSONObject: fields, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: output, as: UTF8.self)
    }

    static func text(_ settings: UserSettings, _ session: Session) -> String {
        let l = session.localizer
        let profile = settings.profile
        var table = TextTable([.left, .left])
        table.append([l.text("field.sex"), l.text("sex.\(profile.sex.rawValue)")])
        table.append([l.text("field.age"), "\(profile.age(on: session.today))"])
        table.append([l.text("field.height"), l.number(profile.heightCm, digits: 0) + " cm"])
        table.append([l.text("field.activityLevel"), l.text("activity.\(profile.activityLevel.rawValue)")])
        table.append([l.text("field.goal"), l.text("goal.\(profile.goal.rawValue)")])
        ProfileOutput.appendWindow(profile.eatingWindow, to: &table, l)
        table.append([l.text("field.language"), profile.language.rawValue])
        table.append([l.text("cli.profile.start"), l.date(settings.startDate) + " (\(settings.timeZoneIdentifier))"])
        table.append([l.text("cli.recovery.mode"), l.text("cli.recovery.banner", ["date": .date(settings.recoverySince ?? session.today)])])
        return [table.render(), "", l.text("cli.recovery.numbersHidden")].joined(separator: "\n")
    }
}
