import Foundation

/// How far an import has read: bytes of the file so far, of `total`.
public typealias ImportProgress = @Sendable (_ done: Int64, _ total: Int64) -> Void

/// Bytes read in chunks, never the whole file at once (an Apple Health export can be several
/// GB): the scanners ask for the next chunk into a buffer they own.
protocol ByteSource: AnyObject {
    /// Fills the start of `buffer`; the count read, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int
    /// Bytes of the file consumed so far, and the file's size, for progress.
    var consumed: Int64 { get }
    var total: Int64 { get }
}

/// An open file read with POSIX calls (no `Data` per chunk).
final class OpenFile {
    let descriptor: Int32
    let path: String
    let size: Int64

    init(path: String) throws(ImportError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ImportError(line: nil, .unreadable(path)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw ImportError(line: nil, .unreadable(path))
        }
        self.descriptor = descriptor
        self.path = path
        size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, base + done, buffer.count - done, off_t(offset + Int64(done)))
            if got < 0 {
                if errno == EINTR { continue }
                throw ImportError(line: nil, .unreadable(path))
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// `count` bytes at `offset` (small reads: headers, the zip's directory).
    func bytes(at offset: Int64, count: Int) throws(ImportError) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var failure: ImportError?
        let got = result.withUnsafeMutableBytes { buffer in
            do throws(ImportError) {
                return try read(at: offset, into: buffer)
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        result.removeLast(count - got)
        return result
    }
}

/// A plain file from its start.
final class FileSource: ByteSource {
    let file: OpenFile
    private(set) var consumed: Int64 = 0
    var total: Int64 { file.size }

    init(_ file: OpenFile) {
        self.file = file
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let got = try file.read(at: consumed, into: buffer)
        consumed += Int64(got)
        return got
    }
}
