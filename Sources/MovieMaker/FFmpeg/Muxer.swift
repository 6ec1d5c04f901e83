internal import CFFmpeg
internal import CMovieMakerShim

/// Writes packets into a container with libavformat, in the order of FFmpeg's doc/examples/mux.c:
/// allocate the output context (`init`), add the streams (`addStream`, each filled from its opened
/// encoder with `CodecEncoder.describe(_:)`), open the file (`openFile`), write the header with the
/// muxer's options (`writeHeader`), hand over packets with their timestamps rescaled to each stream
/// (`write`), then write the trailer and close the file (`finish`).
///
/// It owns the output format context (`OwnedOutputFormatContext`), which frees the streams and closes
/// the file if a later step fails; streams are borrowed from it.
final class Muxer {
    /// The output context and its file (owned).
    private let output: OwnedOutputFormatContext
    /// Where it writes (for a PNG sequence, the pattern such as `folder/frame-%05d.png`).
    let path: String
    /// The file the user asked for, named in write errors (`path` is usually a hidden partial file
    /// beside it, renamed into place when finished).
    let destination: String
    /// libavformat's muxer name, e.g. "mp4", "matroska", "image2".
    let formatName: String
    /// Whether the header was written (streams can no longer be added).
    private(set) var headerWritten = false

    /// An output context for the muxer `formatName` writing `path` (avformat_alloc_output_context2).
    init(path: String, formatName: String, destination: String? = nil) throws(MovieMakerError) {
        output = try OwnedOutputFormatContext(formatName: formatName, path: path)
        if formatName == "matroska" || formatName == "webm" {
            // Otherwise the Segment and track UIDs are random: two renders of one description would
            // differ in those bytes, where every other container gives the same file.
            output.pointer.pointee.flags |= AVFMT_FLAG_BITEXACT
        }
        self.path = path
        self.destination = destination ?? path
        self.formatName = formatName
    }

    /// Turns a failed write into an error naming the destination: a full disk, a quota, a file too
    /// large for its file system or a device error is `.destinationNotWritable` with what to do
    /// (once "FFmpeg failed in av_write_trailer: No space left on device", naming no file).
    private func checkWrite(_ code: Int32, _ operation: String) throws(MovieMakerError) {
        guard code < 0 else { return }
        if let reason = PartialFiles.writeFailures.first(where: { mm_averror($0.errno) == code })?.reason {
            throw .destinationNotWritable(path: destination, reason: reason)
        }
        throw .ffmpeg(operation: "\(operation) (writing \(destination))", code: code, message: ffmpegMessage(code))
    }

    /// Whether the container keeps codec headers out of band (MP4, MOV, MKV, and HLS, whose fMP4
    /// segments keep them in `init.mp4` though the hls muxer does not say so): encoders must then be
    /// opened with AV_CODEC_FLAG_GLOBAL_HEADER.
    var needsGlobalHeader: Bool { output.pointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 || formatName == "hls" }

    /// Whether the muxer opens its files itself (image2 writes one file per packet) rather than one
    /// file opened by `openFile`.
    var opensOwnFiles: Bool { output.pointer.pointee.oformat.pointee.flags & AVFMT_NOFILE != 0 }

    /// A new stream (avformat_new_stream), borrowed: it belongs to the format context. `label`
    /// ("audio") names it in errors. Only before `writeHeader`.
    func addStream(label: String? = nil) throws(MovieMakerError) -> UnsafeMutablePointer<AVStream> {
        precondition(!headerWritten, "streams are added before the header")
        guard let stream = avformat_new_stream(output.pointer, nil) else {
            throw .ffmpeg(operation: "avformat_new_stream" + (label.map { " (\($0))" } ?? ""), code: averrorENOMEM, message: "out of memory")
        }
        return stream
    }

    /// Adds a chapter `title` from `start` to `end` (movie time), numbered `id`, to the output context
    /// (`mm_add_chapter`, as the ffmpeg command line copies chapters); only before `writeHeader`, which
    /// is when MP4/MOV build their chapter track and Matroska writes its `Chapters`. Its time base is
    /// exact when the two times' timescales allow (their least common multiple fits 32 bits),
    /// microseconds otherwise.
    func addChapter(id: Int, title: String, start: Time, end: Time) throws(MovieMakerError) {
        precondition(!headerWritten, "chapters are added before the header")
        func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
        let lcm = start.timescale / gcd(start.timescale, end.timescale) * end.timescale
        let scale: Int64 = lcm <= Int64(Int32.max) ? lcm : 1_000_000
        let convert = { (t: Time) -> Int64 in (t.value * scale * 2 + t.timescale) / (2 * t.timescale) }
        try ffCheck(mm_add_chapter(output.pointer, Int64(id), 1, Int32(scale), convert(start), convert(end), title), "mm_add_chapter (\(title))")
    }

    /// Adds `chapters` (checked), each lasting to the next one's start and the last to `end`.
    func addChapters(_ chapters: [Chapter], end: Time) throws(MovieMakerError) {
        try Chapter.validate(chapters, end: end)
        var id = 1
        // A QuickTime chapter track starts with its first sample (the mov muxer writes it no edit list),
        // so a first chapter at 1 s was read from 0 s: an untitled chapter fills the time before it, as
        // Matroska needs none.
        if formatName == "mp4" || formatName == "mov", let first = chapters.first, first.start > .zero {
            try addChapter(id: id, title: "", start: .zero, end: first.start)
            id += 1
        }
        for (i, chapter) in chapters.enumerated() {
            try addChapter(id: id, title: chapter.title, start: chapter.start, end: i + 1 < chapters.count ? chapters[i + 1].start : end)
            id += 1
        }
    }

    /// Sets the container's metadata entry `key` (MP4/MOV write the iTunes-style keys they know, such as
    /// `comment`; Matroska writes any key as a tag); before `writeHeader`.
    func setMetadata(_ key: String, _ value: String) {
        precondition(!headerWritten, "metadata is set before the header")
        av_dict_set(&output.pointer.pointee.metadata, key, value, 0)
    }

    /// Opens the file for writing (avio_open), unless the muxer opens its own files.
    func openFile() throws(MovieMakerError) {
        if !opensOwnFiles { try checkWrite(output.openFile(path), "avio_open") }
    }

    /// Writes the container header with the muxer's `options` (avformat_write_header); once, before
    /// the first packet. `description` (the container's name) goes into the error.
    func writeHeader(options: OwnedDictionary, description: String) throws(MovieMakerError) {
        precondition(!headerWritten, "the header is written once")
        try checkWrite(avformat_write_header(output.pointer, &options.pointer), "avformat_write_header (\(description))")
        headerWritten = true
    }

    /// Hands one packet, timed in `timeBase` (its encoder's), to the muxer for `stream`: rescales its
    /// timestamps to the stream's time base and writes it interleaved (av_interleaved_write_frame,
    /// which takes the packet's reference and leaves it blank for reuse).
    func write(_ packet: UnsafeMutablePointer<AVPacket>, from timeBase: AVRational, to stream: UnsafeMutablePointer<AVStream>) throws(MovieMakerError) {
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        try checkWrite(av_interleaved_write_frame(output.pointer, packet), "av_interleaved_write_frame")
    }

    /// Writes the trailer (for MP4/MOV with faststart, the rewrite with `moov` first) and closes the
    /// file, reporting a failed final write (av_write_trailer, avio_closep).
    func finish() throws(MovieMakerError) {
        try checkWrite(av_write_trailer(output.pointer), "av_write_trailer")
        try checkWrite(output.closeFile(), "avio_closep")
    }
}
