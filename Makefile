# MovieMaker — the two commands a newcomer needs are `make demo` and `make test`.
# Each installs the missing system packages first (scripts/install-deps.sh, idempotent).

SWIFT ?= swift
# The toolchain's usual place on these machines, in case a non-login shell lacks it.
export PATH := $(PATH):/opt/swift/usr/bin
OUTPUT ?= output

PREFIX ?= /usr/local

# SwiftPM keeps only the header folders (-I) of a pkg-config file's Cflags and warns "prohibited flag(s):
# -pthread" on every build about the rest (pangocairo asks for -pthread through gio). SwiftPM has no setting
# to allow or silence it, and Package.swift cannot choose the .pc files; so `make deps` writes wrapper .pc
# files with the header folders only into .build/pkgconfig, and every swift command here finds them first.
# The build is the same (SwiftPM dropped those flags anyway), without the warning. Filtering the warning out
# of the output would hide it from a build of another package too, and lose swift's exit status in a pipe.
# (x264's -DX264_API_IMPORTS is gone for plain `swift build` too: Package.swift uses no pkg-config for it.)
PKGCONFIG_WRAPPERS := $(CURDIR)/.build/pkgconfig
export PKG_CONFIG_PATH := $(PKGCONFIG_WRAPPERS)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

# Recipes run in bash with pipefail, so a piped command still fails the target when it fails.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: deps build demo test test-package test-studio test-playback fuzz fuzz-descriptions sanitize sanitize-thread bench bench-peers bench-filters bench-chunks bench-captions bench-audiogram bench-reframe bench-transcribe bench-encoders bench-batch bench-incremental bench-title-batch test-distributed clean check-swift install gallery docs

check-swift:
	@command -v $(SWIFT) >/dev/null 2>&1 || { echo "swift not found: install Swift 6 (https://www.swift.org/install/linux/) and put it on PATH"; exit 1; }

deps: check-swift
	@bash scripts/install-deps.sh
	@bash scripts/pkgconfig-wrappers.sh $(PKGCONFIG_WRAPPERS)

## Release build of every product: the library (static and libMovieMakerDynamic.so), the `moviemaker`
## tool, the examples and the benchmark, in .build/release. A release moviemaker runs `moviemaker run`
## scripts against the release libMovieMakerDynamic.so and Modules/ beside it (LibraryLocation), so both
## come from this one build. (`make test` builds debug, in .build/debug, for quicker compiles.)
build: deps
	$(SWIFT) build -c release

## Renders the example movies into $(OUTPUT)/ and prints a summary of each, then runs the script
## examples/wave.swift with `moviemaker run` (compiled on first use, cached afterwards), then the
## tool's own commands: title cards, a slideshow, three title clips stitched with music, and a contact
## sheet and thumbnail of the stitched movie; then the description-file templates in examples/specs
## (their default media generated into examples/specs/media), one of them filled with --slot and
## --media, and one exported as OpenTimelineIO.
demo: build
	bash scripts/demo.sh "$$($(SWIFT) build -c release --show-bin-path)" "$(OUTPUT)" "$(PREFIX)"

## Renders every script of examples/gallery at full size into output/gallery and writes a poster frame of
## each into docs/gallery/ (shown by docs/gallery.md). `make test` renders them small instead (GalleryTests).
gallery: build
	bash scripts/gallery.sh "$$($(SWIFT) build -c release --show-bin-path)" "$(OUTPUT)/gallery"

## Links the release moviemaker into $(PREFIX)/bin (it keeps finding the release library in this checkout).
install: build
	ln -sf "$$($(SWIFT) build -c release --show-bin-path)/moviemaker" "$(PREFIX)/bin/moviemaker"
	@echo "installed $(PREFIX)/bin/moviemaker"

## Builds everything (library, dynamic library, moviemaker, examples, benchmark, tests) and runs the
## whole test suite. `--build-tests` builds every product too: the CLI tests run the built moviemaker.
## Debug build (quicker to compile than release). `swift test` runs two test runners one after the other:
## XCTest, which finds no tests (every suite is written for swift-testing, so all run side by side) and
## prints "Executed 0 tests", then swift-testing; the line printed first says so.
test: deps
	$(SWIFT) build --build-tests
	@echo "make test: every suite is swift-testing's (XCTest's runner goes first and finds none: its 'Executed 0 tests' is not the run's summary)."
	$(SWIFT) test --skip-build
	DOCS_BROWSER=0 bash scripts/docs.sh $(SWIFT)

## The README's "In your own package", whole: a package outside the checkout that depends on it by path
## is built from scratch in debug (a second build of the library, about 200 CPU seconds), run, and its
## movie read back (DependencyTests). `make test` checks the same package's Package.swift resolves and
## its main.swift renders as a script against the library it already built.
test-package: deps
	$(SWIFT) build --build-tests
	MOVIEMAKER_TEST_PACKAGE=1 $(SWIFT) test --skip-build --disable-xctest --filter DependencyTests

## The DocC site (Sources/MovieMaker/MovieMaker.docc: landing page, articles, five tutorials) in .build/docs,
## built with swift-docc-plugin, warnings as errors; then its index page is rendered in headless Chromium
## (installed when missing) and checked, its screenshot in .build/docs-index.png. `make test` builds the
## site too (DOCS_BROWSER=0: no browser).
docs: deps
	$(SWIFT) build
	bash scripts/docs.sh $(SWIFT)

## Browser tests of `moviemaker studio` in headless Chromium (Debian's chromium, installed here when missing,
## driven through the DevTools protocol by scripts/studio_browser_test.py, Python standard library only):
## the page loads, a seek shows frame N pixel for pixel, timeline widths, an edit shows within 2 s, errors show
## their JSON path or compiler line; prints the scrub latency of a 1080p title card; writes its screenshot to
## .build/studio.png (make test-studio STUDIO_SCREENSHOT=docs/studio.png updates the one the docs show).
## Not part of `make test` (it needs a browser).
STUDIO_SCREENSHOT ?= .build/studio.png
test-studio: deps
	$(SWIFT) build
	bash scripts/test-studio.sh "$$($(SWIFT) build --show-bin-path)/moviemaker" $(STUDIO_SCREENSHOT)

## Headless Chromium plays what MovieMaker writes for the web (scripts/playback_browser_test.py): VP9 and AV1
## WebM, AV1 and H.264 MP4 (HEVC where that Chromium decodes it) to their end at their size, the animated GIF
## and WebP, and an HLS stream (natively). Not part of `make test` (it needs a browser; installed when missing).
test-playback: deps
	$(SWIFT) build
	bash scripts/test-studio.sh --playback "$$($(SWIFT) build --show-bin-path)/moviemaker"

## Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of every parser and decoder that reads users'
## bytes (FuzzTarget.swift: photo, audio, svg-path, css-color, easing, description, subtitles, cube-lut,
## sticker; studio-http), FUZZ_SECONDS each (default 60), from the seeds the tests generate and the stored corpus in
## Tests/FuzzCorpus (which make test replays). Fails naming the input on a crash, leak, hang or memory
## blow-up. FUZZ_TARGETS="photo audio" picks targets; FUZZ_MERGE=1 minimises the corpus into Tests/FuzzCorpus.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

## The description-file mutation fuzz test (TimelineFuzzTests) with more mutants than `make test` tries
## (2500): MOVIEMAKER_FUZZ_COUNT (default here 100000, about a quarter of an hour on 2 cores),
## MOVIEMAKER_FUZZ_SEED (default 14). A crash or hang prints the mutant and how to replay it alone.
MOVIEMAKER_FUZZ_COUNT ?= 100000
fuzz-descriptions: deps
	$(SWIFT) build --build-tests
	MOVIEMAKER_FUZZ_COUNT=$(MOVIEMAKER_FUZZ_COUNT) $(SWIFT) test --skip-build --disable-xctest --filter TimelineFuzzTests

## The whole test suite under AddressSanitizer and LeakSanitizer, in .build/asan (about 3x make test's
## time). Third-party process-lifetime caches are suppressed in scripts/lsan-suppressions.txt, with reasons.
sanitize: deps
	bash scripts/sanitize.sh

## The multi-threaded tests (render scheduler, slideshow photo store, transitions, sound, chunks) and a
## 20-photo slideshow under ThreadSanitizer, in .build/tsan; fails on any report (scripts/sanitize-thread.sh).
sanitize-thread: deps
	bash scripts/sanitize-thread.sh

## `moviemaker title --batch` against separate `moviemaker title` runs of the same rows (20 lower
## thirds at 1080p, 3 s each, in Latin, Arabic and Japanese), paired and alternated, with the CPU other
## processes took; then the batch's movies through the independent checker. ROWS, SIZE, DURATION,
## PAIRS, JOBS choose (scripts/bench-title-batch.sh).
bench-title-batch: build
	bash scripts/bench-title-batch.sh

## Release build of the benchmark (and of the moviemaker tool, which the chunk line runs), then the standard
## workload, the slideshow, slideshow memory, audio, video, reverse, filters and chunk lines. Extra flags:
## make bench BENCH_ARGS="--json bench.json" (--cores 1, --skip-slideshow, --skip-chunks, … see moviemaker-bench --help)
bench: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$(SWIFT) build -c release --product moviemaker
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench $(BENCH_ARGS)

## The batch line of the benchmark alone: a 3-slot template's 40 rows rendered by one `moviemaker render
## --batch` process against 40 separate `render --slot` processes one after another (wall, CPU, the CPU
## other processes took; every movie compared byte for byte). A few minutes on 2 cores.
bench-batch: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$(SWIFT) build -c release --product moviemaker
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-batch $(BENCH_ARGS)

## The incremental line of the benchmark alone: a 3-minute description rendered in full, then with --cache
## (cold), after one title's text changed, and unchanged; the edited render's wall time against the full one.
bench-incremental: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$(SWIFT) build -c release --product moviemaker
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-incremental $(BENCH_ARGS)

## MovieMaker side by side with its peers (issue 20): W1 (Bézier shapes), W2 (a Ken Burns slideshow), W3 (an
## animated title) at medium and veryfast, 1080p30 CRF 20, against pycairo piped into ffmpeg, the ffmpeg command
## line (W2, W3), MoviePy 2.2.1 and x264 alone on our frames; paired runs, a table of fps, wall, CPU, peak RSS,
## ours÷peer per pair and the CPU other processes took. Installs what it needs (apt: ffmpeg, libcairo2-dev,
## pkg-config, python3-venv; PyPI into .build/peers-venv). A full run takes over an hour on 2 cores;
## BENCH_PEERS_QUICK=1 runs fewer frames and one pair (21.5 min on the busy 2-core machine); BENCH_PEERS_CORES=1
## pins every system to one CPU (taskset). See docs/BENCHMARKS.md.
bench-peers: deps
	bash scripts/bench-peers.sh

## The filters line of the benchmark alone: each filter's cost on a 1920×1080 frame, and a 3-s 1080p30
## medium render with a LUT + vignette + grain against the same render without them (a few minutes).
bench-filters: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-filters $(BENCH_ARGS)

## The chunk line of the benchmark alone: a 60-s 1080p30 medium description with music rendered by the
## moviemaker tool in one pass and as 2, 4 and 8 chunks run two processes at a time, each then assembled:
## CPU, bytes and assembly time against the one pass (about 4 one-pass renders: 15–25 minutes on 2 cores).
## Shorter: make bench-chunks BENCH_ARGS="--chunk-seconds 10"
## The captions line alone: word-by-word captions' cost per 1080p frame (target < 3 ms).
bench-captions: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-captions $(BENCH_ARGS)

## The reframe line alone: a 1080p clip's reframing analysis and its share of a 9:16 stitch's CPU (target < 15 %).
bench-reframe: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-reframe $(BENCH_ARGS)

bench-audiogram: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-audiogram $(BENCH_ARGS)

## The encoders line alone: h264, hevc, av1 and vp9 at 1080p on the same frames, MovieMaker's encoder against
## the ffmpeg command line with the same settings (fps, CPU, peak RSS, ratio; target ≥ 0.95).
bench-encoders: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-encoders $(BENCH_ARGS)

bench-transcribe: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-transcription $(BENCH_ARGS)

bench-chunks: deps
	$(SWIFT) build -c release --product moviemaker-bench
	$(SWIFT) build -c release --product moviemaker
	$$($(SWIFT) build -c release --show-bin-path)/moviemaker-bench --only-chunks $(BENCH_ARGS)

## Not part of `make test` (needs root: packages and daemons): renders examples/distributed/spec.json in one
## pass and in 4 chunks on a single-node Slurm cluster it starts in a temporary folder (job array + dependent
## assembly job) and with GNU parallel, and checks each is frame- and sample-identical to the one pass
## (ffmpeg framemd5); checks the Kubernetes manifests (kubernetes-validate from PyPI when it installs).
test-distributed: check-swift
	bash scripts/test-distributed.sh

clean:
	rm -rf .build $(OUTPUT) examples/specs/media
