import Foundation
import Testing
@testable import WebImageCore

@Suite struct CredentialRedactionTests {
    @Test func aPasswordIsMaskedAndTheUserKept() {
        #expect(CredentialRedaction.redacting("http://user:secret@host/x.jpg") == "http://user:***@host/x.jpg")
        #expect(CredentialRedaction.redacting("https://user:secret@host:8443") == "https://user:***@host:8443")
        #expect(CredentialRedaction.redacting("http://user:@host/") == "http://user:***@host/")
    }

    @Test func aUserAloneIsMaskedWhole() {
        #expect(CredentialRedaction.redacting("https://ghp_token@host/a.png") == "https://***@host/a.png")
    }

    @Test func everyURLInRunningTextIsMasked() {
        let text = "the request modifier sent http://a:one@h1/x?u=v to http://b:two@h2/y (http://c:three@h3)"
        let redacted = CredentialRedaction.redacting(text)
        #expect(redacted == "the request modifier sent http://a:***@h1/x?u=v to http://b:***@h2/y (http://c:***@h3)")
        for secret in ["one", "two", "three"] { #expect(!redacted.contains(secret)) }
    }

    @Test func passwordsWithPunctuationAreMaskedWhole() {
        // Commas, parentheses, quotes and colons may stand unencoded in user information.
        let redacted = CredentialRedaction.redacting("GET http://u:p,a(s)s':w;rd@host/x failed")
        #expect(redacted == "GET http://u:***@host/x failed")
        // The last @ of the authority ends the user information; an @ in the path is not one.
        #expect(CredentialRedaction.redacting("http://u:p@ss@host/a@b") == "http://u:***@host/a@b")
    }

    @Test func textWithoutUserInformationIsUnchanged() {
        for text in [
            "", "no URL here", "mail me at someone@example.com", "http://host/path/a@b.png", "http://host/?q=a@b",
            "http://host:80/x", "ftp://", "://@", "see http://host#frag@x",
        ] {
            #expect(CredentialRedaction.redacting(text) == text)
        }
    }

    @Test func aURLIsRedactedThroughItsString() throws {
        let url = try #require(URL(string: "http://alice:hunter2@127.0.0.1:8080/status/404"))
        #expect(CredentialRedaction.redacting(url) == "http://alice:***@127.0.0.1:8080/status/404")
    }

    @Test func errorMessagesNeverHoldAPassword() {
        let error = WebImageError(.invalidDownloadStatusCode, "http://user:secret@host/x.jpg answered with status 404", statusCode: 404)
        #expect(error.message == "http://user:***@host/x.jpg answered with status 404")
        #expect(!error.description.contains("secret"))
    }
}
