import Testing
@testable import WebImageCore
import WebImageTestSupport

@Suite struct PixelResamplerTests {
    /// A `size` image in four solid quadrants: red, green, blue, and `fourth` at the bottom right.
    private func quad(_ size: PixelSize, fourth: RGBAColor = .white) throws -> PixelBuffer {
        try PixelBuffer(width: size.width, height: size.height) { bytes in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let c: RGBAColor = switch (x < size.width / 2, y < size.height / 2) {
                    case (true, true): .red
                    case (false, true): .green
                    case (true, false): .blue
                    case (false, false): fourth
                    }
                    let i = (y * size.width + x) * 4
                    bytes[i] = c.red; bytes[i + 1] = c.green; bytes[i + 2] = c.blue; bytes[i + 3] = c.alpha
                }
            }
        }
    }

    @Test(arguments: [
        (PixelSize(width: 640, height: 480), PixelSize(width: 64, height: 48)),    // area average + filter
        (PixelSize(width: 640, height: 480), PixelSize(width: 320, height: 240)),  // filter only
        (PixelSize(width: 641, height: 479), PixelSize(width: 37, height: 23)),    // odd sizes, partial blocks
        (PixelSize(width: 64, height: 48), PixelSize(width: 200, height: 150)),    // upscaling
        (PixelSize(width: 4000, height: 30), PixelSize(width: 13, height: 3)),     // very uneven factors
    ])
    func quadrantColoursSurvive(from source: PixelSize, to target: PixelSize) throws {
        let image = try quad(source)
        let result = try image.resampled(to: target, hasAlpha: false)
        #expect(result.size == target)
        expectPixels(result, quadrants(target, [.red, .green, .blue, .white]), tolerance: 2)
        #expect(result.isOpaque)
    }

    @Test func solidColourStaysExact() throws {
        let color = RGBAColor(red: 12, green: 200, blue: 99, alpha: 255)
        let result = try PixelBuffer(width: 333, height: 77, color: color).resampled(to: PixelSize(width: 31, height: 9), hasAlpha: false)
        for y in 0..<result.height {
            for x in 0..<result.width {
                #expect(result[x: x, y: y] == color)
            }
        }
    }

    @Test func transparentPixelsDoNotBleedTheirColour() throws {
        // Left half opaque red, right half fully transparent *green*: green must never show.
        let source = try PixelBuffer(width: 100, height: 10) { bytes in
            for y in 0..<10 {
                for x in 0..<100 {
                    let i = (y * 100 + x) * 4
                    if x < 50 { bytes[i] = 255; bytes[i + 1] = 0; bytes[i + 2] = 0; bytes[i + 3] = 255 }
                    else { bytes[i] = 0; bytes[i + 1] = 255; bytes[i + 2] = 0; bytes[i + 3] = 0 }
                }
            }
        }
        let result = try source.resampled(to: PixelSize(width: 7, height: 3))
        for x in 0..<7 {
            let p = result[x: x, y: 1]
            if p.alpha > 0 {
                #expect(p.green <= 1, "pixel \(x) took green from a transparent neighbour: \(p)")
                #expect(p.red >= 250, "pixel \(x) lost its red: \(p)")
            }
        }
        #expect(result[x: 0, y: 1].alpha == 255)
        #expect(result[x: 6, y: 1].alpha == 0)
        #expect(result[x: 3, y: 1].alpha > 0 && result[x: 3, y: 1].alpha < 255)
    }

    @Test func streamingMatchesTheWholeImagePath() throws {
        let source = try quad(PixelSize(width: 301, height: 203), fourth: RGBAColor(red: 9, green: 9, blue: 9, alpha: 100))
        let target = PixelSize(width: 40, height: 27)
        let whole = try source.resampled(to: target)
        let streamed = try PixelBuffer(width: target.width, height: target.height) { output in
            let resampler = PixelResampler(
                from: source.size, to: target, hasAlpha: true,
                output: output.baseAddress!, outputBytesPerRow: target.width * 4
            )
            source.withUnsafeBytes { bytes in
                for y in 0..<source.height {
                    #expect(!resampler.isComplete)
                    resampler.push(row: bytes.baseAddress! + y * source.bytesPerRow)
                }
            }
            #expect(resampler.isComplete)
        }
        #expect(streamed == whole)
    }

    @Test func sameSizeIsACopy() throws {
        let source = try quad(PixelSize(width: 10, height: 6), fourth: .clear)
        #expect(try source.resampled(to: source.size) == source)
    }

    @Test func singlePixelTargets() throws {
        let result = try quad(PixelSize(width: 64, height: 64)).resampled(to: PixelSize(width: 1, height: 1), hasAlpha: false)
        // The mean of red, green, blue and white.
        let p = result[x: 0, y: 0]
        #expect(abs(Int(p.red) - 128) <= 3 && abs(Int(p.green) - 128) <= 3 && abs(Int(p.blue) - 128) <= 3)
    }
}
