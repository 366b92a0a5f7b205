import Foundation
import WebImage

/// A small image made from the front of an input: its size, frames, alpha, frame durations and loop count,
/// then its pixels, either raw bytes (noise, every colour) or indices into a palette of up to 256 colours read
/// from the input. Pixels the input runs short of come from a generator seeded with the input. An image without
/// alpha has every alpha at 255, as ``Image/hasAlpha`` requires.
struct ImageRecipe {
    /// Frame durations are whole centiseconds from 0.02 s, which GIF, APNG and WebP all store exactly and no
    /// decoder replaces with a default.
    static func duration(centiseconds: Int) -> Double {
        Double(centiseconds) / 100
    }

    /// Reads an image of at most `maxSide` pixels a side and `maxFrames` frames (each frame may share the
    /// previous one's buffer, as frames that do not change do).
    static func image(from input: inout FuzzInput, seed: Data, maxFrames: Int, maxSide: Int) -> Image {
        var random = FuzzRandom(seed: seed)
        let width = input.int(in: 1...maxSide)
        let height = input.int(in: 1...maxSide)
        let frameCount = input.int(in: 1...maxFrames)
        let hasAlpha = input.bool()
        let loopCount = input.int(in: 0...5)
        let usesPalette = input.bool()
        var palette: [RGBAColor] = []
        if usesPalette {
            for _ in 0..<input.int(in: 1...256) {
                let bytes = Array(input.bytes(4)) + [0, 0, 0, 0]
                palette.append(RGBAColor(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: hasAlpha ? bytes[3] : 255))
            }
        }
        var frames: [ImageFrame] = []
        for index in 0..<frameCount {
            let centiseconds = input.int(in: 2...255)
            if index > 0, input.int(in: 0...3) == 0 {
                frames.append(ImageFrame(pixels: frames[index - 1].pixels, duration: duration(centiseconds: centiseconds)))
                continue
            }
            let pixels = makeBuffer(width: width, height: height) { bytes in
                let count = width * height
                let source = usesPalette ? input.bytes(count) : input.bytes(count * 4)
                var next = source.startIndex
                func take() -> UInt8 {
                    guard next < source.endIndex else { return UInt8(truncatingIfNeeded: random.next()) }
                    defer { next += 1 }
                    return source[next]
                }
                for pixel in 0..<count {
                    let color: RGBAColor
                    if usesPalette {
                        color = palette[Int(take()) % palette.count]
                    } else {
                        color = RGBAColor(red: take(), green: take(), blue: take(), alpha: take())
                    }
                    bytes[pixel * 4] = color.red
                    bytes[pixel * 4 + 1] = color.green
                    bytes[pixel * 4 + 2] = color.blue
                    bytes[pixel * 4 + 3] = hasAlpha ? color.alpha : 255
                }
            }
            frames.append(ImageFrame(pixels: pixels, duration: frameCount > 1 ? duration(centiseconds: centiseconds) : 0))
        }
        return Image(frames: frames, loopCount: loopCount, hasAlpha: hasAlpha)
    }

    /// A buffer of a size the harness chose, filled by `fill`; allocating a few hundred kilobytes does not fail.
    private static func makeBuffer(width: Int, height: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) -> PixelBuffer {
        do {
            return try PixelBuffer(width: width, height: height) { bytes in fill(bytes) }
        } catch {
            fatalError("cannot allocate a \(width) x \(height) image: \(error)")
        }
    }
}
