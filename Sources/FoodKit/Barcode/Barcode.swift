/// A retail barcode with a valid check digit: EAN-13, EAN-8 or UPC-A.
public struct Barcode: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case ean13 = "EAN-13"
        case ean8 = "EAN-8"
        case upcA = "UPC-A"
    }

    /// Why a text is not a barcode.
    public enum Problem: Error, Hashable, Sendable {
        /// Only digits are allowed (spaces and hyphens are ignored).
        case notDigits(String)
        /// 8, 12 or 13 digits are allowed.
        case wrongLength(Int)
        /// The last digit should have been `expected`.
        case checkDigit(expected: Int, got: Int)
    }

    public let digits: String
    public let kind: Kind

    /// Parses `text`, ignoring spaces and hyphens.
    public init(_ text: String) throws(Problem) {
        let cleaned = text.filter { $0 != " " && $0 != "-" }
        guard !cleaned.isEmpty, cleaned.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .notDigits(text) }
        let kind: Kind
        switch cleaned.count {
        case 13: kind = .ean13
        case 12: kind = .upcA
        case 8: kind = .ean8
        default: throw .wrongLength(cleaned.count)
        }
        let values = cleaned.compactMap(\.wholeNumberValue)
        let expected = Self.checkDigit(for: values.dropLast())
        guard let last = values.last, expected == last else {
            throw .checkDigit(expected: expected, got: values.last ?? 0)
        }
        self.digits = cleaned
        self.kind = kind
    }

    /// The GS1 check digit of `payload`: weights 3 and 1 alternating from the right.
    public static func checkDigit<C: Collection<Int>>(for payload: C) -> Int {
        let sum = payload.reversed().enumerated().reduce(0) { total, item in
            total + item.element * (item.offset.isMultiple(of: 2) ? 3 : 1)
        }
        return (10 - sum % 10) % 10
    }

    /// The 13-digit form used for lookups: a UPC-A is an EAN-13 with a leading 0.
    public var gtin13: String {
        kind == .upcA ? "0" + digits : digits
    }

    public var description: String { digits }
}
