import Testing

@testable import DietImport
