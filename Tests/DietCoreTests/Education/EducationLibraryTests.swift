import DietCore
import Testing

@Suite("Education")
struct EducationLibraryTests {
    @Test(
        "every topic exists in every language, with a heading and real length",
        arguments: EducationTopic.allCases
    )
    func present(topic: EducationTopic) throws {
        for language in Language.allCases {
            let text = try EducationLibrary.article(topic, in: language)
            #expect(text.hasPrefix("# "), "\(topic) \(language)")
            let words = text.split { $0.isWhitespace }.count
            #expect((200...700).contains(words), "\(topic) \(language): \(words) words")
            #expect(Localizer(language).hasKey(topic.title.key))
        }
    }

    @Test("the MATADOR article cites the study and its numbers in every language")
    func matador() throws {
        for language in Language.allCases {
            let text = try EducationLibrary.article(.matadorStudy, in: language)
            #expect(text.contains("Byrne NM, Sainsbury A, King NA, Hills AP, Wood RE"))
            #expect(text.contains("2018;42(2):129–138"))
            #expect(text.contains("67 %") && text.contains("51"))
            let decimal = language == .en ? "." : ","
            for number in ["14\(decimal)1", "9\(decimal)1", "12\(decimal)3", "8\(decimal)0", "11\(decimal)1", "3\(decimal)0"] {
                #expect(text.contains(number), "\(language): \(number)")
            }
        }
    }

    @Test("the TDEE article carries the formula's constants and factors")
    func tdee() throws {
        let text = try EducationLibrary.article(.tdee, in: .en)
        for fact in ["+5 for men, −161 for women", "−78", "1.375", "1.725", "1,200 kcal", "2.0 g per kg"] {
            #expect(text.contains(fact), "\(fact)")
        }
    }

    @Test("topics are found by name or localized title, accents ignored")
    func matching() {
        #expect(EducationLibrary.topic(matching: "tdee", in: .en) == .tdee)
        #expect(EducationLibrary.topic(matching: "MATADOR", in: .en) == .matadorStudy)
        #expect(EducationLibrary.topic(matching: "proteina", in: .es) == .protein)
        #expect(EducationLibrary.topic(matching: "Essensfenster", in: .de) == .intermittentFasting)
        #expect(EducationLibrary.topic(matching: "keto", in: .en) == nil)
        #expect(EducationLibrary.topic(matching: " ", in: .en) == nil)
    }
}
