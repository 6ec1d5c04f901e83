internal import CFFmpeg
internal import CAVFilter
internal import CMovieMakerShim
import Foundation

// libavfilter, in the order of FFmpeg's doc/examples/filtering_audio.c and filtering_video.c: a graph,
// a buffer source that frames are pushed into, the caller's filter description parsed between it and a
// buffer sink whose output format is constrained, then avfilter_graph_config. Frames go in with
// `send` (av_buffersrc_add_frame_flags; nil is the end of the input) and come out with `receive`
// (av_buffersink_get_frame); AVERROR(EAGAIN) and AVERROR_EOF are handled there and nowhere else.
//
// One Swift owner per C handle, as in FFmpeg.swift: `FilterGraph` owns the AVFilterGraph (and through
// it every filter context in it, which are `borrowed…`), `OwnedFilterInOut` owns the AVFilterInOut
// lists avfilter_graph_parse_ptr reads and rewrites.

/// Owns one `AVFilterInOut` list (the open ends of a graph being parsed) until it is freed.
final class OwnedFilterInOut {
    /// The list (owned: freed in `deinit`); avfilter_graph_parse_ptr may replace it (or set it to nil).
    var pointer: UnsafeMutablePointer<AVFilterInOut>?

    /// One open end named `name`, at pad `pad` of `filter` (avfilter_inout_alloc; the name is copied
    /// with av_strdup, freed by avfilter_inout_free).
    convenience init(name: String, filter: UnsafeMutablePointer<AVFilterContext>, pad: Int32 = 0) throws(MovieMakerError) {
        try self.init(ends: [(name, filter)])
    }

    /// A list of open ends, each `name` at pad 0 of its filter, in order (each allocated with
    /// avfilter_inout_alloc and linked by `next`; avfilter_inout_free frees the whole list).
    init(ends: [(name: String, filter: UnsafeMutablePointer<AVFilterContext>)]) throws(MovieMakerError) {
        pointer = nil
        var last: UnsafeMutablePointer<AVFilterInOut>?
        for end in ends {
            guard let p = avfilter_inout_alloc() else {
                throw .ffmpeg(operation: "avfilter_inout_alloc", code: averrorENOMEM, message: "out of memory")
            }
            // Linked before anything can fail, so `deinit` frees it with the rest.
            if let last { last.pointee.next = p } else { pointer = p }
            last = p
            p.pointee.next = nil
            p.pointee.filter_ctx = end.filter
            p.pointee.pad_idx = 0
            guard let copied = av_strdup(end.name) else {
                throw .ffmpeg(operation: "av_strdup", code: averrorENOMEM, message: "out of memory")
            }
            p.pointee.name = copied
        }
    }

    /// Frees the list and the names in it (avfilter_inout_free).
    deinit { avfilter_inout_free(&pointer) }
}

/// A libavfilter graph with one input and one output: audio (`abuffer` → filters → `abuffersink`) or
/// video (`buffer` → filters → `buffersink`).
///
/// Owns the `AVFilterGraph` and frees it (and every filter in it) with avfilter_graph_free. Push
/// frames with `send(_:)` (nil at the end of the input), pull them with `receive(into:)` until it
/// says it needs more input or has ended. Used from one thread at a time.
final class FilterGraph {
    /// What the graph's buffer source is told about the frames it will be sent.
    enum Input {
        /// Sound: frames of `sampleFormat` at `sampleRate` with `channelCount` channels in the default
        /// layout for that count (stereo for 2), timestamps in `timeBase`.
        case audio(sampleRate: Int32, sampleFormat: AVSampleFormat, channelCount: Int32, timeBase: AVRational)
        /// Pictures: `width`×`height` frames of `pixelFormat`, timestamps in `timeBase`, pixels of
        /// `sampleAspectRatio` (1/1 for square pixels).
        case video(width: Int32, height: Int32, pixelFormat: AVPixelFormat, timeBase: AVRational, sampleAspectRatio: AVRational)
    }

    /// The format the buffer sink accepts: libavfilter converts to it (aresample, scale) when the last
    /// filter gives something else.
    enum Output {
        /// Sound in `sampleFormat` (e.g. packed float, `AV_SAMPLE_FMT_FLT`), at `sampleRate`, with
        /// `channelCount` channels in the default layout.
        case audio(sampleRate: Int32, sampleFormat: AVSampleFormat, channelCount: Int32)
        /// Pictures in one of `pixelFormats` (empty: whatever the filters give).
        case video(pixelFormats: [AVPixelFormat])
    }

    /// What `receive(into:)` got.
    enum Received: Equatable {
        /// A frame was written into the destination.
        case frame
        /// No frame until more input is sent (AVERROR(EAGAIN)).
        case needsInput
        /// The input has ended and every frame has been delivered (AVERROR_EOF).
        case ended
    }

    /// The graph (owned: freed with its filters in `deinit`).
    private let graph: UnsafeMutablePointer<AVFilterGraph>
    /// The buffer source frames are sent to (borrowed: it belongs to `graph`); nil only while `init` fails.
    private var borrowedSource: UnsafeMutablePointer<AVFilterContext>?
    /// A second buffer source (`secondInput`), e.g. the palette `paletteuse` reads (borrowed: it belongs to `graph`).
    private var borrowedSecondSource: UnsafeMutablePointer<AVFilterContext>?
    /// The buffer sink frames are received from (borrowed: it belongs to `graph`); nil only while `init` fails.
    private var borrowedSink: UnsafeMutablePointer<AVFilterContext>?
    /// The filter description between source and sink, as given (for errors).
    let filters: String
    /// Whether `send(nil)` was called: the input has ended.
    private(set) var inputEnded = false

    /// Builds the graph `input` → `filters` → `output` and configures it (avfilter_graph_alloc, the
    /// buffer source with `input`'s parameters, the buffer sink with `output`'s constraints,
    /// avfilter_graph_parse_ptr, avfilter_graph_config). `filters` is libavfilter's filter-chain syntax,
    /// e.g. `"atempo=1.5"` or `"bwdif=mode=send_frame:deint=all"` (`"anull"`/`"null"` passes frames
    /// through). `threads` is the graph's slice threads (0: as many as there are cores).
    ///
    /// A description libavfilter cannot parse (an unknown filter, a bad option) throws `.ffmpeg`
    /// whose message quotes the description and names the filter at fault.
    ///
    /// `secondInput` adds a second buffer source whose pad `filters` names by its label, e.g.
    /// `[in][palette]paletteuse` with the label `palette` (the first input is then `[in]`); frames go to
    /// it with `sendToSecondInput(_:)`.
    init(input: Input, filters: String, output: Output, threads: Int32 = 0,
         secondInput: (label: String, input: Input)? = nil) throws(MovieMakerError) {
        guard let g = avfilter_graph_alloc() else {
            throw .ffmpeg(operation: "avfilter_graph_alloc", code: averrorENOMEM, message: "out of memory")
        }
        graph = g
        self.filters = filters
        // From here on every property is set: a throw runs `deinit`, which frees the graph.
        g.pointee.nb_threads = threads

        // The buffer source, told everything about the frames it will get (filtering_*.c: "in").
        let sourceName: String, sourceArguments: String
        switch input {
        case let .audio(rate, format, channels, timeBase):
            sourceName = "abuffer"
            let layout = try Self.layoutName(channels: channels)
            let formatName = av_get_sample_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
            sourceArguments = "time_base=\(timeBase.num)/\(timeBase.den):sample_rate=\(rate):sample_fmt=\(formatName):channel_layout=\(layout)"
        case let .video(width, height, format, timeBase, aspect):
            sourceName = "buffer"
            let sar = aspect.num > 0 && aspect.den > 0 ? aspect : AVRational(num: 1, den: 1)
            sourceArguments = "video_size=\(width)x\(height):pix_fmt=\(format.rawValue):time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=\(sar.num)/\(sar.den)"
        }
        let source = try Self.makeFilter(named: sourceName, label: "in", in: g) { context throws(MovieMakerError) in
            try ffCheck(avfilter_init_str(context, sourceArguments), "avfilter_init_str (\(sourceName) \(sourceArguments))")
        }

        borrowedSource = source
        if let (label, second) = secondInput {
            guard case let .video(width, height, format, timeBase, _) = second else {
                preconditionFailure("FilterGraph: a second input carries pictures")
            }
            let arguments = "video_size=\(width)x\(height):pix_fmt=\(format.rawValue):time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=1/1"
            borrowedSecondSource = try Self.makeFilter(named: "buffer", label: label, in: g) { context throws(MovieMakerError) in
                try ffCheck(avfilter_init_str(context, arguments), "avfilter_init_str (buffer \(arguments))")
            }
        }

        // The buffer sink, constrained to the format the caller reads (filtering_*.c: "out").
        let sink: UnsafeMutablePointer<AVFilterContext>
        switch output {
        case let .audio(rate, format, channels):
            let layout = try Self.layoutName(channels: channels)
            sink = try Self.makeFilter(named: "abuffersink", label: "out", in: g) { context throws(MovieMakerError) in
                try Self.setIntegers("sample_fmts", [format.rawValue], on: context)
                try Self.setIntegers("sample_rates", [rate], on: context)
                try ffCheck(av_opt_set(context, "ch_layouts", layout, AV_OPT_SEARCH_CHILDREN), "av_opt_set (abuffersink ch_layouts \(layout))")
                try ffCheck(avfilter_init_str(context, nil), "avfilter_init_str (abuffersink)")
            }
        case let .video(formats):
            sink = try Self.makeFilter(named: "buffersink", label: "out", in: g) { context throws(MovieMakerError) in
                if !formats.isEmpty { try Self.setIntegers("pix_fmts", formats.map { $0.rawValue }, on: context) }
                try ffCheck(avfilter_init_str(context, nil), "avfilter_init_str (buffersink)")
            }
        }

        // The description's open input is fed by the source, its open output feeds the sink. In
        // avfilter_graph_parse_ptr's terms the source is an output ("in") and the sink an input ("out").
        borrowedSink = sink
        var ends = [(name: "in", filter: source)]
        if let second = borrowedSecondSource, let label = secondInput?.label { ends.append((label, second)) }
        let outputs = try OwnedFilterInOut(ends: ends)
        let inputs = try OwnedFilterInOut(name: "out", filter: sink)
        let parsed = avfilter_graph_parse_ptr(g, filters, &inputs.pointer, &outputs.pointer, nil)
        if parsed < 0 {
            let media: AVMediaType
            if case .audio = input { media = AVMEDIA_TYPE_AUDIO } else { media = AVMEDIA_TYPE_VIDEO }
            throw Self.parseError(filters, code: parsed, media: media)
        }
        let configured = avfilter_graph_config(g, nil)
        if configured < 0 {
            throw MovieMakerError(
                code: .ffmpeg,
                message: "libavfilter cannot connect the filter graph \"\(filters)\" (\(sourceArguments) in): \(ffmpegMessage(configured)) (error \(configured)); check that its filters accept this kind of input",
                underlying: FFmpegError(operation: "avfilter_graph_config (\(filters))", code: configured, message: ffmpegMessage(configured)))
        }
    }

    /// Sends `borrowedFrame` into the graph, or the end of the input when nil
    /// (av_buffersrc_add_frame_flags with AV_BUFFERSRC_FLAG_KEEP_REF: the graph takes its own reference
    /// to the frame's buffers, the caller's frame is left as it was). Do not write into a frame's
    /// buffers after sending it; give the next frame new buffers (av_frame_get_buffer).
    func send(_ borrowedFrame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError) {
        precondition(!inputEnded, "FilterGraph: a frame was sent after the end of the input")
        if borrowedFrame == nil { inputEnded = true }
        let r = av_buffersrc_add_frame_flags(borrowedSource!, borrowedFrame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        try ffCheck(r, "av_buffersrc_add_frame_flags (\(borrowedFrame == nil ? "end of input" : "frame") into \"\(filters)\")")
    }

    /// Sends `borrowedFrame` (nil: the end) to the second input, as `send(_:)` does to the first.
    func sendToSecondInput(_ borrowedFrame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError) {
        let r = av_buffersrc_add_frame_flags(borrowedSecondSource!, borrowedFrame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        try ffCheck(r, "av_buffersrc_add_frame_flags (\(borrowedFrame == nil ? "end of input" : "frame") into the second input of \"\(filters)\")")
    }

    /// Takes the next filtered frame into `frame` (av_buffersink_get_frame; whatever `frame` held is
    /// released first). Returns `.frame`, `.needsInput` (send more first) or `.ended` (after `send(nil)`,
    /// when the graph is drained).
    func receive(into frame: OwnedFrame) throws(MovieMakerError) -> Received {
        av_frame_unref(frame.pointer)
        let r = av_buffersink_get_frame(borrowedSink!, frame.pointer)
        if r >= 0 { return .frame }
        if r == averrorEAGAIN { return .needsInput }
        if r == averrorEOF { return .ended }
        throw .ffmpeg(operation: "av_buffersink_get_frame (\"\(filters)\")", code: r, message: ffmpegMessage(r))
    }

    /// The time base of the frames `receive` gives (av_buffersink_get_time_base).
    var outputTimeBase: AVRational { av_buffersink_get_time_base(borrowedSink!) }
    /// The width of the pictures `receive` gives (video graphs).
    var outputWidth: Int32 { av_buffersink_get_w(borrowedSink!) }
    /// The height of the pictures `receive` gives (video graphs).
    var outputHeight: Int32 { av_buffersink_get_h(borrowedSink!) }
    /// The format `receive` gives: an `AVPixelFormat` or `AVSampleFormat` raw value.
    var outputFormat: Int32 { av_buffersink_get_format(borrowedSink!) }
    /// The sample rate `receive` gives (audio graphs).
    var outputSampleRate: Int32 { av_buffersink_get_sample_rate(borrowedSink!) }

    /// Frees the graph and every filter in it (avfilter_graph_free).
    deinit {
        var p: UnsafeMutablePointer<AVFilterGraph>? = graph
        avfilter_graph_free(&p)
    }

    // MARK: Building

    /// A filter context of libavfilter's filter `name`, labelled `label`, allocated in `graph`
    /// (avfilter_graph_alloc_filter; it belongs to the graph) and initialised by `initialise`.
    private static func makeFilter(named name: String, label: String, in graph: UnsafeMutablePointer<AVFilterGraph>,
                                   initialise: (UnsafeMutablePointer<AVFilterContext>) throws(MovieMakerError) -> Void)
        throws(MovieMakerError) -> UnsafeMutablePointer<AVFilterContext> {
        guard let filter = avfilter_get_by_name(name) else {
            throw .ffmpeg(operation: "avfilter_get_by_name (\(name))", code: mm_averror(38), message: "this libavfilter has no \(name) filter")
        }
        guard let context = avfilter_graph_alloc_filter(graph, filter, label) else {
            throw .ffmpeg(operation: "avfilter_graph_alloc_filter (\(name))", code: averrorENOMEM, message: "out of memory")
        }
        try initialise(context)
        return context
    }

    /// Sets the binary option `name` (a list of ints, as av_opt_set_int_list does) on a sink.
    private static func setIntegers(_ name: String, _ values: [Int32], on context: UnsafeMutablePointer<AVFilterContext>) throws(MovieMakerError) {
        let r = values.withUnsafeBytes { bytes in
            av_opt_set_bin(context, name, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(bytes.count), AV_OPT_SEARCH_CHILDREN)
        }
        try ffCheck(r, "av_opt_set_bin (\(name) \(values))")
    }

    /// The name of the default channel layout for `channels` channels ("mono", "stereo", "5.1", …), as
    /// abuffer's `channel_layout` and abuffersink's `ch_layouts` options take it.
    static func layoutName(channels: Int32) throws(MovieMakerError) -> String {
        guard channels > 0 else {
            throw .invalidSetting(.channelCount, value: "\(channels)", expected: "1 or more channels, e.g. 2 for stereo")
        }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, channels)
        defer { av_channel_layout_uninit(&layout) }
        var buffer = [CChar](repeating: 0, count: 128)
        let r = buffer.withUnsafeMutableBufferPointer { av_channel_layout_describe(&layout, $0.baseAddress, 128) }
        try ffCheck(r, "av_channel_layout_describe (\(channels) channels)")
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The error for a description avfilter_graph_parse_ptr refused: names the filter that does not
    /// exist, or the one that takes the other kind of frames (`media` is what the graph carries), or
    /// says the options are wrong.
    private static func parseError(_ filters: String, code: Int32, media: AVMediaType) -> MovieMakerError {
        let names = filterNames(in: filters)
        let fix: String
        let kind = media == AVMEDIA_TYPE_AUDIO ? "sound" : "video"
        if filters.trimmingCharacters(in: .whitespaces).isEmpty {
            fix = "the description is empty: give at least one filter, e.g. anull or null"
        } else if let unknown = names.first(where: { avfilter_get_by_name($0) == nil }) {
            fix = "there is no filter named \"\(unknown)\" in this libavfilter (\(String(cString: av_version_info()))); list them with ffmpeg -filters"
        } else if let other = names.first(where: { name in
            guard let filter = avfilter_get_by_name(name), avfilter_filter_pad_count(filter, 0) > 0 else { return false }
            return avfilter_pad_get_type(filter.pointee.inputs, 0) != media
        }) {
            fix = "the filter \(other) does not take \(kind) frames, and this graph filters \(kind): use \(kind == "audio" ? "an" : "a") \(kind) filter"
        } else {
            fix = "check the options of \(names.joined(separator: ", ")) (ffmpeg -h filter=NAME lists them and their ranges)"
        }
        return MovieMakerError(
            code: .ffmpeg,
            message: "libavfilter cannot parse the filter graph \"\(filters)\": \(ffmpegMessage(code)) (error \(code)); \(fix)",
            underlying: FFmpegError(operation: "avfilter_graph_parse_ptr (\(filters))", code: code, message: ffmpegMessage(code)))
    }

    /// Whether this libavfilter has every filter of `names` (`zscale` needs FFmpeg built with libzimg).
    static func hasFilters(_ names: [String]) -> Bool { names.allSatisfy { avfilter_get_by_name($0) != nil } }

    /// The filter names in a description (`[a]scale=640:-2,bwdif=mode=0[b];…` → scale, bwdif): each
    /// filter's text up to `=` or `@`, without pad labels; quotes and backslash escapes are skipped.
    static func filterNames(in filters: String) -> [String] {
        var names: [String] = []
        var current = "", inName = true, quoted = false, escaped = false, inLabel = false
        func finish() {
            let name = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty { names.append(name) }
            current = ""; inName = true
        }
        for c in filters {
            if escaped { escaped = false; if inName { current.append(c) }; continue }
            if c == "\\" { escaped = true; continue }
            if c == "'" { quoted.toggle(); continue }
            if quoted { continue }
            if inLabel { if c == "]" { inLabel = false }; continue }
            switch c {
            case "[": inLabel = true
            case ",", ";": finish()
            case "=", "@": inName = false
            default: if inName { current.append(c) }
            }
        }
        finish()
        return names
    }
}
