import Foundation

/// Filters that look at a pixel's neighbourhood or position (blur, sharpen, vignette, grain…).
public enum SpatialFilter: Sendable, Hashable {
    /// A Gaussian blur of CSS radius `radius` pixels (σ = radius / 2), as `DrawingContext.withBlur`.
    case blur(radius: FilterAmount)
}

extension SpatialFilter {
    static let descriptors: [FilterDescriptor] = [
        FilterDescriptor("blur", "A Gaussian blur (σ = radius / 2, as CSS blur()); FFmpeg's gblur with sigma = radius / 2.", [
            FilterParameter("radius", .amount(0...GaussianBlur.maximumRadius), "The blur radius in pixels (default 10)."),
        ]) { a throws(MovieMakerError) in .spatial(.blur(radius: try a.amount("radius", default: 10))) },
    ]

    /// The filter as a description file writes it.
    var spec: FilterSpec {
        switch self {
        case let .blur(radius): return FilterSpec(name: "blur", parameters: ["radius": FilterJSON.amount(radius)])
        }
    }

    /// The filter with its pixel sizes multiplied by `factor`.
    func scaled(by factor: Double) -> SpatialFilter {
        switch self {
        case let .blur(radius): return .blur(radius: radius.scaled(by: factor))
        }
    }

    /// Applies the filter to `image` in place.
    func apply(to image: FilterImage, at time: FilterTime) throws(MovieMakerError) {
        switch self {
        case let .blur(radius):
            let r = min(max(radius.value(at: time.seconds), 0), GaussianBlur.maximumRadius)
            GaussianBlur(radius: r).apply(to: image.data, width: image.width, height: image.height, stride: image.stride, channels: 4)
        }
    }
}
