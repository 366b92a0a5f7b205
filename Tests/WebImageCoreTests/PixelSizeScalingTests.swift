import Testing
import WebImageCore

/// SDWebImage's sizing helpers, with the vectors of its own tests where it has them.
@Suite struct PixelSizeScalingTests {
    let size = PixelSize(width: 100, height: 200)

    @Test func fitKeepsAspectAndRoundsTheOtherSideUp() {
        #expect(PixelSize(width: 4000, height: 3000).scaled(toFit: PixelSize(square: 256)) == PixelSize(width: 256, height: 192))
        #expect(PixelSize(width: 5250, height: 3450).scaled(toFit: PixelSize(square: 4000)) == PixelSize(width: 4000, height: 2629))
        #expect(size.scaled(toFit: PixelSize(width: 50, height: 50)) == PixelSize(width: 25, height: 50))
        #expect(PixelSize(width: 3, height: 1).scaled(toFit: PixelSize(width: 2, height: 2)) == PixelSize(width: 2, height: 1))
    }

    @Test func stretchTakesTheTarget() {
        #expect(size.scaled(toFit: PixelSize(width: 50, height: 50), preserveAspectRatio: false) == PixelSize(width: 50, height: 50))
    }

    @Test func noUpscalingUnlessAllowed() {
        #expect(size.scaled(toFit: PixelSize(width: 400, height: 400)) == size)
        #expect(size.scaled(toFit: PixelSize(width: 400, height: 400), preserveAspectRatio: false) == size)
        #expect(size.scaled(toFit: PixelSize(width: 400, height: 400), allowUpscaling: true) == PixelSize(width: 200, height: 400))
    }

    @Test func zeroSidesLeaveTheSizeAlone() {
        #expect(size.scaled(toFit: PixelSize(width: 0, height: 50)) == size)
        #expect(PixelSize.zero.scaled(toFit: PixelSize(square: 50)) == .zero)
    }

    @Test func limitBytesFollowsSDWebImage() {
        // 60 MiB of RGBA for a 10000 x 10000 image: √(15728640) = 3965.9 → 3965 x 3965.
        let limited = PixelSize(width: 10000, height: 10000).scaled(toLimitBytes: 62_914_560)
        #expect(limited == PixelSize(width: 3965, height: 3965))
        // Aspect kept: a 2:1 image.
        let wide = PixelSize(width: 8000, height: 4000).scaled(toLimitBytes: 4 * 1_000_000)
        #expect(wide.width == 1414 && wide.height == 707)
        // Frames share the budget.
        let frames = PixelSize(width: 1000, height: 1000).scaled(toLimitBytes: 4 * 10_000, frameCount: 4)
        #expect(frames == PixelSize(width: 50, height: 50))
        #expect(PixelSize.zero.scaled(toLimitBytes: 100) == PixelSize(width: 1, height: 1))
        #expect(PixelSize(width: 1000, height: 1).scaled(toLimitBytes: 4) == PixelSize(width: 31, height: 1))
    }

    @Test func pixelCountSaturates() {
        #expect(PixelSize(width: Int.max, height: 2).pixelCount == Int.max)
        #expect(PixelSize(width: 30000, height: 30000).pixelCount == 900_000_000)
    }
}
