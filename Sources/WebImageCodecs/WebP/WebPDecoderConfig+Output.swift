internal import CWebP
import WebImageCore

extension WebPDecoderConfig {
    /// Points the decoder's output at `pixels`: RGBA with straight alpha, written straight into the buffer's
    /// memory with its row pitch, scaled by libwebp when the buffer is smaller than the source.
    ///
    /// The buffer must stay alive, and unpublished, until libwebp has finished writing into it.
    ///
    /// - Parameters:
    ///   - pixels: The final buffer; its size is the output size.
    ///   - sourceSize: The size of the image in the file.
    mutating func setOutput(_ pixels: PixelBuffer, sourceSize: PixelSize) {
        output.colorspace = MODE_RGBA
        output.is_external_memory = 1
        output.u.RGBA.rgba = pixels.mutableBaseAddress.assumingMemoryBound(to: UInt8.self)
        output.u.RGBA.stride = Int32(pixels.bytesPerRow)
        output.u.RGBA.size = pixels.byteCount
        if pixels.size != sourceSize {
            options.use_scaling = 1
            options.scaled_width = Int32(pixels.width)
            options.scaled_height = Int32(pixels.height)
        }
    }
}
