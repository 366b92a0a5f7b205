#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("JPEG bad input")
struct JPEGBadInputTests {
    let coder = JPEGCoder()

    /// Decodes `data` and returns the error code, or nil when it decoded (checking the image is sane).
    func decodeError(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) -> WebImageError.Code? {
        do {
            let image = try coder.decode(data, options: options)
            #expect(!image.pixelSize.isEmpty && image.format == .jpeg)
            return nil
        } catch {
            return error.code
        }
    }

    /// A copy of `data` with the big-endian 16-bit value at `offset` set (JPEG segment lengths).
    static func settingUInt16(_ value: UInt16, at offset: Int, in data: Data) -> Data {
        var copy = data
        copy[copy.startIndex + offset] = UInt8(value >> 8)
        copy[copy.startIndex + offset + 1] = UInt8(value & 0xFF)
        return copy
    }

    /// `data` with `inserted` placed before byte `offset`.
    static func inserting(_ inserted: [UInt8], at offset: Int, in data: Data) -> Data {
        Data(data.prefix(offset)) + Data(inserted) + Data(data.dropFirst(offset))
    }

    @Test("empty data and data that is not JPEG")
    func notJPEG() {
        #expect(decodeError(Data()) == .badImageData)
        #expect(decodeError(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])) == .badImageData)
        #expect(decodeError(Data([0xFF])) == .badImageData)
        #expect(decodeError(Data([0xFF, 0xD8])) == .badImageData)
        #expect(decodeError(Data([0xFF, 0xD8, 0xFF, 0xD9])) == .badImageData)
        #expect((#expect(throws: WebImageError.self) { try coder.info(for: Data()) })?.code == .badImageData)
        #expect((#expect(throws: WebImageError.self) { try coder.info(for: Data("GIF89a".utf8)) })?.code == .badImageData)
    }

    @Test("every truncation is bad data", arguments: ["quad-420", "quad-progressive", "cmyk-adobe-ycck", "orient-6-mm", "photo"])
    func truncations(name: String) {
        let data = JPEGFixture.data(name)
        #expect(decodeError(data) == nil)
        for cut in CorruptData.truncations(of: data) {
            #expect(decodeError(cut) == .badImageData, "cut at \(cut.count) of \(data.count)")
            // info reads the header only: it answers or fails with bad data.
            do {
                let info = try coder.info(for: cut)
                #expect(info.pixelSize == (try coder.info(for: data)).pixelSize)
            } catch {
                #expect(error.code == .badImageData)
            }
        }
    }

    @Test("flipped bytes in the headers and in the scan data end as typed errors or images")
    func byteFlips() throws {
        for name in ["quad-420", "quad-progressive", "orient-6-mm", "cmyk-adobe"] {
            let data = JPEGFixture.data(name)
            let scan = try #require(JPEGFixture.offset(of: 0xDA, in: data))
            var failures = 0
            for (i, flipped) in CorruptData.byteFlips(of: data, in: 0..<scan + 14, count: 150, seed: 7).enumerated() {
                let code = decodeError(flipped)
                #expect(code == nil || code == .badImageData || code == .imageTooLarge, "flip \(i): \(String(describing: code))")
                if code != nil { failures += 1 }
            }
            // Most header bytes matter: the decoder notices most flips rather than decoding garbage.
            #expect(failures > 30, "\(name): only \(failures) of 150 header flips failed")
            for flipped in CorruptData.byteFlips(of: data, in: (scan + 14)..<data.count, count: 60, seed: 8) {
                let code = decodeError(flipped)
                #expect(code == nil || code == .badImageData)
            }
        }
    }

    @Test("segment lengths that are too short or run past the end")
    func segmentLengths() throws {
        let data = JPEGFixture.data("quad-444")
        for marker: UInt8 in [0xE0, 0xDB, 0xC0, 0xC4, 0xDA] {
            let offset = try #require(JPEGFixture.offset(of: marker, in: data), "marker \(marker)")
            for length: UInt16 in [0, 1, 0xFFFF, UInt16(data.count)] {
                #expect(decodeError(Self.settingUInt16(length, at: offset + 2, in: data)) == .badImageData, "marker \(marker) length \(length)")
            }
        }
    }

    @Test("a huge size in the frame header with tiny data")
    func hugeFrameSize() throws {
        let data = JPEGFixture.data("quad-420")
        let sof = try #require(JPEGFixture.offset(of: 0xC0, in: data))
        // Height then width, 16 bits each, 5 bytes into the segment.
        let huge = CorruptData.settingUInt32BigEndian(0xEA60_EA60, at: sof + 5, in: data)   // 60000 x 60000
        #expect(decodeError(huge) == .imageTooLarge)
        #expect(try coder.info(for: huge).pixelSize == PixelSize(width: 60000, height: 60000))
        // With a thumbnail, 1/8 of it is still over a lower limit.
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 64)
        options.maxPixelCount = 1_000_000
        #expect(decodeError(huge, options: options) == .imageTooLarge)
        // A size whose 1/8 fits is decoded reduced, and the missing data fails the decode.
        let large = CorruptData.settingUInt32BigEndian(0x0BB8_0FA0, at: sof + 5, in: data)  // 4000 x 3000
        #expect(decodeError(large, options: options) == .badImageData)
        // Beyond libjpeg's largest side, and zero.
        #expect(decodeError(CorruptData.settingUInt32BigEndian(0xFFFF_FFFF, at: sof + 5, in: data)) == .badImageData)
        #expect(decodeError(CorruptData.settingUInt32BigEndian(0, at: sof + 5, in: data)) == .badImageData)
    }

    @Test("garbage after the start-of-image marker", arguments: 1...12)
    func garbageAfterSOI(seed: Int) {
        let garbage = CorruptData.randomBytes(count: 64 * seed, seed: UInt64(seed))
        #expect(decodeError(Data([0xFF, 0xD8]) + garbage) == .badImageData)
        #expect(decodeError(Data([0xFF, 0xD8, 0xFF]) + garbage) == .badImageData)
        // Garbage where the scan data should be.
        let data = JPEGFixture.data("quad-444")
        if let scan = JPEGFixture.offset(of: 0xDA, in: data) {
            let headers = data.prefix(scan + 14)
            let code = decodeError(headers + garbage + Data([0xFF, 0xD9]))
            #expect(code == nil || code == .badImageData)
        }
    }

    @Test("harmless warnings still decode: padding bytes before a marker")
    func extraneousBytes() throws {
        // Between the JFIF segment and the quantisation tables: libjpeg warns while reading the header.
        let quad = JPEGFixture.data("quad-420")
        let dqt = try #require(JPEGFixture.offset(of: 0xDB, in: quad))
        let padded = Self.inserting([0x11, 0x22, 0x33], at: dqt, in: quad)
        let image = try coder.decode(padded)
        expectPixels(image.pixels, quadrants(image.pixelSize, JPEGFixture.quadColours), tolerance: 10)
        #expect(try coder.info(for: padded).pixelSize == PixelSize(width: 64, height: 48))

        // Before the end-of-image marker: libjpeg warns at the end of the decode.
        let photo = JPEGFixture.data("photo")
        let tail = Self.inserting([0x01, 0x02, 0x03], at: photo.count - 2, in: photo)
        let decoded = try coder.decode(tail)
        #expect(decoded.pixels == (try coder.decode(photo)).pixels)
    }

    @Test("scan data cut short before an end-of-image marker is bad data")
    func prematureEndOfSegment() {
        let photo = JPEGFixture.data("photo")
        for fraction in [2, 3, 4] {
            let cut = photo.prefix(photo.count * (fraction - 1) / fraction) + Data([0xFF, 0xD9])
            #expect(decodeError(cut) == .badImageData)
        }
    }

    /// `data` without its Huffman table segments (DHT), as Motion-JPEG frames are stored.
    static func removingHuffmanTables(from data: Data) -> Data {
        let bytes = [UInt8](data)
        var kept = Array(bytes.prefix(2))
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF, bytes[i + 1] != 0xDA {
            let end = i + 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
            if bytes[i + 1] != 0xC4 { kept += bytes[i..<end] }
            i = end
        }
        return Data(kept + bytes[i...])
    }

    @Test("a file without Huffman tables decodes with the standard ones, whatever was decoded before")
    func missingHuffmanTables() throws {
        // The encoder writes libjpeg's standard tables, which a decoder supplies for a file that defines none.
        let encoded = try coder.encode(JPEGFixture.quadImage(), as: .jpeg, options: ImageEncodeOptions(quality: 0.9))
        let stripped = Self.removingHuffmanTables(from: encoded)
        #expect(stripped.count < encoded.count)
        let expected = try coder.decode(encoded).pixels
        #expect(try coder.decode(stripped).pixels == expected)
        // A progressive file leaves its own, optimised tables in the decoder that read it; they must not be used
        // for the next file, however the decoders are shared.
        for _ in 0..<3 {
            _ = try coder.decode(JPEGFixture.data("quad-progressive"))
            _ = try coder.info(for: JPEGFixture.data("photo-progressive"))
            #expect(try coder.decode(stripped).pixels == expected)
        }
    }
}
