#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CJXL
import WebImageCore

/// One encode with libjxl's encoder (`JxlEncoder`): the basic information, sRGB colour, the frames as RGBA8,
/// then the output collected in growing chunks.
struct JXLEncoder {
    /// Whether to encode losslessly.
    let lossless: Bool
    /// libjxl's distance when lossy.
    let distance: Float
    /// libjxl's effort, 1 to 9.
    let effort: Int

    init(options: ImageEncodeOptions) {
        lossless = options.lossless || options.clampedQuality >= 1
        distance = JXLCoder.distance(forQuality: options.clampedQuality)
        if case .int(let effort) = options.custom[JXLCoder.effortKey], (1...9).contains(effort) {
            self.effort = effort
        } else {
            self.effort = JXLCoder.defaultEffort
        }
    }

    /// Encodes `frames` (one for a still image), which all have the size of the first.
    func encode(_ frames: [ImageFrame], loopCount: Int, hasAlpha: Bool) throws(WebImageError) -> Data {
        guard let encoder = JxlEncoderCreate(nil) else {
            throw WebImageError(.encodingFailed, "JXL: libjxl could not allocate its encoder")
        }
        defer { JxlEncoderDestroy(encoder) }
        func check(_ status: JxlEncoderStatus, _ action: @autoclosure () -> String) throws(WebImageError) {
            try JXLLibrary.check(.encoding(status, encoder), while: action())
        }
        let size = frames[0].pixels.size
        let isAnimated = frames.count > 1

        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(clamping: size.width)
        info.ysize = UInt32(clamping: size.height)
        info.bits_per_sample = 8
        info.num_color_channels = 3
        if hasAlpha {
            info.alpha_bits = 8
            info.num_extra_channels = 1
        }
        // Lossless needs the original colour space; lossy works in XYB.
        info.uses_original_profile = lossless ? cjxl_true : cjxl_false
        if isAnimated {
            info.have_animation = cjxl_true
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: loopCount)
        }
        try check(JxlEncoderSetBasicInfo(encoder, &info), "setting the basic information")
        var color = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&color, cjxl_false)
        try check(JxlEncoderSetColorEncoding(encoder, &color), "setting the colour encoding")

        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw JXLLibrary.failure(.encoding(JXL_ENC_ERROR, encoder), while: "creating the frame settings")
        }
        if lossless {
            try check(JxlEncoderSetFrameLossless(settings, cjxl_true), "setting lossless")
        } else {
            try check(JxlEncoderSetFrameDistance(settings, distance), "setting the distance \(distance)")
        }
        try check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort)), "setting the effort \(effort)")

        // libjxl takes four channels only from an image that declares alpha: opaque pixels are given as RGB.
        var format = JXLFrameDecoder.rgba8
        if !hasAlpha { format.num_channels = 3 }
        var rgb: [UInt8] = hasAlpha ? [] : [UInt8](repeating: 0, count: size.pixelCount * 3)
        for (index, frame) in frames.enumerated() {
            if isAnimated {
                var header = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(clamping: Int((frame.duration * 1000).rounded()))
                try check(JxlEncoderSetFrameHeader(settings, &header), "setting the header of frame \(index + 1)")
            }
            let status: JxlEncoderStatus
            if hasAlpha {
                status = frame.pixels.withUnsafeBytes { bytes in
                    JxlEncoderAddImageFrame(settings, &format, bytes.baseAddress, bytes.count)
                }
            } else {
                status = rgb.withUnsafeMutableBytes { buffer in
                    Self.dropAlpha(frame.pixels, into: buffer)
                    return JxlEncoderAddImageFrame(settings, &format, buffer.baseAddress, buffer.count)
                }
            }
            try check(status, "adding frame \(index + 1)")
        }
        JxlEncoderCloseInput(encoder)
        return try collectOutput(encoder)
    }

    /// Copies the red, green and blue of every pixel of `pixels` into `rgb`, packed, 3 bytes a pixel.
    private static func dropAlpha(_ pixels: PixelBuffer, into rgb: UnsafeMutableRawBufferPointer) {
        pixels.withUnsafeBytes { source in
            var out = 0
            for y in 0..<pixels.height {
                var offset = y * pixels.bytesPerRow
                for _ in 0..<pixels.width {
                    rgb[out] = source[offset]
                    rgb[out + 1] = source[offset + 1]
                    rgb[out + 2] = source[offset + 2]
                    out += 3
                    offset += 4
                }
            }
        }
    }

    /// Runs the encoder, growing the output until libjxl has written everything.
    private func collectOutput(_ encoder: OpaquePointer) throws(WebImageError) -> Data {
        var output = Data(count: 16 << 10)
        var written = 0
        while true {
            let (status, count) = output.withUnsafeMutableBytes { buffer -> (JxlEncoderStatus, Int) in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + written
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                return (status, buffer.count - written - available)
            }
            written += count
            switch status {
            case JXL_ENC_SUCCESS:
                output.count = written
                return output
            case JXL_ENC_NEED_MORE_OUTPUT:
                output.count = output.count * 2
            default:
                throw JXLLibrary.failure(.encoding(status, encoder), while: "writing the file")
            }
        }
    }
}
