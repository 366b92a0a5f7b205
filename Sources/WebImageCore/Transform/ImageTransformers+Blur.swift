import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageTransformers {
    /// Blurs the image, as SDWebImage's `SDImageBlurTransformer`.
    ///
    /// ```swift
    /// manager.transformer = ImageTransformers.Blur(radius: 5)
    /// ```
    ///
    /// A Gaussian blur of standard deviation `radius × scale` pixels, approximated as SDWebImage's vImage path does:
    /// three box blurs across and three down, each box ⌊s·3·√(2π)/4 + 0.5⌋ pixels wide made odd, with s at least 2,
    /// and edges extended. The image is blurred with premultiplied alpha, so transparent pixels lend no colour
    /// to their neighbours. A radius below 1, or one that is not finite, keeps the image (nil). Boxes wider than
    /// 4095 pixels are narrowed to 4095, so a huge radius costs no more than a large one.
    ///
    /// `transformerKey`: `SDImageBlurTransformer(%f)`, the radius with six decimals, for example
    /// `SDImageBlurTransformer(5.000000)`. A thread-safe value; works on every frame.
    ///
    /// - Complexity: O(width × height), whatever the radius.
    public struct Blur: ImageTransforming {
        /// The standard deviation of the blur, in points.
        public let radius: Double

        /// - Parameter radius: The standard deviation of the blur, in points (multiplied by the image's scale).
        public init(radius: Double) {
            self.radius = radius
        }

        public var transformerKey: String {
            "SDImageBlurTransformer(\(Key.float(radius)))"
        }

        public func transform(image: Image, key: String) -> Image? {
            guard radius.isFinite, radius >= 1 else { return nil }
            let box = BoxBlur(boxSize: Self.boxSize(radius: radius * image.scale))
            let opaque = !image.hasAlpha
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata) { source in
                guard let result = try? PixelBuffer(uninitializedWidth: source.width, height: source.height) else { return nil }
                box.blur(source, into: result, opaque: opaque)
                return result
            }
        }

        /// The width of each box for a Gaussian of standard deviation `sigma` pixels (the SVG specification's
        /// approximation), odd and at most 4095.
        static func boxSize(radius sigma: Double) -> Int {
            let s = max(sigma, 2)
            let d = min((s * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down), 4095)
            return Int(d) | 1
        }
    }
}

extension ImageTransformers.Blur {
    /// Three passes of a box blur across and then three down, with running sums: each output value costs two
    /// additions and a multiplication whatever the box size. Rows are blurred in a row-sized scratch; columns
    /// in strips a few pixels wide, each strip swept from top to bottom so that memory is read in whole cache
    /// lines. Scratch memory is allocated once per frame.
    struct BoxBlur {
        /// The box width, odd.
        let boxSize: Int
        /// Pixels on each side of the centre.
        let half: Int
        /// ⌈2^24 / boxSize⌉: a box sum (at most 255 · boxSize) times this, plus 2^23, shifted right by 24 is the
        /// rounded average without overflowing 32 bits; exact when the average is whole, and otherwise off by
        /// less than 255 · boxSize / 2^24 before rounding (under 0.0015 for the 95-pixel box of radius 50).
        let multiplier: UInt32

        /// Pixels per column strip: 16 pixels are one 64-byte cache line a row.
        static let stripWidth = 16

        init(boxSize: Int) {
            precondition(boxSize >= 3 && boxSize % 2 == 1 && boxSize < 4096)
            self.boxSize = boxSize
            self.half = boxSize / 2
            self.multiplier = UInt32(((1 << 24) + boxSize - 1) / boxSize)
        }

        /// Writes `source` blurred into `result` (same size). When `opaque`, every alpha is 255 and the
        /// premultiplication is skipped.
        ///
        /// An image of a megapixel or more is split across the active cores: bands of rows for the passes across,
        /// then strips of columns for the passes down, each worker with its own scratch. Smaller images stay on
        /// the calling thread, where the hand-off would cost more than it saves.
        ///
        /// - Parameter workers: How many workers to split the work across; by default as described above.
        func blur(_ source: PixelBuffer, into result: PixelBuffer, opaque: Bool, workers: Int? = nil) {
            let width = source.width, height = source.height
            let workers = workers ?? (width * height >= 1 << 20 ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 16)) : 1)
            let strips = (width + Self.stripWidth - 1) / Self.stripWidth
            if workers == 1 {
                blurRows(source, into: result, rows: 0..<height, opaque: opaque)
                blurStrips(result, strips: 0..<strips, opaque: opaque)
                return
            }
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                blurRows(source, into: result, rows: height * worker / workers..<height * (worker + 1) / workers, opaque: opaque)
            }
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                blurStrips(result, strips: strips * worker / workers..<strips * (worker + 1) / workers, opaque: opaque)
            }
        }

        /// Across: three passes per row while the row is in cache; `result` then holds premultiplied pixels. Rows
        /// go in pairs, summed as one 8-lane vector: two independent running sums hide each other's latency.
        private func blurRows(_ source: PixelBuffer, into result: PixelBuffer, rows: Range<Int>, opaque: Bool) {
            let width = source.width
            let rowBytes = width * 4
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 4)
            defer { scratch.deallocate() }
            let a0 = scratch, b0 = scratch + rowBytes, a1 = scratch + 2 * rowBytes, b1 = scratch + 3 * rowBytes
            var y = rows.lowerBound
            while y < rows.upperBound {
                let from0 = source.baseAddress.advanced(by: y * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let to0 = result.mutableBaseAddress.advanced(by: y * result.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                guard y + 1 < rows.upperBound else {
                    if opaque {
                        boxRow(from0, into: b0, width: width)
                    } else {
                        Self.premultiply(from0, into: a0, width: width)
                        boxRow(a0, into: b0, width: width)
                    }
                    boxRow(b0, into: a0, width: width)
                    boxRow(a0, into: to0, width: width)
                    break
                }
                let from1 = from0 + source.bytesPerRow
                let to1 = to0 + result.bytesPerRow
                if opaque {
                    boxRowPair(from0, from1, into: b0, b1, width: width)
                } else {
                    Self.premultiply(from0, into: a0, width: width)
                    Self.premultiply(from1, into: a1, width: width)
                    boxRowPair(a0, a1, into: b0, b1, width: width)
                }
                boxRowPair(b0, b1, into: a0, a1, width: width)
                boxRowPair(a0, a1, into: to0, to1, width: width)
                y += 2
            }
        }

        /// Down: three passes per strip of columns, the last one back into `result`, which is then made straight
        /// again.
        private func blurStrips(_ result: PixelBuffer, strips: Range<Int>, opaque: Bool) {
            let width = result.width, height = result.height
            guard !strips.isEmpty else { return }
            let stripBytes = min(width, Self.stripWidth) * 4
            let stripA = UnsafeMutablePointer<UInt8>.allocate(capacity: stripBytes * height)
            defer { stripA.deallocate() }
            let stripB = UnsafeMutablePointer<UInt8>.allocate(capacity: stripBytes * height)
            defer { stripB.deallocate() }
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: stripBytes)
            defer { sums.deallocate() }
            let stride = result.bytesPerRow
            for strip in strips {
                let x = strip * Self.stripWidth
                let bytes = min(Self.stripWidth, width - x) * 4
                let columns = result.mutableBaseAddress.advanced(by: x * 4).assumingMemoryBound(to: UInt8.self)
                boxColumns(columns, stride: stride, into: stripA, stride: bytes, bytes: bytes, height: height, sums: sums)
                boxColumns(stripA, stride: bytes, into: stripB, stride: bytes, bytes: bytes, height: height, sums: sums)
                boxColumns(stripB, stride: bytes, into: columns, stride: stride, bytes: bytes, height: height, sums: sums)
                if !opaque {
                    for y in 0..<height {
                        Self.unpremultiply(columns + y * stride, width: bytes / 4)
                    }
                }
            }
        }

        /// One box pass along a row of RGBA pixels, edges extended; the four channels are summed as one vector.
        private func boxRow(_ from: UnsafePointer<UInt8>, into to: UnsafeMutablePointer<UInt8>, width: Int) {
            let source = UnsafeRawPointer(from), target = UnsafeMutableRawPointer(to)
            @inline(__always) func pixel(_ x: Int) -> SIMD4<UInt32> {
                SIMD4<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
            }
            let last = width - 1
            var sum = pixel(0) &* UInt32(half + 1)
            for i in 1...half { sum &+= pixel(min(i, last)) }
            let m = SIMD4<UInt32>(repeating: multiplier), round = SIMD4<UInt32>(repeating: 1 << 23)
            for x in 0..<width {
                let mean = (sum &* m &+ round) &>> 24
                target.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: mean), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                sum = sum &+ pixel(min(x + half + 1, last)) &- pixel(max(x - half, 0))
            }
        }

        /// One box pass along two rows at once, as ``boxRow(_:into:width:)`` does for one; the pixels of both rows
        /// at one position are one 8-lane vector.
        private func boxRowPair(
            _ from0: UnsafePointer<UInt8>, _ from1: UnsafePointer<UInt8>,
            into to0: UnsafeMutablePointer<UInt8>, _ to1: UnsafeMutablePointer<UInt8>,
            width: Int
        ) {
            let source0 = UnsafeRawPointer(from0), source1 = UnsafeRawPointer(from1)
            let target0 = UnsafeMutableRawPointer(to0), target1 = UnsafeMutableRawPointer(to1)
            @inline(__always) func pixels(_ x: Int) -> SIMD8<UInt32> {
                SIMD8<UInt32>(
                    lowHalf: SIMD4<UInt32>(truncatingIfNeeded: source0.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)),
                    highHalf: SIMD4<UInt32>(truncatingIfNeeded: source1.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
                )
            }
            let last = width - 1
            var sum = pixels(0) &* UInt32(half + 1)
            for i in 1...half { sum &+= pixels(min(i, last)) }
            let m = SIMD8<UInt32>(repeating: multiplier), round = SIMD8<UInt32>(repeating: 1 << 23)
            @inline(__always) func emit(_ x: Int) {
                let mean = SIMD8<UInt8>(truncatingIfNeeded: (sum &* m &+ round) &>> 24)
                target0.storeBytes(of: mean.lowHalf, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                target1.storeBytes(of: mean.highHalf, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
            }
            // The edges need clamped indices; the middle, where both ends of the box are inside the row, does not.
            // Pixels [half, width - half - 1): both ends of the box inside the row (none when the row is narrower).
            let middleEnd = width - half - 1
            var x = 0
            while x < min(half, width) {
                emit(x)
                sum = sum &+ pixels(min(x + half + 1, last)) &- pixels(max(x - half, 0))
                x += 1
            }
            while x < middleEnd {
                emit(x)
                sum = sum &+ pixels(x + half + 1) &- pixels(x - half)
                x += 1
            }
            while x < width {
                emit(x)
                sum = sum &+ pixels(min(x + half + 1, last)) &- pixels(max(x - half, 0))
                x += 1
            }
        }

        /// One box pass down `bytes` columns of bytes (a multiple of 4), edges extended; `sums` holds `bytes`
        /// running sums. Sixteen columns are summed as one vector.
        private func boxColumns(
            _ from: UnsafePointer<UInt8>, stride fromStride: Int,
            into to: UnsafeMutablePointer<UInt8>, stride toStride: Int,
            bytes: Int, height: Int, sums: UnsafeMutablePointer<UInt32>
        ) {
            let source = UnsafeRawPointer(from), target = UnsafeMutableRawPointer(to), sum = UnsafeMutableRawPointer(sums)
            let last = height - 1
            let lead = UInt32(half + 1)
            let wide = bytes - bytes % 16
            let m16 = SIMD16<UInt32>(repeating: multiplier), round16 = SIMD16<UInt32>(repeating: 1 << 23)
            let m4 = SIMD4<UInt32>(repeating: multiplier), round4 = SIMD4<UInt32>(repeating: 1 << 23)

            // Adds row `add` and takes row `sub` from the sums, writing the averages first to row `out` if given;
            // `first` starts the sums at `lead` times row `add`.
            @inline(__always) func step(_ add: Int, _ sub: Int?, _ out: Int?, first: Bool) {
                var c = 0
                while c < wide {
                    let a = SIMD16<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: add + c, as: SIMD16<UInt8>.self))
                    var s = first ? a &* lead : sum.loadUnaligned(fromByteOffset: c * 4, as: SIMD16<UInt32>.self)
                    if let out {
                        let mean = (s &* m16 &+ round16) &>> 24
                        target.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: mean), toByteOffset: out + c, as: SIMD16<UInt8>.self)
                    }
                    if !first { s &+= a }
                    if let sub {
                        s &-= SIMD16<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: sub + c, as: SIMD16<UInt8>.self))
                    }
                    sum.storeBytes(of: s, toByteOffset: c * 4, as: SIMD16<UInt32>.self)
                    c += 16
                }
                while c < bytes {
                    let a = SIMD4<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: add + c, as: SIMD4<UInt8>.self))
                    var s = first ? a &* lead : sum.loadUnaligned(fromByteOffset: c * 4, as: SIMD4<UInt32>.self)
                    if let out {
                        let mean = (s &* m4 &+ round4) &>> 24
                        target.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: mean), toByteOffset: out + c, as: SIMD4<UInt8>.self)
                    }
                    if !first { s &+= a }
                    if let sub {
                        s &-= SIMD4<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: sub + c, as: SIMD4<UInt8>.self))
                    }
                    sum.storeBytes(of: s, toByteOffset: c * 4, as: SIMD4<UInt32>.self)
                    c += 4
                }
            }

            step(0, nil, nil, first: true)
            for i in 1...half { step(min(i, last) * fromStride, nil, nil, first: false) }
            for y in 0..<height {
                step(min(y + half + 1, last) * fromStride, max(y - half, 0) * fromStride, y * toStride, first: false)
            }
        }

        /// Straight to premultiplied alpha, rounded: c·a/255.
        private static func premultiply(_ from: UnsafePointer<UInt8>, into to: UnsafeMutablePointer<UInt8>, width: Int) {
            for x in 0..<width {
                let p = from + x * 4, q = to + x * 4
                let alpha = UInt32(p[3])
                @inline(__always) func times(_ c: UInt8) -> UInt8 {
                    let t = UInt32(c) * alpha + 128
                    return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
                }
                q[0] = times(p[0]); q[1] = times(p[1]); q[2] = times(p[2]); q[3] = p[3]
            }
        }

        /// Premultiplied to straight alpha in place; a transparent pixel becomes (0, 0, 0, 0).
        private static func unpremultiply(_ pixels: UnsafeMutablePointer<UInt8>, width: Int) {
            for x in 0..<width {
                let p = pixels + x * 4
                let alpha = p[3]
                if alpha == 255 { continue }
                if alpha == 0 {
                    p[0] = 0; p[1] = 0; p[2] = 0
                    continue
                }
                let scale = 255 / Float(alpha)
                p[0] = UInt8(min(255, Float(p[0]) * scale + 0.5))
                p[1] = UInt8(min(255, Float(p[1]) * scale + 0.5))
                p[2] = UInt8(min(255, Float(p[2]) * scale + 0.5))
            }
        }
    }
}
