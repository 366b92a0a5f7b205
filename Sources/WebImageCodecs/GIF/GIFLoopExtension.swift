import WebImageCore

/// The NETSCAPE2.0 application extension (also written as ANIMEXTS1.0): the animation's loop count.
enum GIFLoopExtension {
    /// Whether the application identifier block names the looping extension.
    static func isLoopExtension(identifier: UnsafeRawBufferPointer) -> Bool {
        let text = Array(identifier)
        return text == Array("NETSCAPE2.0".utf8) || text == Array("ANIMEXTS1.0".utf8)
    }

    /// The loop count from a data sub-block `01 lo hi`: 0 means forever. Nil for other sub-blocks.
    static func loopCount(subBlock: UnsafeRawBufferPointer) -> Int? {
        guard subBlock.count >= 3, subBlock[0] == 1 else { return nil }
        return Int(subBlock[1]) | Int(subBlock[2]) << 8
    }
}
