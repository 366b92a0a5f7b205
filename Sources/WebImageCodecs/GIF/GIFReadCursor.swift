internal import CGIF

/// Where giflib's reader is in the encoded bytes. giflib reaches it through the file's `UserData` from
/// ``GIFReadCursor/read(_:_:_:)``, its input callback.
///
/// The cursor can skip: once the header (signature, logical screen and global colour table) has been read, it
/// jumps to the records of a later frame, so that decoding resumes there without reading the frames before it.
struct GIFReadCursor {
    /// The encoded bytes; valid for as long as the reader that owns this cursor is open.
    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to hand out.
    private(set) var position = 0
    /// When `position` reaches `from`, reading continues at `to`.
    private var jump: (from: Int, to: Int)?

    /// The offset in the data of the next byte giflib will get (after a jump still to be taken).
    var offset: Int {
        if let jump, position == jump.from { return jump.to }
        return position
    }

    init(bytes: UnsafeRawBufferPointer, jumpingFrom from: Int? = nil, to target: Int? = nil) {
        self.bytes = bytes
        if let from, let target, from < target, target <= bytes.count {
            jump = (from, target)
        }
    }

    /// Copies up to `count` bytes into `destination`; never reads past the end. Returns how many it copied,
    /// fewer than asked only at the end of the data (giflib reports that as a read failure).
    mutating func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        var copied = 0
        while copied < count {
            if let jump, position == jump.from {
                position = jump.to
                self.jump = nil
            }
            var end = bytes.count
            if let jump, position < jump.from { end = min(end, jump.from) }
            let n = min(count - copied, end - position)
            guard n > 0, let base = bytes.baseAddress else { break }
            (destination + copied).copyMemory(from: base + position, byteCount: n)
            copied += n
            position += n
        }
        return copied
    }

    /// giflib's input callback (`InputFunc`): reads from the cursor its file's `UserData` points to.
    static let inputFunction: InputFunc = { file, destination, count in
        guard let file, let destination, count > 0, let cursor = file.pointee.UserData else { return 0 }
        let reader = cursor.assumingMemoryBound(to: GIFReadCursor.self)
        return Int32(reader.pointee.read(into: destination, count: Int(count)))
    }
}
