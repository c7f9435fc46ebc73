import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files of health data, created readable by their owner only whatever the umask: written to
/// a temporary file opened with mode 0600 and renamed into place, so no reader ever sees a
/// wider mode or half a file.
enum OwnerOnlyFile {
    /// Creates `folder` with mode 0700 (and its missing parents); an existing folder keeps its mode.
    static func createFolder(_ folder: URL) throws {
        guard !FileManager.default.fileExists(atPath: folder.path) else { return }
        try FileManager.default.createDirectory(
            at: folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
    }

    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var ok = true
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            ok = false
        }
        try? handle.close()
        guard ok, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
