extension ImageTransformers {
    /// Fills the image with a colour through a blend mode, as SDWebImage's `SDImageTintTransformer`.
    ///
    /// ```swift
    /// let tinted = ImageTransformers.Tint(color: RGBAColor(red: 0, green: 122, blue: 255))  // keeps the shape
    /// ```
    ///
    /// The colour is drawn over every pixel as CoreGraphics does with `CGContextSetBlendMode` and
    /// `CGContextFillRect`: the colour is the source, the image the destination, both premultiplied. With the
    /// default ``BlendMode/sourceIn`` the result is the tint colour with the image's alpha, so transparent pixels
    /// stay transparent. A colour with alpha 0 keeps the image as it is (SDWebImage returns the image itself).
    ///
    /// Supported modes: ``BlendMode/normal``, ``BlendMode/multiply``, ``BlendMode/screen`` and the Porter-Duff
    /// modes ``BlendMode/clear``, ``BlendMode/copy``, ``BlendMode/sourceIn``, ``BlendMode/sourceOut``,
    /// ``BlendMode/sourceAtop``, ``BlendMode/destinationOver``, ``BlendMode/destinationIn``,
    /// ``BlendMode/destinationOut``, ``BlendMode/destinationAtop`` and ``BlendMode/xor``. With any other mode
    /// (see ``BlendMode/isSupported``) ``transform(image:key:)`` returns nil, which keeps the image.
    ///
    /// `transformerKey`: `SDImageTintTransformer(color,mode)`, the colour as `#aarrggbb` and the mode's
    /// CoreGraphics number; for example `SDImageTintTransformer(#00000000,18)`.
    ///
    /// A thread-safe value; works on every frame of an animation.
    public struct Tint: ImageTransforming {
        /// CoreGraphics' `CGBlendMode`, with its raw values.
        public enum BlendMode: Int, Sendable, Hashable, CaseIterable {
            case normal = 0
            case multiply = 1
            case screen = 2
            case overlay = 3
            case darken = 4
            case lighten = 5
            case colorDodge = 6
            case colorBurn = 7
            case softLight = 8
            case hardLight = 9
            case difference = 10
            case exclusion = 11
            case hue = 12
            case saturation = 13
            case color = 14
            case luminosity = 15
            case clear = 16
            case copy = 17
            case sourceIn = 18
            case sourceOut = 19
            case sourceAtop = 20
            case destinationOver = 21
            case destinationIn = 22
            case destinationOut = 23
            case destinationAtop = 24
            case xor = 25
            case plusDarker = 26
            case plusLighter = 27

            /// Whether ``Tint`` implements this mode; a tint with an unsupported mode keeps the image (nil).
            public var isSupported: Bool { Blend(self) != nil }
        }

        /// The tint colour (straight alpha).
        public let color: RGBAColor
        /// How the colour combines with the image.
        public let blendMode: BlendMode

        /// Creates a tint transformer.
        ///
        /// - Parameters:
        ///   - color: The colour drawn over the image.
        ///   - blendMode: How it combines with the image; ``BlendMode/sourceIn`` by default, as SDWebImage 5.20+.
        public init(color: RGBAColor, blendMode: BlendMode = .sourceIn) {
            self.color = color
            self.blendMode = blendMode
        }

        public var transformerKey: String {
            "SDImageTintTransformer(\(Key.color(color)),\(blendMode.rawValue))"
        }

        public func transform(image: Image, key: String) -> Image? {
            guard color.alpha > 0 else { return image }
            guard let blend = Blend(blendMode) else { return nil }
            let factors = Factors(blend, color: color)
            let hasAlpha = image.hasAlpha || !factors.keepsOpaquePixelsOpaque
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata, hasAlpha: hasAlpha) { source in
                guard let result = try? PixelBuffer(uninitializedWidth: source.width, height: source.height) else { return nil }
                factors.apply(source, into: result)
                return result
            }
        }
    }
}

extension ImageTransformers.Tint {
    /// A supported blend mode as a formula on premultiplied colours, source S (the tint) over destination D:
    /// `R = S·Fs + D·Fd + cross·S·D`, the same for the alpha channel.
    enum Blend {
        /// `Fs` is one of 0, 1, Da, 1 − Da (`base + slope·Da`); `Fd` one of 0, 1, Sa, 1 − Sa.
        case porterDuff(sourceBase: Int, sourceSlope: Int, destination: DestinationFactor)
        /// `S·(1 − Da) + D·(1 − Sa) + S·D`.
        case multiply
        /// `S + D − S·D`.
        case screen

        enum DestinationFactor {
            case zero, one, sourceAlpha, oneMinusSourceAlpha
        }

        init?(_ mode: BlendMode) {
            switch mode {
            case .normal: self = .porterDuff(sourceBase: 1, sourceSlope: 0, destination: .oneMinusSourceAlpha)
            case .multiply: self = .multiply
            case .screen: self = .screen
            case .clear: self = .porterDuff(sourceBase: 0, sourceSlope: 0, destination: .zero)
            case .copy: self = .porterDuff(sourceBase: 1, sourceSlope: 0, destination: .zero)
            case .sourceIn: self = .porterDuff(sourceBase: 0, sourceSlope: 1, destination: .zero)
            case .sourceOut: self = .porterDuff(sourceBase: 1, sourceSlope: -1, destination: .zero)
            case .sourceAtop: self = .porterDuff(sourceBase: 0, sourceSlope: 1, destination: .oneMinusSourceAlpha)
            case .destinationOver: self = .porterDuff(sourceBase: 1, sourceSlope: -1, destination: .one)
            case .destinationIn: self = .porterDuff(sourceBase: 0, sourceSlope: 0, destination: .sourceAlpha)
            case .destinationOut: self = .porterDuff(sourceBase: 0, sourceSlope: 0, destination: .oneMinusSourceAlpha)
            case .destinationAtop: self = .porterDuff(sourceBase: 1, sourceSlope: -1, destination: .sourceAlpha)
            case .xor: self = .porterDuff(sourceBase: 1, sourceSlope: -1, destination: .oneMinusSourceAlpha)
            case .overlay, .darken, .lighten, .colorDodge, .colorBurn, .softLight, .hardLight, .difference, .exclusion,
                .hue, .saturation, .color, .luminosity, .plusDarker, .plusLighter:
                return nil
            }
        }
    }

    /// A blend with the tint colour folded in: integers on a scale of 255 a factor, so that the loop over the
    /// pixels needs no branch on the mode.
    struct Factors {
        /// The source's premultiplied channels, `colour × Sa` (scale 255²).
        let sourceRed: Int
        let sourceGreen: Int
        let sourceBlue: Int
        /// Sa (scale 255).
        let sourceAlpha: Int
        /// `Fs = sourceBase + sourceSlope × Da` (scale 255).
        let sourceBase: Int
        let sourceSlope: Int
        /// Fd (scale 255), constant because the source is one colour.
        let destination: Int
        /// The sign of the `S·D` term: 0, +1 (multiply) or −1 (screen).
        let cross: Int

        init(_ blend: Blend, color: RGBAColor) {
            let alpha = Int(color.alpha)
            sourceAlpha = alpha
            sourceRed = Int(color.red) * alpha
            sourceGreen = Int(color.green) * alpha
            sourceBlue = Int(color.blue) * alpha
            switch blend {
            case let .porterDuff(base, slope, factor):
                sourceBase = base * 255
                sourceSlope = slope
                switch factor {
                case .zero: destination = 0
                case .one: destination = 255
                case .sourceAlpha: destination = alpha
                case .oneMinusSourceAlpha: destination = 255 - alpha
                }
                cross = 0
            case .multiply:
                sourceBase = 255
                sourceSlope = -1
                destination = 255 - alpha
                cross = 1
            case .screen:
                sourceBase = 255
                sourceSlope = 0
                destination = 255
                cross = -1
            }
        }

        /// The result's alpha (scale 255²) over a destination alpha `da`.
        @inline(__always)
        func alpha(over da: Int) -> Int {
            sourceAlpha * (sourceBase + sourceSlope * da) + da * destination + cross * sourceAlpha * da
        }

        /// Whether an opaque pixel stays opaque.
        var keepsOpaquePixelsOpaque: Bool { alpha(over: 255) == 255 * 255 }

        /// Writes every pixel of `result`: the blend of the tint over the same pixel of `source`, converted from
        /// straight to premultiplied and back, in one pass with integer arithmetic.
        func apply(_ source: PixelBuffer, into result: PixelBuffer) {
            let width = source.width
            for y in 0..<source.height {
                let from = source.baseAddress.advanced(by: y * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let to = result.mutableBaseAddress.advanced(by: y * result.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                var i = 0
                let end = width * 4
                while i < end {
                    let da = Int(from[i + 3])
                    let total = alpha(over: da)
                    if total <= 0 {
                        to[i] = 0
                        to[i + 1] = 0
                        to[i + 2] = 0
                        to[i + 3] = 0
                    } else {
                        let fs = sourceBase + sourceSlope * da
                        let half = total / 2
                        to[i] = channel(sourceRed, Int(from[i]) * da, fs, total, half)
                        to[i + 1] = channel(sourceGreen, Int(from[i + 1]) * da, fs, total, half)
                        to[i + 2] = channel(sourceBlue, Int(from[i + 2]) * da, fs, total, half)
                        to[i + 3] = UInt8(min(255, (total + 127) / 255))
                    }
                    i += 4
                }
            }
        }

        /// One straight channel of the result, `(S·Fs + D·Fd + cross·S·D) / Ra` rounded: `s` and `d` are the
        /// premultiplied source and destination (scale 255²), `fs` is Fs (scale 255), `total` is Ra (scale 255²).
        @inline(__always)
        private func channel(_ s: Int, _ d: Int, _ fs: Int, _ total: Int, _ half: Int) -> UInt8 {
            let value = s * fs + d * destination + cross * (s * d / 255)
            return UInt8(min(255, max(0, (value + half) / total)))
        }
    }
}
