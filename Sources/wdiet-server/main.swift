import DietServer
import Foundation
import Logging

// wdiet-server: accounts and sync on PostgreSQL. Configuration comes from the environment
// (see ServerConfiguration); a bad value stops start-up with a message naming the variable.
var logger = Logger(label: "wdiet-server")
logger.logLevel = ProcessInfo.processInfo.environment["WDIET_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
do {
    let configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
    let app = try await buildApplication(configuration: configuration, logger: logger)
    try await app.runService()
} catch {
    FileHandle.standardError.write(Data("wdiet-server: \(error)\n".utf8))
    exit(1)
}
