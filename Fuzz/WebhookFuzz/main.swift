import Foundation
import TestSupport
import WhoopAPI

// A seeded mutation fuzzer for the WHOOP webhook verifier (run by scripts/fuzz): signed
// webhooks are mutated byte by byte, in their headers and in length, and every outcome is
// checked. libFuzzer would have to instrument swift-crypto's BoringSSL as well; this keeps
// the run to seconds and reproducible by seed.
let arguments = CommandLine.arguments
let runs = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 20_261_123 : 20_261_123
var random = SeededGenerator(seed: seed)
let secret = "whoop-client-secret"
let verifier = WhoopWebhookVerifier(clientSecret: secret)
let now = Date(timeIntervalSince1970: 1_795_000_000)
let types = ["recovery.updated", "sleep.updated", "workout.updated", "recovery.deleted", "sleep.deleted", "workout.deleted"]
var outcomes: [String: Int] = [:]
var violations: [String] = []
let started = Date()

func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
    var result = bytes
    switch Int.random(in: 0..<6, using: &random) {
    case 0 where !result.isEmpty:
        result[Int.random(in: 0..<result.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
    case 1:
        result.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...result.count, using: &random))
    case 2 where !result.isEmpty:
        result.remove(at: Int.random(in: 0..<result.count, using: &random))
    case 3:
        result = Array(result.prefix(Int.random(in: 0...result.count, using: &random)))
    case 4:
        result = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    default:
        result += Array(result.prefix(Int.random(in: 0...20, using: &random)))
    }
    return result
}

for run in 0..<runs {
    // 128 seeded random bits: a mutated, re-signed webhook cannot take a later one's trace.
    let trace = "trace-\(random.next())-\(random.next())"
    let json =
        #"{"user_id":\#(Int.random(in: 1...999_999, using: &random)),"id":"\#(random.next())","type":"\#(types[run % types.count])","trace_id":"\#(trace)"}"#
    let body = Array(json.utf8)
    let timestamp = String(Int64(now.timeIntervalSince1970 * 1000) + Int64.random(in: -200_000...200_000, using: &random))
    let signature = WhoopWebhookVerifier.signature(timestamp: timestamp, body: body, clientSecret: secret)
    var sentBody = body
    var sentSignature: String? = signature
    var sentTimestamp: String? = timestamp
    let target = Int.random(in: 0..<8, using: &random)
    switch target {
    case 0: break  // untouched: must be accepted
    case 1, 2, 3: sentBody = mutate(body, using: &random)
    case 4: sentSignature = String(decoding: mutate(Array(signature.utf8), using: &random), as: UTF8.self)
    case 5: sentTimestamp = String(decoding: mutate(Array(timestamp.utf8), using: &random), as: UTF8.self)
    case 6: if Bool.random(using: &random) { sentSignature = nil } else { sentTimestamp = nil }
    default:
        sentBody = mutate(body, using: &random)
        sentSignature = WhoopWebhookVerifier.signature(timestamp: timestamp, body: sentBody, clientSecret: secret)
    }
    let outcome: String
    do {
        let event = try verifier.verify(signature: sentSignature, timestamp: sentTimestamp, body: sentBody, now: now)
        outcome = "accepted"
        if sentBody != body && target != 7 { violations.append("run \(run): a changed body was accepted") }
        if target == 7 && event.traceID != trace && sentBody == body { violations.append("run \(run): wrong event") }
    } catch {
        outcome = "\(error)"
        if target == 0 { violations.append("run \(run): an untouched webhook was refused: \(error)") }
    }
    outcomes[outcome, default: 0] += 1
    // Verifying is free of state: the untouched webhook verifies again to the same event
    // (duplicates are the server's trace log's business, tested against PostgreSQL).
    if target == 0 {
        do {
            let again = try verifier.verify(signature: signature, timestamp: timestamp, body: body, now: now)
            if again.traceID != trace { violations.append("run \(run): a second verification gave another event") }
        } catch {
            violations.append("run \(run): a second verification gave \(error)")
        }
    }
    if violations.count > 20 { break }
}
let seconds = Date().timeIntervalSince(started)
print("webhook verifier: \(runs) mutated inputs (seed \(seed)) in \(String(format: "%.1f", seconds)) s")
for (outcome, count) in outcomes.sorted(by: { $0.key < $1.key }) { print("  \(outcome): \(count)") }
if !violations.isEmpty {
    print(violations.joined(separator: "\n"))
    exit(1)
}
print("no crash, no wrong answer")
