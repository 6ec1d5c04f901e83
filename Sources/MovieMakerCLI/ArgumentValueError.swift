/// Why a command-line value could not be read. ArgumentParser prints it after
/// "the value 'X' is invalid for '--option <value>': ", so the message says what is expected.
struct ArgumentValueError: Error, CustomStringConvertible {
    /// What the value should have looked like, e.g. "expected WIDTHxHEIGHT in pixels, like 1920x1080".
    let description: String
    init(_ description: String) { self.description = description }
}
