import WebImageCore

/// The memory a HEIF decode holds at its peak, estimated from the headers before libheif decodes anything.
///
/// libheif 1.15 cannot decode into our memory: it decodes to planes of its own, then converts them to a new
/// interleaved RGBA image, which the decoded image adopts as its pixel buffer when no resampling is needed. The
/// estimate, for `S` pixels of the decoded image (the primary image, or the embedded thumbnail used), `b` bytes a
/// sample (1 at 8 bits, 2 above), and three colour samples a pixel (4:4:4, the worst case; a 4:2:0 image, the
/// usual one, needs half as much), plus one alpha sample when there is an alpha plane:
/// - the HEVC decoder's picture (libde265's own buffer): `S * (3 + alpha) * b`;
/// - libheif's copy of the planes, which it keeps while it rotates or mirrors them and converts them to RGB:
///   `S * (3 + alpha) * b`; rotation makes one more copy, made after the decoder's picture is freed;
/// - the RGBA image: `S * 4`; for a 10- or 12-bit image, libheif converts through 16-bit RGBA first: `S * 8`
///   more;
/// - when the output is smaller than the decoded image: the output, `4` bytes a pixel of it, and the resampler;
/// - the frames already decoded, for a collection of several top-level images decoded as frames.
///
/// A grid image (the usual form of a camera's HEIC) is decoded tile by tile into one canvas: the decoder's
/// picture is a tile's. The terms are taken at the sizes libheif allocates, not the sizes it reports (see
/// ``HEIFItemSizes``): the planes and images at the canvas of a grid or overlay when that is larger than the
/// displayed size, and the decoder's picture at the largest any parameter set of the file declares.
enum HEIFMemoryEstimate {
    /// The estimate for decoding an image of `decoded` pixels (`header` says its depth and alpha) to `target`,
    /// with `keptFrames` frames of `target` decoded before it (the other images of a collection) kept.
    static func still(_ header: HEIFHeader, decoded: PixelSize, target: PixelSize, keptFrames: Int = 0) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        memory.add("frames decoded before", pixels: target, count: keptFrames)
        let bytesPerSample = header.bitDepth > 8 ? 2 : 1
        let samples = header.hasAlpha ? 4 : 3
        // libheif's planes and images are made at the canvas when it is larger than the displayed size.
        let whole = max(decoded.pixelCount, header.canvas.pixelCount)
        let picture = header.largestCodedPicture?.pixelCount ?? whole
        memory.add("HEVC decoder's picture", bytes: DecodeMemoryEstimate.product(picture, samples, bytesPerSample))
        memory.add("libheif's planes", bytes: DecodeMemoryEstimate.product(whole, samples, bytesPerSample))
        memory.add("libheif's RGBA image", bytes: DecodeMemoryEstimate.product(whole, 4))
        if header.bitDepth > 8 {
            memory.add("16-bit colour conversion", bytes: DecodeMemoryEstimate.product(whole, 8))
        }
        if target != decoded {
            memory.add("output", pixels: target)
            memory.addResampler(from: decoded, to: target)
        }
        return memory
    }
}
