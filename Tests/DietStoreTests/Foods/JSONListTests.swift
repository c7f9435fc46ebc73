import Foundation
import Testing

@testable import DietStore

/// The id lists a search hands to SQLite's `json_each`, written by hand for speed: read back by
/// an independent JSON reader, they hold exactly the ids given.
@Suite("Id lists for json_each")
struct JSONListTests {
    @Test("numbers and text ids, quotes, backslashes, control characters and non-ASCII read back as given")
    func roundTrip() throws {
        let numbers = [0, 7, 95001, 300_000_123, -1]
        #expect(try JSONSerialization.jsonObject(with: Data(FoodCatalog.jsonList(numbers).utf8)) as? [Int] == numbers)
        #expect(FoodCatalog.jsonList([Int]()) == "[]")
        let texts = ["5062", "custom-\u{1F}id", "a\"b", "back\\slash", "Käse\n\t", "", "🍎", "\u{0}"]
        #expect(try JSONSerialization.jsonObject(with: Data(FoodCatalog.jsonList(texts).utf8)) as? [String] == texts)
        #expect(FoodCatalog.jsonList([String]()) == "[]")
    }
}
