import HTTP

/// Fetches every request at once through `fetcher`, as the thumbnail strip
/// and the grid do, with the results in request order.
func fetchConcurrently(_ requests: [HTTPRequest], through fetcher: any HTTPFetching) async
    -> [Result<HTTPResponse, HTTPError>]
{
    await withTaskGroup(of: (Int, Result<HTTPResponse, HTTPError>).self) { group in
        for (index, request) in requests.enumerated() {
            group.addTask {
                do {
                    return (index, .success(try await fetcher.fetch(request)))
                } catch {
                    return (index, .failure(error as? HTTPError ?? .other(request.redactedURL, detail: "\(error)")))
                }
            }
        }
        var results = [Result<HTTPResponse, HTTPError>?](repeating: nil, count: requests.count)
        for await (index, result) in group { results[index] = result }
        return results.map { $0! }
    }
}
