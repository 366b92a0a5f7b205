extension ImageTransformers {
    /// Rounds some or all corners of the image and optionally strokes a border, as SDWebImage's
    /// `SDImageRoundCornerTransformer`.
    ///
    /// ```swift
    /// let rounded = ImageTransformers.RoundCorner(radius: 20, borderWidth: 2, borderColor: .white)
    /// ```
    ///
    /// The geometry is SDWebImage's, in points (multiplied by the image's scale to get pixels):
    /// - the image is clipped to its bounds inset by `borderWidth` on every side, with `radius` on the corners in
    ///   ``corners`` (the radius is limited to half the shorter side of the clip);
    /// - when `borderColor` is set and `borderWidth` is above 0, a line `borderWidth` wide is stroked along the
    ///   bounds inset by `floor(borderWidth × scale) + 0.5` pixels, with a radius smaller by half a pixel, over the
    ///   clipped image;
    /// - when `borderWidth` is half the shorter side or more, nothing is drawn and the result is fully transparent;
    /// - a negative `radius` counts as 0, and a negative `borderWidth` grows the clip past the image (beyond the
    ///   image's width plus height, which already shows all of it, it grows no further);
    /// - a `radius` or `borderWidth` that is not finite (NaN, an infinity) gives nil: the image is kept.
    ///
    /// Pixels outside the shape are fully transparent and the curved edges are anti-aliased (coverage from the
    /// distance to the edge), so the result always has alpha. Corners are circular arcs; UIKit's slightly smoother
    /// corner curve may differ by a pixel's fraction on the arc.
    ///
    /// `transformerKey`: `SDImageRoundCornerTransformer(radius,corners,borderWidth,color)`, the numbers with six
    /// decimals, the corner mask as an unsigned integer, the colour as `#aarrggbb` or `(null)`; for example
    /// `SDImageRoundCornerTransformer(50.000000,18446744073709551615,1.000000,#ff000000)`.
    ///
    /// A thread-safe value; works on every frame of an animation.
    public struct RoundCorner: ImageTransforming {
        /// Which corners to round; the raw values are SDWebImage's `SDRectCorner` (UIKit's `UIRectCorner`).
        public struct Corners: OptionSet, Sendable, Hashable {
            public let rawValue: UInt

            public init(rawValue: UInt) {
                self.rawValue = rawValue
            }

            /// Raw value 1.
            public static let topLeft = Corners(rawValue: 1 << 0)
            /// Raw value 2.
            public static let topRight = Corners(rawValue: 1 << 1)
            /// Raw value 4.
            public static let bottomLeft = Corners(rawValue: 1 << 2)
            /// Raw value 8.
            public static let bottomRight = Corners(rawValue: 1 << 3)
            /// Every bit set (`~0`, 18446744073709551615), as SDWebImage's `SDRectCornerAllCorners`.
            public static let all = Corners(rawValue: .max)
        }

        /// The corner radius in points.
        public let radius: Double
        /// The corners to round.
        public let corners: Corners
        /// The border width in points; the clip is inset by it even without a colour.
        public let borderWidth: Double
        /// The border colour; no border is stroked when nil.
        public let borderColor: RGBAColor?

        /// Creates a round-corner transformer.
        ///
        /// - Parameters:
        ///   - radius: The corner radius in points.
        ///   - corners: The corners to round; all by default.
        ///   - borderWidth: The border width in points; 0 by default.
        ///   - borderColor: The border colour; nil (no border) by default.
        public init(radius: Double, corners: Corners = .all, borderWidth: Double = 0, borderColor: RGBAColor? = nil) {
            self.radius = radius
            self.corners = corners
            self.borderWidth = borderWidth
            self.borderColor = borderColor
        }

        public var transformerKey: String {
            let color = borderColor.map(Key.color) ?? "(null)"
            return "SDImageRoundCornerTransformer(\(Key.float(radius)),\(corners.rawValue),\(Key.float(borderWidth)),\(color))"
        }

        public func transform(image: Image, key: String) -> Image? {
            guard radius.isFinite, borderWidth.isFinite else { return nil }
            let scale = image.scale
            let width = Double(image.width)
            let height = Double(image.height)
            let drawsImage = borderWidth < min(width, height) / scale / 2
            // An outward inset past width + height leaves the whole image inside the clip, the corners included;
            // stopping there keeps the clip's centre exact for any finite border.
            let inset = max(borderWidth * scale, -(width + height))
            let clip = RoundedRect(
                left: inset, top: inset, right: width - inset, bottom: height - inset,
                radius: max(0, radius) * scale, corners: corners
            )
            var stroke: (shape: RoundedRect, halfWidth: Double, color: RGBAColor)?
            if drawsImage, borderWidth > 0, let borderColor {
                let strokeInset = (borderWidth * scale).rounded(.down) + 0.5
                let strokeRadius = radius > scale / 2 ? (radius - scale / 2) * scale : 0
                let shape = RoundedRect(
                    left: strokeInset, top: strokeInset, right: width - strokeInset, bottom: height - strokeInset,
                    radius: strokeRadius, corners: corners
                )
                stroke = (shape, borderWidth * scale / 2, borderColor)
            }
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata, hasAlpha: true) { source in
                guard drawsImage else { return try? PixelBuffer(width: source.width, height: source.height, color: .clear) }
                guard let result = try? PixelBuffer(uninitializedWidth: source.width, height: source.height) else { return nil }
                Self.render(source, into: result, clip: clip, stroke: stroke)
                return result
            }
        }

        /// Writes every pixel of `result`: `source` clipped to `clip`, then the stroke laid over it.
        private static func render(
            _ source: PixelBuffer,
            into result: PixelBuffer,
            clip: RoundedRect,
            stroke: (shape: RoundedRect, halfWidth: Double, color: RGBAColor)?
        ) {
            for y in 0..<source.height {
                let from = source.baseAddress.advanced(by: y * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let to = result.mutableBaseAddress.advanced(by: y * result.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let centerY = Double(y) + 0.5
                for x in 0..<source.width {
                    let i = x * 4
                    let centerX = Double(x) + 0.5
                    // Box-filter coverage of the pixel by the inside of the clip: the distance from the pixel's
                    // centre to the edge, clamped to one pixel.
                    let fill = coverage(min(1, max(0, 0.5 - clip.distance(x: centerX, y: centerY))))
                    var red = Int(from[i])
                    var green = Int(from[i + 1])
                    var blue = Int(from[i + 2])
                    var alpha = (Int(from[i + 3]) * fill + 127) / 255
                    if alpha == 0 { red = 0; green = 0; blue = 0 }
                    if let stroke {
                        // Coverage of the pixel's span [d - 0.5, d + 0.5] by the band [-w/2, w/2] around the path.
                        let d = stroke.shape.distance(x: centerX, y: centerY)
                        let overlap = min(d + 0.5, stroke.halfWidth) - max(d - 0.5, -stroke.halfWidth)
                        let strokeAlpha = (Int(stroke.color.alpha) * coverage(overlap) + 127) / 255
                        if strokeAlpha > 0 {
                            // Source-over on straight alpha, at a scale of 255 × 255.
                            let below = alpha * (255 - strokeAlpha)
                            let total = strokeAlpha * 255 + below
                            let half = total / 2
                            red = (Int(stroke.color.red) * strokeAlpha * 255 + red * below + half) / total
                            green = (Int(stroke.color.green) * strokeAlpha * 255 + green * below + half) / total
                            blue = (Int(stroke.color.blue) * strokeAlpha * 255 + blue * below + half) / total
                            alpha = (total + 127) / 255
                        }
                    }
                    to[i] = UInt8(truncatingIfNeeded: red)
                    to[i + 1] = UInt8(truncatingIfNeeded: green)
                    to[i + 2] = UInt8(truncatingIfNeeded: blue)
                    to[i + 3] = UInt8(truncatingIfNeeded: alpha)
                }
            }
        }

        /// A fraction of a pixel as 0...255.
        @inline(__always)
        private static func coverage(_ fraction: Double) -> Int {
            fraction <= 0 ? 0 : fraction >= 1 ? 255 : Int(fraction * 255 + 0.5)
        }
    }
}

extension ImageTransformers.RoundCorner {
    /// A rectangle in pixels with some corners rounded, measured by signed distance (negative inside).
    struct RoundedRect {
        let centerX: Double
        let centerY: Double
        let halfWidth: Double
        let halfHeight: Double
        let radius: Double
        let corners: Corners

        init(left: Double, top: Double, right: Double, bottom: Double, radius: Double, corners: Corners) {
            centerX = (left + right) / 2
            centerY = (top + bottom) / 2
            halfWidth = (right - left) / 2
            halfHeight = (bottom - top) / 2
            // UIKit limits the radius to half the shorter side.
            self.radius = max(0, min(radius, halfWidth, halfHeight))
            self.corners = corners
        }

        /// The signed distance from a point to the outline: exact on the straight sides and the arcs, and the
        /// larger axis distance (a square, mitred corner) around a corner that is not rounded.
        @inline(__always)
        func distance(x: Double, y: Double) -> Double {
            let dx = x - centerX
            let dy = y - centerY
            let corner: Corners = dy < 0 ? (dx < 0 ? .topLeft : .topRight) : (dx < 0 ? .bottomLeft : .bottomRight)
            let r = corners.contains(corner) ? radius : 0
            let qx = abs(dx) - (halfWidth - r)
            let qy = abs(dy) - (halfHeight - r)
            if r > 0, qx > 0, qy > 0 {
                return (qx * qx + qy * qy).squareRoot() - r
            }
            return max(qx, qy) - r
        }
    }
}
