#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Assembles an APNG from PNG files that libpng's simplified API wrote, one per frame, all of one size and
/// format: the first file's header and colour chunks, an `acTL`, then for each frame an `fcTL` and its
/// compressed data (as `IDAT` for frame 0, which is also the default image, as `fdAT` after it).
///
/// Every frame covers the canvas, is drawn with `APNG_BLEND_OP_SOURCE` and left in place
/// (`APNG_DISPOSE_OP_NONE`). Not thread-safe: one writer serves one encode.
struct APNGWriter {
    private var output: [UInt8] = []
    private var sequence: UInt32 = 0
    private var header: [UInt8]?
    private let frameCount: Int
    private let loopCount: Int

    /// A writer for `frameCount` frames played `loopCount` times (0 means forever).
    init(frameCount: Int, loopCount: Int) {
        self.frameCount = frameCount
        self.loopCount = loopCount
    }

    /// Appends one frame, given as a whole PNG file of the canvas size, shown for `duration` seconds.
    ///
    /// - Throws: `encodingFailed` when the file does not match the first frame's header.
    mutating func append(_ png: Data, duration: Double) throws(WebImageError) {
        do throws(WebImageError) {
            try png.withBytes { bytes throws(WebImageError) in try append(bytes, duration: duration) }
        } catch where error.code == .badImageData {
            throw WebImageError(.encodingFailed, "PNG: a frame's encoding is not readable: \(error.message)")
        }
    }

    /// Appends the frame in `bytes`, a whole PNG file.
    private mutating func append(_ bytes: UnsafeRawBufferPointer, duration: Double) throws(WebImageError) {
        let fileHeader = try PNGHeader(parsing: bytes)
        let ihdr = Array(UnsafeRawBufferPointer(rebasing: bytes[fileHeader.chunk.data]))
        let isFirst = header == nil
        if isFirst {
            header = ihdr
            output.append(contentsOf: PNGHeader.signature)
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[fileHeader.chunk.whole]))
            var control: [UInt8] = []
            PNGChunk.appendBigEndian(UInt32(clamping: frameCount), to: &control)
            PNGChunk.appendBigEndian(UInt32(clamping: loopCount), to: &control)
            control.withUnsafeBytes { PNGChunk.write(PNGChunk.actl, $0, into: &output) }
        } else if header != ihdr {
            throw WebImageError(.encodingFailed, "PNG: the frames of an animation differ in size or format")
        }
        var reader = PNGChunkReader(bytes)
        _ = try reader.next()
        var wroteControl = false
        while let chunk = try reader.next(), chunk.type != PNGChunk.iend {
            let data = UnsafeRawBufferPointer(rebasing: bytes[chunk.data])
            if chunk.type == PNGChunk.idat {
                if !wroteControl {
                    writeFrameControl(fileHeader, duration: duration)
                    wroteControl = true
                }
                if isFirst {
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[chunk.whole]))
                } else {
                    var payload: [UInt8] = []
                    payload.reserveCapacity(data.count + 4)
                    PNGChunk.appendBigEndian(nextSequence(), to: &payload)
                    payload.append(contentsOf: data)
                    payload.withUnsafeBytes { PNGChunk.write(PNGChunk.fdat, $0, into: &output) }
                }
            } else if isFirst, !wroteControl {
                // Colour information (sRGB, gAMA, cHRM) before the image data, shared by every frame.
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[chunk.whole]))
            }
        }
        guard wroteControl else {
            throw WebImageError(.encodingFailed, "PNG: a frame's encoding has no image data")
        }
    }

    /// The APNG file.
    mutating func finished() -> Data {
        PNGChunk.write(PNGChunk.iend, UnsafeRawBufferPointer(start: nil, count: 0), into: &output)
        return Data(output)
    }

    private mutating func nextSequence() -> UInt32 {
        defer { sequence += 1 }
        return sequence
    }

    /// An `fcTL` for a frame covering the canvas.
    private mutating func writeFrameControl(_ header: PNGHeader, duration: Double) {
        let (numerator, denominator) = APNGWriter.delay(for: duration)
        var control: [UInt8] = []
        PNGChunk.appendBigEndian(nextSequence(), to: &control)
        PNGChunk.appendBigEndian(UInt32(header.width), to: &control)
        PNGChunk.appendBigEndian(UInt32(header.height), to: &control)
        PNGChunk.appendBigEndian(0, to: &control)
        PNGChunk.appendBigEndian(0, to: &control)
        control += [UInt8(numerator >> 8), UInt8(numerator & 0xFF), UInt8(denominator >> 8), UInt8(denominator & 0xFF)]
        control += [0, 0]   // APNG_DISPOSE_OP_NONE, APNG_BLEND_OP_SOURCE
        control.withUnsafeBytes { PNGChunk.write(PNGChunk.fctl, $0, into: &output) }
    }

    /// A delay fraction for `duration` seconds: milliseconds when they fit, else hundredths, else seconds.
    static func delay(for duration: Double) -> (UInt16, UInt16) {
        guard duration.isFinite, duration > 0 else { return (0, 1000) }
        for denominator in [1000.0, 100.0, 1.0] {
            let numerator = (duration * denominator).rounded()
            if numerator <= Double(UInt16.max) { return (UInt16(numerator), UInt16(denominator)) }
        }
        return (UInt16.max, 1)
    }
}
