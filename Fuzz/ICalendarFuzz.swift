import Foundation

// libFuzzer entry for the iCalendar parser and recurrence expansion, compiled together with
// Sources/ICalendar by scripts/fuzz (swiftc -sanitize=fuzzer,address). Any input must end in a
// document or an ICalendarError, never a crash, a sanitizer report or a hang (libFuzzer's
// -timeout catches those).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    guard let document = try? ICalendarDocument(parsing: text) else { return 0 }
    let window = DateInterval(start: Date(timeIntervalSince1970: 1_790_000_000), duration: 40 * 86400)
    _ = document.expansion(in: window, floatingZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt)
    return 0
}
