import DietCore
import Foundation

/// Why a store operation did not happen. Nothing is written when one is thrown.
public enum StoreError: Error, Hashable, Sendable {
    /// The input broke a product rule; the message names field, range and value.
    case invalid(ValidationError)
    /// No row of `table` has this id (or it was deleted).
    case notFound(table: String, id: String)
    /// The command needs a profile; run onboarding first.
    case notOnboarded
    /// Onboarding already happened; change the profile instead.
    case alreadyOnboarded
    /// A row holds values the app never writes (edited outside it).
    case damaged(table: String, id: String)
    /// The bundled food database is missing from the app's resources.
    case missingFoodDatabase
    /// No food has this id.
    case unknownFood(String)
    /// Another of the user's foods already has this barcode.
    case duplicateBarcode(String)
    /// The database lost its device id; it was not created by this app.
    case missingDeviceID
    /// An import file is not a w-diet export, or not into an empty database.
    case importRefused(reason: String)
    /// The store has synced with another account; its data must not flow into this one.
    case boundToAnotherAccount

    /// The message to show, in `language`.
    public func message(_ localizer: Localizer) -> String {
        switch self {
        case .invalid(let error): localizer.render(error.message)
        case .notFound(let table, let id): localizer.text("store.error.notFound.\(table)", ["id": .text(id)])
        case .notOnboarded: localizer.text("store.error.notOnboarded")
        case .alreadyOnboarded: localizer.text("store.error.alreadyOnboarded")
        case .damaged(let table, let id): localizer.text("store.error.damaged", ["table": .text(table), "id": .text(id)])
        case .missingFoodDatabase: localizer.text("store.error.missingFoodDatabase")
        case .unknownFood(let id): localizer.text("store.error.unknownFood", ["id": .text(id)])
        case .duplicateBarcode(let code): localizer.text("store.error.duplicateBarcode", ["code": .text(code)])
        case .missingDeviceID: localizer.text("store.error.missingDeviceID")
        case .importRefused(let reason): localizer.text("store.error.importRefused", ["reason": .text(reason)])
        case .boundToAnotherAccount: localizer.text("store.error.boundToAnotherAccount")
        }
    }
}
