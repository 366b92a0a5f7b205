#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Header reads from the first bytes of a file: whatever prefix they start from and however they grow, they end
/// with what a read of the whole file gives, its error included, and a still image's header needs only its
/// first bytes, whatever follows them.
@Suite("Header reads from the first bytes")
struct ImageInfoPrefixTests {
    static let fixtures = ["gif", "jpeg", "png", "webp"].flatMap { Fixtures.paths(in: $0) }.filter { !$0.hasSuffix(".ppm") }

    let registry = ImageCoderRegistry.shared

    /// Reads the header of `data` from its first `start` bytes, growing the prefix to what is asked for (or to
    /// twice as many when `doubling`), as a caller reading a file would. Every request must ask for more bytes
    /// than were given and at most all of them.
    private func readGrowing(_ data: Data, from start: Int, doubling: Bool) -> Result<ImageInfo, WebImageError>? {
        var prefix = data.prefix(start)
        // Each round reads at least one more byte.
        for _ in 0...data.count {
            do throws(WebImageError) {
                switch try registry.info(forPrefix: prefix, totalByteCount: data.count) {
                case .complete(let info):
                    return .success(info)
                case .needsMoreBytes(let count):
                    guard count > prefix.count, count <= data.count else {
                        Issue.record("asked for \(count) bytes with \(prefix.count) of \(data.count) given")
                        return nil
                    }
                    prefix = data.prefix(doubling ? max(count, prefix.count * 2) : count)
                }
            } catch {
                return .failure(error)
            }
        }
        Issue.record("the prefix never stopped growing")
        return nil
    }

    private func whole(_ data: Data) -> Result<ImageInfo, WebImageError> {
        Result { () throws(WebImageError) in try registry.info(for: data) }
    }

    @Test("every prefix growth ends with the whole file's header or error", arguments: fixtures)
    func prefixesAgreeWithTheWholeFile(_ file: String) {
        let data = Fixtures.data(file)
        var variants = [data, data + Data(count: 4096)]
        variants += CorruptData.truncations(of: data, dense: 8, count: 12).filter { !$0.isEmpty }
        variants += CorruptData.byteFlips(of: data, in: 0..<min(data.count, 400), count: 24)
        for (index, variant) in variants.enumerated() {
            let expected = whole(variant)
            for (start, doubling) in [(1, false), (1, true), (40, false)] {
                #expect(readGrowing(variant, from: start, doubling: doubling) == expected, "\(file), variant \(index), from \(start)")
            }
        }
    }

    /// The still images whose header declares their length: not the damaged WebPs whose bitstream has no chunk
    /// header or runs past the RIFF's end, to which whatever follows belongs.
    static let stills = fixtures.filter {
        !$0.hasPrefix("gif/") && !$0.contains("anim") && !$0.contains("apng") && !$0.contains("without-chunk-header") && !$0.contains("past-riff-end")
    }

    @Test("a still image's header is read from its first 64 KiB, whatever follows", arguments: stills)
    func stillsNeedOnlyTheirHead(_ file: String) throws {
        let data = Fixtures.data(file)
        let padded = data + Data(count: 1 << 20)
        let read = try registry.info(forPrefix: padded.prefix(64 << 10), totalByteCount: padded.count)
        #expect(read == .complete(try registry.info(for: data)))
    }

    @Test("a JPEG whose frame header follows a large EXIF block asks for the bytes up to the block's end")
    func jpegAsksForTheSegment() throws {
        let data = Fixtures.data("jpeg/orient-6.jpg")
        // An APP2 segment of 60000 bytes right after the start-of-image marker.
        var bytes = [UInt8](data)
        bytes.insert(contentsOf: [0xFF, 0xE2, 0xEA, 0x60] + [UInt8](repeating: 0, count: 60_000 - 2), at: 2)
        let large = Data(bytes)
        let read = try registry.info(forPrefix: large.prefix(4096), totalByteCount: large.count)
        #expect(read == .needsMoreBytes(atLeast: 2 + 4 + 60_000 - 2))
        #expect(readGrowing(large, from: 4096, doubling: false) == .success(try registry.info(for: data)))
    }

    @Test("a PNG's text chunks before the image data are passed over without being read")
    func pngPassesOverLargeChunks() throws {
        let data = Fixtures.data("png/rgba8.png")
        // A 100000-byte tEXt chunk after IHDR: its length and type are read, not its data.
        let ihdrEnd = 8 + 25
        let text = PNGCraft.chunk("tEXt", [UInt8](repeating: 0x41, count: 100_000))
        let large = data.prefix(ihdrEnd) + Data(text) + data.dropFirst(ihdrEnd)
        let read = try registry.info(forPrefix: large.prefix(ihdrEnd + 8), totalByteCount: large.count)
        #expect(read == .needsMoreBytes(atLeast: ihdrEnd + 12 + 100_000 + 8))
        #expect(readGrowing(large, from: 64, doubling: false) == .success(try registry.info(for: data)))
    }

    @Test("animations with frame records through the file, and unknown data, are read whole")
    func wholeReads() throws {
        let gif = Fixtures.data("gif/anim.gif")
        #expect(try registry.info(forPrefix: gif.prefix(100), totalByteCount: gif.count) == .needsMoreBytes(atLeast: gif.count))
        let webp = Fixtures.data("webp/anim-compose.webp")
        #expect(try registry.info(forPrefix: webp.prefix(100), totalByteCount: webp.count) == .needsMoreBytes(atLeast: webp.count))
        let unknown = Data(repeating: 0x41, count: 1000)
        #expect(try registry.info(forPrefix: unknown.prefix(100), totalByteCount: unknown.count) == .needsMoreBytes(atLeast: 1000))
        // An APNG's frame count is in acTL, before the image data.
        let apng = Fixtures.data("png/apng-blend.png")
        #expect(try registry.info(forPrefix: apng.prefix(200), totalByteCount: apng.count) == .complete(try registry.info(for: apng)))
    }
}
