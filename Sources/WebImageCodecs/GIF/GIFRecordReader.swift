internal import CGIF
import WebImageCore

/// giflib's low-level reader over encoded bytes in memory, walked record by record: extensions are parsed as
/// they pass, image data is decoded row by row or skipped without decoding.
///
/// Open one with ``read(_:resumingAt:_:)``, which closes the giflib file exactly once whatever happens. Memory
/// stays that of one frame: giflib's copy of every image descriptor is dropped as soon as it is made.
struct GIFRecordReader: ~Copyable {
    /// Where a decode resumes: the header is read, then reading jumps to a frame's first record.
    struct ResumePoint: Sendable, Hashable {
        /// The length of the header (signature, logical screen descriptor, global colour table).
        var headerLength: Int
        /// The offset of the frame's first record.
        var recordOffset: Int
        /// The frame's index.
        var frameIndex: Int
    }

    private let file: UnsafeMutablePointer<GifFileType>
    private let cursor: UnsafeMutablePointer<GIFReadCursor>
    /// The length of the header, read when the file was opened.
    let headerLength: Int
    /// The index the next frame returned by ``nextFrame()`` will have.
    private(set) var nextFrameIndex: Int
    /// The loop count of the last NETSCAPE2.0 extension read so far, if any.
    private(set) var loopCount: Int?
    private var pendingControl = GIFGraphicControl()
    private var current: GIFFrameInfo?
    private var rowsRead = 0
    private var imageDataPending = false

    private init(file: UnsafeMutablePointer<GifFileType>, cursor: UnsafeMutablePointer<GIFReadCursor>, headerLength: Int, frameIndex: Int) {
        self.file = file
        self.cursor = cursor
        self.headerLength = headerLength
        self.nextFrameIndex = frameIndex
    }

    /// Opens giflib over `bytes`, calls `body` with the reader, and closes the file.
    ///
    /// - Parameters:
    ///   - bytes: The encoded GIF; must stay valid for the call (the reader does not outlive it).
    ///   - resume: Where to start: nil for the first record after the header.
    /// - Throws: `badImageData` when the header cannot be read; whatever `body` throws.
    static func read<R>(
        _ bytes: UnsafeRawBufferPointer,
        resumingAt resume: ResumePoint? = nil,
        _ body: (inout GIFRecordReader) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        let cursor = UnsafeMutablePointer<GIFReadCursor>.allocate(capacity: 1)
        cursor.initialize(to: GIFReadCursor(bytes: bytes, jumpingFrom: resume?.headerLength, to: resume?.recordOffset))
        defer { cursor.deinitialize(count: 1); cursor.deallocate() }

        var error: Int32 = 0
        let opened = DGifOpen(cursor, GIFReadCursor.inputFunction, &error)
        guard let opened else {
            try GIFLibrary.check(cgif_error, code: error, "reading the header")
            throw .badImageData(.gif, "reading the header failed")
        }
        // Reading from memory, closing only frees what giflib allocated; it cannot fail in a way to report.
        defer { _ = DGifCloseFile(opened, nil) }

        let headerLength = cursor.pointee.position
        if let resume, resume.headerLength != headerLength {
            throw .badImageData(.gif, "the header is \(headerLength) bytes, expected \(resume.headerLength)")
        }
        var reader = GIFRecordReader(file: opened, cursor: cursor, headerLength: headerLength, frameIndex: resume?.frameIndex ?? 0)
        return try body(&reader)
    }

    /// The logical screen: the canvas every frame is drawn on.
    var canvasSize: PixelSize {
        PixelSize(width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight))
    }

    /// The offset in the data of the next byte giflib will read.
    var position: Int { cursor.pointee.offset }

    /// Reads records up to the next image descriptor and returns what they say of that frame; nil at the
    /// trailer. Image data of the previous frame that was not read is skipped first.
    ///
    /// - Throws: `badImageData` for malformed or truncated records, and for a frame with no colour table.
    mutating func nextFrame() throws(WebImageError) -> GIFFrameInfo? {
        try skipImageData()
        let recordOffset = position
        while true {
            var type = UNDEFINED_RECORD_TYPE
            try GIFLibrary.check(DGifGetRecordType(file, &type), code: file.pointee.Error, "reading a record type")
            if type == EXTENSION_RECORD_TYPE {
                try readExtension()
            } else if type == IMAGE_DESC_RECORD_TYPE {
                return try readImageDescriptor(recordOffset: recordOffset)
            } else if type == TERMINATE_RECORD_TYPE {
                return nil
            } else {
                throw .badImageData(.gif, "unknown record type")
            }
        }
    }

    private mutating func readExtension() throws(WebImageError) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try GIFLibrary.check(DGifGetExtension(file, &code, &block), code: file.pointee.Error, "reading an extension")
        var isLoop = false
        if let first = block {
            let data = UnsafeRawBufferPointer(start: first + 1, count: Int(first[0]))
            if code == cgif_graphics_ext_func_code {
                pendingControl = GIFGraphicControl(block: data) ?? GIFGraphicControl()
            } else if code == cgif_application_ext_func_code {
                isLoop = GIFLoopExtension.isLoopExtension(identifier: data)
            }
        }
        if code == cgif_plaintext_ext_func_code {
            // The control extension before a plain-text block belongs to that block, not to the next image.
            pendingControl = GIFGraphicControl()
        }
        while block != nil {
            try GIFLibrary.check(DGifGetExtensionNext(file, &block), code: file.pointee.Error, "reading an extension")
            if isLoop, let next = block,
               let count = GIFLoopExtension.loopCount(subBlock: UnsafeRawBufferPointer(start: next + 1, count: Int(next[0]))) {
                loopCount = count
            }
        }
    }

    private mutating func readImageDescriptor(recordOffset: Int) throws(WebImageError) -> GIFFrameInfo {
        let index = nextFrameIndex
        try GIFLibrary.check(DGifGetImageDesc(file), code: file.pointee.Error, "reading the image descriptor of frame \(index)")
        // giflib appends a copy of every descriptor to SavedImages, for its slurping reader; drop it, so that
        // memory does not grow with the number of frames.
        GifFreeSavedImages(file)
        file.pointee.ImageCount = 0

        let image = file.pointee.Image
        guard image.ColorMap != nil || file.pointee.SColorMap != nil else {
            throw .badImageData(.gif, "frame \(index) has no colour table (neither local nor global)")
        }
        let info = GIFFrameInfo(
            rect: AnimationCanvas.Rect(x: Int(image.Left), y: Int(image.Top), width: Int(image.Width), height: Int(image.Height)),
            isInterlaced: image.Interlace,
            hasLocalColorTable: image.ColorMap != nil,
            control: pendingControl,
            recordOffset: recordOffset
        )
        pendingControl = GIFGraphicControl()
        current = info
        rowsRead = 0
        imageDataPending = true
        nextFrameIndex += 1
        return info
    }

    /// Decodes the next row of the current frame's image data into `row`, which holds the frame's width.
    /// Rows come in stored order: for an interlaced frame, see ``GIFInterlace``.
    mutating func readRow(into row: UnsafeMutablePointer<UInt8>) throws(WebImageError) {
        guard let current, imageDataPending, rowsRead < current.rect.height else {
            throw .badImageData(.gif, "no more rows in frame \(nextFrameIndex - 1)")
        }
        try GIFLibrary.check(
            DGifGetLine(file, row, Int32(current.rect.width)),
            code: file.pointee.Error,
            "decoding row \(rowsRead) of frame \(nextFrameIndex - 1)"
        )
        rowsRead += 1
        // After the last row giflib has read the data up to its terminator itself.
        if rowsRead == current.rect.height { imageDataPending = false }
    }

    /// Skips what is left of the current frame's image data without decoding it.
    mutating func skipImageData() throws(WebImageError) {
        guard imageDataPending else { return }
        imageDataPending = false
        var block: UnsafeMutablePointer<GifByteType>?
        repeat {
            try GIFLibrary.check(DGifGetCodeNext(file, &block), code: file.pointee.Error, "skipping image data")
        } while block != nil
    }

    /// Fills `table` (256 entries, packed RGBA) with the current frame's colours: its local table, else the
    /// global one. The transparent index maps to transparent black; indices beyond the table map to opaque
    /// black, as most decoders show them.
    func fillColorTable(_ table: UnsafeMutablePointer<UInt32>, transparentIndex: Int?) {
        let black = RGBAColor.black.packed
        table.update(repeating: black, count: 256)
        if let map = file.pointee.Image.ColorMap ?? file.pointee.SColorMap, let colors = map.pointee.Colors {
            let count = min(256, max(0, Int(map.pointee.ColorCount)))
            for i in 0..<count {
                let c = colors[i]
                table[i] = RGBAColor(red: c.Red, green: c.Green, blue: c.Blue).packed
            }
        }
        if let transparentIndex, transparentIndex < 256 {
            table[transparentIndex] = 0
        }
    }
}
