import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

@Suite("The client's address behind trusted proxies")
struct ClientAddressTests {
    private func policy(_ ranges: String, header: ClientAddressPolicy.Header = .xForwardedFor) throws -> ClientAddressPolicy {
        var policy = ClientAddressPolicy()
        policy.trustedProxies = try IPRange.list(ranges, variable: "WDIET_TRUSTED_PROXIES")
        policy.header = header
        return policy
    }

    @Test("without trusted proxies the header is ignored: the peer is the client")
    func headerIgnoredByDefault() {
        let headers: HTTPFields = [.xForwardedFor: "203.0.113.9"]
        #expect(ClientAddressPolicy().clientAddress(peer: "127.0.0.1", headers: headers) == "127.0.0.1")
    }

    @Test("from a trusted proxy, the right-most address that is not a trusted proxy is the client; what the client wrote to the left is not believed")
    func rightMostUntrusted() throws {
        let policy = try policy("10.0.0.0/8, 192.168.1.7")
        let spoofed: HTTPFields = [.xForwardedFor: "6.6.6.6, 203.0.113.9, 10.1.2.3"]
        #expect(policy.clientAddress(peer: "192.168.1.7", headers: spoofed) == "203.0.113.9")
        // An untrusted peer's header is ignored, whatever it says.
        #expect(policy.clientAddress(peer: "198.51.100.1", headers: spoofed) == "198.51.100.1")
        // Several header lines read as one list; no header leaves the proxy's own address.
        var lines = HTTPFields()
        lines.append(HTTPField(name: .xForwardedFor, value: "6.6.6.6"))
        lines.append(HTTPField(name: .xForwardedFor, value: "203.0.113.10"))
        #expect(policy.clientAddress(peer: "10.0.0.1", headers: lines) == "203.0.113.10")
        #expect(policy.clientAddress(peer: "10.0.0.1", headers: [:]) == "10.0.0.1")
    }

    @Test("RFC 7239 Forwarded: quoted IPv6 with a port and IPv4 with a port name the client")
    func forwardedHeader() throws {
        let policy = try policy("::1, 127.0.0.0/8", header: .forwarded)
        let forwarded = HTTPField.Name("Forwarded")!
        let headers: HTTPFields = [forwarded: #"for=6.6.6.6, for="[2001:DB8::17]:4711";proto=https, for="127.0.0.5:80""#]
        #expect(policy.clientAddress(peer: "::1", headers: headers) == "2001:db8:0:0:0:0:0:17")
        let v4: HTTPFields = [forwarded: #"for="198.51.100.4:5000";proto=http"#]
        #expect(policy.clientAddress(peer: "127.0.0.1", headers: v4) == "198.51.100.4")
    }

    @Test("address ranges: CIDR prefixes of IPv4 and IPv6, IPv4-mapped IPv6 as IPv4, and refusals")
    func ranges() throws {
        let range = try #require(IPRange("10.1.0.0/16"))
        #expect(range.contains(try #require(IPRange.bytes("10.1.255.3"))))
        #expect(!range.contains(try #require(IPRange.bytes("10.2.0.1"))))
        #expect(try #require(IPRange("fd00::/8")).contains(try #require(IPRange.bytes("fd12::1"))))
        #expect(try #require(IPRange("127.0.0.1")).contains(try #require(IPRange.bytes("::ffff:127.0.0.1"))))
        #expect(IPRange("10.0.0.0/33") == nil && IPRange("proxy.local") == nil && IPRange("") == nil)
    }
}

@Suite("Sign-in limits per account and address")
struct SignInAddressTests {
    /// A live server that believes X-Forwarded-For from loopback, as behind a local proxy.
    private func behindProxy(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await ServerHarness.withServer(
            .live,
            configure: { $0.clientAddress.trustedProxies = [IPRange("127.0.0.0/8"), IPRange("::1")].compactMap { $0 } }
        ) { _, client in
            try await body(client)
        }
    }

    private func login(_ client: any TestClientProtocol, _ email: String, password: String, from address: String) async throws -> HTTPResponse.Status
    {
        let body = try JSONEncoder.api.encode(PasswordCredentials(email: email, password: password, deviceName: "phone"))
        return try await client.execute(
            uri: AccountPaths.login,
            method: .post,
            headers: [.contentType: "application/json", .xForwardedFor: address],
            body: ByteBuffer(bytes: body)
        ).status
    }

    @Test("five wrong passwords from one address do not lock the owner out from another address")
    func strangerCannotLockOwner() async throws {
        try await behindProxy { client in
            // Given
            _ = try await client.signup("anna@example.org")
            for _ in 0..<5 {
                #expect(try await login(client, "anna@example.org", password: "guess guess guess", from: "203.0.113.66") == .unauthorized)
            }
            // When
            let stranger = try await login(client, "anna@example.org", password: "correct horse battery", from: "203.0.113.66")
            let owner = try await login(client, "anna@example.org", password: "correct horse battery", from: "198.51.100.7")
            // Then
            #expect(stranger == .tooManyRequests)
            #expect(owner == .ok)
        }
    }

    @Test("behind a trusted proxy, twenty failures from one client lock that client only")
    func proxiedClientsAreCountedApart() async throws {
        try await behindProxy { client in
            // Given
            _ = try await client.signup("anna@example.org")
            for index in 0..<20 {
                #expect(try await login(client, "user\(index)@example.org", password: "guess guess guess", from: "203.0.113.66") == .unauthorized)
            }
            // When
            let attacker = try await login(client, "someone@example.org", password: "guess guess guess", from: "203.0.113.66")
            let owner = try await login(client, "anna@example.org", password: "correct horse battery", from: "198.51.100.7")
            // Then
            #expect(attacker == .tooManyRequests)
            #expect(owner == .ok)
        }
    }

    @Test("a forged X-Forwarded-For from an untrusted peer does not escape the address limit")
    func forgedHeaderIsIgnored() async throws {
        try await ServerHarness.withServer(.live, configure: { $0.rateLimit.failuresPerAddress = 6 }) { _, client in
            // Given: six failures, each claiming another address
            for index in 0..<6 {
                #expect(
                    try await login(client, "user\(index)@example.org", password: "guess guess guess", from: "203.0.113.\(index)") == .unauthorized
                )
            }
            // When
            let next = try await login(client, "fresh@example.org", password: "guess guess guess", from: "198.51.100.99")
            // Then
            #expect(next == .tooManyRequests)
        }
    }

    @Test("a generous limit per account holds across all addresses")
    func accountLimitAcrossAddresses() async throws {
        try await ServerHarness.withServer(
            .live,
            configure: {
                $0.clientAddress.trustedProxies = [IPRange("127.0.0.0/8"), IPRange("::1")].compactMap { $0 }
                $0.rateLimit.failuresPerAccount = 8
            }
        ) { _, client in
            // Given: eight failures from eight addresses
            _ = try await client.signup("anna@example.org")
            for index in 0..<8 {
                #expect(try await login(client, "anna@example.org", password: "guess guess guess", from: "203.0.113.\(index)") == .unauthorized)
            }
            // When
            let ninth = try await login(client, "anna@example.org", password: "correct horse battery", from: "198.51.100.7")
            // Then
            #expect(ninth == .tooManyRequests)
        }
    }
}
