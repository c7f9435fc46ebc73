import Foundation

/// The root of this repository (the folder holding Package.swift), found from this file, so
/// fixtures are read from where they are committed whichever folder a test file sits in.
public enum RepositoryFolder {
    public static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(#filePath)")
    }()

    /// `path` (relative to the root) as a file URL.
    public static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }
}
