import ArgumentParser

/// `-q/--quiet` and `--silent`: how much a render prints.
struct ProgressOptions: ParsableArguments {
    /// No progress: only the summary line and errors.
    @Flag(name: [.short, .long], help: "No progress: print only the one summary line naming the file (and errors).")
    var quiet = false

    /// Nothing on success.
    @Flag(help: "Print nothing on success: no progress, no summary (warnings and errors still go to standard error).")
    var silent = false

    /// Whether progress and the notes before a render ("checking 27 photos…") are shown.
    var showsProgress: Bool { !quiet && !silent }
    /// Whether the summary line at the end is printed.
    var showsSummary: Bool { !silent }
}
