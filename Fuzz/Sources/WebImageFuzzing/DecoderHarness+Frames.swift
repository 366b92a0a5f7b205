import Foundation
import WebImage

extension DecoderHarness {
    /// The most frames asked of a frame source per input: enough to composite over disposals and blends,
    /// few enough to keep each run fast.
    static var framesWalked: Int { 6 }

    /// Asks the coder's frame source for the first frames in order, then for the first again (which restarts
    /// decoding), and checks them against the whole decode when there is one.
    func walkFrames(of data: Data, with coder: any AnimatedImageCoding, options: ImageDecodeOptions, whole: ImageFingerprint?) {
        guard let provider = try? coder.makeAnimatedImageProvider(for: data, options: options) else { return }
        fuzzCheck(provider.format == format, "a \(format) frame source says \(provider.format)")
        fuzzCheck(provider.frameCount >= 1, "a frame source has \(provider.frameCount) frames")
        fuzzCheck(!provider.frameSize.isEmpty, "a frame source has frames of \(provider.frameSize)")
        fuzzCheck(
            provider.frameSize.pixelCount <= options.maxPixelCount,
            "a frame source's frames of \(provider.frameSize) are over the pixel limit"
        )
        fuzzCheck(provider.duration(ofFrameAt: -1) == 0, "frame -1 has a duration")
        fuzzCheck(provider.duration(ofFrameAt: provider.frameCount) == 0, "the frame after the last has a duration")

        // The whole decode is comparable when it made the same frames at the same size.
        let reference = whole.flatMap { image in
            image.frames.count == provider.frameCount && image.pixelSize == provider.frameSize ? image : nil
        }
        if let whole {
            fuzzCheck(
                provider.frameCount == whole.frames.count,
                "the frame source has \(provider.frameCount) frames, the decode made \(whole.frames.count)"
            )
            fuzzCheck(
                provider.frameSize == whole.pixelSize,
                "the frame source's frames are \(provider.frameSize), the decode's \(whole.pixelSize)"
            )
        }

        var first: UInt64?
        for index in 0..<min(provider.frameCount, Self.framesWalked) {
            let duration = provider.duration(ofFrameAt: index)
            fuzzCheck(duration.isFinite && duration >= 0, "frame \(index) lasts \(duration) s")
            let frame: PixelBuffer
            do {
                frame = try provider.frame(at: index)
            } catch {
                // The frame source decodes what the whole decode decoded, still images included.
                fuzzCheck(reference == nil, "frame \(index) failed (\(error)) although the whole decode succeeded")
                return
            }
            fuzzCheck(
                frame.size == provider.frameSize,
                "frame \(index) is \(frame.size), the source says \(provider.frameSize)"
            )
            let hash = ImageFingerprint.hash(frame)
            if let reference {
                fuzzCheck(hash == reference.frames[index].pixels, "frame \(index) differs from the whole decode's")
                // A still image's one frame has no duration; a frame source reports the file's.
                let expected = reference.frames[index].duration
                fuzzCheck(
                    reference.frames.count == 1 || abs(duration - expected) < 1e-9,
                    "frame \(index) lasts \(duration) s, \(expected) s in the whole decode"
                )
            }
            if index == 0 { first = hash }
        }
        // Going back replays the animation from its first frame.
        if let first, provider.frameCount > 1 {
            let again = (try? provider.frame(at: 0)).map(ImageFingerprint.hash)
            fuzzCheck(again == first, "frame 0 differs, or fails, when asked again")
        }
    }
}
