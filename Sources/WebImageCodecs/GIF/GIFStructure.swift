import WebImageCore

/// What a cheap pass over a GIF's records finds, without decoding any pixels: the canvas, the frame count, the
/// loop count, whether frames can be transparent, and (when asked) every frame's rectangle, graphic control and
/// record offset. Image data is skipped block by block.
///
/// The frame count lets the pixel budget refuse an animation of tens of thousands of frames before any frame is
/// decoded; the record offsets let a frame source resume decoding at any frame.
struct GIFStructure: Sendable {
    /// The logical screen size.
    var canvasSize: PixelSize
    /// The length of the header (signature, logical screen descriptor, global colour table).
    var headerLength: Int
    /// The number of frames scanned: all of them, or the frame limit of the scan.
    var frameCount = 0
    /// The frames kept: all scanned, or only the first when the scan was asked not to keep them.
    var frames: [GIFFrameInfo] = []
    /// The NETSCAPE2.0 loop count (0 = forever), or 1 (play once) without that extension, as SDWebImage.
    var loopCount = 1
    /// The largest frame (by area) that is at least partly on the canvas.
    var largestFrame = PixelSize.zero
    /// Whether a frame scanned is disposed to the previous canvas, for which a copy of the canvas is kept.
    private(set) var keepsCanvasForDisposal = false

    private var anyTransparentIndex = false
    private var backgroundDisposals = 0
    private var lastDisposal = AnimationCanvas.Disposal.none

    /// Scans the records of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The encoded GIF.
    ///   - frameLimit: Given the canvas size, how many frames to scan at most (1 for a first-frame decode).
    ///   - keepsFrames: Keep every frame's record (for a frame source); otherwise only the first is kept.
    /// - Throws: `badImageData` for a signature other than GIF87a or GIF89a, malformed or truncated data, an
    ///   empty logical screen, no frame, or a frame without a colour table.
    static func scan(
        _ bytes: UnsafeRawBufferPointer,
        frameLimit: (PixelSize) -> Int = { _ in .max },
        keepsFrames: Bool = false
    ) throws(WebImageError) -> GIFStructure {
        // giflib checks only "GIF"; the version must be one of the two there are, as for `canDecode`.
        guard ImageFormat.detect(bytes) == .gif else {
            throw .badImageData(.gif, "the data does not start with GIF87a or GIF89a")
        }
        return try GIFRecordReader.read(bytes) { reader throws(WebImageError) in
            var structure = GIFStructure(canvasSize: reader.canvasSize, headerLength: reader.headerLength)
            guard !structure.canvasSize.isEmpty else {
                throw .badImageData(.gif, "the logical screen is \(structure.canvasSize) pixels")
            }
            let limit = frameLimit(structure.canvasSize)
            while structure.frameCount < limit, let frame = try reader.nextFrame() {
                structure.add(frame, keeping: keepsFrames || structure.frameCount == 0)
                try reader.skipImageData()
            }
            guard structure.frameCount > 0 else {
                throw .badImageData(.gif, "the file has no image")
            }
            structure.loopCount = reader.loopCount ?? 1
            return structure
        }
    }

    /// An empty structure for a file whose header has been read; ``add(_:keeping:)`` counts its frames.
    init(canvasSize: PixelSize, headerLength: Int) {
        self.canvasSize = canvasSize
        self.headerLength = headerLength
    }

    /// Counts `frame`, the next frame of the file, and keeps its record when `keeping`.
    mutating func add(_ frame: GIFFrameInfo, keeping: Bool) {
        if keeping { frames.append(frame) }
        frameCount += 1
        anyTransparentIndex = anyTransparentIndex || frame.control.transparentIndex != nil
        if frame.control.disposal == .background { backgroundDisposals += 1 }
        if frame.control.disposal == .previous { keepsCanvasForDisposal = true }
        lastDisposal = frame.control.disposal
        let rect = frame.rect
        if rect.x < canvasSize.width, rect.y < canvasSize.height {
            let size = PixelSize(width: rect.width, height: rect.height)
            if size.pixelCount > largestFrame.pixelCount { largestFrame = size }
        }
    }

    /// Whether the frames scanned may show transparent pixels: a frame has a transparent index, the first frame
    /// does not cover the canvas, or a frame before the last clears its rectangle (disposal to background, or
    /// to "previous" on the first frame, which is the empty canvas).
    var hasAlpha: Bool {
        if anyTransparentIndex || !frames[0].covers(canvasSize) { return true }
        guard frameCount > 1 else { return false }
        let clearingBeforeLast = backgroundDisposals - (lastDisposal == .background ? 1 : 0)
        return clearingBeforeLast > 0 || frames[0].control.disposal == .previous
    }

    /// Where decoding frame `index` resumes; needs the frames kept.
    func resumePoint(ofFrame index: Int) -> GIFRecordReader.ResumePoint {
        GIFRecordReader.ResumePoint(headerLength: headerLength, recordOffset: frames[index].recordOffset, frameIndex: index)
    }

    /// Checks the work of decoding the frames: a frame larger than the canvas is decoded whole before it is
    /// clipped, so its own area must be within the pixel limit. Frames wholly outside are not decoded.
    ///
    /// - Throws: `imageTooLarge` for a frame larger than both the canvas and the limit.
    func checkFrameAreas(_ options: ImageDecodeOptions) throws(WebImageError) {
        if largestFrame.pixelCount > canvasSize.pixelCount {
            try options.checkPixelLimit(largestFrame, format: .gif)
        }
    }
}
