import Testing
import WebImageCore

/// Picking the format to send from a request's `Accept` field.
@Suite struct ImageFormatNegotiationTests {
    private func pick(_ accept: String?, alpha: Bool = false, animated: Bool = false, encodes: Set<ImageFormat> = [.webp, .jpeg, .png, .gif]) -> ImageFormat {
        ImageFormat.preferred(forAccept: accept, hasAlpha: alpha, isAnimated: animated) { encodes.contains($0) }
    }

    @Test(arguments: [
        // What browsers send.
        ("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", false, false, ImageFormat.webp),
        ("image/avif,image/webp,*/*", true, false, .webp),
        // WebP and JPEG both at 0.8 through `image/*`: the tie goes to WebP; PNG, named, wins at 1.
        ("image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5", false, false, .webp),
        ("image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5", true, false, .png),
        // No field, or an empty one: everything is accepted, so the first candidate wins.
        (nil, false, false, .webp),
        ("", true, true, .webp),
        // Weights, and the most specific range deciding.
        ("image/webp;q=0.5, image/jpeg", false, false, .jpeg),
        ("image/*;q=0.9, image/webp;q=0", false, false, .jpeg),
        ("IMAGE/WEBP ; Q=1", false, false, .webp),
        ("image/gif", false, true, .gif),
        // Nothing acceptable: the format every client reads.
        ("text/html", false, false, .jpeg),
        ("text/html", true, false, .png),
        ("text/html", false, true, .gif),
        // Malformed elements are skipped; a malformed weight counts as 1.
        ("webp, /, image/, image/webp;q=abc", false, false, .webp),
    ] as [(String?, Bool, Bool, ImageFormat)])
    func picksTheMostPreferredAcceptedFormat(accept: String?, alpha: Bool, animated: Bool, expected: ImageFormat) {
        #expect(pick(accept, alpha: alpha, animated: animated) == expected)
    }

    @Test func formatsTheServerCannotEncodeAreSkipped() {
        #expect(pick("image/webp,*/*;q=0.8", encodes: [.jpeg, .png, .gif]) == .jpeg)
        #expect(pick("image/webp,*/*;q=0.8", animated: true, encodes: [.jpeg, .png, .gif]) == .gif)
    }

    @Test func avifComesFirstForStillImagesOnlyWhenPreferred() {
        let browser = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        let all: Set<ImageFormat> = [.avif, .webp, .jpeg, .png, .gif]
        func pick(_ accept: String?, alpha: Bool = false, animated: Bool = false, encodes: Set<ImageFormat> = all) -> ImageFormat {
            ImageFormat.preferred(forAccept: accept, hasAlpha: alpha, isAnimated: animated, prefersAVIF: true) { encodes.contains($0) }
        }
        #expect(pick(browser) == .avif)
        #expect(pick(browser, alpha: true) == .avif)
        // Only where the client names it: wildcards and a missing field do not count for AVIF.
        #expect(pick(nil) == .webp)
        #expect(pick("image/webp,*/*") == .webp)
        #expect(pick("image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5") == .webp)
        #expect(pick("image/avif;q=0.9,image/*;q=0.8") == .avif)
        // Never for animations; not where the client or the server refuses it.
        #expect(pick(browser, animated: true) == .webp)
        #expect(pick("image/avif;q=0.5,image/webp") == .webp)
        #expect(pick(browser, encodes: [.webp, .jpeg, .png, .gif]) == .webp)
        // Without the preference, AVIF is not a candidate even where it is the only format named.
        #expect(ImageFormat.preferred(forAccept: "image/avif", hasAlpha: false, isAnimated: false) { all.contains($0) } == .jpeg)
    }
}
