internal import CTurboJPEG

extension TurboJPEGHandle {
    /// What TurboJPEG reads from a JPEG's frame header.
    struct Header: Sendable, Hashable {
        /// The size of the stored pixels.
        var size: PixelSize
        /// Whether the components are CMYK or YCCK (four inks), which TurboJPEG 2.1 cannot turn into RGB itself.
        var isCMYK: Bool
    }

    /// The pixel layouts the coder asks TurboJPEG for; both take 4 bytes a pixel.
    enum PixelLayout {
        /// R, G, B and an alpha byte of 255.
        case rgba
        /// C, M, Y, K as stored in the file (YCCK already turned into CMYK).
        case cmyk

        var turboJPEGFormat: Int32 {
            switch self {
            case .rgba: Int32(TJPF_RGBA.rawValue)
            case .cmyk: Int32(TJPF_CMYK.rawValue)
            }
        }
    }

    /// Reads the frame header of the JPEG in `bytes`.
    ///
    /// - Throws: `badImageData` with libjpeg's message when the header cannot be read.
    func readHeader(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> Header {
        precondition(kind == .decompressor)
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .badImageData(.jpeg, "the data is empty")
        }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            raw,
            base.assumingMemoryBound(to: UInt8.self),
            UInt(bytes.count),
            &width,
            &height,
            &subsampling,
            &colorspace
        )
        try check(status, .decoding)
        guard width > 0, height > 0 else {
            throw .badImageData(.jpeg, "the frame header gives a size of \(width) x \(height)")
        }
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        return Header(size: PixelSize(width: Int(width), height: Int(height)), isCMYK: isCMYK)
    }

    /// Decompresses the JPEG in `bytes` at `size`, one of the sizes DCT scaling gives for its header size, into
    /// `destination` (`size.height` rows of `bytesPerRow` bytes).
    ///
    /// Progressive files with an unreasonable number of scans (over 500) are refused rather than decoded slowly.
    /// - Throws: `badImageData` with libjpeg's message for a failure or a warning other than a harmless one
    ///   (see ``harmlessWarnings``).
    func decompress(
        _ bytes: UnsafeRawBufferPointer,
        size: PixelSize,
        layout: PixelLayout,
        into destination: UnsafeMutableRawPointer,
        bytesPerRow: Int
    ) throws(WebImageError) {
        precondition(kind == .decompressor)
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .badImageData(.jpeg, "the data is empty")
        }
        guard let width = Int32(exactly: size.width), let height = Int32(exactly: size.height),
              let pitch = Int32(exactly: bytesPerRow) else {
            throw WebImageError(.imageTooLarge, "JPEG: \(size) pixels are more than TurboJPEG takes")
        }
        let status = tjDecompress2(
            raw,
            base.assumingMemoryBound(to: UInt8.self),
            UInt(bytes.count),
            destination.assumingMemoryBound(to: UInt8.self),
            width,
            pitch,
            height,
            layout.turboJPEGFormat,
            TJFLAG_LIMITSCANS
        )
        try check(status, .decoding)
    }
}
