import Foundation

// Encoder settings as data: `{"crf": 20, "preset": "slow", "tune": "animation"}`; the enums as their names.

extension EncoderPreset: Codable {}
extension EncoderTune: Codable {}
extension Container: Codable {}
extension VideoCodec: Codable {}

extension OddSizePolicy: Codable {
    /// Reads `"reject"` or `"pad"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        switch try container.decode(String.self) {
        case "reject": self = .reject
        case "pad": self = .pad
        case let other: throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown odd size policy \"\(other)\": expected reject or pad")
        }
    }

    /// Writes `"reject"` or `"pad"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self == .reject ? "reject" : "pad")
    }
}

extension EncoderSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case codec, bitDepth, crf, preset, bitrate, keyframeInterval, tune, oddSizePolicy, bufferCount, threads, drawingThreads, transparency, lossless
    }

    /// Reads the settings given; the rest keep their defaults (the codec's CRF, `medium`, no tune…). Values are
    /// checked when a movie is made with them, as for settings made in code.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(crf: try c.decodeIfPresent(Int.self, forKey: .crf), preset: try c.decode(.preset, or: .medium),
                  bitrate: try c.decodeIfPresent(Int.self, forKey: .bitrate), keyframeInterval: try c.decodeIfPresent(Int.self, forKey: .keyframeInterval),
                  tune: try c.decodeIfPresent(EncoderTune.self, forKey: .tune), oddSizePolicy: try c.decode(.oddSizePolicy, or: .reject),
                  bufferCount: try c.decode(.bufferCount, or: 3), threads: try c.decode(.threads, or: 0),
                  drawingThreads: try c.decode(.drawingThreads, or: 0), transparency: try c.decode(.transparency, or: false))
        lossless = try c.decode(.lossless, or: false)
        codec = try c.decodeIfPresent(VideoCodec.self, forKey: .codec)
        bitDepth = try c.decode(.bitDepth, or: 8)
    }

    /// Writes every setting (`codec`, `crf`, `bitrate`, `keyframeInterval`, `tune` and `lossless` only
    /// when set, `bitDepth` when not 8).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(codec, forKey: .codec)
        if bitDepth != 8 { try c.encode(bitDepth, forKey: .bitDepth) }
        try c.encodeIfPresent(crf, forKey: .crf)
        try c.encode(preset, forKey: .preset)
        try c.encodeIfPresent(bitrate, forKey: .bitrate)
        try c.encodeIfPresent(keyframeInterval, forKey: .keyframeInterval)
        try c.encodeIfPresent(tune, forKey: .tune)
        try c.encode(oddSizePolicy, forKey: .oddSizePolicy)
        try c.encode(bufferCount, forKey: .bufferCount)
        try c.encode(threads, forKey: .threads)
        try c.encode(drawingThreads, forKey: .drawingThreads)
        try c.encode(transparency, forKey: .transparency)
        if lossless { try c.encode(lossless, forKey: .lossless) }
    }
}
