import Foundation
import MovieMaker

// `moviemaker-fuzz`: the fuzz targets of `FuzzTarget` in one binary.
//
// Built by `make fuzz` with `-sanitize=fuzzer,address` and `-D MOVIEMAKER_LIBFUZZER`: main hands the
// command line to libFuzzer's driver (`LLVMFuzzerRunDriver`: SwiftPM aliases `main` to this module's
// own, so libFuzzer's main is not linked), which calls `fuzzOneInput` for each input; the target comes
// from `MOVIEMAKER_FUZZ_TARGET` (libFuzzer owns the command line). In an ordinary build (so that
// `swift build` builds every product) it is a replayer instead:
// `moviemaker-fuzz TARGET FILE…` feeds each file to the target, which is how a crash that libFuzzer
// found is reproduced under a debugger.
//
// Besides the library's targets there is `studio-http`: the studio's HTTP request reader
// (`HTTPRequestReader`, Sources/MovieMakerStudio/HTTPRequestReader.swift). It needs only the standard
// library, and this target links that one file (a symbolic link here) rather than the whole studio
// module with its HTTP server and page.

/// A target of this binary: one of the library's, or the studio's request reader.
enum BinaryTarget {
    /// A `FuzzTarget` of the library.
    case library(FuzzTarget)
    /// `studio-http`: `HTTPRequestReader.fuzz`.
    case studioHTTP

    /// The name `make fuzz` and the replayer use.
    var name: String {
        switch self {
        case let .library(target): target.rawValue
        case .studioHTTP: "studio-http"
        }
    }

    /// Feeds `bytes` to the target.
    func consume(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case let .library(target): target.consume(bytes)
        case .studioHTTP: HTTPRequestReader.fuzz(bytes)
        }
    }

    /// `consume(_:)` for `Data`.
    func consume(_ data: Data) {
        data.withUnsafeBytes { consume($0) }
    }
}

/// The target named by `name`, or a line listing the names and exit 64.
func fuzzTarget(named name: String?) -> BinaryTarget {
    if let name, let target = FuzzTarget(rawValue: name) { return .library(target) }
    if name == BinaryTarget.studioHTTP.name { return .studioHTTP }
    let names = (FuzzTarget.allCases.map(\.rawValue) + [BinaryTarget.studioHTTP.name]).joined(separator: ", ")
    FileHandle.standardError.write(Data("moviemaker-fuzz: unknown target \"\(name ?? "")\"; give one of \(names)\n".utf8))
    exit(64)
}

#if MOVIEMAKER_LIBFUZZER
import CFuzzerDriver

/// The target, chosen once from the environment.
nonisolated(unsafe) var selectedTarget: BinaryTarget = .library(.photo)

/// libFuzzer's main, through its driver.
@main
enum FuzzMain {
    static func main() {
        selectedTarget = fuzzTarget(named: ProcessInfo.processInfo.environment["MOVIEMAKER_FUZZ_TARGET"])
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            selectedTarget.consume(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        })
    }
}
#else
/// The replayer: `moviemaker-fuzz TARGET FILE…`.
@main
enum FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        let target = fuzzTarget(named: arguments.first)
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("moviemaker-fuzz: cannot read \(path)\n".utf8))
                exit(66)
            }
            print("\(target.name): \(path) (\(data.count) bytes)")
            target.consume(data)
        }
    }
}
#endif
