import DietCore
import Foundation

/// Event demand (docs/rules.md §7): points for duration, attendees, the post-lunch dip and
/// title keywords; high ≥ 6, medium ≥ 3, else low.
public enum DemandClassifier {
    /// Everyday events that ask everything of a person however short and whoever comes (a job
    /// interview, an exam, an operation, a court date, a negotiation): +5, so they are always high.
    /// "Überprüfung" is a check, not an exam.
    static let highStakes = TitleKeywords(
        inside: [
            "job interview", "job-interview", "jobinterview", "negotiation", "court date", "court hearing",
            "bewerbungsgespräch", "vorstellungsgespräch", "prüfung", "klausur", "examen", "verhandlung", "gerichtstermin", "anhörung",
            "entrevista de trabajo", "entrevista laboral", "negociación", "cirugía", "selectividad",
        ],
        starts: ["abitur"],
        words: ["exam", "exams", "examination", "midterm", "midterms", "surgery", "op", "operation", "operación", "juicio", "oposiciones"],
        except: ["überprüfung"]
    )
    /// Demanding work, appointments, the big days of a life, travel and sport: +2.
    static let demanding = TitleKeywords(
        inside: [
            "strategy", "review", "presentation", "interview", "planning", "brainstorm", "all-hands", "pitch", "retrospective",
            "quarterly", "deadline", "keynote", "dentist", "therapy", "wedding", "funeral", "moving day", "flight", "business trip",
            "training", "workout", "fitness", "yoga", "pilates", "crossfit", "football", "soccer", "tennis", "marathon", "triathlon",
            "strategie", "präsentation", "vortrag", "referat", "planung", "vorstand", "quartal", "abgabe", "jahresgespräch",
            "mitarbeitergespräch", "personalgespräch", "gehaltsgespräch", "feedbackgespräch", "zielvereinbarung", "elternabend",
            "elterngespräch", "arzt", "therapie", "krankenhaus", "untersuchung", "umzug", "hochzeit", "beerdigung", "trauerfeier",
            "flug", "dienstreise", "geschäftsreise", "fußball", "schwimm", "handball", "volleyball", "basketball", "wettkampf",
            "estrategia", "revisión", "presentación", "entrevista", "planificación", "trimestral", "ponencia", "fecha límite",
            "dentista", "terapia", "mudanza", "entierro", "vuelo", "viaje de negocios", "entrenamiento", "fútbol", "natación",
            "baloncesto", "ciclismo", "tenis",
        ],
        starts: [
            "board", "sport", "doctor", "physio", "clinic", "hospital", "cycling", "climbing", "boulder", "jogg",
            "frist", "klinik", "laufen", "lauftreff", "radtour", "rennrad", "klettern", "turnier",
            "entrega", "fisio", "gimnasio", "escalada", "pádel",
        ],
        words: [
            "demo", "demos", "retro", "gym", "run", "runs", "running", "swim", "swimming", "hiit",
            "rede",
            "junta", "médico", "médica", "boda", "velorio", "correr", "nadar", "partido",
        ]
    )
    /// Breaks, meals and time with friends: −1.
    static let light = TitleKeywords(
        inside: [
            "lunch", "break", "coffee", "social", "happy hour", "check-in", "standup", "stand-up", "daily", "dinner", "birthday",
            "afterwork", "after-work",
            "mittagessen", "pause", "kaffee", "spaziergang", "frühstück", "abendessen", "feierabend", "stammtisch", "geburtstag",
            "jour fixe",
            "almuerzo", "descanso", "café", "paseo", "desayuno", "merienda", "pausa", "cumpleaños",
        ],
        starts: ["spazieren"],
        words: ["walk", "walks", "walking", "1:1", "drinks", "cena", "comida"]
    )

    public static func classify(_ event: CalendarEvent, timeZone: TimeZone) -> ClassifiedEvent {
        var points = 0
        let hours = event.duration / 3600
        points += hours >= 2 ? 3 : hours >= 1 ? 2 : 1
        points += event.attendeeCount >= 8 ? 3 : event.attendeeCount >= 4 ? 2 : event.attendeeCount >= 1 ? 1 : 0
        if (13...15).contains(TimeOfDay(event.start, in: timeZone).hour) { points += 1 }
        let title = TitleKeywords.fold(event.title)
        if highStakes.matches(title) {
            points += 5
        } else if demanding.matches(title) {
            points += 2
        } else if light.matches(title) {
            points -= 1
        }
        let demand: EnergyDemand = points >= 6 ? .high : points >= 3 ? .medium : .low
        return ClassifiedEvent(event: event, demand: demand, points: points)
    }
}

/// Title keywords in the three languages of the app, matched in the folded title so that case,
/// accents and the German ae/oe/ue spelling do not matter ("PRUEFUNG" is "Prüfung"). An
/// `inside` keyword is found anywhere, also inside a compound ("Abschlussprüfung",
/// "Zahnarzttermin", "Kundenpräsentation"); a `starts` one only at a word's start, so a compound
/// may go on after it ("Sportverein", not "Transport"); a `words` one only as a whole word: the
/// short ones that would fire inside other words ("OP", not "Kooperation" or "Opa"). A part of
/// the title in `except` holds no keyword.
struct TitleKeywords: Sendable {
    let inside: [String]
    let starts: [String]
    let words: [String]
    let except: [String]

    init(inside: [String], starts: [String] = [], words: [String] = [], except: [String] = []) {
        self.inside = inside.map(Self.fold)
        self.starts = starts.map(Self.fold)
        self.words = words.map(Self.fold)
        self.except = except.map(Self.fold)
    }

    /// Whether the folded `title` holds one of the keywords.
    func matches(_ title: String) -> Bool {
        let title = except.reduce(title) { $0.replacingOccurrences(of: $1, with: " ") }
        return inside.contains { title.contains($0) }
            || starts.contains { Self.occurs($0, in: title, wholeWord: false) }
            || words.contains { Self.occurs($0, in: title, wholeWord: true) }
    }

    /// Lower case without accents, ß as ss and ae, oe, ue as a, o, u: "Bewerbungsgespräch",
    /// "BEWERBUNGSGESPRAECH" → "bewerbungsgesprach"; "Fußball" → "fussball".
    static func fold(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "ß", with: "ss")
            .folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "ae", with: "a").replacingOccurrences(of: "oe", with: "o")
            .replacingOccurrences(of: "ue", with: "u")
    }

    /// Whether `keyword` begins a word of `title` (no letter or digit before it) and, for a
    /// `wholeWord`, also ends one.
    static func occurs(_ keyword: String, in title: String, wholeWord: Bool) -> Bool {
        var from = title.startIndex
        while from < title.endIndex, let found = title.range(of: keyword, range: from..<title.endIndex) {
            let startsWord = found.lowerBound == title.startIndex || !title[title.index(before: found.lowerBound)].isWordCharacter
            let endsWord = found.upperBound == title.endIndex || !title[found.upperBound].isWordCharacter
            if startsWord && (!wholeWord || endsWord) { return true }
            from = title.index(after: found.lowerBound)
        }
        return false
    }
}

extension Character {
    fileprivate var isWordCharacter: Bool { isLetter || isNumber }
}

/// Calendar load (docs/rules.md §7): hours × 15 (high), 8 (medium) or 3 (low), capped at 100. Events
/// that do not block time (cancelled, free, all-day) add nothing.
public enum CalendarLoad {
    public static func score(_ events: [ClassifiedEvent]) -> Double {
        let total = events.filter { $0.event.blocksTime && !$0.event.isAllDay }.reduce(0.0) { sum, item in
            let weight: Double =
                switch item.demand {
                case .high: 15
                case .medium: 8
                case .low: 3
                }
            return sum + item.event.duration / 3600 * weight
        }
        return min(100, (total * 10).rounded() / 10)
    }
}

/// Runs of meetings with no real break between them.
public enum MeetingBlocks {
    /// A gap shorter than this does not break a run (walking to the next room).
    public static let maxGap: TimeInterval = 10 * 60

    public static func blocks(_ events: [ClassifiedEvent]) -> [DateInterval] {
        let busy = events.map(\.event).filter { $0.blocksTime && !$0.isAllDay && $0.duration > 0 }.sorted { $0.start < $1.start }
        var blocks: [DateInterval] = []
        for event in busy {
            if let last = blocks.last, event.start.timeIntervalSince(last.end) <= maxGap {
                blocks[blocks.count - 1] = DateInterval(start: last.start, end: max(last.end, event.end))
            } else {
                blocks.append(DateInterval(start: event.start, end: event.end))
            }
        }
        return blocks
    }
}
