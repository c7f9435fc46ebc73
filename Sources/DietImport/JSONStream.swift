import SyncProtocol

/// A JSON document read a value at a time from a `ByteSource`, never whole: the reader asks
/// for the next key of an object or the next element of an array and reads each small value
/// (a row of an export) into a `JSONValue` of bounded size. Strict RFC 8259: a damaged
/// document is refused with its line and what was expected there.
struct JSONStream {
    private let source: ByteSource
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var position = 0
    private var count = 0
    private var ended = false
    /// The 1-based line of the next byte.
    private(set) var line = 1

    /// Nesting deeper than this in one value is refused (it would only exhaust the stack).
    static let maxDepth = 64

    init(_ source: ByteSource) {
        self.source = source
    }

    // MARK: Structure

    /// Reads `{`, or refuses the document naming `what` it expected there.
    mutating func beginObject(_ what: String) throws(ImportError) {
        guard try nextSignificant() == UInt8(ascii: "{") else { throw problem("\(what) must be a JSON object") }
        pendingFirst = true
    }

    /// The next key of the object begun last (its `:` read), or nil at its `}`.
    mutating func nextKey() throws(ImportError) -> String? {
        let first = pendingFirst
        pendingFirst = false
        var byte = try nextSignificant()
        if byte == UInt8(ascii: "}") && first { return nil }
        if !first {
            if byte == UInt8(ascii: "}") { return nil }
            guard byte == UInt8(ascii: ",") else { throw problem("expected , or } after a value") }
            byte = try nextSignificant()
        }
        guard byte == UInt8(ascii: "\"") else { throw problem("expected a key in double quotes") }
        valueLimit = 1 << 10
        let key = try stringBody(limit: valueLimit)
        guard try nextSignificant() == UInt8(ascii: ":") else { throw problem("expected : after the key \(key)") }
        return key
    }

    /// Reads `[`, or refuses the document naming `what` it expected there.
    mutating func beginArray(_ what: String) throws(ImportError) {
        guard try nextSignificant() == UInt8(ascii: "[") else { throw problem("\(what) must be a JSON array") }
        pendingFirst = true
    }

    /// Whether the array begun last has another element (then read it), false at its `]`.
    mutating func nextElement() throws(ImportError) -> Bool {
        let first = pendingFirst
        pendingFirst = false
        try skipWhitespace()
        guard let byte = try peek() else { throw problem("the file ends inside an array") }
        if byte == UInt8(ascii: "]") {
            position += 1
            return false
        }
        if first { return true }
        guard byte == UInt8(ascii: ",") else { throw problem("expected , or ] after a value") }
        position += 1
        return true
    }

    /// After the document's value: only whitespace may follow.
    mutating func end() throws(ImportError) {
        try skipWhitespace()
        if try peek() != nil { throw problem("text after the end of the document") }
    }

    private var pendingFirst = false
    /// The limit of the value being read, for the message when it is passed.
    private var valueLimit = 0

    // MARK: Values

    /// The next value, whole; refused when its text is longer than `limit` bytes or it nests
    /// deeper than `maxDepth`.
    mutating func value(limit: Int) throws(ImportError) -> JSONValue {
        valueLimit = limit
        var budget = limit
        let result = try value(depth: 0, budget: &budget)
        pendingFirst = false
        return result
    }

    private mutating func value(depth: Int, budget: inout Int) throws(ImportError) -> JSONValue {
        guard depth < Self.maxDepth else { throw problem("values nested more than \(Self.maxDepth) deep") }
        guard let byte = try nextSignificant() else { throw problem("the file ends where a value was expected") }
        try spend(1, of: &budget)
        switch byte {
        case UInt8(ascii: "{"):
            var fields: [String: JSONValue] = [:]
            try skipWhitespace()
            if try peek() == UInt8(ascii: "}") {
                position += 1
                return .object(fields)
            }
            while true {
                guard try nextSignificant() == UInt8(ascii: "\"") else { throw problem("expected a key in double quotes") }
                let key = try stringBody(limit: budget)
                try spend(key.utf8.count + 2, of: &budget)
                guard try nextSignificant() == UInt8(ascii: ":") else { throw problem("expected : after the key \(key)") }
                guard fields[key] == nil else { throw problem("the key \(key) appears twice in one object") }
                fields[key] = try value(depth: depth + 1, budget: &budget)
                switch try nextSignificant() {
                case UInt8(ascii: ","): try spend(1, of: &budget)
                case UInt8(ascii: "}"): return .object(fields)
                case nil: throw problem("the file ends inside an object")
                default: throw problem("expected , or } after a value")
                }
            }
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try skipWhitespace()
            if try peek() == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth + 1, budget: &budget))
                switch try nextSignificant() {
                case UInt8(ascii: ","): try spend(1, of: &budget)
                case UInt8(ascii: "]"): return .array(elements)
                case nil: throw problem("the file ends inside an array")
                default: throw problem("expected , or ] after a value")
                }
            }
        case UInt8(ascii: "\""):
            let text = try stringBody(limit: budget)
            try spend(text.utf8.count + 1, of: &budget)
            return .string(text)
        case UInt8(ascii: "t"):
            try literal("rue", budget: &budget)
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("alse", budget: &budget)
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("ull", budget: &budget)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number(first: byte, budget: &budget))
        default:
            throw problem("unexpected character \(Self.shown(byte)) where a value was expected")
        }
    }

    private mutating func literal(_ rest: String, budget: inout Int) throws(ImportError) {
        for expected in rest.utf8 {
            guard try next() == expected else { throw problem("unexpected text where true, false or null was expected") }
        }
        try spend(rest.utf8.count, of: &budget)
    }

    /// A number by RFC 8259's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number(first: UInt8, budget: inout Int) throws(ImportError) -> Double {
        var text = [first]
        func digits(_ stream: inout JSONStream, into text: inout [UInt8]) throws(ImportError) -> Int {
            var counted = 0
            while let byte = try stream.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                text.append(byte)
                stream.position += 1
                counted += 1
                guard text.count <= 64 else { throw stream.problem("a number longer than 64 characters") }
            }
            return counted
        }
        var leading = first
        if first == UInt8(ascii: "-") {
            guard let byte = try next(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw problem("a minus sign without a number")
            }
            text.append(byte)
            leading = byte
        }
        if leading != UInt8(ascii: "0") {
            _ = try digits(&self, into: &text)
        }
        if try peek() == UInt8(ascii: ".") {
            text.append(UInt8(ascii: "."))
            position += 1
            guard try digits(&self, into: &text) > 0 else { throw problem("a decimal point without digits after it") }
        }
        if let byte = try peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            text.append(byte)
            position += 1
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(sign)
                position += 1
            }
            guard try digits(&self, into: &text) > 0 else { throw problem("an exponent without digits") }
        }
        try spend(text.count, of: &budget)
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw problem("the number \(String(decoding: text, as: UTF8.self)) is out of range")
        }
        return value
    }

    /// The rest of a string after its opening quote, escapes decoded; at most `limit` bytes.
    private mutating func stringBody(limit: Int) throws(ImportError) -> String {
        var bytes: [UInt8] = []
        while true {
            guard let byte = try next() else { throw problem("the file ends inside a string") }
            guard bytes.count <= limit else { throw problem("a value longer than the \(Self.describe(valueLimit)) one row may hold") }
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else { throw problem("a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let escaped = try next() else { throw problem("the file ends inside a string") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard try next() == UInt8(ascii: "\\"), try next() == UInt8(ascii: "u") else {
                            throw problem("a lone surrogate in \\u escapes")
                        }
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw problem("a lone surrogate in \\u escapes") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw problem("a lone surrogate in \\u escapes") }
                    bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw problem("an unknown escape \\\(Self.shown(escaped)) in a string")
                }
            case 0x00..<0x20:
                throw problem("a control character inside a string (it must be escaped)")
            default:
                bytes.append(byte)
            }
        }
    }

    private mutating func hex4() throws(ImportError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try next() else { throw problem("the file ends inside a string") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw problem("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | digit
        }
        return value
    }

    private func spend(_ bytes: Int, of budget: inout Int) throws(ImportError) {
        budget -= bytes
        if budget < 0 { throw problem("a value longer than the \(Self.describe(valueLimit)) one row may hold") }
    }

    // MARK: Bytes

    private mutating func peek() throws(ImportError) -> UInt8? {
        if position == count {
            guard try refill() else { return nil }
        }
        return buffer[position]
    }

    private mutating func next() throws(ImportError) -> UInt8? {
        guard let byte = try peek() else { return nil }
        position += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    private mutating func skipWhitespace() throws(ImportError) {
        while let byte = try peek() {
            switch byte {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
            default: return
            }
        }
    }

    private mutating func nextSignificant() throws(ImportError) -> UInt8? {
        try skipWhitespace()
        return try next()
    }

    private mutating func refill() throws(ImportError) -> Bool {
        guard !ended else { return false }
        var failure: ImportError?
        let got = buffer.withUnsafeMutableBytes { raw in
            do throws(ImportError) {
                return try source.read(into: raw)
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        position = 0
        count = got
        if got == 0 { ended = true }
        return got > 0
    }

    func problem(_ detail: String) -> ImportError {
        ImportError(line: line, .wdietExport(detail))
    }

    private static func shown(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
    }

    private static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
    }
}
