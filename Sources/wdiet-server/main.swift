import DietServer
import Foundation
import Logging

// wdiet-server: accounts and sync on PostgreSQL. Configuration comes from the environment
// (see ServerConfiguration); a bad value stops start-up with a message naming the variable.
// The log goes to standard error as text or JSON lines (WDIET_LOG_FORMAT), once configured.
do {
    let configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
    LoggingSystem.bootstrap(configuration.logFormat.handlerFactory(level: configuration.logLevel))
    let logger = Logger(label: "wdiet-server")
    let app = try await buildApplication(configuration: configuration, logger: logger)
    try await app.runService()
} catch {
    FileHandle.standardError.write(Data("wdiet-server: \(error)\n".utf8))
    exit(1)
}
