/// Imports of the data people already have (SPEC §8): Apple Health exports, Cronometer and
/// MyFitnessPal diaries.
public enum Importer {}
