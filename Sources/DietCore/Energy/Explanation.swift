import Foundation

/// "How is this calculated?": the steps that lead to a number, as localizable messages.
public struct Explanation: Hashable, Sendable {
    public let title: Message
    public let steps: [Message]

    public init(title: Message, steps: [Message]) {
        self.title = title
        self.steps = steps
    }
}

extension EnergyPlan {
    public func explainBMR() -> Explanation {
        Explanation(
            title: Message("explain.bmr.title"),
            steps: [
                Message("explain.bmr.formula"),
                Message(
                    "explain.bmr.values",
                    [
                        "kg": .decimal(weightKg, digits: 1), "cm": .decimal(profile.heightCm, digits: 0),
                        "age": .integer(age), "s": .decimal(Energy.sexConstant(profile.sex), digits: 0),
                        "sex": .message(Message("sex.\(profile.sex.rawValue)")),
                        "bmr": .decimal(bmr, digits: 0),
                    ]
                ),
            ]
        )
    }

    public func explainTDEE() -> Explanation {
        var steps = [
            Message(
                "explain.tdee.values",
                [
                    "bmr": .decimal(bmr, digits: 0), "factor": .decimal(profile.activityLevel.factor, digits: 3),
                    "activity": .message(Message("activity.\(profile.activityLevel.rawValue)")),
                    "tdee": .decimal(tdee, digits: 0),
                ]
            )
        ]
        if let accepted = acceptedMaintenanceKcal {
            steps.append(Message("explain.tdee.adaptive", ["kcal": .integer(accepted)]))
        }
        return Explanation(title: Message("explain.tdee.title"), steps: steps)
    }

    public func explainTarget(_ kind: TargetKind) -> Explanation {
        let target = targets(kind)
        if target.locked {
            return Explanation(title: Message("explain.target.title"), steps: [Message("explain.target.locked", ["kcal": .integer(target.kcal)])])
        }
        var steps: [Message]
        switch kind {
        case .maintenance:
            steps = [Message("explain.target.maintenance", ["kcal": .integer(maintenanceKcal)])]
        case .deficit:
            steps = [
                Message(
                    "explain.target.deficit",
                    [
                        "maintenance": .integer(maintenanceKcal), "percent": .integer(Int((profile.deficit * 100).rounded())),
                        "kcal": .integer(rawKcal(.deficit)),
                    ]
                )
            ]
        case .surplus:
            steps = [Message("explain.target.surplus", ["maintenance": .integer(maintenanceKcal), "kcal": .integer(rawKcal(.surplus))])]
        }
        if target.floorApplied {
            steps.append(Message("explain.target.floor", ["floor": .integer(floorKcal), "sex": .message(Message("sex.\(profile.sex.rawValue)"))]))
        }
        return Explanation(title: Message("explain.target.title"), steps: steps)
    }

    public func explainMacros(_ kind: TargetKind) -> Explanation {
        let target = targets(kind)
        if target.locked {
            return Explanation(title: Message("explain.macros.title"), steps: [Message("explain.macros.locked")])
        }
        let goals = MacroGoals(kcal: target.kcal, weightKg: weightKg, heightCm: profile.heightCm)
        var steps: [Message] = []
        if goals.referenceKg < weightKg {
            steps.append(
                Message(
                    "explain.macros.reference",
                    [
                        "kg": .decimal(weightKg, digits: 1),
                        "reference": .decimal(goals.referenceKg, digits: 1),
                    ]
                )
            )
        }
        steps.append(
            Message(
                "explain.macros.protein",
                [
                    "kg": .decimal(goals.referenceKg, digits: 1),
                    "grams": .decimal(target.proteinG, digits: 0),
                ]
            )
        )
        steps.append(
            goals.fatFromEnergy(kcal: target.kcal)
                ? Message("explain.macros.fat.energy", ["kcal": .integer(target.kcal), "grams": .decimal(target.fatG, digits: 0)])
                : Message("explain.macros.fat", ["kg": .decimal(goals.referenceKg, digits: 1), "grams": .decimal(target.fatG, digits: 0)])
        )
        steps.append(
            Message(
                "explain.macros.carbs",
                [
                    "kcal": .integer(target.kcal), "protein": .decimal(target.proteinG, digits: 0),
                    "fat": .decimal(target.fatG, digits: 0), "grams": .decimal(target.carbsG, digits: 0),
                ]
            )
        )
        return Explanation(title: Message("explain.macros.title"), steps: steps)
    }
}
