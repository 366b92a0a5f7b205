import Foundation
import WebImage

extension DecoderHarness {
    /// The most updates an input is fed in.
    static var maxUpdates: Int { 12 }

    /// Feeds `data` to a new incremental decoder in chunks of random sizes, as a download arrives, asking for
    /// the image after each update, then finishes it.
    ///
    /// Images before the end must have the size of the finished image; the finished image must be the one-shot
    /// decode's (`oneShot`, decoded with the same options), frame for frame and pixel for pixel, and when the
    /// one-shot decode fails, whatever image remains must still be marked incremental.
    func feed(
        _ data: Data,
        to coder: any ProgressiveImageCoding,
        options: ImageDecodeOptions,
        oneShot: ImageFingerprint?,
        random: inout FuzzRandom
    ) {
        let decoder = coder.makeIncrementalDecoder(options: options)
        let updates = Int.random(in: 1...Self.maxUpdates, using: &random)
        var received = 0
        for update in 1...updates {
            let isFinished = update == updates
            if isFinished {
                received = data.count
            } else if received < data.count {
                // Chunks of any size, from one byte to most of what is left.
                received += Int.random(in: 1...max(1, (data.count - received) * 2 / 3), using: &random)
            }
            decoder.update(data.prefix(received), isFinished: isFinished)
            guard let image = decoder.currentImage() else { continue }
            fuzzCheck(image.format == format, "an incremental \(format) decode made a \(image.format) image")
            // Before the end an image may already be complete (a format that knows where its data ends), so
            // only its size is checked.
            if !isFinished, let oneShot, !image.isAnimated, !oneShot.isAnimated {
                fuzzCheck(
                    image.pixelSize == oneShot.pixelSize,
                    "an image after \(received) of \(data.count) bytes is \(image.pixelSize), the finished one \(oneShot.pixelSize)"
                )
            }
        }
        let finished = decoder.currentImage()
        guard let oneShot else {
            if let finished {
                fuzzCheck(
                    finished.isIncremental,
                    "the data does not decode in one go, yet the incremental decoder finished \(finished)"
                )
            }
            return
        }
        guard let finished else {
            fuzzCheck(false, "the data decodes in one go to \(oneShot), the incremental decoder finished with nothing")
            return
        }
        fuzzCheck(!finished.isIncremental, "the finished image is still marked incremental")
        let result = ImageFingerprint(finished)
        fuzzCheck(
            result.pixelSize == oneShot.pixelSize,
            "the incremental decoder finished at \(result.pixelSize), the one-shot decode at \(oneShot.pixelSize)"
        )
        fuzzCheck(
            result.frames.count == oneShot.frames.count,
            "the incremental decoder finished with \(result.frames.count) frames, the one-shot decode with \(oneShot.frames.count)"
        )
        for (index, (frame, expected)) in zip(result.frames, oneShot.frames).enumerated() {
            fuzzCheck(
                frame.pixels == expected.pixels,
                "frame \(index) of the incremental decode differs from the one-shot decode's"
            )
            fuzzCheck(
                frame.duration == expected.duration,
                "frame \(index) of the incremental decode lasts \(frame.duration) s, \(expected.duration) s in the one-shot decode"
            )
        }
        fuzzCheck(
            result.loopCount == oneShot.loopCount,
            "the incremental decode loops \(result.loopCount) times, the one-shot decode \(oneShot.loopCount)"
        )
    }
}
