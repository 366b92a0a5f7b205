// Times our resize and Gaussian blur on one decoded image, inside one process, for the comparison with libvips
// (Scripts/bench-transform.sh). The image is decoded once, untimed; each operation is then run N times and its
// best and median wall-clock times are printed as one JSON line. The decoded input and the last output of each
// operation are written to OUTDIR as raw RGB bytes (row after row, no padding, alpha dropped) for comparison.
// Usage: TransformTiming FILE N SIGMA OUTDIR [WIDTH HEIGHT]   (WIDTH x HEIGHT defaults to a quarter of the image)
import Foundation
import WebImage

let arguments = CommandLine.arguments
guard arguments.count == 5 || arguments.count == 7,
      let count = Int(arguments[2]), count > 0,
      let sigma = Double(arguments[3]),
      let data = try? Data(contentsOf: URL(fileURLWithPath: arguments[1])) else {
    FileHandle.standardError.write(Data("usage: TransformTiming FILE N SIGMA OUTDIR [WIDTH HEIGHT]\n".utf8))
    exit(2)
}
let outputDirectory = URL(fileURLWithPath: arguments[4], isDirectory: true)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("TransformTiming: \(message)\n".utf8))
    exit(1)
}

let image: Image
do {
    image = try ImageCoderRegistry.shared.decode(data, options: ImageDecodeOptions())
} catch {
    fail("cannot decode \(arguments[1]): \(error)")
}
let width = arguments.count == 7 ? Int(arguments[5]) ?? 0 : image.width / 4
let height = arguments.count == 7 ? Int(arguments[6]) ?? 0 : image.height / 4
guard width > 0, height > 0 else { fail("bad size \(width)x\(height)") }

/// The pixels as packed RGB, the layout libvips gives an sRGB JPEG.
func rgbBytes(_ image: Image) -> Data {
    let pixels = image.pixels
    var out = [UInt8](repeating: 0, count: pixels.width * pixels.height * 3)
    out.withUnsafeMutableBufferPointer { target in
        pixels.withUnsafeBytes { source in
            var o = 0
            for y in 0..<pixels.height {
                let row = y * pixels.bytesPerRow
                for x in 0..<pixels.width {
                    target[o] = source[row + x * 4]
                    target[o + 1] = source[row + x * 4 + 1]
                    target[o + 2] = source[row + x * 4 + 2]
                    o += 3
                }
            }
        }
    }
    return Data(out)
}

/// Runs `body` `count` times; returns the times in milliseconds and the last result.
func time(_ body: () -> Image?) -> (times: [Double], last: Image) {
    var times: [Double] = []
    var last: Image?
    let clock = ContinuousClock()
    for _ in 0..<count {
        var result: Image?
        let elapsed = clock.measure { result = body() }
        guard let result else { fail("the transformer returned nil") }
        let parts = elapsed.components
        times.append(Double(parts.seconds) * 1e3 + Double(parts.attoseconds) / 1e15)
        last = result
    }
    return (times, last!)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

// The width of each of the three boxes, as the transformer documents it (⌊s·3·√(2π)/4 + 0.5⌋ made odd, s ≥ 2).
let boxWidth = Int((max(sigma, 2) * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down)) | 1

let resize = ImageTransformers.Resize(width: Double(width), height: Double(height), scaleMode: .fill)
let blur = ImageTransformers.Blur(radius: sigma)
let resized = time { resize.transform(image: image, key: resize.transformerKey) }
let blurred = time { blur.transform(image: image, key: blur.transformerKey) }

do {
    try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    try rgbBytes(image).write(to: outputDirectory.appendingPathComponent("ours-input.rgb"))
    try rgbBytes(resized.last).write(to: outputDirectory.appendingPathComponent("ours-resize.rgb"))
    try rgbBytes(blurred.last).write(to: outputDirectory.appendingPathComponent("ours-blur.rgb"))
} catch {
    fail("cannot write the outputs to \(outputDirectory.path): \(error)")
}

let report: [String: Any] = [
    "side": "ours",
    "input": ["width": image.width, "height": image.height],
    "runs": count,
    // Resize runs on the calling thread; blur splits an image of a megapixel or more across the active cores.
    "threads": ["resize": 1, "blur": ProcessInfo.processInfo.activeProcessorCount],
    "resize": [
        "width": resized.last.width, "height": resized.last.height,
        "best_ms": rounded(resized.times.min()!), "median_ms": rounded(median(resized.times)),
    ],
    "blur": [
        "sigma": sigma, "box": boxWidth,
        "best_ms": rounded(blurred.times.min()!), "median_ms": rounded(median(blurred.times)),
    ],
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
