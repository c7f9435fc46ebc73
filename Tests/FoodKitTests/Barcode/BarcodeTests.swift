import FoodKit
import Testing

@Suite("Barcodes")
struct BarcodeTests {
    @Test(
        "valid codes of the three kinds",
        arguments: [
            ("4006381333931", Barcode.Kind.ean13), ("4 006381 333931", .ean13), ("96385074", .ean8),
            ("036000291452", .upcA), ("0-36000-29145-2", .upcA), ("5000112637922", .ean13),
        ]
    )
    func valid(text: String, kind: Barcode.Kind) throws {
        #expect(try Barcode(text).kind == kind)
    }

    @Test("a UPC-A looks up as its EAN-13 form")
    func gtin() throws {
        #expect(try Barcode("036000291452").gtin13 == "0036000291452")
        #expect(try Barcode("4006381333931").gtin13 == "4006381333931")
    }

    @Test("a wrong check digit names the expected one")
    func checkDigit() {
        #expect(throws: Barcode.Problem.checkDigit(expected: 1, got: 2)) { try Barcode("4006381333932") }
        #expect(throws: Barcode.Problem.checkDigit(expected: 4, got: 5)) { try Barcode("96385075") }
    }

    @Test("wrong lengths and letters are refused")
    func malformed() {
        #expect(throws: Barcode.Problem.wrongLength(10)) { try Barcode("1234567890") }
        #expect(throws: Barcode.Problem.notDigits("40063813339X1")) { try Barcode("40063813339X1") }
        #expect(throws: Barcode.Problem.notDigits("")) { try Barcode("") }
        #expect(throws: Barcode.Problem.notDigits("４００６３８１３３３９３１")) { try Barcode("４００６３８１３３３９３１") }
    }
}
