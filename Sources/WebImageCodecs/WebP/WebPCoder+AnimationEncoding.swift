#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebP
import WebImageCore

extension WebPCoder {
    /// Encodes frames as an animation.
    ///
    /// Lossless animations, and lossy ones whose every pixel is opaque, go through libwebp's animation encoder,
    /// which stores only what changes from one frame to the next. Its lossy mode treats a pixel that differs from
    /// the previous canvas by less than a tolerance (from 1 at quality 100 to 31 at quality 0) as unchanged, in
    /// every channel, alpha included; so a lossy animation with transparency is written as whole frames instead,
    /// each encoded as a still image, whose alpha comes back exactly.
    func encodeAnimation(_ frames: [ImageFrame], loopCount: Int, config: WebPConfig) throws(WebImageError) -> Data {
        if config.lossless == 0, !frames.allSatisfy({ $0.pixels.isOpaque }) {
            return try encodeWholeFrames(frames, loopCount: loopCount, config: config)
        }
        return try encodeChanges(frames, loopCount: loopCount, config: config)
    }

    /// The duration of `frame` in milliseconds, as the container stores it (at least 0).
    private static func milliseconds(_ frame: ImageFrame) -> Int {
        let milliseconds = frame.duration.isFinite ? (frame.duration * 1000).rounded() : 0
        return Int(min(max(0, milliseconds), Double(Int32.max)))
    }

    /// Encodes frames with libwebp's animation encoder: each frame is added at the time the durations before it
    /// add up to (in milliseconds), then the file is assembled.
    private func encodeChanges(_ frames: [ImageFrame], loopCount: Int, config: WebPConfig) throws(WebImageError) -> Data {
        var config = config
        let size = frames[0].pixels.size
        var animationOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animationOptions) != 0 else {
            throw WebPLibrary.failure(
                .encoding(VP8_ENC_ERROR_INVALID_CONFIGURATION),
                while: "configuring the animation encoder"
            )
        }
        // The container stores the loop count in 16 bits.
        animationOptions.anim_params.loop_count = Int32(min(max(0, loopCount), 65535))
        guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &animationOptions) else {
            throw WebPLibrary.failure(.encoding(VP8_ENC_ERROR_OUT_OF_MEMORY), while: "creating the animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        func encoderError() -> String {
            WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""
        }

        var timestamp = 0
        for (index, frame) in frames.enumerated() {
            let action = "adding frame \(index + 1) of \(frames.count)"
            let start = Int32(clamping: timestamp)
            try Self.withPicture(of: frame.pixels, useARGB: true) { picture throws(WebImageError) in
                guard WebPAnimEncoderAdd(encoder, &picture, start, &config) != 0 else {
                    try WebPLibrary.check(.encoding(picture.error_code), while: action)
                    throw WebPLibrary.failure(.encoderFailed(encoderError()), while: action)
                }
            }
            timestamp += Self.milliseconds(frame)
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw WebPLibrary.failure(.encoderFailed(encoderError()), while: "ending the animation")
        }

        var output = WebPData()
        WebPDataInit(&output)
        // Clears what the assembly allocated, also when it fails half way; a no-op on empty data.
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes, output.size > 0 else {
            throw WebPLibrary.failure(.encoderFailed(encoderError()), while: "assembling the animation")
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// Encodes every frame as a still image covering the canvas and assembles them with libwebp's muxer; each
    /// frame replaces the canvas (no blending, no disposal). A frame with the same pixels as the one before it
    /// lengthens that frame instead.
    private func encodeWholeFrames(_ frames: [ImageFrame], loopCount: Int, config: WebPConfig) throws(WebImageError) -> Data {
        guard let mux = WebPMuxNew() else {
            throw WebPLibrary.failure(.muxing(WEBP_MUX_MEMORY_ERROR), while: "creating the muxer")
        }
        defer { WebPMuxDelete(mux) }

        var start = 0
        while start < frames.count {
            var end = start + 1
            var milliseconds = Self.milliseconds(frames[start])
            while end < frames.count, frames[end].pixels == frames[start].pixels {
                milliseconds = min(milliseconds + Self.milliseconds(frames[end]), Int(Int32.max))
                end += 1
            }
            let action = "adding frame \(start + 1) of \(frames.count)"
            let still = try encodeStill(frames[start].pixels, config: config)
            // The container stores a frame's duration in 24 bits: a longer one is shown as several frames.
            repeat {
                let duration = min(milliseconds, Self.maxFrameDuration)
                milliseconds -= duration
                let status = still.withUnsafeBytes { bytes in
                    var frame = WebPMuxFrameInfo()
                    frame.bitstream = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
                    frame.duration = Int32(duration)
                    frame.id = WEBP_CHUNK_ANMF
                    frame.dispose_method = WEBP_MUX_DISPOSE_NONE
                    frame.blend_method = WEBP_MUX_NO_BLEND
                    // The muxer copies the bitstream.
                    return WebPMuxPushFrame(mux, &frame, 1)
                }
                try WebPLibrary.check(.muxing(status), while: action)
            } while milliseconds > 0
            start = end
        }

        // The animation encoder's defaults: a white background, and the loop count in 16 bits.
        var parameters = WebPMuxAnimParams(bgcolor: 0xFFFF_FFFF, loop_count: Int32(min(max(0, loopCount), 65535)))
        try WebPLibrary.check(.muxing(WebPMuxSetAnimationParams(mux, &parameters)), while: "setting the loop count")

        var output = WebPData()
        WebPDataInit(&output)
        // Clears what the assembly allocated, also when it fails half way; a no-op on empty data.
        defer { WebPDataClear(&output) }
        try WebPLibrary.check(.muxing(WebPMuxAssemble(mux, &output)), while: "assembling the animation")
        guard let bytes = output.bytes, output.size > 0 else {
            throw WebPLibrary.failure(.encoderFailed("the muxer wrote nothing"), while: "assembling the animation")
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// The longest a frame written by the muxer may last, in milliseconds (24 bits).
    private static var maxFrameDuration: Int { (1 << 24) - 1 }
}
