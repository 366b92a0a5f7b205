#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Malformed, truncated, empty and hostile input: every case ends as a typed error, never a crash or a large
/// allocation.
@Suite("AVIF bad input")
struct AVIFBadInputTests: BadInputSuite {
    let coder = AVIFCoder()
    let messagePrefix: String? = "AVIF:"

    static let all = ["quad", "quad-alpha", "quad-10bit", "quad-irot1", "photo", "anim"]

    /// The offset of the first box of type `type` in `data` (its size field), found by its four letters.
    static func boxOffset(_ type: String, in data: Data) throws -> Int {
        let tag = Array(type.utf8)
        let bytes = Array(data)
        let index = try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        return index - 4
    }

    @Test("empty and foreign data")
    func emptyAndForeign() {
        for data in [Data(), Data([0x00]), Data("ftyp".utf8), Fixtures.data("source/quad.png"),
                     CorruptData.randomBytes(count: 300, seed: 3)] {
            expectDecodeFails(data, "\(data.count) bytes")
            #expect(throws: WebImageError.self) { try coder.info(for: data) }
            #expect(throws: WebImageError.self) {
                try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
            }
        }
        // A file type box of brand avif and nothing after it.
        let header = Fixtures.data("avif/quad.avif").prefix(32)
        #expect(coder.canDecode(header))
        expectDecodeFails(header, "file type box only")
    }

    @Test("every truncation fails cleanly", arguments: all)
    func truncations(_ name: String) {
        let data = Fixtures.data("avif/\(name).avif")
        for prefix in CorruptData.truncations(of: data) where prefix.count < data.count {
            expectDecodeFails(prefix, "\(name) cut at \(prefix.count)")
            if name == "anim" {
                #expect(throws: WebImageError.self, "\(name) cut at \(prefix.count)") {
                    let provider = try coder.makeAnimatedImageProvider(for: prefix, options: ImageDecodeOptions())
                    for index in 0..<provider.frameCount { _ = try provider.frame(at: index) }
                }
            }
        }
    }

    @Test("flipped bytes end as a typed error or an image", arguments: all)
    func byteFlips(_ name: String) {
        expectDamageDecodesOrFailsCleanly(Fixtures.data("avif/\(name).avif"), name, seed: 1)
    }

    @Test("an image size claimed beyond the limits is refused before decoding")
    func hugeImageSize() throws {
        let data = Fixtures.data("avif/quad.avif")
        let ispe = try Self.boxOffset("ispe", in: data)
        func claiming(_ width: UInt32, _ height: UInt32) -> Data {
            let wide = CorruptData.settingUInt32BigEndian(width, at: ispe + 12, in: data)
            return CorruptData.settingUInt32BigEndian(height, at: ispe + 16, in: wide)
        }
        // Within libavif's limits, over ours: refused from the container.
        let overOurs = claiming(12_000, 12_000)
        expectDecodeFails(overOurs, "12000 x 12000", codes: [.imageTooLarge])
        #expect(try coder.info(for: overOurs).pixelSize == PixelSize(width: 12_000, height: 12_000))
        // Beyond libavif's own limits (16384 x 16384 pixels, 32768 a side).
        for (width, height) in [(20_000, 20_000), (40_000, 1), (UInt32.max, UInt32.max), (0, 48)] as [(UInt32, UInt32)] {
            expectDecodeFails(claiming(width, height), "\(width) x \(height)", codes: [.badImageData, .imageTooLarge])
        }
        // Without limits: libavif scales the AV1 frame (64 x 48) to the size the container declares.
        var unlimited = ImageDecodeOptions()
        unlimited.maxPixelCount = 0
        unlimited.maxDecodeMemory = 0
        let scaled = try coder.decode(claiming(1_000, 750), options: unlimited)
        #expect(scaled.pixelSize == PixelSize(width: 1_000, height: 750))
        expectPixels(scaled.pixels, quadrants(scaled.pixelSize, AVIFCoderTests.quad(.white)), tolerance: 16)
        // An AV1 frame larger than the container says is refused by the AV1 decoder, not decoded and scaled.
        expectDecodeFails(claiming(32, 24), "AV1 frame larger than the container's 32 x 24")
    }

    @Test("boxes claiming more bytes than the file has end as a typed error or an image")
    func hugeBoxes() throws {
        for name in ["quad", "anim"] {
            let data = Fixtures.data("avif/\(name).avif")
            for box in ["meta", "mdat", "iloc", "stsz"] where name == "anim" || box != "stsz" {
                let offset = try Self.boxOffset(box, in: data)
                for size in [UInt32.max, 0x7FFF_FFFF, UInt32(data.count)] {
                    let damaged = CorruptData.settingUInt32BigEndian(size, at: offset, in: data)
                    do throws(WebImageError) {
                        // The last box may run past the end harmlessly when what it holds is all there.
                        let image = try coder.decode(damaged)
                        #expect(box == "mdat", "\(name): \(box) of \(size) bytes decoded \(image)")
                    } catch {
                        #expect([.badImageData, .imageTooLarge].contains(error.code), "\(name): \(box): \(error)")
                    }
                }
            }
        }
    }

    @Test("a sequence claiming millions of frames")
    func hugeSampleCount() throws {
        let data = Fixtures.data("avif/anim.avif")
        let stsz = try Self.boxOffset("stsz", in: data)
        // stsz: size, type, version and flags, sample size, sample count.
        let claimed = CorruptData.settingUInt32BigEndian(50_000_000, at: stsz + 16, in: data)
        expectDecodeFails(claimed, "50,000,000 samples", codes: [.badImageData, .imageTooLarge])
        #expect(throws: WebImageError.self) {
            try coder.makeAnimatedImageProvider(for: claimed, options: ImageDecodeOptions(firstFrameOnly: true))
        }
    }
}
