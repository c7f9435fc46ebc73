import DietSync
import Foundation
import SyncProtocol
import Testing

/// A refused connection is an answer. Timed, so the suite runs alone (`scripts/test`): in the
/// parallel run a test task can wait tens of seconds for a thread.
@Suite("Refused connections to the sync server")
struct RefusedConnectionTests {
    /// With AsyncHTTPClient's shared client a closed port was tried again and again until the
    /// call's 30 s deadline: `wdiet account login` to a mistyped port waited 30 s to say so.
    @Test("a server address nobody listens on is offline at once, not after the call's deadline")
    func closedPortAtOnce() async throws {
        // port 9 (discard): privileged, so no test's server takes it between lookup and call
        let api = ServerAPI(baseURL: try #require(URL(string: "http://127.0.0.1:9")), timeout: 10)
        let started = ContinuousClock.now
        await #expect(throws: SyncError.offline) {
            try await api.login(PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: "laptop"))
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
