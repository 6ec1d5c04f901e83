import Foundation
@_spi(Fuzzing) import MovieMaker

// `moviemaker-fuzz`: the fuzz targets of `FuzzTarget` in one binary.
//
// Built by `make fuzz` with `-sanitize=fuzzer,address` and `-D MOVIEMAKER_LIBFUZZER`: main hands the
// command line to libFuzzer's driver (`LLVMFuzzerRunDriver`: SwiftPM aliases `main` to this module's
// own, so libFuzzer's main is not linked), which calls `fuzzOneInput` for each input; the target comes
// from `MOVIEMAKER_FUZZ_TARGET` (libFuzzer owns the command line). In an ordinary build (so that
// `swift build` builds every product) it is a replayer instead:
// `moviemaker-fuzz TARGET FILE…` feeds each file to the target, which is how a crash that libFuzzer
// found is reproduced under a debugger.

/// The target named by `name`, or a line listing the names and exit 64.
func fuzzTarget(named name: String?) -> FuzzTarget {
    if let name, let target = FuzzTarget(rawValue: name) { return target }
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("moviemaker-fuzz: unknown target \"\(name ?? "")\"; give one of \(names)\n".utf8))
    exit(64)
}

#if MOVIEMAKER_LIBFUZZER
import CFuzzerDriver

/// The target, chosen once from the environment.
nonisolated(unsafe) var selectedTarget: FuzzTarget = .photo

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
            print("\(target.rawValue): \(path) (\(data.count) bytes)")
            target.consume(data)
        }
    }
}
#endif
