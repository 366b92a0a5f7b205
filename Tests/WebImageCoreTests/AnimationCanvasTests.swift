import Testing
@testable import WebImageCore
import WebImageTestSupport

@Suite struct AnimationCanvasTests {
    typealias Rect = AnimationCanvas.Rect

    private func draw(_ canvas: AnimationCanvas, _ color: RGBAColor, _ rect: Rect, blend: AnimationCanvas.Blend = .over) {
        let row = [UInt32](repeating: color.packed, count: rect.width)
        row.withUnsafeBufferPointer { p in
            for y in 0..<rect.height { canvas.drawRow(p.baseAddress!, y: y, of: rect, blend: blend) }
        }
    }

    @Test func disposalMethods() throws {
        let canvas = try AnimationCanvas(size: PixelSize(width: 4, height: 4))
        let full = Rect(x: 0, y: 0, width: 4, height: 4)
        let corner = Rect(x: 2, y: 2, width: 2, height: 2)
        draw(canvas, .red, full)
        let f0 = try canvas.snapshot(size: canvas.size)
        expectPixels(f0, [ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 3, y: 3, .red)])

        // A frame to be restored afterwards.
        try canvas.saveForDisposal(corner)
        draw(canvas, .blue, corner)
        let f1 = try canvas.snapshot(size: canvas.size)
        expectPixels(f1, [ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 3, y: 3, .blue)])
        canvas.dispose(corner, .previous)
        let f2 = try canvas.snapshot(size: canvas.size)
        expectPixels(f2, [ExpectedPixel(x: 3, y: 3, .red)])

        canvas.dispose(corner, .background)
        let f3 = try canvas.snapshot(size: canvas.size)
        expectPixels(f3, [ExpectedPixel(x: 3, y: 3, .clear), ExpectedPixel(x: 0, y: 0, .red)])

        // Earlier snapshots are independent copies.
        expectPixels(f1, [ExpectedPixel(x: 3, y: 3, .blue)])
    }

    @Test func blendingOverAndSource() throws {
        let canvas = try AnimationCanvas(size: PixelSize(width: 2, height: 1))
        let all = Rect(x: 0, y: 0, width: 2, height: 1)
        draw(canvas, .blue, all)
        draw(canvas, RGBAColor(red: 255, green: 0, blue: 0, alpha: 128), all, blend: .over)
        let over = try canvas.snapshot(size: canvas.size)[x: 0, y: 0]
        #expect(over.alpha == 255)
        #expect(abs(Int(over.red) - 128) <= 1 && abs(Int(over.blue) - 127) <= 1)
        draw(canvas, RGBAColor(red: 0, green: 255, blue: 0, alpha: 0), all, blend: .over)
        #expect(try canvas.snapshot(size: canvas.size)[x: 1, y: 0] == over)
        draw(canvas, RGBAColor(red: 0, green: 255, blue: 0, alpha: 0), all, blend: .source)
        #expect(try canvas.snapshot(size: canvas.size)[x: 1, y: 0].alpha == 0)
    }

    @Test func framesOutsideTheCanvasAreClippedAndCostNothing() throws {
        let canvas = try AnimationCanvas(size: PixelSize(width: 4, height: 4))
        draw(canvas, .green, Rect(x: 0, y: 0, width: 4, height: 4))
        let before = try canvas.snapshot(size: canvas.size)
        draw(canvas, .red, Rect(x: 10, y: 10, width: 3, height: 3))
        canvas.dispose(Rect(x: 10, y: 10, width: 3, height: 3), .background)
        let after = try canvas.snapshot(size: canvas.size)
        #expect(after === before, "an unchanged canvas shares the previous frame's buffer")

        draw(canvas, .red, Rect(x: 3, y: -2, width: 5, height: 3))
        let clipped = try canvas.snapshot(size: canvas.size)
        expectPixels(clipped, [ExpectedPixel(x: 3, y: 0, .red), ExpectedPixel(x: 2, y: 0, .green), ExpectedPixel(x: 3, y: 1, .green)])
        #expect(canvas.clip(Rect(x: -5, y: -5, width: 2, height: 2)).isEmpty)
    }

    @Test func snapshotsResampleToTheTarget() throws {
        let canvas = try AnimationCanvas(size: PixelSize(width: 40, height: 40))
        draw(canvas, .blue, Rect(x: 0, y: 0, width: 40, height: 40))
        let small = try canvas.snapshot(size: PixelSize(width: 10, height: 10))
        #expect(small.size == PixelSize(width: 10, height: 10))
        expectPixels(small, [ExpectedPixel(x: 5, y: 5, .blue)], tolerance: 1)
    }
}
