/// The fields of a PNG's `IHDR` chunk, read and checked in Swift without decoding anything.
struct PNGHeader: Sendable, Hashable {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width in pixels, 1 to 2^31 - 1.
    let width: Int
    /// Height in pixels, 1 to 2^31 - 1.
    let height: Int
    /// Bits per sample (per palette index for colour type 3).
    let bitDepth: UInt8
    /// 0 gray, 2 RGB, 3 palette, 4 gray and alpha, 6 RGBA.
    let colorType: UInt8
    /// Whether the image is stored in Adam7 passes.
    let isInterlaced: Bool
    /// The IHDR chunk.
    let chunk: PNGChunk

    /// The size in pixels.
    var size: PixelSize { PixelSize(width: width, height: height) }

    /// Whether the colour type carries an alpha channel (a `tRNS` chunk can add transparency to the others).
    var hasAlphaChannel: Bool { colorType == 4 || colorType == 6 }

    /// Reads the signature and the `IHDR` chunk at the start of `bytes`.
    ///
    /// - Throws: `badImageData` for a missing signature, a truncated or damaged `IHDR` (wrong length, CRC,
    ///   zero or oversized dimensions, an invalid colour type and bit depth pair).
    init(parsing bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard !bytes.isEmpty else {
            throw .badImageData(.png, "the data is empty (0 bytes)")
        }
        guard bytes.count >= PNGHeader.signature.count,
              bytes.prefix(PNGHeader.signature.count).elementsEqual(PNGHeader.signature)
        else {
            throw .badImageData(.png, "the data does not start with the PNG signature")
        }
        var reader = PNGChunkReader(bytes)
        guard let chunk = try reader.next() else {
            throw .badImageData(.png, "the data ends after the signature")
        }
        guard chunk.type == PNGChunk.ihdr else {
            throw .badImageData(.png, "the first chunk is \(chunk.name), not IHDR")
        }
        guard chunk.data.count == 13 else {
            throw .badImageData(.png, "the IHDR chunk has \(chunk.data.count) bytes instead of 13")
        }
        try chunk.checkCRC(in: bytes)
        let at = chunk.data.lowerBound
        let width = bytes.bigEndianUInt32(at: at)
        let height = bytes.bigEndianUInt32(at: at + 4)
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            throw .badImageData(.png, "the IHDR chunk declares \(width) x \(height) pixels")
        }
        let bitDepth = bytes[at + 8]
        let colorType = bytes[at + 9]
        guard PNGHeader.isValid(colorType: colorType, bitDepth: bitDepth) else {
            throw .badImageData(.png, "colour type \(colorType) with bit depth \(bitDepth) is not valid")
        }
        guard bytes[at + 10] == 0, bytes[at + 11] == 0, bytes[at + 12] <= 1 else {
            throw .badImageData(.png, "the IHDR chunk names an unknown compression, filter or interlace method")
        }
        self.width = Int(width)
        self.height = Int(height)
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.isInterlaced = bytes[at + 12] == 1
        self.chunk = chunk
    }

    /// The colour type and bit depth pairs the PNG specification allows.
    static func isValid(colorType: UInt8, bitDepth: UInt8) -> Bool {
        switch colorType {
        case 0: [1, 2, 4, 8, 16].contains(bitDepth)
        case 3: [1, 2, 4, 8].contains(bitDepth)
        case 2, 4, 6: bitDepth == 8 || bitDepth == 16
        default: false
        }
    }
}
