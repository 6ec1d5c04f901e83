/// What can stop `moviemaker run` before the script itself runs. Each message is one line that says
/// what to do.
enum ScriptError: Error, CustomStringConvertible {
    /// The script file does not exist.
    case scriptMissing(path: String)
    /// The path names a folder, not a Swift file.
    case scriptIsFolder(path: String)
    /// The script could not be read.
    case scriptUnreadable(path: String, reason: String)
    /// No MovieMaker checkout could be found from the running executable or its source location.
    case checkoutNotFound(executable: String)
    /// The checkout was found but the dynamic library or module is not built.
    case libraryNotBuilt(missing: String, packageRoot: String)
    /// No Swift compiler could be found.
    case compilerNotFound
    /// The compiler rejected the script; its own messages were printed above.
    case compileFailed(script: String)
    /// The compiler could not be started or the cache could not be written.
    case buildFailed(reason: String)
    /// The compiled script could not be started.
    case launchFailed(path: String, reason: String)
    /// SIGINT or SIGTERM came while the script was compiling; the compiler was stopped too.
    case interrupted(signal: Int32, script: String)

    var description: String {
        switch self {
        case let .scriptMissing(path):
            return "no script at \(path): give the path of a .swift file, e.g. moviemaker run examples/wave.swift"
        case let .scriptIsFolder(path):
            return "\(path) is a folder: give the path of one .swift file, e.g. moviemaker run examples/wave.swift"
        case let .scriptUnreadable(path, reason):
            return "cannot read the script \(path) (\(reason))"
        case let .checkoutNotFound(executable):
            return "cannot find the MovieMaker checkout \(executable) was built from: run the moviemaker in that checkout's .build folder (make build, then .build/debug/moviemaker)"
        case let .libraryNotBuilt(missing, root):
            return "the MovieMaker library is not built (\(missing) is missing): run `make build` in \(root)"
        case .compilerNotFound:
            return "swiftc not found: put the Swift toolchain's bin folder on PATH or set SWIFTC to the compiler's path"
        case let .compileFailed(script):
            return "\(script) did not compile: fix the errors the compiler reported above"
        case let .buildFailed(reason):
            return "could not compile the script: \(reason)"
        case let .launchFailed(path, reason):
            return "could not start the compiled script \(path): \(reason)"
        case let .interrupted(signal, script):
            return "cancelled (\(StopSignal.name(signal))) while compiling \(script): nothing was run"
        }
    }
}
