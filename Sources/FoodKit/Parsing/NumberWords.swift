/// Quantities written as words or symbols: "zwei", "a", "medio", "½", "1½", "1/2", "1,5".
enum NumberWords {
    /// Folded words that mean a number. "a"/"an"/"ein"/"un" mean one.
    static let words: [String: Double] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "half": 0.5, "couple": 2, "dozen": 12,
        "ein": 1, "eine": 1, "ne": 1, "nen": 1, "einen": 1, "einem": 1, "einer": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4,
        "funf": 5, "fuenf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12,
        "halb": 0.5, "halbe": 0.5, "halben": 0.5, "halber": 0.5, "halbes": 0.5, "eineinhalb": 1.5, "anderthalb": 1.5,
        "un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
        "nueve": 9, "diez": 10, "once": 11, "doce": 12, "medio": 0.5, "media": 0.5, "docena": 12,
        "quarter": 0.25, "viertel": 0.25, "dreiviertel": 0.75, "dreivierteln": 0.75, "drittel": 1.0 / 3, "cuarto": 0.25, "tercio": 1.0 / 3,
    ]

    /// Folded words for a part of one, counted by the number before them: "drei Viertel" = ¾,
    /// "tres cuartos" = ¾, "ein halbes" = ½, "two thirds" = ⅔.
    static let parts: [String: Double] = [
        "half": 0.5, "halves": 0.5, "halb": 0.5, "halbe": 0.5, "halben": 0.5, "halber": 0.5, "halbes": 0.5, "medio": 0.5, "media": 0.5,
        "quarter": 0.25, "quarters": 0.25, "viertel": 0.25, "cuarto": 0.25, "cuartos": 0.25,
        "third": 1.0 / 3, "thirds": 1.0 / 3, "drittel": 1.0 / 3, "tercio": 1.0 / 3, "tercios": 1.0 / 3,
    ]

    /// Words before the amount that only say it is approximate: "about 200 g", "ca. 2 EL",
    /// "unos 100 g". Dropped when an amount follows.
    static let hedges: Set<String> = [
        "about", "approximately", "approx", "roughly", "around", "some", "ca", "circa", "etwa",
        "ungefahr", "rund", "knapp", "unos", "unas", "aproximadamente", "aprox", "alrededor", "cerca",
    ]

    /// "a couple (of)", "ein paar", "un par (de)": two.
    static let couples: Set<String> = ["couple", "paar", "par"]

    static let fractions: [Character: Double] = [
        "½": 0.5, "⅓": 1.0 / 3, "⅔": 2.0 / 3, "¼": 0.25, "¾": 0.75, "⅕": 0.2, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875,
    ]

    /// A numeric token: "2", "1.5", "1,5", "1/2", "½", "1½". nil if it is not one.
    static func number(_ token: String) -> Double? {
        if let last = token.last, let fraction = fractions[last] {
            let whole = token.dropLast()
            if whole.isEmpty { return fraction }
            return decimal(String(whole)).map { $0 + fraction }
        }
        let parts = token.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, let top = decimal(String(parts[0])), let bottom = decimal(String(parts[1])), bottom > 0 {
            return top / bottom
        }
        return decimal(token)
    }

    private static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }),
            text.first?.isNumber == true, text.last?.isNumber == true,
            text.filter({ $0 == "." || $0 == "," }).count <= 1
        else { return nil }
        return Double(text.replacingOccurrences(of: ",", with: "."))
    }
}
