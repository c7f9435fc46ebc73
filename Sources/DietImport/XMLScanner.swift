import Foundation

/// A start tag as the scanner saw it: its name and attributes as byte ranges into the
/// scanner's buffer, valid only during the call that receives it (nothing is copied for the
/// millions of records an import skips).
struct XMLTag {
    struct Attribute {
        let name: Range<Int>
        let value: Range<Int>
        /// Whether the value holds `&` (an entity to decode).
        let escaped: Bool
    }

    var bytes: UnsafeRawBufferPointer
    var name: Range<Int> = 0..<0
    var attributes: [Attribute] = []
    var selfClosing = false

    func isNamed(_ expected: [UInt8]) -> Bool { XMLScanner.equal(bytes, name, expected) }

    func attribute(_ expected: [UInt8]) -> Attribute? {
        attributes.first { XMLScanner.equal(bytes, $0.name, expected) }
    }

    /// Whether attribute `name`'s raw value is `expected` (for values that never hold entities).
    func attribute(_ name: [UInt8], is expected: [UInt8]) -> Bool {
        attribute(name).map { XMLScanner.equal(bytes, $0.value, expected) } ?? false
    }

    /// The value of an attribute as text, its entities (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`
    /// and numeric ones) decoded.
    func text(_ attribute: Attribute) throws(ImportError) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[attribute.value])
        guard attribute.escaped else { return String(decoding: raw, as: UTF8.self) }
        return try XMLScanner.decodeEntities(raw)
    }
}

/// A small streaming scanner for XML that is well-formed the way Apple Health writes it: it
/// reads the file in chunks into one fixed buffer, skips the prolog, the DOCTYPE with its
/// internal subset, comments, processing instructions and CDATA, checks that end tags match
/// start tags, and hands every start and end tag to its caller. It never holds more than its
/// buffer (2 MB), whatever the size of the file, and counts lines for error messages.
///
/// It is not a validating parser: the DTD is skipped, not applied (Apple's declares no
/// entities, so the five predefined ones and numeric references are all there is).
final class XMLScanner {
    private let source: ByteSource
    private let storage: UnsafeMutableRawBufferPointer
    private var end = 0
    private var atEOF = false
    /// The line of `storage[0]`.
    private var firstLine = 1
    private var stack: [[UInt8]] = []
    private var sawRoot = false
    private var tag: XMLTag
    /// Called after each chunk is read.
    var onChunk: () -> Void = {}

    static let capacity = 2 << 20
    static let readSize = 1 << 20

    init(source: ByteSource) {
        self.source = source
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.capacity, alignment: 8)
        tag = XMLTag(bytes: UnsafeRawBufferPointer(storage))
        tag.attributes.reserveCapacity(16)
    }

    deinit { storage.deallocate() }

    /// Scans the whole input; `start` gets each start tag, `close` each end tag's name (and a
    /// self-closing tag's, right after its start). Errors thrown by them get the tag's line.
    func run(start: (XMLTag) throws(ImportError) -> Void, close: (XMLTag) throws(ImportError) -> Void) throws(ImportError) {
        var position = 0
        while true {
            if let open = find(UInt8(ascii: "<"), from: position) {
                try checkText(position..<open)
                if let next = try markup(at: open, start: start, close: close) {
                    position = next
                    continue
                }
                if atEOF { throw ImportError(line: line(at: open), .truncated) }
                position = try refill(keepingFrom: open)
            } else {
                try checkText(position..<end)
                if atEOF { break }
                position = try refill(keepingFrom: end)
            }
        }
        guard sawRoot else { throw ImportError(line: line(at: end), .xml(.noRoot)) }
        guard stack.isEmpty else { throw ImportError(line: line(at: end), .truncated) }
    }

    /// The 1-based line of buffer offset `offset`.
    func line(at offset: Int) -> Int {
        firstLine + Self.newlines(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<offset]))
    }

    // MARK: - Reading

    /// Drops the bytes before `keep` (counting their lines), reads more; the new offset of `keep`.
    private func refill(keepingFrom keep: Int) throws(ImportError) -> Int {
        firstLine += Self.newlines(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<keep]))
        let left = end - keep
        if left > 0, keep > 0, let base = storage.baseAddress { memmove(base, base + keep, left) }
        end = left
        guard end < Self.capacity else { throw ImportError(line: firstLine, .xml(.tagTooLong)) }
        let room = min(Self.readSize, Self.capacity - end)
        let got = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[end..<(end + room)]))
        if got == 0 { atEOF = true }
        end += got
        onChunk()
        return 0
    }

    static func newlines(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard var cursor = bytes.baseAddress else { return 0 }
        var left = bytes.count
        var count = 0
        while left > 0, let hit = memchr(cursor, 0x0A, left) {
            count += 1
            let skipped = UnsafeRawPointer(hit) - cursor + 1
            cursor += skipped
            left -= skipped
        }
        return count
    }

    private func find(_ byte: UInt8, from: Int) -> Int? {
        guard from < end, let base = storage.baseAddress, let hit = memchr(base + from, Int32(byte), end - from) else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }

    /// The offset just past `terminator` found from `from`, or nil when not yet in the buffer.
    private func find(_ terminator: [UInt8], from: Int) -> Int? {
        var at = from
        while let hit = find(terminator[0], from: at) {
            guard hit + terminator.count <= end else { return nil }
            if Self.equal(UnsafeRawBufferPointer(storage), hit..<(hit + terminator.count), terminator) { return hit + terminator.count }
            at = hit + 1
        }
        return nil
    }

    private func byte(_ offset: Int) -> UInt8 { storage[offset] }

    /// Text between tags: anything inside the root, only white space outside it.
    private func checkText(_ range: Range<Int>) throws(ImportError) {
        guard stack.isEmpty else { return }
        for offset in range where !Self.isSpace(byte(offset)) {
            throw ImportError(line: line(at: offset), .xml(.textOutsideRoot))
        }
    }

    // MARK: - Markup

    /// Handles the markup at `open` (a `<`); the offset after it, or nil when it continues
    /// beyond the bytes read so far.
    private func markup(
        at open: Int,
        start: (XMLTag) throws(ImportError) -> Void,
        close: (XMLTag) throws(ImportError) -> Void
    ) throws(ImportError) -> Int? {
        guard open + 1 < end else { return nil }
        switch byte(open + 1) {
        case UInt8(ascii: "?"): return find(Array("?>".utf8), from: open + 2)
        case UInt8(ascii: "!"): return try declaration(at: open)
        case UInt8(ascii: "/"): return try endTag(at: open, close: close)
        default: return try startTag(at: open, start: start, close: close)
        }
    }

    private static let comment = Array("<!--".utf8), cdata = Array("<![CDATA[".utf8), doctype = Array("<!DOCTYPE".utf8)

    private func declaration(at open: Int) throws(ImportError) -> Int? {
        let base = UnsafeRawBufferPointer(storage)
        guard open + Self.cdata.count <= end else { return atEOF ? try fail(open, .unclosedTag) : nil }
        if Self.equal(base, open..<(open + 4), Self.comment) { return find(Array("-->".utf8), from: open + 4) }
        if Self.equal(base, open..<(open + 9), Self.cdata) {
            guard !stack.isEmpty else { return try fail(open, .textOutsideRoot) }
            return find(Array("]]>".utf8), from: open + 9)
        }
        guard Self.equal(base, open..<(open + 9), Self.doctype), !sawRoot else { return try fail(open, .unexpectedCharacter) }
        // the internal subset [ … ] may hold '>' in its declarations: skip quoted text and it
        var offset = open + 9
        var inSubset = false
        while offset < end {
            let current = byte(offset)
            if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                guard let closing = find(current, from: offset + 1) else { return nil }
                offset = closing + 1
                continue
            }
            if current == UInt8(ascii: "[") { inSubset = true }
            if current == UInt8(ascii: "]") { inSubset = false }
            if current == UInt8(ascii: ">"), !inSubset { return offset + 1 }
            offset += 1
        }
        return nil
    }

    private func endTag(at open: Int, close: (XMLTag) throws(ImportError) -> Void) throws(ImportError) -> Int? {
        guard let closing = find(UInt8(ascii: ">"), from: open + 2) else { return nil }
        var nameEnd = open + 2
        while nameEnd < closing, Self.isNameByte(byte(nameEnd)) { nameEnd += 1 }
        for offset in nameEnd..<closing where !Self.isSpace(byte(offset)) { return try fail(offset, .unexpectedCharacter) }
        guard let expected = stack.last, Self.equal(UnsafeRawBufferPointer(storage), (open + 2)..<nameEnd, expected) else {
            return try fail(open, .mismatchedEnd)
        }
        stack.removeLast()
        tag.name = (open + 2)..<nameEnd
        tag.attributes.removeAll(keepingCapacity: true)
        try report(open) { () throws(ImportError) in try close(tag) }
        return closing + 1
    }

    private func startTag(
        at open: Int,
        start: (XMLTag) throws(ImportError) -> Void,
        close: (XMLTag) throws(ImportError) -> Void
    ) throws(ImportError) -> Int? {
        var offset = open + 1
        while offset < end, Self.isNameByte(byte(offset)) { offset += 1 }
        guard offset < end else { return nil }
        guard offset > open + 1 else { return try fail(open, .unexpectedCharacter) }
        if stack.isEmpty, sawRoot { return try fail(open, .textOutsideRoot) }
        tag.name = (open + 1)..<offset
        tag.attributes.removeAll(keepingCapacity: true)
        while true {
            while offset < end, Self.isSpace(byte(offset)) { offset += 1 }
            guard offset < end else { return nil }
            let current = byte(offset)
            if current == UInt8(ascii: ">") {
                tag.selfClosing = false
                offset += 1
                break
            }
            if current == UInt8(ascii: "/") {
                guard offset + 1 < end else { return nil }
                guard byte(offset + 1) == UInt8(ascii: ">") else { return try fail(offset, .unexpectedCharacter) }
                tag.selfClosing = true
                offset += 2
                break
            }
            guard let next = try attribute(at: offset, open: open) else { return nil }
            offset = next
        }
        sawRoot = true
        try report(open) { () throws(ImportError) in try start(tag) }
        if tag.selfClosing {
            try report(open) { () throws(ImportError) in try close(tag) }
        } else {
            stack.append(Array(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[tag.name])))
        }
        return offset
    }

    /// One `name="value"` at `offset`; the offset after it, nil when it goes past the buffer.
    private func attribute(at start: Int, open: Int) throws(ImportError) -> Int? {
        var offset = start
        while offset < end, Self.isNameByte(byte(offset)) { offset += 1 }
        guard offset < end else { return nil }
        guard offset > start else { return try fail(offset, .attribute) }
        let name = start..<offset
        while offset < end, Self.isSpace(byte(offset)) { offset += 1 }
        guard offset < end else { return nil }
        guard byte(offset) == UInt8(ascii: "=") else { return try fail(offset, .attribute) }
        offset += 1
        while offset < end, Self.isSpace(byte(offset)) { offset += 1 }
        guard offset < end else { return nil }
        let quote = byte(offset)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return try fail(offset, .attribute) }
        guard let closing = find(quote, from: offset + 1) else { return nil }
        let value = (offset + 1)..<closing
        let raw = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[value])
        if let base = raw.baseAddress, memchr(base, Int32(UInt8(ascii: "<")), raw.count) != nil {
            return try fail(offset, .attribute)
        }
        let escaped = raw.baseAddress.map { memchr($0, Int32(UInt8(ascii: "&")), raw.count) != nil } ?? false
        tag.attributes.append(XMLTag.Attribute(name: name, value: value, escaped: escaped))
        guard closing + 1 < end else { return closing + 1 }
        let after = byte(closing + 1)
        guard Self.isSpace(after) || after == UInt8(ascii: ">") || after == UInt8(ascii: "/") else {
            return try fail(closing + 1, .attribute)
        }
        return closing + 1
    }

    private func report(_ open: Int, _ body: () throws(ImportError) -> Void) throws(ImportError) {
        do {
            try body()
        } catch {
            throw ImportError(line: error.line ?? line(at: open), error.reason)
        }
    }

    private func fail(_ offset: Int, _ problem: ImportError.XMLProblem) throws(ImportError) -> Int? {
        throw ImportError(line: line(at: offset), .xml(problem))
    }

    // MARK: - Bytes

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            true
        default: false
        }
    }

    static func equal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ expected: [UInt8]) -> Bool {
        guard range.count == expected.count, let base = bytes.baseAddress else { return false }
        return expected.withUnsafeBytes { other in
            guard let start = other.baseAddress else { return range.isEmpty }
            return memcmp(base + range.lowerBound, start, range.count) == 0
        }
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#NN;` `&#xHH;` decoded; any other is an error.
    static func decodeEntities(_ raw: UnsafeRawBufferPointer) throws(ImportError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            guard raw[index] == UInt8(ascii: "&") else {
                output.append(raw[index])
                index += 1
                continue
            }
            var semicolon = index + 1
            while semicolon < raw.count, raw[semicolon] != UInt8(ascii: ";"), semicolon - index < 12 { semicolon += 1 }
            guard semicolon < raw.count, raw[semicolon] == UInt8(ascii: ";") else { throw ImportError(line: nil, .xml(.unknownEntity)) }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: raw[(index + 1)..<semicolon]), as: UTF8.self)
            guard let scalar = entity(name) else { throw ImportError(line: nil, .xml(.unknownEntity)) }
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
            index = semicolon + 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).flatMap { $0.value == 0 ? nil : $0 }
        }
    }
}
