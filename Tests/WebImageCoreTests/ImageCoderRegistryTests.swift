import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct ImageCoderRegistryTests {
    let first = MockCoder(magic: "MOCK", format: .png, color: .red)
    let second = MockCoder(magic: "MOCK", format: .jpeg, color: .blue)

    @Test func theCoderAddedLastIsAskedFirst() throws {
        let registry = ImageCoderRegistry(coders: [first])
        registry.add(second)
        let image = try registry.decode(Data("MOCK-data".utf8))
        #expect(image.pixels[x: 0, y: 0] == .blue)
        #expect(second.decodeCount == 1 && first.decodeCount == 0)

        registry.remove(MockCoder.self)
        #expect(registry.coders.isEmpty)
        registry.coders = [second, first]
        #expect(try registry.decode(Data("MOCK".utf8)).format == .png)
    }

    @Test func emptyAndUnknownData() {
        let registry = ImageCoderRegistry(coders: [first])
        do {
            _ = try registry.decode(Data())
            Issue.record("empty data must throw")
        } catch {
            #expect(error.code == .badImageData)
        }
        do {
            _ = try registry.decode(Data([0x49, 0x49, 0x2A, 0x00, 1, 2, 3]))
            Issue.record("TIFF has no coder here")
        } catch {
            #expect(error.code == .unsupportedFormat)
            #expect(error.message.contains("TIFF"))
        }
        #expect(!registry.canDecode(Data("nothing".utf8)))
    }

    @Test func encodingFormatFollowsTheImageThenAlphaAndAnimation() throws {
        let registry = ImageCoderRegistry(coders: [first, second])   // PNG and JPEG
        let opaque = Image(pixels: try PixelBuffer(width: 2, height: 2, color: .white), format: .undefined, hasAlpha: false)
        let alpha = Image(pixels: try PixelBuffer(width: 2, height: 2, color: .clear), format: .undefined, hasAlpha: true)
        let png = Image(pixels: try PixelBuffer(width: 2, height: 2, color: .white), format: .png, hasAlpha: false)
        let tiff = Image(pixels: try PixelBuffer(width: 2, height: 2, color: .white), format: .tiff, hasAlpha: false)
        let frame = try PixelBuffer(width: 2, height: 2, color: .white)
        let animated = Image(frames: [ImageFrame(pixels: frame, duration: 0.1), ImageFrame(pixels: frame, duration: 0.1)], hasAlpha: false)
        #expect(registry.encodingFormat(for: opaque) == .jpeg)
        #expect(registry.encodingFormat(for: alpha) == .png)
        #expect(registry.encodingFormat(for: png) == .png)
        #expect(registry.encodingFormat(for: tiff) == .jpeg, "TIFF has no encoder: fall back by alpha")
        #expect(registry.encodingFormat(for: animated) == .gif)

        #expect(try registry.encode(opaque) == Data("MOCK2x2".utf8))
        #expect(second.encodeCount == 1)
        #expect(throws: WebImageError.self) { try registry.encode(animated) }
    }

    @Test func isSafeToUseFromManyThreads() async throws {
        let registry = ImageCoderRegistry(coders: [first])
        let data = Data("MOCK".utf8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        _ = try registry.decode(data)
                        if i == 0 { registry.add(MockCoder(magic: "OTHER", format: .gif)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(first.decodeCount == 1600)
        #expect(registry.coders.count == 201)
    }

    @Test func optionsReachTheCoder() throws {
        let registry = ImageCoderRegistry(coders: [first])
        let image = try registry.decode(Data("MOCK".utf8), options: ImageDecodeOptions(scaleFactor: 2, thumbnailPixelSize: PixelSize(square: 4)))
        #expect(image.pixelSize == PixelSize(square: 4))
        #expect(image.scale == 2)
    }
}
