#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebP
import WebImageCore

extension WebPCoder {
    /// Encodes frames with libwebp's animation encoder: each frame is added at the time the durations before it
    /// add up to (in milliseconds), then the file is assembled.
    func encodeAnimation(_ frames: [ImageFrame], loopCount: Int, config: WebPConfig) throws(WebImageError) -> Data {
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
            let milliseconds = frame.duration.isFinite ? (frame.duration * 1000).rounded() : 0
            timestamp += Int(min(max(0, milliseconds), Double(Int32.max)))
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
}
