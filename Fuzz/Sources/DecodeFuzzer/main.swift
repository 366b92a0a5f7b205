import CFuzzerDriver
import Foundation
import WebImage

/// Every input goes through the registry's header read, a full decode, a thumbnail decode, and the frame
/// providers of the animated coders. Any crash, hang, leak or memory error is a finding; a thrown
/// `WebImageError` is the expected outcome for bad data.
private let registry = ImageCoderRegistry.makeDefault()

/// Options that keep each run small: a low pixel limit, so that a few bytes cannot ask for gigabytes.
private let full = ImageDecodeOptions(maxPixelCount: 4_000_000)
private let thumbnail = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 64), maxPixelCount: 4_000_000)

/// Also exported under libFuzzer's usual name, which its archive's own main refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    _ = try? registry.info(for: data)
    if let image = try? registry.decode(data, options: full) {
        // Whatever decodes must be consistent.
        precondition(image.width > 0 && image.height > 0 && !image.frames.isEmpty)
        precondition(image.frames.allSatisfy { $0.pixels.size == image.pixelSize })
    }
    _ = try? registry.decode(data, options: thumbnail)
    if let provider = try? registry.makeAnimatedImageProvider(for: data, options: full) {
        for index in 0..<min(provider.frameCount, 4) {
            _ = try? provider.frame(at: index)
        }
        _ = try? provider.frame(at: 0)
    }
    if let incremental = registry.makeIncrementalDecoder(for: data, options: full) {
        incremental.update(data.prefix(data.count / 2), isFinished: false)
        _ = incremental.currentImage()
        incremental.update(data, isFinished: true)
        _ = incremental.currentImage()
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzz($0, $1) })
