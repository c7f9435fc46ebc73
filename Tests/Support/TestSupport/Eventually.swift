import Foundation

/// Waits until `condition` holds, at most `seconds`; whether it did. For what another
/// connection or process makes true soon (a poller's tick, a stream's event), never to assert
/// how fast: the parallel test run can starve a task for many seconds, so the bound is wide
/// and costs nothing when the condition comes true.
public func eventually(within seconds: Double = 30, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
