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

/// Bytes in memory (a file's first line, read for its format).
final class BytesSource: ByteSource {
    private let bytes: [UInt8]
    private(set) var consumed: Int64 = 0
    var total: Int64 { Int64(bytes.count) }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let start = Int(consumed)
        let count = min(buffer.count, bytes.count - start)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])) }
        consumed += Int64(count)
        return count
    }
}

/// Another source, telling `progress` how far it has read after every chunk.
final class ReportingSource: ByteSource {
    private let source: ByteSource
    private let progress: ImportProgress
    var consumed: Int64 { source.consumed }
    var total: Int64 { source.total }

    init(_ source: ByteSource, progress: @escaping ImportProgress) {
        self.source = source
        self.progress = progress
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let got = try source.read(into: buffer)
        progress(source.consumed, source.total)
        return got
    }
}

extension ByteSource {
    /// This source, reporting its progress to `progress` if there is one.
    func reporting(_ progress: ImportProgress?) -> ByteSource {
        guard let progress else { return self }
        return ReportingSource(self, progress: progress)
    }
}
