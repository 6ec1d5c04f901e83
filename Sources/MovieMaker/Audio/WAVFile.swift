import Foundation

/// How samples are stored in a WAV file.
public enum WAVSampleFormat: Sendable, Hashable {
    /// 32-bit IEEE float: exactly the samples MovieMaker computes, levels above full scale kept.
    case float32
    /// 16-bit integer PCM (CD quality): samples clamped to ±1 and rounded to the nearest step, no dither.
    case int16

    var bytesPerSample: Int { self == .float32 ? 4 : 2 }
}

extension AudioSource {
    /// Writes the first `duration` of this sound (its own duration when nil) to a WAV file at `url`, in
    /// `format`, streaming (constant memory). The file is written under a temporary name in the same
    /// folder and renamed into place when complete, so a failed write leaves nothing at `url` (and an
    /// existing file there untouched).
    public func writeWAV(to url: URL, duration: Time? = nil, format: AudioFormat = .standard,
                         sampleFormat: WAVSampleFormat = .float32) throws {
        guard let length = duration ?? self.duration else {
            throw MovieMakerError.invalidSetting(.duration, value: "nil (the sound has no end)",
                                                 expected: "how much of the sound to write, e.g. writeWAV(to: url, duration: 10)")
        }
        guard length >= .zero else {
            throw MovieMakerError.invalidSetting(.duration, value: "\(length)", expected: "zero or more seconds")
        }
        try format.validateForMixing()
        let frames = format.frame(at: length)
        let bytesPerFrame = format.channelCount * sampleFormat.bytesPerSample
        let dataBytes = frames * Int64(bytesPerFrame)
        let headerBytes: Int64 = sampleFormat == .float32 ? 58 : 44
        guard dataBytes + headerBytes - 8 <= Int64(UInt32.max) else {
            throw MovieMakerError.invalidSetting(.wavLength, value: "\(length) (\(dataBytes) bytes of samples)",
                                                 expected: "at most 4 GB of samples, the WAV format's limit: write a shorter part")
        }
        let folder = PartialFiles.target(of: url).deletingLastPathComponent()     // through a symbolic link, which stays
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw MovieMakerError.destinationFolderMissing(path: folder.path)
        }
        // The library's one atomic write: a partial file beside the destination, registered for the exit
        // clean-up, renamed into place when complete (and refused when the destination is a device or pipe).
        var soundError: (any Error)?
        do {
            try PartialFiles.writeAtomically(to: url, extension: nil) { (temporary) throws(MovieMakerError) in
                guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                    throw .destinationNotWritable(path: folder.path, reason: "cannot create a file there")
                }
                // Only the file's own writes can fail as "not writable"; the sound's errors keep their kind.
                let handle: FileHandle
                do { handle = try FileHandle(forWritingTo: temporary) } catch {
                    throw .destinationNotWritable(path: url.path, reason: error.localizedDescription)
                }
                defer { try? handle.close() }
                func write(_ bytes: [UInt8]) throws(MovieMakerError) {
                    do { try handle.write(contentsOf: bytes) } catch {
                        throw .destinationNotWritable(path: url.path, reason: error.localizedDescription)
                    }
                }
                do {
                    let reader = try makeReader(format: format)
                    try write(wavHeader(format: format, sampleFormat: sampleFormat, frames: frames))
                    var bytes = [UInt8]()
                    try reader.readInChunks(totalFrames: frames) { chunk, n in
                        let count = n * format.channelCount
                        bytes.removeAll(keepingCapacity: true)
                        bytes.reserveCapacity(count * sampleFormat.bytesPerSample)
                        switch sampleFormat {
                        case .float32:
                            for i in 0..<count { appendLittleEndian(chunk[i].bitPattern, to: &bytes) }
                        case .int16:
                            for i in 0..<count {
                                let v = min(max(chunk[i], -1), 1) * 32767
                                appendLittleEndian(UInt16(bitPattern: Int16(v.rounded())), to: &bytes)
                            }
                        }
                        try write(bytes)
                    }
                } catch let error as MovieMakerError {
                    throw error
                } catch {
                    // The sound's own error (a user's `AudioReader` may throw any): thrown again unchanged below.
                    soundError = error
                    throw .failedEarlier(error)
                }
                do {
                    try handle.synchronize()
                    try handle.close()
                } catch {
                    throw .destinationNotWritable(path: url.path, reason: error.localizedDescription)
                }
            }
        } catch {
            throw soundError ?? error
        }
    }
}

/// A canonical WAV header: RIFF, `fmt ` (PCM, or IEEE float with the `fact` chunk non-PCM data needs), `data`.
fileprivate func wavHeader(format: AudioFormat, sampleFormat: WAVSampleFormat, frames: Int64) -> [UInt8] {
    let bytesPerSample = sampleFormat.bytesPerSample
    let dataBytes = UInt32(frames * Int64(format.channelCount * bytesPerSample))
    var h = [UInt8]()
    func tag(_ s: String) { h.append(contentsOf: Array(s.utf8)) }
    let isFloat = sampleFormat == .float32
    let fmtSize: UInt32 = isFloat ? 18 : 16
    let riffSize: UInt32 = 4 + (8 + fmtSize) + (isFloat ? 12 : 0) + 8 + dataBytes
    tag("RIFF"); appendLittleEndian(riffSize, to: &h); tag("WAVE")
    tag("fmt "); appendLittleEndian(fmtSize, to: &h)
    appendLittleEndian(UInt16(isFloat ? 3 : 1), to: &h)                               // format tag
    appendLittleEndian(UInt16(format.channelCount), to: &h)
    appendLittleEndian(UInt32(format.sampleRate), to: &h)
    appendLittleEndian(UInt32(format.sampleRate * format.channelCount * bytesPerSample), to: &h)   // bytes per second
    appendLittleEndian(UInt16(format.channelCount * bytesPerSample), to: &h)          // block align
    appendLittleEndian(UInt16(bytesPerSample * 8), to: &h)                            // bits per sample
    if isFloat {
        appendLittleEndian(UInt16(0), to: &h)                                         // no extension
        tag("fact"); appendLittleEndian(UInt32(4), to: &h); appendLittleEndian(UInt32(truncatingIfNeeded: frames), to: &h)
    }
    tag("data"); appendLittleEndian(dataBytes, to: &h)
    return h
}

@inline(__always)
fileprivate func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    var v = value.littleEndian
    withUnsafeBytes(of: &v) { bytes.append(contentsOf: $0) }
}
