import ArgumentParser

/// `-q/--quiet`: how much a render prints.
struct ProgressOptions: ParsableArguments {
    /// Print nothing but errors.
    @Flag(name: [.short, .long], help: "Print nothing but errors: no progress, no summary.")
    var quiet = false
}
