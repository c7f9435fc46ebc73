import NIOConcurrencyHelpers

/// The open connections of each client address, shared by every connection of one server
/// (on any event loop).
final class ConnectionsPerAddress: Sendable {
    enum Admission: Equatable {
        case admitted
        /// At the limit; `first` when this is the first refusal since the address was below it.
        case refused(first: Bool)
    }

    private struct State {
        var open: [String: Int] = [:]
        var refusing: Set<String> = []
    }

    let limit: Int
    private let state = NIOLockedValueBox(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection from `address`, unless the address already holds `limit`.
    func open(_ address: String) -> Admission {
        state.withLockedValue { state in
            let count = state.open[address, default: 0]
            guard count < limit else { return .refused(first: state.refusing.insert(address).inserted) }
            state.open[address] = count + 1
            return .admitted
        }
    }

    /// A connection `open` admitted has closed.
    func close(_ address: String) {
        state.withLockedValue { state in
            let count = state.open[address, default: 0] - 1
            state.open[address] = count > 0 ? count : nil
            state.refusing.remove(address)
        }
    }

    func count(_ address: String) -> Int {
        state.withLockedValue { $0.open[address, default: 0] }
    }
}
