import Foundation
import Testing

@testable import WhoopAPI

/// Every response WHOOP documents decodes into our DTO for it: payloads built from the OpenAPI
/// document itself, with all properties and with the required ones only.
@Suite("WHOOP payloads as documented")
struct OpenAPIPayloadTests {
    /// Schema name → our DTO. A response schema missing here fails the suite, so none is forgotten.
    static let decoders: [String: @Sendable (Data) throws -> Void] = [
        "Cycle": decoder(WhoopCycle.self),
        "PaginatedCycleResponse": decoder(WhoopPage<WhoopCycle>.self),
        "Sleep": decoder(WhoopSleep.self),
        "PaginatedSleepResponse": decoder(WhoopPage<WhoopSleep>.self),
        "Recovery": decoder(WhoopRecovery.self),
        "RecoveryCollection": decoder(WhoopPage<WhoopRecovery>.self),
        "WorkoutV2": decoder(WhoopWorkout.self),
        "WorkoutCollection": decoder(WhoopPage<WhoopWorkout>.self),
        "UserBasicProfile": decoder(WhoopProfile.self),
        "UserBodyMeasurement": decoder(WhoopBodyMeasurement.self),
        "ActivityIdMappingResponse": decoder(WhoopActivityMapping.self),
        "SleepStreamResponse": decoder(WhoopSleepStream.self),
        "SleepStreamDataPoint": decoder(WhoopSleepStream.Point.self),
        "PartnerTokenResponse": decoder(WhoopPartnerToken.self),
        "ServiceRequest": decoder(WhoopServiceRequest.self),
        "LabRequisition": decoder(WhoopLabRequisition.self),
        "Appointment": decoder(WhoopLabRequisition.Appointment.self),
    ]

    static func decoder<T: Decodable & Sendable>(_ type: T.Type) -> @Sendable (Data) throws -> Void {
        { data in _ = try JSONDecoder.whoop.decode(T.self, from: data) }
    }

    @Test("every 200 response schema of the document, and every collection's item schema, has a DTO in the table")
    func everySchemaHasADTO() throws {
        // Given the schemas WHOOP's document answers with
        let schemas = try OpenAPIPayloads().responseSchemas()

        // Then each has a decoder, and the table names no schema the document lacks
        #expect(schemas.count >= 10, "the document was read: \(schemas.keys.sorted())")
        for (name, operations) in schemas.sorted(by: { $0.key < $1.key }) where Self.decoders[name] == nil {
            Issue.record("no DTO for \(name), the answer of \(operations.joined(separator: ", "))")
        }
        for name in Self.decoders.keys where schemas[name] == nil {
            Issue.record("the table names \(name), which no documented response has")
        }
    }

    @Test("every response schema decodes with all its properties and with its required properties only, every enum value and date form")
    func everySchemaDecodes() throws {
        // Given the document and its response schemas
        let document = try OpenAPIPayloads()
        let names = try document.responseSchemas().keys.sorted()
        let variants = document.variantCount()
        var decoded = 0

        // When each payload is decoded into the schema's DTO
        for name in names {
            guard let decode = Self.decoders[name] else { continue }
            for mode in OpenAPIPayloads.Mode.allCases {
                for variant in 0..<variants {
                    let payload = try document.payload(name, mode: mode, variant: variant)
                    do {
                        try decode(payload)
                        decoded += 1
                    } catch {
                        // Then none fails
                        Issue.record(
                            "\(name) with \(mode.rawValue) (variant \(variant)) does not decode: \(error)\n\(String(decoding: payload, as: UTF8.self))"
                        )
                    }
                }
            }
        }
        #expect(decoded > 0)
    }

    @Test("a recovery, sleep, cycle and workout keep every documented property through their sync row")
    func syncedRecordsKeepEveryProperty() throws {
        // Given each synced kind's payload with all its properties
        let document = try OpenAPIPayloads()
        let kinds: [(String, (Data) throws -> WhoopSyncedRecord)] = [
            ("Recovery", { try WhoopSyncedRecord(JSONDecoder.whoop.decode(WhoopRecovery.self, from: $0)) }),
            ("Sleep", { try WhoopSyncedRecord(JSONDecoder.whoop.decode(WhoopSleep.self, from: $0)) }),
            ("Cycle", { try WhoopSyncedRecord(JSONDecoder.whoop.decode(WhoopCycle.self, from: $0)) }),
            ("WorkoutV2", { try WhoopSyncedRecord(JSONDecoder.whoop.decode(WhoopWorkout.self, from: $0)) }),
        ]
        for (name, row) in kinds {
            let payload = try document.payload(name, mode: .allProperties, variant: 0)

            // When it becomes a sync row
            let json = try row(payload).json

            // Then the row's JSON is the record WHOOP sent, property for property
            let sent = try JSONSerialization.jsonObject(with: payload) as? NSDictionary
            let kept = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
            #expect(kept == sent, "\(name) sent \(String(decoding: payload, as: UTF8.self))\nkept \(json)")
        }
    }

    @Test("a required-only payload leaves out what the document makes optional; the full one has it")
    func payloadModes() throws {
        let document = try OpenAPIPayloads()

        let full = try JSONSerialization.jsonObject(with: document.payload("Cycle", mode: .allProperties, variant: 1)) as? [String: Any]
        let required = try JSONSerialization.jsonObject(with: document.payload("Cycle", mode: .requiredOnly, variant: 1)) as? [String: Any]
        let page = try JSONSerialization.jsonObject(with: document.payload("RecoveryCollection", mode: .requiredOnly, variant: 0)) as? [String: Any]

        #expect(full?["score"] != nil && full?["end"] != nil)
        #expect(required?["score"] == nil && required?["end"] == nil && required?["start"] as? String == OpenAPIPayloads.dates[1])
        #expect(required?["score_state"] as? String == "PENDING_SCORE")
        #expect(page?.isEmpty == true)
    }
}
