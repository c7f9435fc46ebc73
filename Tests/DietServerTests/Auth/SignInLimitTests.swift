import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

@Suite("Sign-in and sign-up limits under concurrency")
struct SignInLimitTests {
    @Test("40 parallel wrong sign-ins for one account: only the limit's worth are checked, the rest answer 429")
    func parallelWrongLogins() async throws {
        try await ServerHarness.withServer { _, client in
            // Given
            _ = try await client.signup("anna@example.org")
            // When
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<40 {
                    group.addTask { try await client.login("anna@example.org", password: "guess guess guess").status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            // Then
            #expect(statuses.filter { $0 == .unauthorized }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 35)
        }
    }

    @Test("sign-ups from one address are limited; the next answers 429 with Retry-After")
    func signupsPerAddress() async throws {
        try await ServerHarness.withServer { _, client in
            // Given: the default allowance of one address used up
            for index in 0..<10 {
                _ = try await client.signup("user\(index)@example.org")
            }
            // When
            let refused = try await client.send(
                .post,
                AccountPaths.signup,
                json: PasswordCredentials(email: "one.more@example.org", password: "correct horse battery", deviceName: "x")
            )
            // Then
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter].flatMap(Int.init).map { $0 > 0 } == true)
            #expect(refused.errorBody?.error.code == "rate_limited")
        }
    }

    @Test("parallel sign-ups past the bcrypt bound answer 503 with Retry-After; a valid sign-in still completes")
    func bcryptWorkIsBounded() async throws {
        try await ServerHarness.withServer(configure: { configuration in
            configuration.bcryptCost = 10
            configuration.rateLimit.signupsPerAddress = 1000
            configuration.bcrypt = BcryptPolicy(concurrency: 1, maxQueued: 2, maxWait: 30)
        }) { _, client in
            // Given
            _ = try await client.signup("anna@example.org")
            // When: 60 sign-ups and Anna's sign-in at once
            let (signups, login) = try await withThrowingTaskGroup(of: (Bool, TestResponse).self) { group in
                for index in 0..<60 {
                    group.addTask {
                        (
                            true,
                            try await client.send(
                                .post,
                                AccountPaths.signup,
                                json: PasswordCredentials(
                                    email: "flood\(index)@example.org",
                                    password: "correct horse battery",
                                    deviceName: "x"
                                )
                            )
                        )
                    }
                }
                group.addTask { (false, try await client.login("anna@example.org")) }
                var signups: [TestResponse] = []
                var login: TestResponse?
                for try await (isSignup, response) in group {
                    if isSignup { signups.append(response) } else { login = response }
                }
                return (signups, login)
            }
            // Then
            #expect(login?.status == .ok)
            let busy = signups.filter { $0.status == .serviceUnavailable }
            #expect(!busy.isEmpty)
            #expect(busy.allSatisfy { $0.headers[.retryAfter] != nil && $0.errorBody?.error.code == "server_busy" })
            #expect(signups.allSatisfy { $0.status == .created || $0.status == .serviceUnavailable })
        }
    }
}
