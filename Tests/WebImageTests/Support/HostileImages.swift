import Foundation

/// Small files whose headers promise images that cost far more memory to decode than their bytes suggest, built
/// byte by byte in the test (no fixture is committed), from 66 bytes to 160 KB. Each is within the default pixel
/// limit for the decode it is meant for, so only the decode memory budget stands between it and a gigabyte.
enum HostileImages {
    /// A progressive CMYK JPEG (with an Adobe segment) whose only scan is a DC scan of `scanBytes` zero bytes.
    ///
    /// libjpeg keeps every coefficient of a progressive image: 64 x 2 bytes a block, 4 components at full
    /// resolution, 800 MB for 10000 x 10000, then 400 MB of output, before the decode fails for the missing scans.
    static func progressiveCMYKJPEG(width: Int = 10_000, height: Int = 10_000, scanBytes: Int = 20_000) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        // APP14 Adobe, transform 0: the four components are CMYK.
        bytes += [0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00]
        // One quantisation table of ones.
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        // SOF2: progressive, 8 bits, four components sampled 1 x 1.
        bytes += [0xFF, 0xC2, 0x00, 0x14, 0x08] + bigEndian16(height) + bigEndian16(width) + [0x04]
        for id: UInt8 in 1...4 { bytes += [id, 0x11, 0x00] }
        // A DC table with one code of one bit, '0', for difference category 0.
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        // The first DC scan of all four components: one bit a block, so the data runs out early.
        bytes += [0xFF, 0xDA, 0x00, 0x0E, 0x04, 1, 0x00, 2, 0x00, 3, 0x00, 4, 0x00, 0x00, 0x00, 0x00]
        bytes += [UInt8](repeating: 0, count: scanBytes)
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    /// An APNG of one frame, the default image, covering a canvas of `width` x `height` pixels of 1-bit grey.
    ///
    /// The compositor holds the canvas and keeps a copy of it as the frame: twice 400 MB at 10000 x 10000, from
    /// about 80 KB of zlib data.
    static func singleFrameAPNG(width: Int = 10_000, height: Int = 10_000) -> Data {
        apng(width: width, height: height, disposals: [0])
    }

    /// An APNG of two frames covering a canvas of `width` x `height` pixels of 1-bit grey, the second disposed to
    /// the previous state.
    ///
    /// Even a thumbnail composites at full size: the canvas and the copy kept for the disposal, 400 MB each at
    /// 10000 x 10000, from about 160 KB of zlib data.
    static func previousDisposalAPNG(width: Int = 10_000, height: Int = 10_000) -> Data {
        apng(width: width, height: height, disposals: [0, 2])
    }

    /// An APNG whose frames all cover the canvas with zeros, the first being the default image, each disposed
    /// as `disposals` says (0 none, 1 background, 2 previous).
    private static func apng(width: Int, height: Int, disposals: [UInt8]) -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        appendChunk("IHDR", bigEndian32(width) + bigEndian32(height) + [1, 0, 0, 0, 0], to: &png)
        appendChunk("acTL", bigEndian32(disposals.count) + bigEndian32(0), to: &png)
        let data = zlibZeros(count: (1 + (width + 7) / 8) * height)
        var sequence = 0
        for (index, disposal) in disposals.enumerated() {
            let control = bigEndian32(sequence) + bigEndian32(width) + bigEndian32(height) + bigEndian32(0)
                + bigEndian32(0) + [0, 1, 0, 10, disposal, 0]
            appendChunk("fcTL", control, to: &png)
            sequence += 1
            if index == 0 {
                appendChunk("IDAT", data, to: &png)
            } else {
                appendChunk("fdAT", bigEndian32(sequence) + data, to: &png)
                sequence += 1
            }
        }
        appendChunk("IEND", [], to: &png)
        return Data(png)
    }

    /// An animated WebP whose canvas holds one lossless frame of `width` x `height` pixels that cost no bits
    /// each (every prefix code has one symbol).
    ///
    /// libwebp's animation decoder keeps two canvases and its lossless decoder a whole ARGB image, 400 MB each at
    /// 10000 x 10000, and the frame is copied out once more: all from a file of 84 bytes.
    static func animatedLosslessWebP(width: Int = 10_000, height: Int = 10_000) -> Data {
        var bits = LSBBitWriter()
        bits.write(0x2F, 8)                 // VP8L signature
        bits.write(width - 1, 14)
        bits.write(height - 1, 14)
        bits.write(0, 1)                    // alpha not used
        bits.write(0, 3)                    // version 0
        bits.write(0, 1)                    // no transform
        bits.write(0, 1)                    // no colour cache
        bits.write(0, 1)                    // no meta prefix codes
        for _ in 0..<5 {
            // A simple code of one symbol, 0, given in one bit: zero bits a pixel.
            bits.write(1, 1)
            bits.write(0, 1)
            bits.write(0, 1)
            bits.write(0, 1)
        }
        let lossless = riffChunk("VP8L", bits.bytes)
        let frame = littleEndian24(0) + littleEndian24(0) + littleEndian24(width - 1) + littleEndian24(height - 1)
            + littleEndian24(100) + [0x02] + lossless
        var body = Array("WEBP".utf8)
        body += riffChunk("VP8X", [0x02, 0, 0, 0] + littleEndian24(width - 1) + littleEndian24(height - 1))
        body += riffChunk("ANIM", [0, 0, 0, 0, 0, 0])
        body += riffChunk("ANMF", frame)
        return Data(Array("RIFF".utf8) + littleEndian32(body.count) + body)
    }

    /// A GIF of two 1 x 1 frames on a logical screen of `width` x `height` pixels.
    ///
    /// Each frame is a snapshot of the whole screen: 2 x 200 MB at 10000 x 5000 (100 megapixels over both
    /// frames, the default pixel limit), from 66 bytes.
    static func tinyFramesGIF(width: Int = 10_000, height: Int = 5_000) -> Data {
        var gif = gifHeader(width: width, height: height)
        for _ in 0..<2 {
            gif += gifFrame(x: 0, y: 0, width: 1, height: 1, disposal: 0, lzw: constantLZW(count: 1))
        }
        gif.append(0x3B)
        return Data(gif)
    }

    /// A GIF whose first frame covers a logical screen of `width` x `height` pixels with one colour and is
    /// disposed to the previous canvas, followed by a 1 x 1 frame.
    ///
    /// Even a thumbnail composites at full size: the canvas and the copy kept for the disposal, 400 MB each at
    /// 10000 x 10000, from about 70 KB of LZW data.
    static func previousDisposalGIF(width: Int = 10_000, height: Int = 10_000) -> Data {
        var gif = gifHeader(width: width, height: height)
        gif += gifFrame(x: 0, y: 0, width: width, height: height, disposal: 3, lzw: constantLZW(count: width * height))
        gif += gifFrame(x: 0, y: 0, width: 1, height: 1, disposal: 0, lzw: constantLZW(count: 1))
        gif.append(0x3B)
        return Data(gif)
    }

    // MARK: - GIF

    private static func gifHeader(width: Int, height: Int) -> [UInt8] {
        // A global colour table of two colours: black and white.
        Array("GIF89a".utf8) + littleEndian16(width) + littleEndian16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    }

    private static func gifFrame(x: Int, y: Int, width: Int, height: Int, disposal: UInt8, lzw: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x21, 0xF9, 0x04, disposal << 2, 10, 0, 0, 0]
        frame += [0x2C] + littleEndian16(x) + littleEndian16(y) + littleEndian16(width) + littleEndian16(height) + [0]
        frame.append(2)     // LZW minimum code size
        var rest = lzw[...]
        while !rest.isEmpty {
            let block = rest.prefix(255)
            frame.append(UInt8(block.count))
            frame += block
            rest = rest.dropFirst(block.count)
        }
        frame.append(0)
        return frame
    }

    /// The LZW codes of `count` pixels of colour 0, with a minimum code size of 2.
    ///
    /// A run of one colour is LZW's best case: the k-th code after a clear stands for k pixels. The table is
    /// cleared well before it fills, and the code width grows exactly when giflib's decoder widens it.
    private static func constantLZW(count: Int) -> [UInt8] {
        let clear = 4
        let end = 5
        let first = 6
        var bits = LSBBitWriter()
        var width = 3
        var codes = 0
        bits.write(clear, width)
        var remaining = count
        while remaining > 0 {
            if codes == 3_990 {
                bits.write(clear, width)
                width = 3
                codes = 0
            }
            codes += 1
            let length = min(codes, remaining)
            bits.write(length == 1 ? 0 : first + length - 2, width)
            remaining -= length
            if first + codes - 1 >= 1 << width, width < 12 { width += 1 }
        }
        bits.write(end, width)
        return bits.bytes
    }

    // MARK: - zlib and PNG chunks

    /// A zlib stream of `count` zero bytes: a literal, then matches of 258 bytes at distance 1 (fixed Huffman
    /// codes, 13 bits each), then literals for the rest.
    private static func zlibZeros(count: Int) -> [UInt8] {
        var bits = LSBBitWriter()
        bits.write(1, 1)            // last block
        bits.write(1, 2)            // fixed Huffman codes
        func literalZero() { bits.writeHuffman(0x30, 8) }
        literalZero()
        var remaining = count - 1
        while remaining >= 258 {
            bits.writeHuffman(0xC5, 8)      // length code 285: 258 bytes
            bits.writeHuffman(0, 5)         // distance code 0: 1 byte back
            remaining -= 258
        }
        for _ in 0..<remaining { literalZero() }
        bits.writeHuffman(0, 7)             // end of block
        // Adler-32 of zeros: a stays 1, b gains 1 a byte.
        let adler = UInt32(count % 65_521) << 16 | 1
        return [0x78, 0x01] + bits.bytes + bigEndian32(Int(adler))
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png += bigEndian32(data.count) + typeBytes + data
        png += bigEndian32(Int(crc32(typeBytes + data)))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: - Containers and integers

    private static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + littleEndian32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    private static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private static func bigEndian32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
    private static func littleEndian16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func littleEndian24(_ value: Int) -> [UInt8] { [0, 8, 16].map { UInt8(value >> $0 & 0xFF) } }
    private static func littleEndian32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(value >> $0 & 0xFF) } }
}

/// Bits packed from the least significant bit of each byte up, as deflate, LZW in GIF and VP8L read them.
private struct LSBBitWriter {
    private var whole: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingCount = 0

    /// Writes the low `count` bits of `value`, least significant first.
    mutating func write(_ value: Int, _ count: Int) {
        pending |= UInt64(value & ((1 << count) - 1)) << UInt64(pendingCount)
        pendingCount += count
        while pendingCount >= 8 {
            whole.append(UInt8(pending & 0xFF))
            pending >>= 8
            pendingCount -= 8
        }
    }

    /// Writes a Huffman code of `count` bits, most significant first, as deflate packs its codes.
    mutating func writeHuffman(_ code: Int, _ count: Int) {
        var reversed = 0
        for i in 0..<count where code & (1 << i) != 0 { reversed |= 1 << (count - 1 - i) }
        write(reversed, count)
    }

    /// The bytes written, the last one padded with zero bits.
    var bytes: [UInt8] { pendingCount > 0 ? whole + [UInt8(pending & 0xFF)] : whole }
}
