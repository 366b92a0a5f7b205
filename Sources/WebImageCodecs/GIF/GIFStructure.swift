import WebImageCore

/// What a cheap pass over a GIF's records finds, without decoding any pixels: the canvas, every frame's
/// rectangle and graphic control, the loop count. Image data is skipped block by block.
///
/// The frame count it gives lets the pixel budget refuse an animation of tens of thousands of frames before
/// any frame is decoded; the record offsets let a frame source resume decoding at any frame.
struct GIFStructure: Sendable {
    /// The logical screen size.
    var canvasSize: PixelSize
    /// The length of the header (signature, logical screen descriptor, global colour table).
    var headerLength: Int
    /// The frames found, in order (all of them, or as many as the scan was asked for).
    var frames: [GIFFrameInfo]
    /// The NETSCAPE2.0 loop count (0 = forever), or 1 (play once) without that extension, as SDWebImage.
    var loopCount: Int

    /// Scans the records of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The encoded GIF.
    ///   - frameLimit: Stop after this many frames (1 for a first-frame decode).
    /// - Throws: `badImageData` for a signature other than GIF87a or GIF89a, malformed or truncated data, an empty logical screen, no frame, or a frame
    ///   without a colour table.
    static func scan(_ bytes: UnsafeRawBufferPointer, frameLimit: Int = .max) throws(WebImageError) -> GIFStructure {
        // giflib checks only "GIF"; the version must be one of the two there are, as for `canDecode`.
        guard ImageFormat.detect(bytes) == .gif else {
            throw .badImageData(.gif, "the data does not start with GIF87a or GIF89a")
        }
        return try GIFRecordReader.read(bytes) { reader throws(WebImageError) in
            let canvas = reader.canvasSize
            guard !canvas.isEmpty else {
                throw .badImageData(.gif, "the logical screen is \(canvas) pixels")
            }
            var frames: [GIFFrameInfo] = []
            while frames.count < frameLimit, let frame = try reader.nextFrame() {
                frames.append(frame)
                try reader.skipImageData()
            }
            guard !frames.isEmpty else {
                throw .badImageData(.gif, "the file has no image")
            }
            return GIFStructure(
                canvasSize: canvas,
                headerLength: reader.headerLength,
                frames: frames,
                loopCount: reader.loopCount ?? 1
            )
        }
    }

    /// Where decoding frame `index` resumes.
    func resumePoint(ofFrame index: Int) -> GIFRecordReader.ResumePoint {
        GIFRecordReader.ResumePoint(headerLength: headerLength, recordOffset: frames[index].recordOffset, frameIndex: index)
    }

    /// Whether the first `frameCount` frames may show transparent pixels: a frame has a transparent index, the
    /// first frame does not cover the canvas, or a frame before the last clears its rectangle (disposal to
    /// background, or to "previous" on the first frame, which is the empty canvas).
    func hasAlpha(frameCount: Int) -> Bool {
        let shown = frames.prefix(max(1, frameCount))
        if !shown[0].covers(canvasSize) { return true }
        for (index, frame) in shown.enumerated() {
            if frame.control.transparentIndex != nil { return true }
            guard index < shown.count - 1 else { continue }
            if frame.control.disposal == .background { return true }
            if index == 0, frame.control.disposal == .previous { return true }
        }
        return false
    }

    /// Checks the work of decoding the first `frameCount` frames: a frame larger than the canvas is decoded
    /// whole before it is clipped, so its own area must be within the pixel limit.
    ///
    /// - Throws: `imageTooLarge` for a frame larger than both the canvas and the limit.
    func checkFrameAreas(_ options: ImageDecodeOptions, frameCount: Int) throws(WebImageError) {
        // A frame wholly outside the canvas is skipped without decoding.
        for frame in frames.prefix(frameCount) where frame.rect.x < canvasSize.width && frame.rect.y < canvasSize.height {
            let size = PixelSize(width: frame.rect.width, height: frame.rect.height)
            if size.pixelCount > canvasSize.pixelCount {
                try options.checkPixelLimit(size, format: .gif)
            }
        }
    }
}
