import CompressNIO
import Foundation
import NIOCore

/// One entry of a zip file, found through its central directory (PKWARE APPNOTE.TXT 6.3:
/// the end of central directory record, section 4.3.16; its ZIP64 form, 4.3.14–4.3.15; the
/// central file header, 4.3.12; the local file header, 4.3.7; the ZIP64 extra field, 4.5.3).
struct ZipEntry {
    let name: String
    let method: Int
    let flags: Int
    let compressedSize: Int64
    let uncompressedSize: Int64
    let localHeaderOffset: Int64

    /// The Apple Health export inside `file`: `apple_health_export/export.xml` (the folder's
    /// name varies with the phone's language, so any `…/export.xml` at depth one or the root).
    static func healthExport(in file: OpenFile) throws(ImportError) -> ZipEntry {
        let entries = try directory(of: file)
        let candidates = entries.filter { entry in
            let parts = entry.name.split(separator: "/")
            return parts.last == "export.xml" && parts.count <= 2
        }
        guard let entry = candidates.first(where: { $0.name == "apple_health_export/export.xml" }) ?? candidates.first else {
            throw ImportError(line: nil, .zipNoHealthExport)
        }
        return entry
    }

    /// Every entry of the central directory.
    static func directory(of file: OpenFile) throws(ImportError) -> [ZipEntry] {
        let damaged = ImportError(line: nil, .zipDamaged)
        let tailLength = Int(min(file.size, 65_557))
        let tail = try file.bytes(at: file.size - Int64(tailLength), count: tailLength)
        guard tail.count >= 22, let end = (0...(tail.count - 22)).reversed().first(where: { tail.u32($0) == 0x0605_4b50 }) else {
            throw damaged
        }
        var count = Int64(tail.u16(end + 10))
        var size = Int64(tail.u32(end + 12))
        var offset = Int64(tail.u32(end + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // ZIP64: the locator sits right before the end record and points to the ZIP64 end record
            let locatorAt = file.size - Int64(tailLength) + Int64(end) - 20
            let locator = try file.bytes(at: locatorAt, count: 20)
            guard locator.count == 20, locator.u32(0) == 0x0706_4b50 else { throw damaged }
            let record = try file.bytes(at: Int64(locator.u64(8)), count: 56)
            guard record.count == 56, record.u32(0) == 0x0606_4b50 else { throw damaged }
            count = Int64(record.u64(32))
            size = Int64(record.u64(40))
            offset = Int64(record.u64(48))
        }
        guard size >= 0, size <= 256 << 20, offset >= 0, offset + size <= file.size else { throw damaged }
        let bytes = try file.bytes(at: offset, count: Int(size))
        guard bytes.count == Int(size) else { throw damaged }
        var entries: [ZipEntry] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= bytes.count, bytes.u32(at) == 0x0201_4b50 else { throw damaged }
            let nameLength = Int(bytes.u16(at + 28))
            let extraLength = Int(bytes.u16(at + 30))
            let commentLength = Int(bytes.u16(at + 32))
            guard at + 46 + nameLength + extraLength + commentLength <= bytes.count else { throw damaged }
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            var sizes = (
                compressed: Int64(bytes.u32(at + 20)), uncompressed: Int64(bytes.u32(at + 24)),
                offset: Int64(bytes.u32(at + 42))
            )
            zip64(bytes, extra: (at + 46 + nameLength)..<(at + 46 + nameLength + extraLength), into: &sizes)
            entries.append(
                ZipEntry(
                    name: name,
                    method: Int(bytes.u16(at + 10)),
                    flags: Int(bytes.u16(at + 8)),
                    compressedSize: sizes.compressed,
                    uncompressedSize: sizes.uncompressed,
                    localHeaderOffset: sizes.offset
                )
            )
            at += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// Replaces the 32-bit fields that read 0xFFFFFFFF with the ZIP64 extra field's values, in
    /// the order the format gives them.
    private static func zip64(
        _ bytes: [UInt8],
        extra: Range<Int>,
        into sizes: inout (compressed: Int64, uncompressed: Int64, offset: Int64)
    ) {
        var at = extra.lowerBound
        while at + 4 <= extra.upperBound {
            let id = bytes.u16(at)
            let length = Int(bytes.u16(at + 2))
            guard at + 4 + length <= extra.upperBound else { return }
            if id == 0x0001 {
                var field = at + 4
                func next() -> Int64? {
                    guard field + 8 <= at + 4 + length else { return nil }
                    defer { field += 8 }
                    return Int64(bitPattern: bytes.u64(field))
                }
                if sizes.uncompressed == 0xFFFF_FFFF, let value = next() { sizes.uncompressed = value }
                if sizes.compressed == 0xFFFF_FFFF, let value = next() { sizes.compressed = value }
                if sizes.offset == 0xFFFF_FFFF, let value = next() { sizes.offset = value }
                return
            }
            at += 4 + length
        }
    }
}

/// The bytes of one zip entry, stored or inflated (raw deflate, zlib's windowBits −15) chunk by
/// chunk; the progress counts the compressed bytes read of the whole zip file.
final class ZipEntrySource: ByteSource {
    private let file: OpenFile
    private let entry: ZipEntry
    private var position: Int64
    private var remaining: Int64
    private var produced: Int64 = 0
    private let inflater: ZlibDecompressor?
    private var input: ByteBuffer
    private var output: ByteBuffer
    private var finished = false
    static let chunk = 1 << 20

    var consumed: Int64 { position }
    var total: Int64 { file.size }

    init(file: OpenFile, entry: ZipEntry) throws(ImportError) {
        guard entry.flags & 1 == 0 else { throw ImportError(line: nil, .zipEncrypted) }
        guard entry.method == 0 || entry.method == 8 else { throw ImportError(line: nil, .zipMethod(entry.method)) }
        let header = try file.bytes(at: entry.localHeaderOffset, count: 30)
        guard header.count == 30, header.u32(0) == 0x0403_4b50 else { throw ImportError(line: nil, .zipDamaged) }
        position = entry.localHeaderOffset + 30 + Int64(header.u16(26)) + Int64(header.u16(28))
        guard entry.compressedSize >= 0, position + entry.compressedSize <= file.size else { throw ImportError(line: nil, .truncated) }
        self.file = file
        self.entry = entry
        remaining = entry.compressedSize
        do {
            inflater = entry.method == 8 ? try ZlibDecompressor(algorithm: .deflate, windowSize: 15) : nil
        } catch {
            throw ImportError(line: nil, .zipDamaged)
        }
        input = ByteBufferAllocator().buffer(capacity: Self.chunk)
        output = ByteBufferAllocator().buffer(capacity: Self.chunk)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard let inflater else { return try readStored(into: buffer) }
        while true {
            if output.readableBytes > 0 {
                let count = min(output.readableBytes, buffer.count)
                output.withUnsafeReadableBytes { bytes in buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count])) }
                output.moveReaderIndex(forwardBy: count)
                return count
            }
            if finished { return 0 }
            try inflateMore(inflater)
        }
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let wanted = Int(min(Int64(buffer.count), remaining))
        guard wanted > 0 else { return 0 }
        let got = try file.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
        guard got == wanted else { throw ImportError(line: nil, .truncated) }
        position += Int64(got)
        remaining -= Int64(got)
        return got
    }

    /// Inflates the next piece into `output`, reading compressed bytes as needed.
    private func inflateMore(_ inflater: ZlibDecompressor) throws(ImportError) {
        if input.readableBytes == 0, remaining > 0 { try refill() }
        output.clear()
        do {
            try inflater.inflate(from: &input, to: &output)
        } catch let error as CompressNIOError where error == .bufferOverflow || error == .inputBufferOverflow {
            // output full, or all input used: go on with the next round
        } catch {
            throw ImportError(line: nil, .zipDamaged)
        }
        produced += Int64(output.readableBytes)
        guard output.readableBytes == 0 else { return }
        if input.readableBytes > 0 || remaining == 0 {
            // nothing more comes out: the entry must be complete
            guard produced == entry.uncompressedSize else {
                throw ImportError(line: nil, input.readableBytes > 0 ? .zipDamaged : .truncated)
            }
            finished = true
        }
    }

    private func refill() throws(ImportError) {
        input.clear()
        let wanted = Int(min(Int64(Self.chunk), remaining))
        var failure: ImportError?
        let got = input.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { raw in
            do throws(ImportError) {
                return try file.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]))
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        guard got == wanted else { throw ImportError(line: nil, .truncated) }
        position += Int64(got)
        remaining -= Int64(got)
    }
}

extension [UInt8] {
    func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}
