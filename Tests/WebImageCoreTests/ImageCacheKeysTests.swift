import Testing
import WebImageCore

@Suite struct ImageCacheKeysTests {
    let flip = "SDImageFlippingTransformer(1,0)"

    /// SDWebImage's own vectors (its test10).
    @Test func transformedKeysMatchSDWebImage() {
        #expect(ImageCacheKeys.transformedKey(for: "image.png", transformerKey: flip) == "image-\(flip).png")
        #expect(ImageCacheKeys.transformedKey(for: "image", transformerKey: flip) == "image-\(flip)")
        #expect(ImageCacheKeys.transformedKey(for: ".image", transformerKey: flip) == ".image-\(flip)")
        #expect(ImageCacheKeys.transformedKey(for: "image.", transformerKey: flip) == "image.-\(flip)")
        #expect(ImageCacheKeys.transformedKey(for: "Test/image.png", transformerKey: flip) == "Test/image-\(flip).png")
        #expect(ImageCacheKeys.transformedKey(for: "http://foo/image.png?foo=bar#mark", transformerKey: flip)
            == "http://foo/image-\(flip).png?foo=bar#mark")
        #expect(ImageCacheKeys.transformedKey(for: "ftp://root:password@foo.com/image.png", transformerKey: flip)
            == "ftp://root:password@foo.com/image-\(flip).png")
    }

    @Test func thumbnailKeys() {
        #expect(ImageCacheKeys.thumbnailKey(for: "kTestRectangle", size: PixelSize(square: 100), preserveAspectRatio: true)
            == "kTestRectangle-Thumbnail({100.000000,100.000000},1)")
        // Inside a URL path the braces are percent-encoded, as Foundation's URLComponents does for SDWebImage.
        let url = ImageCacheKeys.thumbnailKey(for: "https://example.com/a/b.jpg?x=1", size: PixelSize(width: 64, height: 32), preserveAspectRatio: false)
        #expect(url == "https://example.com/a/b-Thumbnail(%7B64.000000,32.000000%7D,0).jpg?x=1")
        #expect(ImageCacheKeys.isThumbnailKey(url))
        #expect(!ImageCacheKeys.isThumbnailKey("https://example.com/a/b.jpg"))
    }

    @Test func scaleFromKey() {
        #expect(ImageCacheKeys.scaleFactor(forKey: "image@2x.png") == 2)
        #expect(ImageCacheKeys.scaleFactor(forKey: "https://x.org/image@3x.png") == 3)
        #expect(ImageCacheKeys.scaleFactor(forKey: "https://x.org/image%402x.png") == 2)
        #expect(ImageCacheKeys.scaleFactor(forKey: "file/image%402x.png") == 1, "the encoded form counts only in http(s) keys")
        #expect(ImageCacheKeys.scaleFactor(forKey: "@2x.png") == 1, "keys under 8 characters are not read")
        #expect(ImageCacheKeys.scaleFactor(forKey: "image@2x") == 1)
        #expect(ImageCacheKeys.scaleFactor(forKey: "image.png") == 1)
        #expect(ImageCacheKeys.scaleFactor(forKey: "image@3x.png?v=@2x.") == 2, "2 is looked for first, as SDWebImage does")
        #expect(ImageCacheKeys.scaleFactor(forKey: "https://x.org/a%4@2x.png") == 2)
        #expect(ImageCacheKeys.scaleFactor(forKey: "https://x.org/a%40%403x.png") == 3)
        #expect(ImageCacheKeys.scaleFactor(forKey: "https://x.org/image@2y.png%40") == 1)
    }

    @Test func contextDecodeOptions() {
        var context = ImageContext()
        var options = context.decodeOptions(for: [], cacheKey: "https://x.org/a@2x.png")
        #expect(options.scaleFactor == 2)
        #expect(options.scaleDownLimitBytes == nil)
        options = context.decodeOptions(for: [.scaleDownLargeImages, .decodeFirstFrameOnly], cacheKey: nil)
        #expect(options.scaleDownLimitBytes == ImageDecodeOptions.defaultScaleDownLimitBytes)
        #expect(options.firstFrameOnly)
        context.scaleFactor = 3
        context.thumbnailPixelSize = PixelSize(square: 50)
        context.preserveAspectRatio = false
        context.scaleDownLimitBytes = 1000
        context.decodeOptions = ImageDecodeOptions(maxPixelCount: 5)
        options = context.decodeOptions(for: [.scaleDownLargeImages], cacheKey: "a@2x.png-long")
        #expect(options.scaleFactor == 3)
        #expect(options.thumbnailPixelSize == PixelSize(square: 50))
        #expect(!options.preserveAspectRatio)
        #expect(options.scaleDownLimitBytes == 1000)
        #expect(options.maxPixelCount == 5, "the base options survive")
    }
}
