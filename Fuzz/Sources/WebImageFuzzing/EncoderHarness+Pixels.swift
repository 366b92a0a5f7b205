import Foundation
import WebImage

extension EncoderHarness {
    /// Checks a decoded frame against the frame written, as far as the format keeps pixels.
    func comparePixels(_ decoded: PixelBuffer, _ written: PixelBuffer, frame: Int, hasAlpha: Bool, options: ImageEncodeOptions) {
        switch fidelity {
        case .lossy:
            return
        case .lossless:
            compare(decoded, written, frame: frame, what: "pixel") { $0 }
        case .losslessOnRequest:
            if options.lossless {
                compare(decoded, written, frame: frame, what: "pixel") { $0 }
            } else {
                compare(decoded, written, frame: frame, what: "alpha", channel: \.alpha) { $0 }
            }
        case .palette:
            let reduced = { (color: RGBAColor) in
                hasAlpha && color.alpha < 128 ? RGBAColor.clear : RGBAColor(red: color.red, green: color.green, blue: color.blue)
            }
            // Exact only when the frame's colours fit one colour table, the transparent index included.
            var colors = Set<RGBAColor>()
            for y in 0..<written.height {
                for x in 0..<written.width {
                    colors.insert(reduced(written[x: x, y: y]))
                }
            }
            guard colors.count <= 256 else { return }
            compare(decoded, written, frame: frame, what: "pixel", transform: reduced)
        }
    }

    /// Every pixel of `decoded` equals `transform` of the same pixel of `written` (in one channel when asked).
    private func compare(
        _ decoded: PixelBuffer,
        _ written: PixelBuffer,
        frame: Int,
        what: String,
        channel: KeyPath<RGBAColor, UInt8>? = nil,
        transform: (RGBAColor) -> RGBAColor
    ) {
        for y in 0..<written.height {
            for x in 0..<written.width {
                let expected = transform(written[x: x, y: y])
                let actual = decoded[x: x, y: y]
                let same = channel.map { actual[keyPath: $0] == expected[keyPath: $0] } ?? (actual == expected)
                fuzzCheck(
                    same,
                    "frame \(frame), \(what) (\(x), \(y)) of \(written.size): wrote \(expected), read \(actual)"
                )
            }
        }
    }
}
