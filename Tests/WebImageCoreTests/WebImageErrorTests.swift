import Testing
import WebImageCore

@Suite struct WebImageErrorTests {
    @Test func codesKeepSDWebImageNumbers() {
        #expect(WebImageError.Code.invalidURL.rawValue == 1000)
        #expect(WebImageError.Code.badImageData.rawValue == 1001)
        #expect(WebImageError.Code.cacheNotModified.rawValue == 1002)
        #expect(WebImageError.Code.blackListed.rawValue == 1003)
        #expect(WebImageError.Code.invalidDownloadOperation.rawValue == 2000)
        #expect(WebImageError.Code.invalidDownloadStatusCode.rawValue == 2001)
        #expect(WebImageError.Code.cancelled.rawValue == 2002)
        #expect(WebImageError.Code.invalidDownloadResponse.rawValue == 2003)
        #expect(WebImageError.Code.invalidDownloadContentType.rawValue == 2004)
    }

    @Test func everyNamedCodeHasAUniqueNameAndValue() {
        let codes: [WebImageError.Code] = [
            .invalidURL, .badImageData, .cacheNotModified, .blackListed, .invalidDownloadOperation,
            .invalidDownloadStatusCode, .cancelled, .invalidDownloadResponse, .invalidDownloadContentType,
            .timedOut, .cannotConnect, .cannotFindHost, .connectionLost, .tlsFailure, .tooManyRedirects,
            .unsupportedScheme, .responseTooLarge, .imageTooLarge, .unsupportedFormat, .notInCache, .diskIO,
            .encodingFailed, .badServerResponse, .addressRefused, .shuttingDown,
        ]
        #expect(Set(codes.map(\.rawValue)).count == codes.count)
        #expect(Set(codes.map(\.name)).count == codes.count)
        #expect(codes.allSatisfy { !$0.name.hasPrefix("code(") })
        #expect(codes.filter { $0.rawValue >= 3000 }.count == 16)
        #expect(WebImageError.Code.badServerResponse.rawValue == 3013)
        #expect(WebImageError.Code.addressRefused.rawValue == 3014)
        #expect(WebImageError.Code.shuttingDown.rawValue == 3015)
        #expect(WebImageError.Code.shuttingDown.name == "shuttingDown")
        #expect(WebImageError.Code(rawValue: 4242).name == "code(4242)")
    }

    @Test func messagesNameTheFormatAndTheProblem() {
        let bad = WebImageError.badImageData(.png, "IHDR chunk is truncated")
        #expect(bad.code == .badImageData)
        #expect(bad.message == "PNG: IHDR chunk is truncated")
        #expect(bad.description == "badImageData (1001): PNG: IHDR chunk is truncated")

        let large = WebImageError.imageTooLarge(.gif, size: PixelSize(width: 100, height: 100), frames: 20_000, limit: 1000)
        #expect(large.code == .imageTooLarge)
        #expect(large.message.contains("20000 frames"))
        #expect(large.message.contains("1000"))

        #expect(WebImageError.unsupportedFormat(.tiff).message.contains("TIFF"))
        #expect(WebImageError.unsupportedFormat(.undefined).message.contains("not in an image format"))
    }
}
