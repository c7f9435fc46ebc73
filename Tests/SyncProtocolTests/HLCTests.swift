import Foundation
import SyncProtocol
import Testing

@Suite("Hybrid logical clock")
struct HLCTests {
    let t0 = Date(timeIntervalSince1970: 1_763_800_000)

    @Test("stamps of one device strictly increase, even within one millisecond")
    func monotonicSameMillisecond() {
        var clock = HybridLogicalClock(deviceID: "a1")
        let first = clock.tick(now: t0)
        let second = clock.tick(now: t0)
        #expect(first == HLC(wallMs: 1_763_800_000_000, counter: 0, deviceID: "a1"))
        #expect(second == HLC(wallMs: 1_763_800_000_000, counter: 1, deviceID: "a1"))
    }

    @Test("a physical clock set back does not make stamps go back")
    func clockBack() {
        var clock = HybridLogicalClock(deviceID: "a1")
        let before = clock.tick(now: t0)
        let after = clock.tick(now: t0.addingTimeInterval(-3600))
        #expect(after > before)
        #expect(after.wallMs == before.wallMs && after.counter == 1)
    }

    @Test("after receiving a stamp from a device whose clock runs ahead, local stamps sort after it")
    func receiveAhead() {
        var clock = HybridLogicalClock(deviceID: "a1")
        let remote = HLC(wallMs: 1_763_800_060_000, counter: 7, deviceID: "b2")
        clock.receive(remote, now: t0)
        let local = clock.tick(now: t0)
        #expect(local > remote)
        // received: counter 8 at the remote's wall time; the tick after it: counter 9
        #expect(local == HLC(wallMs: 1_763_800_060_000, counter: 9, deviceID: "a1"))
    }

    @Test("a restored clock continues after the persisted stamp")
    func restored() {
        let persisted = HLC(wallMs: 1_763_800_000_500, counter: 3, deviceID: "a1")
        var clock = HybridLogicalClock(deviceID: "a1", last: persisted)
        #expect(clock.tick(now: t0) == HLC(wallMs: 1_763_800_000_500, counter: 4, deviceID: "a1"))
    }

    @Test("a full counter borrows the next millisecond")
    func overflow() {
        var clock = HybridLogicalClock(deviceID: "a1", last: HLC(wallMs: 1000, counter: HLC.maxCounter, deviceID: "a1"))
        #expect(clock.tick(now: Date(timeIntervalSince1970: 0)) == HLC(wallMs: 1001, counter: 0, deviceID: "a1"))
    }

    @Test("the text form is fixed-width, sorts like the value and parses back")
    func textForm() throws {
        let stamps = [
            HLC(wallMs: 5, counter: 0, deviceID: "z"),
            HLC(wallMs: 1_763_800_000_000, counter: 15, deviceID: "a"),
            HLC(wallMs: 1_763_800_000_000, counter: 16, deviceID: "a"),
            HLC(wallMs: 1_763_800_000_000, counter: 16, deviceID: "b"),
        ]
        #expect(stamps[1].description == "0001763800000000-000f-a")
        #expect(stamps.map(\.description) == stamps.map(\.description).sorted())
        #expect(stamps.map(\.description).compactMap(HLC.init) == stamps)
    }

    @Test(
        "malformed stamps are refused",
        arguments: [
            "", "1-2-3", "0001763800000000-000f-", "000176380000000-000f-a", "0001763800000000-00g0-a",
            "0001763800000000-000f-a b", "-001763800000000-000f-a",
        ]
    )
    func malformed(text: String) {
        #expect(HLC(text) == nil)
    }

    @Test("last writer wins by stamp; an equal stamp is a replay")
    func mergeRule() {
        let older = HLC(wallMs: 1, counter: 0, deviceID: "a")
        let newer = HLC(wallMs: 1, counter: 0, deviceID: "b")
        #expect(MergeRule.shouldApply(incoming: newer, stored: older))
        #expect(!MergeRule.shouldApply(incoming: older, stored: newer))
        #expect(!MergeRule.shouldApply(incoming: newer, stored: newer))
        #expect(MergeRule.shouldApply(incoming: older, stored: nil))
    }

    @Test("natural-key ids are deterministic and distinct per table and key")
    func naturalKey() {
        let a = NaturalKey.id(table: .weightEntries, key: "2026-03-01")
        #expect(a == NaturalKey.id(table: .weightEntries, key: "2026-03-01"))
        #expect(a != NaturalKey.id(table: .weightEntries, key: "2026-03-02"))
        #expect(a != NaturalKey.id(table: .profile, key: "2026-03-01"))
        #expect(a.uuidString.dropFirst(14).first == "8")
    }
}
