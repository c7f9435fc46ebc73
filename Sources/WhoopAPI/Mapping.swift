import Foundation
import ReadyDay

extension WhoopRecovery {
    /// The ReadyDay recovery: a score only when WHOOP scored it.
    public var domain: Recovery {
        let scored = scoreState == .scored ? score : nil
        return Recovery(
            score: scored.map { Int($0.recoveryScore.rounded()) },
            restingHeartRate: scored?.restingHeartRate,
            hrvMilliseconds: scored?.hrvRmssdMilli,
            recordedAt: createdAt
        )
    }
}

extension WhoopSleep {
    /// The ReadyDay sleep; nil when WHOOP has not scored it (no stages to add up).
    public var domain: Sleep? {
        guard scoreState == .scored, let score else { return nil }
        let stages = score.stageSummary
        let asleep = stages.totalLightSleepTimeMilli + stages.totalSlowWaveSleepTimeMilli + stages.totalRemSleepTimeMilli
        return Sleep(
            asleep: TimeInterval(asleep) / 1000,
            efficiency: score.sleepEfficiencyPercentage.map { $0 / 100 },
            need: TimeInterval(score.sleepNeeded.totalMilli) / 1000,
            endedAt: end
        )
    }
}
