// swift-tools-version:6.0
// MovieMaker: movies from Swift drawing closures, encoded in-process with x264 and muxed by libavformat.
import PackageDescription

let package = Package(
    name: "MovieMaker",
    products: [
        .library(name: "MovieMaker", targets: ["MovieMaker"]),
        // Only for `DrawingContext.withCairoContext { cr in … }`: `import CCairo` to call Cairo on `cr`.
        .library(name: "CCairo", targets: ["CCairo"]),
        // The same library as a shared object (libMovieMakerDynamic.so), for `moviemaker run script.swift`:
        // scripts are compiled with swiftc against it and its Modules/MovieMaker.swiftmodule.
        .library(name: "MovieMakerDynamic", type: .dynamic, targets: ["MovieMaker"]),
        // The command-line tool: `moviemaker title …`, `moviemaker still …`, `moviemaker run script.swift`.
        .executable(name: "moviemaker", targets: ["MovieMakerCLI"]),
        .executable(name: "moviemaker-examples", targets: ["Examples"]),
        .executable(name: "moviemaker-bench", targets: ["MovieMakerBench"]),
        // The fuzz targets (FuzzTarget.swift): a libFuzzer binary under `make fuzz`, a replayer otherwise.
        .executable(name: "moviemaker-fuzz", targets: ["MovieMakerFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `moviemaker studio`'s HTTP server (MovieMakerStudio): small, async/await, no SwiftNIO to build.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // `make docs`: the DocC site (Sources/MovieMaker/MovieMaker.docc) with `swift package generate-documentation`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `moviemaker mcp`: the Model Context Protocol server for coding agents (its MCP target needs only
        // swift-system and swift-log; SwiftNIO is resolved for the package's own examples, not built).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        // One system-library target per C library. Each finds its flags with pkg-config and names the
        // Debian package that provides it, so `swift build` tells a newcomer what to install. (pangocairo's
        // flags include -pthread, which SwiftPM refuses with a warning: the Makefile puts header-only wrapper
        // .pc files first on PKG_CONFIG_PATH, see scripts/pkgconfig-wrappers.sh.)
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // Pango on Cairo (HarfBuzz shaping, fontconfig font lookup): real text in every script.
        .systemLibrary(
            name: "CPango", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libfontconfig-dev"])]),
        // x264 without pkgConfig: its .pc file's only compiler flag is -DX264_API_IMPORTS (dllimport, for
        // Windows DLLs only), which SwiftPM refuses with "warning: prohibited flag(s)" on every build; the header
        // and library are in the compiler's default folders (libx264-dev, installed by scripts/install-deps.sh),
        // and module.modulemap links x264.
        .systemLibrary(name: "CX264"),
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]),
        // libavfilter (FilterGraph.swift): atempo for time-stretched sound, bwdif for deinterlacing.
        .systemLibrary(name: "CAVFilter", pkgConfig: "libavfilter", providers: [.apt(["libavfilter-dev"])]),
        // The few FFmpeg macros Swift cannot import (AVERROR, AV_NOPTS_VALUE, av_err2str, the
        // variadic log callback). Every function there says why it exists.
        .target(name: "CMovieMakerShim", dependencies: ["CFFmpeg"]),
        // Photo decoding (see ImageDecoder.swift for why each decoder was chosen): libjpeg-turbo for
        // JPEG (SIMD, DCT scaling, CMYK), libpng (16-bit, palette), libwebp, libheif (HEIC/AVIF), and
        // LittleCMS for ICC profiles. TIFF, BMP and GIF go through libavcodec, already linked.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // eSpeak NG (SpeechSynthesizer.swift): narration spoken by the linked library (in a child process per text) in any of its languages, with
        // the synthesiser's own word and bookmark events for exact word times.
        .systemLibrary(name: "CESpeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        // Each synthesis in a child process forked for it, so eSpeak NG's function statics never carry one
        // text's state into the next (CMovieMakerSpeech.h says why; C only, as a forked child must be).
        .target(name: "CMovieMakerSpeech", dependencies: ["CESpeakNG"]),
        // PocketSphinx (SpeechRecognizer.swift): a known text's words placed on speech (a grammar of the text),
        // and English recognised, in-process, with Debian's en-us model.
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx", providers: [.apt(["libpocketsphinx-dev", "pocketsphinx-en-us"])]),
        // rlottie (LottieAnimation.swift): Lottie animations drawn in-process into the frame's pixels.
        .systemLibrary(name: "CRLottie", pkgConfig: "rlottie", providers: [.apt(["librlottie-dev"])]),
        // aubio (Beats.swift): a music file's beats and tempo, for cuts on the beat.
        .systemLibrary(name: "CAubio", pkgConfig: "aubio", providers: [.apt(["libaubio-dev"])]),
        // OpenCV (FaceDetector.swift, through CMovieMakerVision): faces found for reframing to another aspect
        // ratio, with the Haar cascade Debian's opencv-data ships. Its API is C++: COpenCV only carries
        // the flags, CMovieMakerVision is the C++ file Swift calls through a C header.
        .systemLibrary(name: "COpenCV", pkgConfig: "opencv4", providers: [.apt(["libopencv-dev", "opencv-data"])]),
        .target(name: "CMovieMakerVision", dependencies: ["COpenCV"]),
        // libjpeg and libpng report errors by longjmp (or exit()), which Swift cannot catch: their
        // calls live in this small C target, which turns every error into a code and a message.
        .target(name: "CMovieMakerImageShim", dependencies: ["CJPEG", "CPNG"]),
        // The pure-Swift core: exact time and rates, easing and keyframes, geometry, colours, paths,
        // errors, JSON values and paths, the JSON Schema builder, cancellation. No C module, no Logging,
        // nothing above it (ARCHITECTURE.md's layer table); `MovieMaker` re-exports it.
        .target(name: "MovieMakerCore"),
        .target(
            name: "MovieMaker",
            dependencies: [
                "MovieMakerCore",
                "CCairo", "CFreeType", "CPango", "CX264", "CFFmpeg", "CAVFilter", "CMovieMakerShim",
                "CJPEG", "CPNG", "CWebP", "CHeif", "CLCMS", "CMovieMakerImageShim", "CESpeakNG", "CMovieMakerSpeech", "CPocketSphinx",
                "CRLottie", "CAubio", "CMovieMakerVision",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `moviemaker studio`: the preview server (FlyingFox), its frame cache and its page (Resources/: plain
        // HTML, CSS and JavaScript, no build step), as a library so the tests can run it in-process.
        .target(
            name: "MovieMakerStudio",
            dependencies: ["MovieMaker", "CCairo", .product(name: "FlyingFox", package: "FlyingFox")],
            resources: [.copy("Resources")]),
        .executableTarget(
            name: "MovieMakerCLI",
            dependencies: [
                "MovieMaker", "MovieMakerStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(name: "Examples", dependencies: ["MovieMaker"]),
        // CJPEG: the slideshow lines write their photos with libjpeg (BenchPhotos.swift).
        // The pictures of the benchmark's workloads, shared with the tests that check code on them.
        .target(name: "MovieMakerWorkloads", dependencies: ["MovieMaker"]),
        .executableTarget(name: "MovieMakerBench", dependencies: ["MovieMaker", "MovieMakerWorkloads", "CJPEG"]),
        // libFuzzer's driver function, declared for Swift (only the `make fuzz` build calls it).
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "MovieMakerFuzz", dependencies: ["MovieMaker", "CFuzzerDriver"]),
        // What the three test targets share: temporary folders, running tools, decoding movies, photo and
        // sound fixtures, pixel comparisons. Only the test targets depend on it.
        .target(name: "MovieMakerTestSupport", dependencies: ["MovieMaker", "CMovieMakerTestKernels"], path: "Tests/MovieMakerTestSupport"),
        // The test helpers' per-pixel and per-sample loops in C, so the debug build the suite runs in
        // does not spend a tenth of its time in them (same results to the bit: see its header).
        .target(name: "CMovieMakerTestKernels", path: "Tests/CMovieMakerTestKernels"),
        // Unit tests: values, drawing, composition, decoding; nothing is encoded (frames are checked in memory).
        .testTarget(name: "MovieMakerUnitTests", dependencies: ["MovieMaker", "MovieMakerTestSupport", "CMovieMakerTestKernels"]),
        // Render tests: movies written with x264/libavformat and read back (frames, timestamps, colour, sound).
        .testTarget(name: "MovieMakerRenderTests", dependencies: ["MovieMaker", "MovieMakerTestSupport", "MovieMakerWorkloads"]),
        // CLI tests: the built `moviemaker` binary run as a process.
        .testTarget(name: "MovieMakerCLITests", dependencies: ["MovieMaker", "MovieMakerTestSupport"]),
        // Studio tests: `moviemaker studio` run as a process and spoken to over HTTP on 127.0.0.1 (its frame
        // cache in-process).
        .testTarget(
            name: "MovieMakerStudioTests",
            dependencies: ["MovieMaker", "MovieMakerStudio", "MovieMakerTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
