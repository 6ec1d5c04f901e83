/// A problem with a file or folder the command line names (a missing input, an output folder that
/// cannot take the file, an output that is one of the inputs), as opposed to a usage error (an
/// unknown option, a bad value, options that do not go together).
///
/// Both exit with 64, but only a usage error ends with "(see 'moviemaker … --help')": the help
/// cannot say why /proc refuses new files or where a photo went. Thrown from `validate()` as well as
/// `run()`; `MovieMakerCommand.exitReporting` finds it inside ArgumentParser's wrapping.
struct InputError: Error, CustomStringConvertible {
    /// The message, saying what is wrong and what to change.
    let description: String
    /// An error with `description` as its message.
    init(_ description: String) { self.description = description }
}
