import Foundation
import Testing

/// The test process's resident memory, from /proc (Linux). The peak is reset before the
/// measured work so that it covers that work only.
enum ResidentMemory {
    /// Resets the peak resident size (VmHWM) to the current one; false where the kernel does not allow it.
    static func resetPeak() -> Bool {
        (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }

    /// The peak resident size since the last reset, in bytes.
    static func peak() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1024
    }

    /// The current resident size, in bytes.
    static func current() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// How much the resident memory grew at most while `work` ran (the peak where it can be
    /// reset, else the growth from before to after).
    static func growth<T>(during work: () async throws -> T) async throws -> (T, Int) {
        let before = try #require(current())
        let peakIsReset = resetPeak()
        let result = try await work()
        let after = try #require(peakIsReset ? peak() : current())
        return (result, max(0, after - before))
    }
}
