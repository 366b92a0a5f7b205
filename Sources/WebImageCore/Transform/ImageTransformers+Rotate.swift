#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ImageTransformers {
    /// Turns the image about its centre, as SDWebImage's `SDImageRotationTransformer`.
    ///
    /// ```swift
    /// manager.transformer = ImageTransformers.Rotate(angle: .pi / 4, fitSize: true)
    /// ```
    ///
    /// The angle is in radians, counter-clockwise as the image appears on screen (UIKit's convention): a quarter
    /// turn moves the top-right corner to the top left. The pixels are sampled bilinearly, weighted by alpha so
    /// that transparent neighbours do not darken the edges; the canvas outside the turned image is transparent,
    /// so the result always has alpha. An angle of zero keeps the image.
    ///
    /// The canvas is the source's size, or with `fitSize` the bounding box of the turned image, rounded up to
    /// whole pixels (45° on 300 x 300 gives 425 x 425), as UIKit's renderer rounds a fractional size up. An angle
    /// that is not finite, and a bounding box larger than the source and than
    /// ``ImageTransformers/maxResultPixelCount`` over all frames (a long thin strip turned), give nil: the image
    /// is kept.
    ///
    /// `transformerKey`: `SDImageRotationTransformer(%f,%d)`, the angle with six decimals and fitSize as 1 or 0,
    /// for example `SDImageRotationTransformer(0.785398,0)`. A thread-safe value; works on every frame.
    public struct Rotate: ImageTransforming {
        /// Radians, counter-clockwise.
        public let angle: Double
        /// Whether the canvas grows to hold the whole turned image; when false it keeps the source's size and the
        /// corners are cut off.
        public let fitSize: Bool

        /// - Parameters:
        ///   - angle: Radians, counter-clockwise as shown on screen.
        ///   - fitSize: Whether the canvas is the bounding box of the turned image rather than the source's size.
        public init(angle: Double, fitSize: Bool = false) {
            self.angle = angle
            self.fitSize = fitSize
        }

        public var transformerKey: String {
            "SDImageRotationTransformer(\(Key.float(angle)),\(fitSize ? 1 : 0))"
        }

        public func transform(image: Image, key: String) -> Image? {
            guard angle.isFinite else { return nil }
            guard angle != 0 else { return image }
            let (cosine, sine) = Self.cosineAndSine(angle)
            guard let size = canvasSize(image.pixelSize, cosine: cosine, sine: sine, frames: image.frames.count) else { return nil }
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata, hasAlpha: true) { source in
                guard let result = try? PixelBuffer(uninitializedWidth: size.width, height: size.height) else { return nil }
                Self.rotate(source, into: result, cosine: cosine, sine: sine)
                return result
            }
        }

        /// The cosine and sine of `angle`, exact for quarter turns so that those move whole pixels.
        private static func cosineAndSine(_ angle: Double) -> (Double, Double) {
            func snapped(_ value: Double) -> Double {
                if abs(value) < 1e-12 { return 0 }
                if abs(abs(value) - 1) < 1e-12 { return value < 0 ? -1 : 1 }
                return value
            }
            return (snapped(cos(angle)), snapped(sin(angle)))
        }

        /// The source's size, or the bounding box of the turned source rounded up (a hair of tolerance keeps
        /// floating-point noise from adding a column); nil when the box is larger than the source and than
        /// ``ImageTransformers/maxResultPixelCount`` over all frames.
        private func canvasSize(_ size: PixelSize, cosine: Double, sine: Double, frames: Int) -> PixelSize? {
            guard fitSize else { return size }
            let w = Double(size.width), h = Double(size.height)
            let width = max(1, (w * abs(cosine) + h * abs(sine) - 1e-6).rounded(.up))
            let height = max(1, (w * abs(sine) + h * abs(cosine) - 1e-6).rounded(.up))
            guard ImageTransformers.allowsResult(width: width, height: height, frames: frames, source: size) else { return nil }
            return PixelSize(width: Int(width), height: Int(height))
        }

        /// Fills `result` with `source` turned about both centres. Each target pixel centre is mapped back into
        /// the source and sampled bilinearly from its four neighbours, pixels outside the source counting as
        /// transparent.
        private static func rotate(_ source: PixelBuffer, into result: PixelBuffer, cosine: Double, sine: Double) {
            let sw = source.width, sh = source.height
            let srcRow = source.bytesPerRow
            let src = source.baseAddress.assumingMemoryBound(to: UInt8.self)
            // Target (tx, ty) relative to its centre turns back by -angle (y down, counter-clockwise on screen):
            // sx = tx·cos − ty·sin, sy = tx·sin + ty·cos, then moves to source pixel coordinates.
            let targetCentreX = Double(result.width) / 2, targetCentreY = Double(result.height) / 2
            let sourceOriginX = Double(sw) / 2 - 0.5, sourceOriginY = Double(sh) / 2 - 0.5

            for y in 0..<result.height {
                let row = result.mutableBaseAddress.advanced(by: y * result.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let ty = Double(y) + 0.5 - targetCentreY
                let tx0 = 0.5 - targetCentreX
                var sx = tx0 * cosine - ty * sine + sourceOriginX
                var sy = tx0 * sine + ty * cosine + sourceOriginY
                for x in 0..<result.width {
                    defer { sx += cosine; sy += sine }
                    let out = row + x * 4
                    guard sx > -1, sy > -1, sx < Double(sw), sy < Double(sh) else {
                        out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 0
                        continue
                    }
                    let fx = sx.rounded(.down), fy = sy.rounded(.down)
                    let x0 = Int(fx), y0 = Int(fy)
                    let wx1 = sx - fx, wy1 = sy - fy
                    let wx0 = 1 - wx1, wy0 = 1 - wy1
                    // Sums of weight·alpha and of weight·alpha·colour (premultiplied).
                    var a = 0.0, r = 0.0, g = 0.0, b = 0.0
                    @inline(__always) func add(_ px: Int, _ py: Int, _ weight: Double) {
                        guard weight > 0, px >= 0, py >= 0, px < sw, py < sh else { return }
                        let p = src + py * srcRow + px * 4
                        let wa = weight * Double(p[3])
                        a += wa
                        r += wa * Double(p[0])
                        g += wa * Double(p[1])
                        b += wa * Double(p[2])
                    }
                    add(x0, y0, wx0 * wy0)
                    add(x0 + 1, y0, wx1 * wy0)
                    add(x0, y0 + 1, wx0 * wy1)
                    add(x0 + 1, y0 + 1, wx1 * wy1)
                    let alpha = (a + 0.5).rounded(.down)
                    guard alpha >= 1 else {
                        out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 0
                        continue
                    }
                    let scale = 1 / a
                    out[0] = UInt8(min(255, r * scale + 0.5))
                    out[1] = UInt8(min(255, g * scale + 0.5))
                    out[2] = UInt8(min(255, b * scale + 0.5))
                    out[3] = UInt8(min(255, alpha))
                }
            }
        }
    }
}
