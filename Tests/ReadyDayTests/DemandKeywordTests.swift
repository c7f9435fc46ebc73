import DietCore
import Foundation
import ReadyDay
import TestSupport
import Testing

/// Event demand from the titles people really give their days (issue 30: a German
/// "Bewerbungsgespräch" was rated low demand): everyday high-stakes events, appointments, big
/// days, travel and sport in German, Spanish and English, inside compounds and however spelled,
/// and short keywords that must not fire inside other words.
@Suite("ReadyDay: event demand from everyday titles in three languages")
struct DemandKeywordTests {
    let zone = Zones.berlin
    let day = LocalDate.ymd(2026, 11, 23)

    /// A calendar title, its start and end (hour, minute), the people invited, and the demand
    /// the briefing should show.
    typealias Row = (title: String, start: (Int, Int), end: (Int, Int), people: Int, demand: EnergyDemand)

    private func classify(_ row: Row) -> ClassifiedEvent {
        let event = CalendarEvent(
            title: row.title,
            start: day.instant(at: .hm(row.start.0, row.start.1), in: zone),
            end: day.instant(at: .hm(row.end.0, row.end.1), in: zone),
            attendeeCount: row.people
        )
        return DemandClassifier.classify(event, timeZone: zone)
    }

    private func check(_ rows: [Row]) {
        for row in rows {
            let classified = classify(row)
            #expect(classified.demand == row.demand, "“\(row.title)”: \(classified.demand) (\(classified.points) points), not \(row.demand)")
        }
    }

    @Test("interviews, exams, operations, court dates, negotiations are high however short; appointments, moves, flights, sport ask more")
    func everydayEvents() {
        check([
            // German
            ("Bewerbungsgespräch", (10, 0), (11, 0), 0, .high),
            ("Vorstellungsgespräch bei Siemens", (9, 30), (10, 30), 2, .high),
            ("Abschlussprüfung Mathe", (8, 0), (10, 0), 0, .high),
            ("Klausur Statistik", (10, 0), (11, 30), 0, .high),
            ("Mündliche Prüfung", (11, 0), (11, 30), 3, .high),
            ("Gehaltsverhandlung", (15, 0), (15, 30), 1, .high),
            ("OP am Knie", (7, 0), (10, 0), 0, .high),
            ("Gerichtstermin", (9, 0), (10, 0), 0, .high),
            ("Jahresgespräch mit Chefin", (14, 0), (15, 0), 1, .high),
            ("Hochzeit Lisa & Tom", (14, 0), (23, 0), 0, .high),
            ("Arzttermin", (8, 30), (9, 0), 0, .medium),
            ("Zahnarzttermin", (16, 0), (16, 45), 0, .medium),
            ("Termin beim Hausarzt", (8, 0), (8, 30), 0, .medium),
            ("Abgabe Bachelorarbeit", (11, 0), (11, 30), 0, .medium),
            ("Mitarbeitergespräch", (10, 0), (10, 30), 1, .medium),
            ("Elternabend", (19, 30), (21, 0), 0, .medium),
            ("Umzugskartons packen", (18, 0), (19, 0), 0, .medium),
            ("Beerdigung Opa", (11, 0), (12, 30), 0, .medium),
            ("Flug nach Lissabon", (6, 0), (7, 45), 0, .medium),
            ("Vortrag auf dem Kongress", (10, 0), (10, 45), 0, .medium),
            ("Fußballtraining", (18, 0), (19, 30), 0, .medium),
            ("Laufen im Park", (7, 0), (8, 0), 0, .medium),
            ("Yoga", (7, 0), (8, 0), 0, .medium),
            ("Schwimmen", (18, 0), (19, 0), 0, .medium),
            ("Fitnessstudio", (18, 0), (19, 0), 0, .medium),
            // Spanish
            ("Entrevista de trabajo", (10, 0), (11, 0), 2, .high),
            ("Examen de conducir", (9, 0), (9, 45), 0, .high),
            ("Negociación del contrato", (11, 0), (12, 0), 3, .high),
            ("Operación de rodilla", (8, 0), (11, 0), 0, .high),
            ("Boda de Marta", (13, 0), (20, 0), 0, .high),
            ("Cita con el dentista", (17, 0), (17, 30), 0, .medium),
            ("Cita médica", (9, 0), (9, 30), 0, .medium),
            ("Mudanza: cargar el camión", (9, 0), (10, 30), 0, .medium),
            ("Vuelo a Madrid", (7, 0), (8, 30), 0, .medium),
            ("Entrenamiento de fútbol", (19, 0), (20, 30), 0, .medium),
            ("Clase de yoga", (8, 0), (9, 0), 0, .medium),
            // English
            ("Job interview at Acme", (10, 0), (11, 0), 2, .high),
            ("Final exam", (9, 0), (11, 0), 0, .high),
            ("Salary negotiation", (11, 0), (11, 30), 1, .high),
            ("Knee surgery", (8, 0), (12, 0), 0, .high),
            ("Court hearing", (9, 0), (10, 0), 0, .high),
            ("Dentist", (16, 0), (16, 30), 0, .medium),
            ("Flight to Berlin", (7, 0), (8, 30), 0, .medium),
            ("Football training", (18, 0), (19, 30), 0, .medium),
            ("Project deadline", (17, 0), (17, 30), 0, .medium),
            ("Gym", (18, 0), (19, 0), 0, .medium),
        ])
    }

    @Test("keywords are found inside compounds and whatever the case, accents or ä/ae, ß/ss spelling")
    func spellings() {
        check([
            ("Bewerbungsgespraech", (10, 0), (11, 0), 0, .high),
            ("BEWERBUNGSGESPRÄCH", (10, 0), (11, 0), 0, .high),
            ("ZWISCHENPRÜFUNG", (8, 0), (9, 0), 0, .high),
            ("Pruefung Latein", (8, 0), (9, 0), 0, .high),
            ("Fussball", (18, 0), (19, 30), 0, .medium),
            ("Kundenpräsentation", (14, 0), (15, 0), 4, .high),
            ("Kundenpraesentation", (14, 0), (15, 0), 4, .high),
            ("OP-Termin", (7, 0), (8, 0), 0, .high),
            ("Examen de Matematicas", (9, 0), (10, 0), 0, .high),
            ("Cita medica", (9, 0), (9, 30), 0, .medium),
        ])
    }

    @Test("a short keyword does not fire inside another word, and a check is not an exam")
    func noFalseMatches() {
        check([
            ("Kooperation Meeting", (10, 0), (10, 30), 2, .low),
            ("Kaffee mit Opa", (15, 0), (15, 30), 1, .low),
            ("Operations sync", (10, 0), (10, 30), 3, .low),
            ("Überprüfung der Rechnungen", (10, 0), (10, 30), 1, .low),
            ("Transport klären", (10, 0), (10, 30), 0, .low),
            ("Ablauf besprechen", (10, 0), (10, 30), 1, .low),
            ("Dashboard ansehen", (10, 0), (10, 30), 1, .low),
            ("Recycling abholen", (10, 0), (10, 30), 0, .low),
            ("Example walkthrough", (10, 0), (10, 30), 2, .low),
            ("Visita a la bodega", (17, 0), (17, 30), 0, .low),
            // "cena" (dinner, light) is not inside "escena"
            ("Ensayo de la escena final", (10, 0), (11, 0), 2, .medium),
            ("Mittagspause", (12, 0), (13, 0), 0, .low),
        ])
    }
}
