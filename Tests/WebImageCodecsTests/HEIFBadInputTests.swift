#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Malformed, truncated, empty and hostile HEIF input: every case ends as a typed error, never a crash, a hang
/// or a large allocation.
@Suite("HEIF bad input")
struct HEIFBadInputTests: BadInputSuite {
    let coder = HEIFCoder()

    static let all = ["quad", "quad-alpha", "quad-10bit", "quad-rotated", "photo-thumb", "two-images"]

    /// The offsets of the boxes of type `type` in `data` (their size fields), found by their four letters.
    static func boxOffsets(_ type: String, in data: Data) -> [Int] {
        let tag = Array(type.utf8)
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { return [] }
        return (4...(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == tag }.map { $0 - 4 }
    }

    /// The offset of the first box of type `type` in `data`.
    static func boxOffset(_ type: String, in data: Data) -> Int? {
        boxOffsets(type, in: data).first
    }

    @Test("empty, foreign and brand-only data")
    func emptyAndForeign() {
        let ftypOnly = HEIFCoderTests.ftyp("heic", ["mif1"])
        for data in [Data(), Data([0x00]), Fixtures.data("source/quad.png"), CorruptData.randomBytes(count: 300, seed: 3), ftypOnly] {
            expectDecodeFails(data, "\(data.count) bytes")
            #expect(throws: WebImageError.self) { try coder.info(for: data) }
        }
        let error = #expect(throws: WebImageError.self) { try coder.decode(ftypOnly) }
        #expect(error?.message.hasPrefix("HEIC:") == true)
    }

    @Test("every truncation fails cleanly", arguments: all)
    func truncations(_ name: String) {
        let data = Fixtures.data("heif/\(name).heic")
        for prefix in CorruptData.truncations(of: data) where prefix.count < data.count {
            expectDecodeFails(prefix, "\(name) cut at \(prefix.count)")
        }
    }

    @Test("random damage anywhere never crashes", arguments: all)
    func randomFlips(_ name: String) {
        expectDamageDecodesOrFailsCleanly(Fixtures.data("heif/\(name).heic"), name)
    }

    @Test("box sizes reaching past the data fail cleanly")
    func boxSizes() throws {
        let data = Fixtures.data("heif/quad.heic")
        for type in ["ftyp", "meta", "iinf", "iloc", "iprp", "ipco", "ipma", "mdat", "hvcC", "ispe"] {
            let offset = try #require(Self.boxOffset(type, in: data), "\(type)")
            for value: UInt32 in [0xFFFF_FFFF, 0x7FFF_FFF0, UInt32(data.count) * 2, 1, 7] {
                let changed = CorruptData.settingUInt32BigEndian(value, at: offset, in: data)
                do throws(WebImageError) {
                    _ = try coder.decode(changed)
                } catch {
                    #expect([.badImageData, .imageTooLarge].contains(error.code), "\(type) size \(value): \(error)")
                }
            }
        }
    }

    @Test("an image size of 2^31 pixels a side over tiny data is refused before decoding", arguments: [
        (0x7FFF_FFFF, 0x7FFF_FFFF), (60_000, 60_000), (20_000, 20_000), (64, 0), (0, 48),
    ])
    func hugeImageSize(_ width: Int, _ height: Int) throws {
        // heif-enc writes the image as a grid of one tile: the grid and its tile each have an ispe box.
        var changed = Fixtures.data("heif/quad.heic")
        let boxes = Self.boxOffsets("ispe", in: changed)
        #expect(boxes.count == 2)
        for ispe in boxes {
            changed = CorruptData.settingUInt32BigEndian(UInt32(width), at: ispe + 12, in: changed)
            changed = CorruptData.settingUInt32BigEndian(UInt32(height), at: ispe + 16, in: changed)
        }
        let codes: Set<WebImageError.Code> = width == 0 || height == 0 ? [.badImageData] : [.imageTooLarge, .badImageData]
        expectDecodeFails(changed, "\(width) x \(height)", codes: codes)
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(square: 64)
        expectDecodeFails(changed, "\(width) x \(height) thumbnail", codes: codes, options: thumbnail)
        if width == 20_000 {
            // Within libheif's own limits: the header reads, and the pixel limit refuses the decode.
            #expect(try coder.info(for: changed).pixelSize == PixelSize(width: width, height: height))
            expectDecodeFails(changed, "\(width) x \(height)", codes: [.imageTooLarge])
        }
    }
}

/// Files whose boxes make libheif allocate more than the size it reports: a grid's canvas or an HEVC picture
/// larger than `ispe`. Each is refused from the boxes, before libheif decodes.
@Suite("HEIF sizes libheif does not report")
struct HEIFUnreportedSizeTests {
    let coder = HEIFCoder()

    /// `quad.heic` (a grid of one 64 x 48 tile) with its grid descriptor's canvas set to `width` x `height`,
    /// `ispe` left at 64 x 48.
    static func gridCanvas(_ width: Int, _ height: Int, of name: String = "quad") throws -> Data {
        let data = Fixtures.data("heif/\(name).heic")
        let idat = try #require(HEIFBadInputTests.boxOffset("idat", in: data))
        // The descriptor: version, flags, rows - 1, columns - 1, then the canvas in two 16-bit fields.
        #expect(data[idat + 8 + 4] == 0x00 && data[idat + 8 + 5] == 64)
        return CorruptData.settingUInt32BigEndian(UInt32(width << 16 | height), at: idat + 8 + 4, in: data)
    }

    @Test("a grid canvas over the pixel limit is refused, whatever ispe says")
    func canvasOverThePixelLimit() throws {
        let data = try Self.gridCanvas(16_384, 12_288)
        #expect(try coder.info(for: data).pixelSize == PixelSize(width: 64, height: 48))
        let error = #expect(throws: WebImageError.self) { try coder.decode(data) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("16384 x 12288") == true)
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(square: 32)
        #expect(throws: WebImageError.self) { try coder.decode(data, options: thumbnail) }
    }

    @Test("a grid canvas within the pixel limit but over the memory budget is refused")
    func canvasOverTheBudget() throws {
        // 81 megapixels: under the 100-megapixel limit; planes and RGBA at 10 bytes a pixel are 810 MB.
        let data = try Self.gridCanvas(9_000, 9_000)
        let error = #expect(throws: WebImageError.self) { try coder.decode(data) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("decode memory budget") == true)
    }

    @Test("a grid descriptor read past the end of its idat box is the one libheif uses")
    func descriptorPastTheItemDataBox() throws {
        // A fuzzer's finding: libheif 1.15 checks an idat extent against the box's size with its header, so
        // an extent that starts 1 byte in reads a descriptor shifted by one: a canvas of 16384 x 12288 at 10
        // bits, for which libheif allocated 1.2 GB.
        let data = Fixtures.data("heif/quad-10bit.heic")
        let iloc = try #require(HEIFBadInputTests.boxOffset("iloc", in: data))
        // iloc version 1, 4-byte offsets, lengths and base offsets: the grid (item 2) is the second entry,
        // one extent of 8 bytes in idat at offset 0.
        #expect(data[iloc + 8] == 1 && data[iloc + 36 + 1] == 2 && data[iloc + 55] == 8)
        let shifted = CorruptData.settingUInt32BigEndian(1, at: iloc + 48, in: data)
        let error = #expect(throws: WebImageError.self) { try coder.decode(shifted) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("16384 x 12288") == true)
    }

    @Test("an image made of itself through its tiles and alpha plane is refused, not followed")
    func referenceCycle() throws {
        // A fuzzer's finding: grid 6 is the alpha plane of grid 4 and has grid 4 as its tile, so decoding either
        // decodes the other without end; libheif 1.15 followed it until its stack overflowed.
        // The second has a reference box whose size is wrong, which libheif ignores, reading the fields in turn.
        for name in ["alpha-grid-cycle", "alpha-grid-cycle-oversized-reference"] {
            let data = Fixtures.data("heif/\(name).heic")
            let error = #expect(throws: WebImageError.self) { try coder.decode(data) }
            #expect(error?.code == .badImageData, "\(name)")
            #expect(error?.message.contains("made of itself") == true, "\(name)")
        }
    }

    @Test("the fixtures' canvases and pictures are the sizes they declare")
    func fixturesAreWithinTheirDeclaredSizes() {
        for name in HEIFBadInputTests.all + ["photo"] {
            var options = ImageDecodeOptions()
            // Budgets that fit the fixtures' own sizes exactly still decode them: nothing is over-counted.
            let info = try? coder.info(for: Fixtures.data("heif/\(name).heic"))
            options.maxPixelCount = (info?.pixelSize.pixelCount ?? 0) * (info?.frameCount ?? 1)
            #expect(throws: Never.self, "\(name)") { _ = try coder.decode(Fixtures.data("heif/\(name).heic"), options: options) }
        }
    }
}
