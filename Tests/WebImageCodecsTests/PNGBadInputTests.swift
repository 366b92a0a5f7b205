#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: bad input")
struct PNGBadInputTests {
    let coder = PNGCoder()

    /// Runs `body` and records an issue unless it throws a `WebImageError` whose code is in `codes`.
    private func expectError(
        _ codes: Set<WebImageError.Code>,
        _ what: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("\(what()): no error", sourceLocation: sourceLocation)
        } catch let error as WebImageError {
            #expect(codes.contains(error.code), "\(what()): \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(what()): not a WebImageError: \(error)", sourceLocation: sourceLocation)
        }
    }

    static let files = [
        "rgba8.png", "gray16.png", "palette4-trns.png", "rgba8-interlaced.png", "photo-crop.png",
        "apng-apngasm.png", "apng-dispose.png", "apng-hidden-default.png", "apng-palette.png",
    ]

    @Test("zero-length data: badImageData from decode, info and the provider")
    func empty() {
        expectError([.badImageData], "decode") { _ = try coder.decode(Data()) }
        expectError([.badImageData], "info") { _ = try coder.info(for: Data()) }
        expectError([.badImageData], "provider") { _ = try coder.makeAnimatedImageProvider(for: Data(), options: ImageDecodeOptions()) }
        expectError([.badImageData], "signature only") { _ = try coder.decode(Data(PNGCraft.signature)) }
        expectError([.badImageData], "not a PNG") { _ = try coder.decode(Data("GIF89a and more bytes".utf8)) }
    }

    @Test("every truncation throws badImageData", arguments: files)
    func truncations(_ file: String) {
        let data = Fixtures.data("png/\(file)")
        for cut in CorruptData.truncations(of: data) where cut.count < data.count {
            expectError([.badImageData], "\(file) cut at \(cut.count)") {
                _ = try coder.decode(cut)
            }
            expectError([.badImageData], "\(file) cut at \(cut.count), first frame") {
                _ = try coder.decode(cut, options: ImageDecodeOptions(firstFrameOnly: true))
            }
        }
    }

    @Test("every flipped byte in the IHDR chunk throws badImageData", arguments: files)
    func headerFlips(_ file: String) {
        let data = Fixtures.data("png/\(file)")
        for (i, copy) in CorruptData.byteFlips(of: data, in: 8..<33, count: 60).enumerated() {
            expectError([.badImageData], "\(file) IHDR flip \(i)") { _ = try coder.decode(copy) }
            expectError([.badImageData], "\(file) IHDR flip \(i), info") { _ = try coder.info(for: copy) }
        }
    }

    @Test("flipped bytes anywhere never crash: a typed error or a whole image", arguments: files)
    func anywhereFlips(_ file: String) throws {
        let data = Fixtures.data("png/\(file)")
        let size = try coder.info(for: data).pixelSize
        for (i, copy) in CorruptData.byteFlips(of: data, count: 150, seed: 7).enumerated() {
            do {
                let image = try coder.decode(copy)
                #expect(image.pixelSize == size, "\(file) flip \(i)")
            } catch {
                #expect(error.code == .badImageData, "\(file) flip \(i): \(error)")
            }
        }
    }

    @Test("damaged chunk length fields throw badImageData", arguments: files)
    func chunkLengths(_ file: String) throws {
        let data = Fixtures.data("png/\(file)")
        // The offsets of every chunk's length field.
        var offsets: [Int] = []
        var offset = 8
        while offset + 8 <= data.count {
            offsets.append(offset)
            let length = data[data.startIndex + offset..<data.startIndex + offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 12 + length
        }
        #expect(offsets.count >= 3)
        let values: [UInt32] = [0, 1, 3, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, UInt32(data.count)]
        for at in offsets.dropLast() {      // the last is IEND's, which decoders need not read
            for value in values {
                let copy = CorruptData.settingUInt32BigEndian(value, at: at, in: data)
                guard copy != data else { continue }
                expectError([.badImageData], "\(file) length at \(at) set to \(value)") { _ = try coder.decode(copy) }
            }
        }
    }

    @Test("IHDR fields that are invalid even with a correct CRC throw badImageData")
    func invalidHeaderFields() {
        let idat = PNGCraft.chunk("IDAT", PNGCraft.solid(width: 1, height: 1, .red))
        let headers: [(String, [UInt8])] = [
            ("width 0", PNGCraft.ihdr(width: 0, height: 1)),
            ("height 0", PNGCraft.ihdr(width: 1, height: 0)),
            ("width 2^31", PNGCraft.ihdr(width: 0x8000_0000, height: 1)),
            ("colour type 5", PNGCraft.ihdr(width: 1, height: 1, colorType: 5)),
            ("RGBA at 4 bits", PNGCraft.ihdr(width: 1, height: 1, bitDepth: 4, colorType: 6)),
            ("palette at 16 bits", PNGCraft.ihdr(width: 1, height: 1, bitDepth: 16, colorType: 3)),
            ("IHDR of 12 bytes", PNGCraft.chunk("IHDR", Array(PNGCraft.ihdr(width: 1, height: 1)[8..<20]))),
            ("IDAT first", []),
        ]
        for (name, header) in headers {
            let data = Data(PNGCraft.signature + header + idat + PNGCraft.chunk("IEND"))
            expectError([.badImageData], name) { _ = try coder.decode(data) }
            expectError([.badImageData], "\(name), info") { _ = try coder.info(for: data) }
        }
    }

    @Test("a palette image without PLTE, and image data that ends early, throw badImageData")
    func missingPieces() {
        let noPalette = Data(PNGCraft.signature + PNGCraft.ihdr(width: 2, height: 2, colorType: 3)
            + PNGCraft.chunk("IDAT", PNGCraft.compress([0, 0, 0, 0, 0, 0])) + PNGCraft.chunk("IEND"))
        expectError([.badImageData], "no PLTE") { _ = try coder.decode(noPalette) }
        let shortData = Data(PNGCraft.signature + PNGCraft.ihdr(width: 20, height: 20)
            + PNGCraft.chunk("IDAT", PNGCraft.compress([0, 1, 2, 3])) + PNGCraft.chunk("IEND"))
        expectError([.badImageData], "short image data") { _ = try coder.decode(shortData) }
        let noData = Data(PNGCraft.signature + PNGCraft.ihdr(width: 2, height: 2) + PNGCraft.chunk("IEND"))
        expectError([.badImageData], "no IDAT") { _ = try coder.decode(noData) }
    }

    @Test("random bytes after a PNG signature throw badImageData")
    func randomAfterSignature() {
        for seed in 1...20 as ClosedRange<UInt64> {
            let data = Data(PNGCraft.signature) + CorruptData.randomBytes(count: 200, seed: seed)
            expectError([.badImageData], "seed \(seed)") { _ = try coder.decode(data) }
        }
    }
}
