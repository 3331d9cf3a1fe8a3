import Foundation
import Testing

@testable import Pixabay

/// The detail of the `.malformedResponse` that decoding `body` throws (nil, and
/// a recorded issue, for success or any other error).
func malformedDetail(_ body: [UInt8]) async -> String? {
    let error = await pixabayError { _ = try PixabayResponse.decode(from: body) }
    if case .malformedResponse(let detail) = error { return detail }
    Issue.record("expected malformedResponse, got \(String(describing: error))")
    return nil
}

/// Pixabay's JSON answers decoded into `PixabayResponse` (and encoded back).
@Suite struct ResponseJSONTests {
    @Test func documentedExampleDecodesEveryField() throws {
        let response = try PixabayResponse.decode(from: try pixabayFixture("example-response.json"))
        #expect(response.total == 4692)
        #expect(response.totalHits == 500)
        let hit = try #require(response.hits.first)
        #expect(
            hit
                == PixabayHit(
                    id: 195893, pageURL: "https://pixabay.com/en/blossom-bloom-flower-195893/", type: "photo",
                    tags: "blossom, bloom, flower",
                    previewURL: "https://cdn.pixabay.com/photo/2013/10/15/09/12/flower-195893_150.jpg",
                    previewWidth: 150, previewHeight: 84,
                    webformatURL: "https://pixabay.com/get/35bbf209e13e39d2_640.jpg", webformatWidth: 640,
                    webformatHeight: 360, largeImageURL: "https://pixabay.com/get/ed6a99fd0a76647_1280.jpg",
                    imageWidth: 4000, imageHeight: 2250, imageSize: 4_731_420, views: 7671, downloads: 6439,
                    likes: 5, comments: 2, userID: 48777, user: "Josch13",
                    userImageURL: "https://cdn.pixabay.com/user/2013/11/05/02-10-23-764_250x250.jpg"))
        #expect(hit.tagList == ["blossom", "bloom", "flower"])
    }

    @Test func unknownKeysIgnoredAndLenientNumbersAccepted() throws {
        let response = try PixabayResponse.decode(from: try pixabayFixture("extra-fields.json"))
        let hit = try #require(response.hits.first)
        #expect(hit.id == 195893)
        #expect(hit.type == "illustration")
        #expect(hit.previewWidth == 150)  // sent as 150.0
        #expect(hit.previewHeight == 84)  // sent as "84"
        #expect(hit.noAiTraining == true)
        #expect(hit.isAiGenerated == false)
        #expect(hit.isGRated == false)  // sent as 0
        #expect(hit.userURL == "https://pixabay.com/users/josch13-48777/")
        #expect(hit.fullHDURL == "https://pixabay.com/get/full_1920.jpg")
        #expect(hit.vectorURL == nil)
    }

    @Test func missingOptionalFieldsBecomeEmpty() throws {
        let response = try PixabayResponse.decode(from: try pixabayFixture("missing-optional.json"))
        #expect(response.hits.map(\.id) == [1, 2])
        #expect(response.hits[0] == PixabayHit(id: 1))
        let cat = response.hits[1]
        #expect(cat.likes == 0)
        #expect(cat.user == "")
        #expect(cat.userImageURL == "")  // null
        #expect(cat.tagList == ["cat", "pet"])
        // An empty largeImageURL falls back to the web rendition.
        #expect(cat.url(for: .large) == "https://pixabay.com/get/cat_640.jpg")
        #expect(cat.url(for: .preview) == "https://cdn.pixabay.com/p/cat_150.jpg")
    }

    @Test func totalsDefaultToHitCountWhenMissing() throws {
        let response = try PixabayResponse.decode(from: Array(#"{"hits":[{"id":7},{"id":8}]}"#.utf8))
        #expect(response.total == 2)
        #expect(response.totalHits == 2)
    }

    @Test func emptyHits() throws {
        let response = try PixabayResponse.decode(from: try pixabayFixture("empty-hits.json"))
        #expect(response == PixabayResponse(total: 0, totalHits: 0, hits: []))
    }

    @Test func wrongTypeNamesThePath() async throws {
        let bytes = try pixabayFixture("wrong-types.json")
        let detail = try #require(await malformedDetail(bytes))
        #expect(detail.hasPrefix("hits[1].likes: expected Int"))
    }

    @Test func missingIDIsAnError() async throws {
        let bytes = try pixabayFixture("missing-id.json")
        let error = await pixabayError { _ = try PixabayResponse.decode(from: bytes) }
        #expect(error == .malformedResponse("hits[0].id: missing required key"))
    }

    @Test func truncatedJSON() async throws {
        let bytes = try pixabayFixture("truncated.json")
        let detail = try #require(await malformedDetail(bytes))
        #expect(detail.hasPrefix("top level:"))
        #expect(!detail.contains("\n"))
    }

    /// Bodies a hostile or broken server could send; each must become `.malformedResponse`.
    static let hostileBodies: [(String, [UInt8])] = {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let deepObject: String =
            #"{"hits":[{"id":1,"x":"# + String(repeating: #"{"a":"#, count: 5000) + "1"
            + String(repeating: "}", count: 5000) + "}]}"
        var cases: [(String, [UInt8])] = []
        cases.append(("non-UTF-8", bytes(#"{"hits":[{"id":1,"tags":""#) + [0xFF, 0xFE] + bytes(#""}]}"#)))
        cases.append(("empty", []))
        cases.append(("HTML error page", bytes("<html><body>502 Bad Gateway</body></html>")))
        cases.append(("top level array", bytes("[1,2,3]")))
        cases.append(("hits not an array", bytes(#"{"hits":"none"}"#)))
        cases.append(("id an object", bytes(#"{"hits":[{"id":{"n":1}}]}"#)))
        cases.append(("id a fraction", bytes(#"{"hits":[{"id":1.5}]}"#)))
        cases.append(("huge integer", bytes(#"{"hits":[{"id":123456789012345678901234567890}]}"#)))
        cases.append(("huge exponent", bytes(#"{"hits":[{"id":1e400}]}"#)))
        cases.append(("total a word", bytes(#"{"total":"many","hits":[]}"#)))
        cases.append(("nesting bomb", bytes(String(repeating: "[", count: 100_000))))
        cases.append(("deep object", bytes(deepObject)))
        return cases
    }()

    @Test(arguments: hostileBodies)
    func hostileBodiesAreMalformedNotCrashes(name: String, body: [UInt8]) async throws {
        let detail = try #require(await malformedDetail(body), "\(name)")
        #expect(!detail.isEmpty)
        #expect(!detail.contains("\n"))
    }

    @Test func nonUTF8IsNamed() async {
        let error = await pixabayError { _ = try PixabayResponse.decode(from: [0x7B, 0xC3, 0x28, 0x7D]) }
        #expect(error == .malformedResponse("body is not valid UTF-8"))
    }

    @Test func encodeDecodeRoundTrip() throws {
        let hit = PixabayHit(
            id: 42, pageURL: "https://pixabay.com/photos/x-42/", tags: "x, y", previewURL: "p", previewWidth: 150,
            likes: 9, userID: 3, user: "u", noAiTraining: true, fullHDURL: "f")
        let data = try JSONEncoder().encode(PixabayResponse(total: 1, totalHits: 1, hits: [hit]))
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains(#""user_id":3"#))
        #expect(!json.contains("vectorURL"))
        #expect(try PixabayResponse.decode(from: [UInt8](data)).hits == [hit])
    }
}
