#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Malformed, truncated, empty and hostile input: every case ends as a typed error, never a crash, a hang or a
/// large allocation.
@Suite("JPEG XL bad input")
struct JXLBadInputTests: BadInputSuite {
    let coder = JXLCoder()

    static let all = [
        "quad-lossy", "quad-lossless", "quad-alpha-lossless", "quad-semi-lossy", "quad16-lossless", "quad-orient6",
        "photo-progressive", "anim",
    ]

    @Test("empty and foreign data")
    func emptyAndForeign() {
        for data in [Data(), Data([0xFF]), Data([0xFF, 0x0A]), Fixtures.data("source/quad.png"),
                     CorruptData.randomBytes(count: 300, seed: 3)] {
            expectDecodeFails(data, "\(data.count) bytes")
            #expect(throws: WebImageError.self) { try coder.info(for: data) }
            #expect(throws: WebImageError.self) {
                try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
            }
        }
        let error = #expect(throws: WebImageError.self) { try coder.decode(Data()) }
        #expect(error?.code == .badImageData)
        #expect(error?.message.hasPrefix("JXL:") == true)
    }

    @Test("every truncation fails cleanly", arguments: all)
    func truncations(_ name: String) {
        let data = Fixtures.data("jxl/\(name).jxl")
        for prefix in CorruptData.truncations(of: data) where prefix.count < data.count {
            expectDecodeFails(prefix, "\(name) cut at \(prefix.count)")
            if name == "anim" {
                // libjxl walks the frame headers without their pixels, so a frame source may be made over data
                // cut inside the last frame; decoding its frames then fails.
                #expect(throws: WebImageError.self, "\(name) cut at \(prefix.count)") {
                    let provider = try coder.makeAnimatedImageProvider(for: prefix, options: ImageDecodeOptions())
                    for index in 0..<provider.frameCount { _ = try provider.frame(at: index) }
                }
            }
        }
    }

    @Test("flipped bytes fail cleanly or decode", arguments: all)
    func byteFlips(_ name: String) {
        let data = Fixtures.data("jxl/\(name).jxl")
        for (i, flipped) in CorruptData.byteFlips(of: data, count: 150).enumerated() {
            do throws(WebImageError) {
                let image = try coder.decode(flipped)
                #expect(image.pixelSize.pixelCount > 0)
            } catch {
                #expect([.badImageData, .imageTooLarge].contains(error.code), "\(name) flip \(i): \(error)")
            }
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            decoder.update(flipped.prefix(flipped.count / 2), isFinished: false)
            _ = decoder.currentImage()
            decoder.update(flipped, isFinished: true)
            _ = decoder.currentImage()
        }
    }

    /// A bare codestream whose size header declares `width` x `height` (the largest sizes of the header's
    /// 30-bit fields) and whose metadata are all default: enough for libjxl's basic information, no pixels.
    static func codestream(width: Int, height: Int) -> Data {
        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) {
            for i in 0..<count { bits.append(value >> i & 1 == 1) }
        }
        put(0, 1)                  // not small
        put(3, 2); put(height - 1, 30)
        put(0, 3)                  // no ratio: the width follows
        put(3, 2); put(width - 1, 30)
        put(1, 1)                  // all-default image metadata
        var bytes: [UInt8] = [0xFF, 0x0A]
        for start in stride(from: 0, to: bits.count, by: 8) {
            var byte: UInt8 = 0
            for (i, bit) in bits[start..<min(bits.count, start + 8)].enumerated() where bit { byte |= 1 << i }
            bytes.append(byte)
        }
        return Data(bytes + [UInt8](repeating: 0, count: 32))
    }

    @Test("a header declaring a huge image is refused before any allocation")
    func hugeDeclaredSize() throws {
        let data = Self.codestream(width: 1 << 20, height: 1 << 20)
        let info = try coder.info(for: data)
        #expect(info.pixelSize == PixelSize(width: 1 << 20, height: 1 << 20))
        expectDecodeFails(data, "huge", codes: [.imageTooLarge])
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(square: 64)
        expectDecodeFails(data, "huge thumbnail", codes: [.imageTooLarge], options: thumbnail)
        #expect(throws: WebImageError.self) { try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions()) }
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data, isFinished: true)
        #expect(decoder.currentImage() == nil)
    }
}
