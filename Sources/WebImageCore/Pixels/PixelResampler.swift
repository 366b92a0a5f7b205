/// A high-quality downscaler (and upscaler) for RGBA8 rows that streams: source rows go in from top to bottom,
/// destination rows come out as soon as the rows they depend on have arrived.
///
/// Large reductions are done in two steps, as Pillow's `reducing_gap` does: an area average over whole blocks
/// of `k x k` pixels (k = ⌊factor / 2⌋), then a Catmull-Rom filter whose support widens with the remaining
/// factor. Colour is filtered premultiplied by alpha, so transparent pixels never bleed their colour into
/// their neighbours. Memory is a few rows: the source never needs to be held whole, which lets decoders reduce
/// images whose full size would be too large to allocate.
///
/// Not thread-safe: one resampler serves one image on one thread.
package final class PixelResampler {
    package let sourceSize: PixelSize
    package let targetSize: PixelSize
    private let hasAlpha: Bool

    private let output: UnsafeMutableRawPointer
    private let outputBytesPerRow: Int

    // Area-average step.
    private let boxX: Int
    private let boxY: Int
    private let boxedWidth: Int
    private let boxedHeight: Int
    private let boxRow: UnsafeMutablePointer<SIMD4<Float>>
    private var rowsInBox = 0

    // Filter step.
    private let horizontal: FilterTable
    private let vertical: FilterTable
    private let ringRows: Int
    private let ring: UnsafeMutablePointer<SIMD4<Float>>
    private let outputRow: UnsafeMutablePointer<SIMD4<Float>>

    private var sourceRowsSeen = 0
    private var boxedRowsMade = 0
    private var outputRowsMade = 0

    /// Creates a resampler that writes into `output`, which must hold `targetSize.height` rows of
    /// `outputBytesPerRow` bytes and stay valid until the last row is pushed.
    ///
    /// - Parameter hasAlpha: Whether the source may have alpha below 255; when false, alpha is written as 255
    ///   and the premultiplication is skipped.
    package init(
        from sourceSize: PixelSize,
        to targetSize: PixelSize,
        hasAlpha: Bool,
        output: UnsafeMutableRawPointer,
        outputBytesPerRow: Int
    ) {
        precondition(!sourceSize.isEmpty && !targetSize.isEmpty, "resampling needs non-empty sizes")
        self.sourceSize = sourceSize
        self.targetSize = targetSize
        self.hasAlpha = hasAlpha
        self.output = output
        self.outputBytesPerRow = outputBytesPerRow

        let factorX = Double(sourceSize.width) / Double(targetSize.width)
        let factorY = Double(sourceSize.height) / Double(targetSize.height)
        boxX = max(1, Int(factorX / 2))
        boxY = max(1, Int(factorY / 2))
        boxedWidth = (sourceSize.width + boxX - 1) / boxX
        boxedHeight = (sourceSize.height + boxY - 1) / boxY

        horizontal = FilterTable(
            inputCount: boxedWidth,
            outputCount: targetSize.width,
            scale: factorX / Double(boxX)
        )
        vertical = FilterTable(
            inputCount: boxedHeight,
            outputCount: targetSize.height,
            scale: factorY / Double(boxY)
        )
        ringRows = vertical.maxTaps
        boxRow = .allocate(capacity: boxedWidth)
        boxRow.initialize(repeating: .zero, count: boxedWidth)
        ring = .allocate(capacity: ringRows * targetSize.width)
        ring.initialize(repeating: .zero, count: ringRows * targetSize.width)
        outputRow = .allocate(capacity: targetSize.width)
        outputRow.initialize(repeating: .zero, count: targetSize.width)
    }

    deinit {
        boxRow.deallocate()
        ring.deallocate()
        outputRow.deallocate()
    }

    /// Whether every destination row has been written.
    package var isComplete: Bool { outputRowsMade == targetSize.height }

    /// Takes the next source row: `sourceSize.width` RGBA8 pixels.
    package func push(row: UnsafeRawPointer) {
        precondition(sourceRowsSeen < sourceSize.height, "more rows pushed than the source has")
        accumulate(row)
        sourceRowsSeen += 1
        rowsInBox += 1
        if rowsInBox == boxY || sourceRowsSeen == sourceSize.height {
            finishBoxedRow()
        }
    }

    /// Pushes the rows of an image held in memory that have not been pushed yet.
    package func push(rows base: UnsafeRawPointer, bytesPerRow: Int) {
        for y in sourceRowsSeen..<sourceSize.height {
            push(row: base + y * bytesPerRow)
        }
    }

    // MARK: Area average

    /// One pixel as floats. Scalar conversions: the standard library's vector integer-to-float conversion takes a
    /// slow generic path.
    @inline(__always)
    private static func load(_ row: UnsafeRawPointer, _ x: Int) -> SIMD4<Float> {
        let p = row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self).littleEndian
        return SIMD4(Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24))
    }

    /// One pixel premultiplied by its alpha (colour x alpha, alpha x 255).
    @inline(__always)
    private static func loadPremultiplied(_ row: UnsafeRawPointer, _ x: Int) -> SIMD4<Float> {
        let pixel = load(row, x)
        return pixel * SIMD4(pixel.w, pixel.w, pixel.w, 255)
    }

    private func accumulate(_ row: UnsafeRawPointer) {
        if hasAlpha {
            accumulate(row, PixelResampler.loadPremultiplied)
        } else {
            accumulate(row, PixelResampler.load)
        }
    }

    @inline(__always)
    private func accumulate(_ row: UnsafeRawPointer, _ load: (UnsafeRawPointer, Int) -> SIMD4<Float>) {
        let width = sourceSize.width
        let out = boxRow
        if boxX == 1 {
            for x in 0..<width {
                out[x] += load(row, x)
            }
            return
        }
        var x = 0
        for i in 0..<boxedWidth {
            let end = min(x &+ boxX, width)
            var sum = SIMD4<Float>.zero
            while x < end {
                sum += load(row, x)
                x &+= 1
            }
            out[i] += sum
        }
    }

    private func finishBoxedRow() {
        // Average the block; premultiplied values carry a factor of 255 that goes here too.
        let rows = Float(rowsInBox)
        let unit: Float = hasAlpha ? 255 : 1
        let width = sourceSize.width
        let lastWidth = Float(width - (boxedWidth - 1) * boxX)
        let full = 1 / (Float(boxX) * rows * unit)
        for i in 0..<(boxedWidth - 1) {
            boxRow[i] *= full
        }
        boxRow[boxedWidth - 1] *= 1 / (lastWidth * rows * unit)

        // Filter horizontally into the ring.
        let slot = ring + (boxedRowsMade % ringRows) * targetSize.width
        horizontal.apply(from: boxRow, to: slot)
        boxRow.update(repeating: .zero, count: boxedWidth)
        rowsInBox = 0
        boxedRowsMade += 1

        // Write every destination row whose window is now complete.
        while outputRowsMade < targetSize.height, vertical.end(of: outputRowsMade) <= boxedRowsMade {
            writeOutputRow(outputRowsMade)
            outputRowsMade += 1
        }
    }

    // MARK: Vertical filter and output

    private func writeOutputRow(_ y: Int) {
        let width = targetSize.width
        let start = vertical.start(of: y)
        let taps = vertical.count(of: y)
        let weights = vertical.weights(of: y)
        let sum = outputRow
        // Row by row over the taps: each inner loop streams through two contiguous rows.
        let first = ring + (start % ringRows) * width
        let w0 = weights[0]
        for x in 0..<width {
            sum[x] = first[x] * w0
        }
        if taps > 1 {
            for k in 1..<taps {
                let row = ring + ((start &+ k) % ringRows) * width
                let w = weights[k]
                for x in 0..<width {
                    sum[x] += row[x] * w
                }
            }
        }
        let out = (output + y * outputBytesPerRow).assumingMemoryBound(to: UInt32.self)
        if hasAlpha {
            for x in 0..<width {
                let v = sum[x]
                let alpha = PixelResampler.clamp(v.w)
                if alpha > 0 {
                    // Colour premultiplied by alpha cannot exceed alpha.
                    let k = 255 / alpha
                    let pixel = SIMD4(
                        min(PixelResampler.clamp(v.x), alpha) * k,
                        min(PixelResampler.clamp(v.y), alpha) * k,
                        min(PixelResampler.clamp(v.z), alpha) * k,
                        alpha
                    )
                    out[x] = PixelResampler.pack(pixel)
                } else {
                    out[x] = 0
                }
            }
        } else {
            for x in 0..<width {
                let v = sum[x]
                out[x] = PixelResampler.pack(SIMD4(PixelResampler.clamp(v.x), PixelResampler.clamp(v.y), PixelResampler.clamp(v.z), 255))
            }
        }
    }

    /// Clamps a channel to 0...255 (scalar: the generic vector min and max are not inlined).
    @inline(__always)
    private static func clamp(_ v: Float) -> Float {
        min(max(v, 0), 255)
    }

    /// Rounds four channels in 0...255 to the nearest integer and packs them as RGBA bytes. Adding 1.5 x 2^23
    /// puts the rounded integer in the low mantissa bits, which avoids the slow generic vector conversion.
    @inline(__always)
    private static func pack(_ pixel: SIMD4<Float>) -> UInt32 {
        let bits = unsafeBitCast(pixel + 12_582_912, to: SIMD4<UInt32>.self) & 0xFF
        return (bits.x | bits.y << 8 | bits.z << 16 | bits.w << 24).littleEndian
    }
}

extension PixelResampler {
    /// Resamples a whole image held in memory into `output`.
    package static func resample(
        _ source: UnsafeRawPointer,
        size sourceSize: PixelSize,
        bytesPerRow: Int,
        hasAlpha: Bool,
        into output: UnsafeMutableRawPointer,
        size targetSize: PixelSize,
        bytesPerRow outputBytesPerRow: Int
    ) {
        if sourceSize == targetSize {
            for y in 0..<sourceSize.height {
                (output + y * outputBytesPerRow).copyMemory(from: source + y * bytesPerRow, byteCount: sourceSize.width * 4)
            }
            return
        }
        let resampler = PixelResampler(
            from: sourceSize,
            to: targetSize,
            hasAlpha: hasAlpha,
            output: output,
            outputBytesPerRow: outputBytesPerRow
        )
        resampler.push(rows: source, bytesPerRow: bytesPerRow)
    }
}

extension PixelBuffer {
    /// A new buffer with this buffer's pixels resampled to `size` (area average, then Catmull-Rom, with colour
    /// weighted by alpha).
    ///
    /// - Parameter hasAlpha: Pass false for an opaque image to skip the alpha work.
    public func resampled(to size: PixelSize, hasAlpha: Bool = true) throws(WebImageError) -> PixelBuffer {
        let result = try PixelBuffer(uninitializedWidth: size.width, height: size.height)
        PixelResampler.resample(
            baseAddress,
            size: self.size,
            bytesPerRow: bytesPerRow,
            hasAlpha: hasAlpha,
            into: result.mutableBaseAddress,
            size: size,
            bytesPerRow: result.bytesPerRow
        )
        return result
    }
}
