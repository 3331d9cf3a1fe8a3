import Testing

@testable import HTTP

@Suite struct URLTextTests {
    @Test func redactedURLHidesOnlyTheNamedValues() {
        let request = HTTPRequest(
            url: "https://pixabay.com/api/?key=123-abc&q=red+fox&KEY=keep&%6Bey=encoded#top",
            redactedQueryItems: ["key"])

        #expect(
            request.redactedURL == "https://pixabay.com/api/?key=REDACTED&q=red+fox&KEY=keep&%6Bey=REDACTED#top")
    }

    /// The fuzzer's finding (fuzz-crashes/url): a key whose value also
    /// appears in the host and the path. The host and path are the user's
    /// own text and stay; only the query item is hidden.
    @Test func redactionTouchesOnlyTheQueryWhenTheSecretAlsoAppearsElsewhere() {
        let request = HTTPRequest(
            url: "http://user:pw@127.0.0.\u{CA}:8080/a%2b?key=.0.0.\u{CA}:#key=x", redactedQueryItems: ["key"])

        #expect(request.redactedURL == "http://user:pw@127.0.0.\u{CA}:8080/a%2b?key=REDACTED#key=x")
    }

    @Test func urlWithoutSecretsIsUnchanged() {
        let url = "https://cdn.pixabay.com/photo/2020/01/01/fox_150.jpg?x=1"
        #expect(HTTPRequest(url: url, redactedQueryItems: ["key"]).redactedURL == url)
        #expect(HTTPRequest(url: url).redactedURL == url)
    }

    @Test func scrubbingRemovesRawAndDecodedSecretsFromFreeText() {
        let request = HTTPRequest(url: "https://h/api?key=a%2Bb&q=x", redactedQueryItems: ["key"])

        #expect(request.scrubbingSecrets(from: "failed for a%2Bb (a+b)") == "failed for REDACTED (REDACTED)")
    }

    @Test func cacheKeySortsQueryDropsSecretsAndNormalisesHost() {
        let first = HTTPRequest(
            url: "HTTPS://PixaBay.com/api/?q=fox&key=secret1&page=2#frag", redactedQueryItems: ["key"])
        let second = HTTPRequest(url: "https://pixabay.com/api/?page=2&key=other&q=fox", redactedQueryItems: ["key"])

        #expect(cacheKey(for: first) == "GET https://pixabay.com/api/?page=2&q=fox")
        #expect(cacheKey(for: second) == cacheKey(for: first))
        #expect(cacheKey(for: HTTPRequest(url: "https://pixabay.com/Path/X")) == "GET https://pixabay.com/Path/X")
    }

    @Test func authorityAndFilePath() {
        #expect(URLText.authority(of: "http://user:pw@127.0.0.1:8080/x?y") == "127.0.0.1:8080")
        #expect(URLText.authority(of: "https://pixabay.com") == "pixabay.com")
        #expect(URLText.authority(of: "not a url") == nil)
        #expect(URLText.filePath(of: "file:///tmp/a%20b.jpg") == "/tmp/a b.jpg")
        #expect(URLText.filePath(of: "file://localhost/tmp/c.png") == "/tmp/c.png")
        #expect(URLText.scheme(of: "HTTPS://x") == "https")
        #expect(URLText.scheme(of: "/just/a/path") == nil)
    }

    @Test func errorDescriptionsAreOneLine() {
        let url = "https://pixabay.com/api/?key=REDACTED&q=fox"
        let cases: [(HTTPError, String)] = [
            (.invalidURL("ftp://x"), "invalid or unsupported URL: ftp://x"),
            (.couldNotResolveHost(url), "cannot resolve host pixabay.com"),
            (.couldNotConnect(url), "cannot connect to pixabay.com"),
            (.timedOut(url, seconds: 10), "timed out after 10 s fetching \(url)"),
            (.timedOut(url), "timed out fetching \(url)"),
            (.bodyTooLarge(url, limit: 64 << 20), "response from \(url) larger than 64 MB"),
            (.bodyTooLarge(url, limit: 1000), "response from \(url) larger than 1000 bytes"),
            (
                .truncated(url),
                "response from \(url) was cut short: the connection closed before the whole body arrived"
            ),
            (.tls(url, detail: "certificate expired"), "secure connection to pixabay.com failed: certificate expired"),
            (.tooManyRedirects(url), "too many redirects fetching \(url)"),
            (.fileNotFound("/tmp/x.jpg"), "no such file: /tmp/x.jpg"),
            (.other(url, detail: "Recv failure"), "fetching \(url) failed: Recv failure"),
        ]
        for (error, expected) in cases {
            #expect(error.description == expected)
            #expect("\(error)" == expected)
        }
    }
}
