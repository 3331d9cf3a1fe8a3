import Testing

@testable import Pixabay

@Suite struct QueryTests {
    @Test func defaultsSendOnlyPageAndPerPage() {
        #expect(flat(SearchQuery().queryItems(apiKey: nil)) == ["page=1", "per_page=20"])
    }

    @Test func everyFilterReachesTheQueryString() {
        let query = SearchQuery(
            q: "  yellow   flowers ", lang: .de, imageType: .photo, orientation: .vertical, category: .nature,
            colors: [.yellow, .green], minWidth: 800, minHeight: 600, editorsChoice: true, safeSearch: true,
            order: .latest, page: 3, perPage: 50)
        #expect(
            flat(query.queryItems(apiKey: "123-abc"))
                == [
                    "q=yellow+flowers", "lang=de", "image_type=photo", "orientation=vertical", "category=nature",
                    "colors=yellow,green", "min_width=800", "min_height=600", "editors_choice=true",
                    "safesearch=true", "order=latest", "page=3", "per_page=50", "key=123-abc",
                ])
    }

    @Test func queryTextIsFormEncoded() {
        let items = SearchQuery(q: "café & tea+milk/100%").queryItems(apiKey: nil)
        #expect(items.first?.0 == "q")
        #expect(items.first?.1 == "caf%C3%A9+%26+tea%2Bmilk%2F100%25")
    }

    @Test func lookupItemsCarryIdAndKey() {
        #expect(flat(SearchQuery.lookupItems(id: 195893, apiKey: "k")) == ["id=195893", "key=k"])
        #expect(flat(SearchQuery.lookupItems(id: 7, apiKey: "")) == ["id=7"])
    }

    @Test func urlJoinsWithTheRightSeparator() {
        let items = [("page", "1"), ("id", "2")]
        #expect(SearchQuery.url(base: "https://pixabay.com/api/", items: items) == "https://pixabay.com/api/?page=1&id=2")
        #expect(SearchQuery.url(base: "http://127.0.0.1:9/api?x=1", items: items) == "http://127.0.0.1:9/api?x=1&page=1&id=2")
        #expect(SearchQuery.url(base: "http://h/?", items: items) == "http://h/?page=1&id=2")
    }

    @Test(arguments: [
        (SearchQuery(perPage: 500), "--per-page must be between 3 and 200 (got 500)"),
        (SearchQuery(perPage: 2), "--per-page must be between 3 and 200 (got 2)"),
        (SearchQuery(page: 0), "--page must be 1 or more (got 0)"),
        (SearchQuery(page: 26), "--page 26 is past Pixabay's 500-result limit (last page at 20 per page is 25)"),
        (SearchQuery(q: String(repeating: "a", count: 101)), "the query must be at most 100 characters (got 101)"),
        (SearchQuery(minWidth: -1), "--min-width must be 0 or more (got -1)"),
        (SearchQuery(minHeight: -5), "--min-height must be 0 or more (got -5)"),
    ])
    func validationMessagesNameTheValue(query: SearchQuery, message: String) async {
        let error = await pixabayError { try query.validate() }
        #expect(error == .invalidQuery(message))
        #expect(error?.description == message)
    }

    @Test func validQueriesPass() throws {
        try SearchQuery(q: String(repeating: "a", count: 100), page: 25, perPage: 20).validate()
        try SearchQuery(page: 3, perPage: 200).validate()
        try SearchQuery(perPage: 3).validate()
    }

    @Test func flagParsingIsCaseInsensitiveAndListsChoices() async throws {
        #expect(try ImageType.parse("Photo", flag: "--image-type") == .photo)
        #expect(try ImageCategory.parse(" music ", flag: "--category") == .music)
        #expect(try ResultOrder.parse("LATEST", flag: "--order") == .latest)
        #expect(try SearchLanguage.parse("no", flag: "--lang") == .no)
        let error = await pixabayError { _ = try ImageType.parse("jpeg", flag: "--image-type") }
        #expect(error == .invalidQuery(#"--image-type must be one of: all, photo, illustration, vector (got "jpeg")"#))
        let orientation = await pixabayError { _ = try Orientation.parse("square", flag: "--orientation") }
        #expect(orientation == .invalidQuery(#"--orientation must be one of: all, horizontal, vertical (got "square")"#))
    }

    @Test func enumsCoverPixabaysLists() {
        #expect(ImageCategory.allCases.count == 20)
        #expect(ColorFilter.allCases.count == 14)
        #expect(SearchLanguage.allCases.count == 26)
    }

    @Test func colorListParsing() async throws {
        #expect(try ColorFilter.parseList("red, Blue,,red", flag: "--colors") == [.red, .blue])
        let error = await pixabayError { _ = try ColorFilter.parseList("red,purple", flag: "--colors") }
        #expect(
            error
                == .invalidQuery(
                    #"--colors must be one of: grayscale, transparent, red, orange, yellow, green, turquoise, blue, lilac, pink, white, gray, black, brown (got "purple")"#
                ))
    }
}
