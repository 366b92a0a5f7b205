/// The row order of an interlaced GIF frame: four passes, rows 0, 8, 16 …; then 4, 12, 20 …; then 2, 6, 10 …;
/// then 1, 3, 5 ….
enum GIFInterlace {
    /// The frame row that the `line`-th stored row of a frame `height` rows high belongs to.
    static func row(forLine line: Int, height: Int) -> Int {
        let pass1 = (height + 7) / 8
        let pass2 = (height + 3) / 8
        let pass3 = (height + 1) / 4
        var n = line
        if n < pass1 { return n * 8 }
        n -= pass1
        if n < pass2 { return 4 + n * 8 }
        n -= pass2
        if n < pass3 { return 2 + n * 4 }
        n -= pass3
        return 1 + n * 2
    }

    /// The frame row of stored row `line`: `line` itself unless the frame is interlaced.
    static func row(forLine line: Int, height: Int, interlaced: Bool) -> Int {
        interlaced ? row(forLine: line, height: height) : line
    }
}
