/// `WDIET_OFFLINE`: when set (to anything but "" or "0"), nothing is fetched from the network
/// (Open Food Facts, calendar addresses); the stored copies are used.
public enum OfflineSetting {
    public static func isOffline(_ environment: [String: String]) -> Bool {
        environment["WDIET_OFFLINE"].map { !$0.isEmpty && $0 != "0" } ?? false
    }
}
