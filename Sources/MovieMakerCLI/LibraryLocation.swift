import Foundation

/// Where this checkout's MovieMaker library is built: the files `moviemaker run` compiles scripts against.
///
/// Found from the running executable: `moviemaker` lives in the SwiftPM bin folder
/// (`<checkout>/.build/<triple>/release/` after `make build`, `…/debug/` after `swift build`), beside
/// `libMovieMakerDynamic.so` and `Modules/MovieMaker.swiftmodule`; the checkout is the nearest folder
/// above it with a `Package.swift`. So a release moviemaker links scripts against the release library,
/// a debug one against the debug library. When the executable has been copied elsewhere, the checkout
/// this source file was compiled in (`#filePath`) is used instead, with the `.build` folder of this
/// executable's own configuration first (`release` for a release build), then the other one.
struct LibraryLocation {
    /// The package's root folder (holds `Package.swift` and `Sources/`).
    let packageRoot: URL
    /// The SwiftPM bin folder holding the library and `Modules/`.
    let binFolder: URL

    /// The dynamic library product's name (`-l` flag) as declared in Package.swift.
    static let productName = "MovieMakerDynamic"

    /// `lib<product>.so`.
    var dynamicLibrary: URL { binFolder.appendingPathComponent("lib\(Self.productName).so") }
    /// The folder of Swift modules (`-I` flag).
    var modulesFolder: URL { binFolder.appendingPathComponent("Modules") }
    /// The MovieMaker module a script imports.
    var moduleFile: URL { modulesFolder.appendingPathComponent("MovieMaker.swiftmodule") }

    /// Finds the checkout and checks that the library is built; throws saying what to run when it is not.
    static func locate(sourceFile: String = #filePath) throws(ScriptError) -> LibraryLocation {
        let executable = currentExecutable()
        let candidates: [(root: URL, bins: [URL])] = [
            executable.flatMap { exe in
                let bin = exe.deletingLastPathComponent()
                return packageRoot(above: bin).map { ($0, [bin]) }
            },
            packageRoot(above: URL(fileURLWithPath: sourceFile).deletingLastPathComponent()).map { root in
                (root, Self.configurations.map { root.appendingPathComponent(".build/\($0)").resolvingSymlinksInPath() })
            },
        ].compactMap { $0 }
        guard let first = candidates.first else {
            throw .checkoutNotFound(executable: executable?.path ?? "moviemaker")
        }
        for candidate in candidates {
            for bin in candidate.bins {
                let location = LibraryLocation(packageRoot: candidate.root, binFolder: bin)
                if location.missingFile == nil { return location }
            }
        }
        let location = LibraryLocation(packageRoot: first.root, binFolder: first.bins[0])
        throw .libraryNotBuilt(missing: location.missingFile ?? location.dynamicLibrary.path, packageRoot: first.root.path)
    }

    /// SwiftPM's build configurations, this executable's own first.
    static var configurations: [String] {
        #if DEBUG
        return ["debug", "release"]
        #else
        return ["release", "debug"]
        #endif
    }

    /// The first required file that is absent, or nil when the library is ready.
    var missingFile: String? {
        [dynamicLibrary, moduleFile].first { !FileManager.default.fileExists(atPath: $0.path) }?.path
    }

    /// The running executable with symbolic links resolved (`/proc/self/exe`).
    static func currentExecutable() -> URL? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
    }

    /// The nearest folder at or above `folder` that holds a MovieMaker `Package.swift` and `Sources/MovieMaker`.
    static func packageRoot(above folder: URL) -> URL? {
        var current = folder.standardizedFileURL
        while current.path != "/" {
            let manifest = current.appendingPathComponent("Package.swift").path
            let library = current.appendingPathComponent("Sources/MovieMaker").path
            if FileManager.default.fileExists(atPath: manifest), FileManager.default.fileExists(atPath: library) {
                return current
            }
            current = current.deletingLastPathComponent()
        }
        return nil
    }
}
