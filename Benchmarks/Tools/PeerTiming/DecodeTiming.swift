import Foundation
import WebImage

/// Decodes one file with our coder and with the C library called directly (the CRawCodecs baseline: same
/// library, same flags, pixels into a fresh buffer that is freed, as an image's buffer is), one after the
/// other, until the time is up. One untimed decode each comes first. Each decode's process CPU time is reported
/// beside its wall time, which tells how many cores a side kept busy.
struct DecodeTiming {
    let format: String
    let data: Data

    func run(seconds: Double) -> [String: Any] {
        let coder = Coders.coder(format)
        let raw = Coders.raw(format)
        var ours: [Double] = []
        var baseline: [Double] = []
        var oursCPU: [Double] = []
        var baselineCPU: [Double] = []
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
                var cpu = Stopwatch.processCPU()
                ours.append(Stopwatch.milliseconds(decodeOurs))
                oursCPU.append(Stopwatch.processCPU() - cpu)
                cpu = Stopwatch.processCPU()
                baseline.append(Stopwatch.milliseconds(decodeRaw))
                baselineCPU.append(Stopwatch.processCPU() - cpu)
            }
            if (Int(width), Int(height)) != size { fail("sizes differ: ours \(size), C \(width)x\(height)") }
        }
        return [
            "mode": "decode", "format": format, "width": size.0, "height": size.1,
            "ms": ["ours": ours.map(\.roundedToMicroseconds), "c": baseline.map(\.roundedToMicroseconds)],
            "cpu_ms": ["ours": oursCPU.map(\.roundedToMicroseconds), "c": baselineCPU.map(\.roundedToMicroseconds)],
        ]
    }
}
