#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CPNG
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Builds PNG and APNG files byte by byte for the tests that need files no tool writes: hostile headers, huge
/// declared sizes, thousands of frames.
enum PNGCraft {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk with its length and a correct CRC.
    static func chunk(_ type: String, _ data: [UInt8] = []) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    static func bigEndian16(_ value: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// An IHDR chunk.
    static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6, interlaced: Bool = false) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
    }

    /// zlib-compressed bytes (level 9).
    static func compress(_ raw: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(raw.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { dst in
            raw.withUnsafeBufferPointer { src in
                compress2(dst.baseAddress, &size, src.baseAddress, uLong(src.count), 9)
            }
        }
        precondition(status == Z_OK, "zlib failed: \(status)")
        return Array(out.prefix(Int(size)))
    }

    /// Filtered scanlines (filter 0) of a solid RGBA colour, compressed.
    static func solid(width: Int, height: Int, _ color: RGBAColor) -> [UInt8] {
        let row = [0] + Array(repeating: [color.red, color.green, color.blue, color.alpha], count: width).joined()
        return compress(Array(Array(repeating: row, count: height).joined()))
    }

    /// A whole still RGBA PNG of one colour.
    static func solidPNG(width: Int, height: Int, _ color: RGBAColor) -> Data {
        Data(signature + ihdr(width: UInt32(width), height: UInt32(height))
            + chunk("IDAT", solid(width: width, height: height, color)) + chunk("IEND"))
    }

    /// An fcTL chunk's data.
    static func frameControl(
        sequence: UInt32, width: UInt32, height: UInt32, x: UInt32 = 0, y: UInt32 = 0,
        delay: (UInt16, UInt16) = (1, 10), dispose: UInt8 = 0, blend: UInt8 = 0
    ) -> [UInt8] {
        bigEndian(sequence) + bigEndian(width) + bigEndian(height) + bigEndian(x) + bigEndian(y)
            + bigEndian16(delay.0) + bigEndian16(delay.1) + [dispose, blend]
    }
}

/// Writes an APNG chunk by chunk, numbering fcTL and fdAT chunks in one sequence.
struct APNGCraft {
    private(set) var bytes: [UInt8]
    private(set) var sequence: UInt32 = 0

    /// Starts a file: signature, IHDR (RGBA unless told), acTL, and any shared chunks.
    init(width: UInt32, height: UInt32, frames: UInt32, plays: UInt32 = 0, colorType: UInt8 = 6, shared: [UInt8] = []) {
        bytes = PNGCraft.signature + PNGCraft.ihdr(width: width, height: height, colorType: colorType)
            + PNGCraft.chunk("acTL", PNGCraft.bigEndian(frames) + PNGCraft.bigEndian(plays)) + shared
    }

    /// An fcTL chunk with the next sequence number.
    mutating func control(
        width: UInt32, height: UInt32, x: UInt32 = 0, y: UInt32 = 0,
        delay: (UInt16, UInt16) = (1, 10), dispose: UInt8 = 0, blend: UInt8 = 0
    ) {
        bytes += PNGCraft.chunk("fcTL", PNGCraft.frameControl(
            sequence: sequence, width: width, height: height, x: x, y: y, delay: delay, dispose: dispose, blend: blend
        ))
        sequence += 1
    }

    /// An IDAT chunk.
    mutating func defaultImage(_ compressed: [UInt8]) {
        bytes += PNGCraft.chunk("IDAT", compressed)
    }

    /// An fdAT chunk with the next sequence number.
    mutating func frameData(_ compressed: [UInt8]) {
        bytes += PNGCraft.chunk("fdAT", PNGCraft.bigEndian(sequence) + compressed)
        sequence += 1
    }

    /// Any chunk, as given.
    mutating func append(_ chunk: [UInt8]) {
        bytes += chunk
    }

    /// The file, with IEND.
    func finished() -> Data {
        Data(bytes + PNGCraft.chunk("IEND"))
    }
}

@Suite("PNG crafted files")
struct PNGCraftingTests {
    @Test("a PNG written byte by byte decodes to its colour")
    func craftedStill() throws {
        let data = PNGCraft.solidPNG(width: 5, height: 3, RGBAColor(red: 10, green: 20, blue: 30, alpha: 40))
        let image = try PNGCoder().decode(data)
        #expect(image.pixelSize == PixelSize(width: 5, height: 3))
        #expect(image.hasAlpha)
        expectPixels(image.pixels, [ExpectedPixel(x: 4, y: 2, RGBAColor(red: 10, green: 20, blue: 30, alpha: 40))])
    }
}
