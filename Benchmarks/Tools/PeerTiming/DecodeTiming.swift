import CRawCodecs
import Foundation
import WebImage

/// Decodes one file with our coder and with the C library called directly (the CRawCodecs baseline: same
/// library, same flags, pixels into a fresh buffer that is freed, as an image's buffer is), one after the
/// other, until the time is up. One untimed decode each comes first.
struct DecodeTiming {
    let format: String
    let data: Data

    private var coder: any ImageCoding {
        switch format {
        case "jpeg": JPEGCoder()
        case "png": PNGCoder()
        case "webp": WebPCoder()
        case "gif": GIFCoder()
        default: fail("unknown format \(format)")
        }
    }

    private var raw: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32 {
        switch format {
        case "jpeg": raw_jpeg_decode
        case "png": raw_png_decode
        case "webp": raw_webp_decode
        default: raw_gif_decode
        }
    }

    func run(seconds: Double) -> [String: Any] {
        let coder = self.coder
        let raw = self.raw
        var ours: [Double] = []
        var baseline: [Double] = []
        var size = (0, 0)
        data.withUnsafeBytes { bytes in
            let base = bytes.bindMemory(to: UInt8.self).baseAddress
            var width: Int32 = 0
            var height: Int32 = 0
            func decodeOurs() {
                do {
                    let image = try coder.decode(data, options: ImageDecodeOptions())
                    size = (image.width, image.height)
                } catch {
                    fail("our \(format) decode failed: \(error)")
                }
            }
            func decodeRaw() {
                if raw(base, bytes.count, nil, &width, &height) != 0 { fail("the C \(format) decode failed") }
            }
            decodeOurs()
            decodeRaw()
            let end = Stopwatch.now() + seconds * 1000
            // At least five of each, then until the time is up.
            while ours.count < 5 || Stopwatch.now() < end {
                ours.append(Stopwatch.milliseconds(decodeOurs))
                baseline.append(Stopwatch.milliseconds(decodeRaw))
            }
            if (Int(width), Int(height)) != size { fail("sizes differ: ours \(size), C \(width)x\(height)") }
        }
        return [
            "mode": "decode", "format": format, "width": size.0, "height": size.1,
            "ms": ["ours": ours.map(\.roundedToMicroseconds), "c": baseline.map(\.roundedToMicroseconds)],
        ]
    }
}
