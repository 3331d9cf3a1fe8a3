import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests that must exercise a real
/// network stack without touching the internet.
///
/// Self-contained (Foundation + Glibc only, no pxview module) so every test
/// target can share it through `TestSupport`. It binds to port 0 (the
/// kernel picks a free port), accepts on a background thread and serves each
/// connection on its own thread, one request per connection
/// (`Connection: close`). Every request is recorded so tests can assert what
/// the client sent and how many requests reached the server.
///
///     let server = try TestHTTPServer()
///     defer { server.stop() }
///     server.route("/hello") { _ in .text("hi") }
///     // fetch server.url("/hello")
public final class TestHTTPServer: @unchecked Sendable {
    /// What the server received.
    public struct Request: Sendable, Equatable {
        public var method: String
        /// Path plus query exactly as sent, e.g. `/api/?q=cat&key=x`.
        public var target: String
        /// Header names lower-cased.
        public var headers: [String: String]
        /// When the request had been read, on the monotonic clock: tests of
        /// parallel clients compare these instead of their own elapsed time,
        /// which a busy test runner can stretch.
        public var receivedAt: ContinuousClock.Instant

        public init(method: String, target: String, headers: [String: String], receivedAt: ContinuousClock.Instant = .now) {
            self.method = method
            self.target = target
            self.headers = headers
            self.receivedAt = receivedAt
        }

        public static func == (a: Request, b: Request) -> Bool {
            a.method == b.method && a.target == b.target && a.headers == b.headers
        }

        public var path: String { String(target.prefix { $0 != "?" }) }
        public var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }
    }

    /// What to answer, with knobs for the failure modes clients must survive.
    public struct Response: Sendable {
        public var status: Int = 200
        public var headers: [String: String] = [:]
        public var body: [UInt8] = []
        /// Wait this long before sending anything (timeouts, parallelism).
        public var delay: TimeInterval = 0
        /// Declare this Content-Length instead of the body's; a larger value
        /// followed by closing the connection simulates a truncated body.
        public var declaredLength: Int? = nil
        /// Send the body with `Transfer-Encoding: chunked`.
        public var chunked = false
        /// Send the body gzip-encoded with `Content-Encoding: gzip`.
        public var gzip = false
        /// Send the body in pieces of `dripBytes`, sleeping `dripInterval` between them.
        public var dripBytes: Int? = nil
        public var dripInterval: TimeInterval = 0

        public init(
            status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [], delay: TimeInterval = 0,
            declaredLength: Int? = nil, chunked: Bool = false, gzip: Bool = false, dripBytes: Int? = nil,
            dripInterval: TimeInterval = 0
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.declaredLength = declaredLength
            self.chunked = chunked
            self.gzip = gzip
            self.dripBytes = dripBytes
            self.dripInterval = dripInterval
        }

        public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Response {
            var allHeaders = ["Content-Type": "text/plain; charset=utf-8"]
            allHeaders.merge(headers) { $1 }
            return Response(status: status, headers: allHeaders, body: Array(text.utf8))
        }

        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: ["Location": location], body: Array("moved".utf8))
        }
    }

    public typealias Handler = @Sendable (Request) -> Response

    public let port: UInt16
    private let state: State

    /// Starts listening immediately.
    public init() throws {
        // The port is held by a socket that never listens as well as by
        // the listener (both SO_REUSEPORT): once the listener is shut down
        // the port still refuses connections, and no other test's server
        // is given it (the kernel never picks a port held so for `bind`
        // to port 0). With only the listener, a port bound as port 0 is
        // released at shutdown: a concurrent test's server took it and
        // answered a request this test expected refused.
        let holder = try Self.makeListeningSocket(listen: false)
        let listener: (fd: Int32, port: UInt16)
        do {
            listener = try Self.makeListeningSocket(port: holder.port)
        } catch {
            close(holder.fd)
            throw error
        }
        port = listener.port
        state = State(listeningSocket: listener.fd, holder: holder.fd)
        let state = self.state
        let thread = Thread { state.acceptLoop() }
        thread.name = "TestHTTPServer.accept"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT`
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func url(_ pathAndQuery: String) -> String { baseURL + pathAndQuery }

    /// Answers requests whose path (query ignored) equals `path`. Unrouted paths get a 404.
    public func route(_ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[path] = handler }
    }

    /// Every request received so far, in arrival order.
    public var requests: [Request] { state.withLock { $0.requests } }

    public func requestCount(path: String) -> Int { requests.filter { $0.path == path }.count }

    /// Stops accepting; connections already being served finish on their own.
    /// Afterwards the port refuses connections.
    public func stop() {
        state.stop()
    }

    /// A port on 127.0.0.1 that nothing listens on: bound without
    /// `listen`, so connecting to it is refused, and kept bound for the
    /// rest of the test process, so no other test's server is given it.
    public static func closedPort() throws -> UInt16 {
        try makeListeningSocket(listen: false).port
    }

    // MARK: - Sockets

    public struct SocketError: Error, CustomStringConvertible {
        public var call: String
        public var code: Int32
        public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    private static func makeListeningSocket(port: UInt16 = 0, listen shouldListen: Bool = true) throws -> (
        fd: Int32, port: UInt16
    ) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "bind", code: code)
        }
        if shouldListen, listen(fd, 128) != 0 {
            let code = errno
            close(fd)
            throw SocketError(call: "listen", code: code)
        }
        var boundAddress = sockaddr_in()
        var boundLength = length
        _ = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &boundLength) }
        }
        return (fd, UInt16(bigEndian: boundAddress.sin_port))
    }

    /// Shared between the server object and its threads; threads hold this,
    /// not the server, so dropping the server stops it.
    private final class State: @unchecked Sendable {
        struct Guarded {
            var routes: [String: Handler] = [:]
            var requests: [Request] = []
            var stopped = false
        }

        private let lock = NSLock()
        private var guarded = Guarded()
        private let listeningSocket: Int32

        /// The socket that holds the port (never listening) until nothing
        /// holds the server.
        private let holder: Int32

        init(listeningSocket: Int32, holder: Int32) {
            self.listeningSocket = listeningSocket
            self.holder = holder
        }

        deinit {
            close(holder)
        }

        func withLock<T>(_ body: (inout Guarded) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&guarded)
        }

        func stop() {
            let alreadyStopped = withLock { guarded in
                defer { guarded.stopped = true }
                return guarded.stopped
            }
            // Wakes the blocked accept(); the accept thread closes the socket.
            if !alreadyStopped { shutdown(listeningSocket, Int32(SHUT_RDWR)) }
        }

        func acceptLoop() {
            while true {
                let connection = accept(listeningSocket, nil, nil)
                if withLock({ $0.stopped }) {
                    if connection >= 0 { close(connection) }
                    break
                }
                guard connection >= 0 else {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    break
                }
                let thread = Thread { [self] in serve(connection) }
                thread.name = "TestHTTPServer.connection"
                thread.start()
            }
            close(listeningSocket)
        }

        private func serve(_ connection: Int32) {
            defer { close(connection) }
            guard let request = Self.readRequest(from: connection) else { return }
            let handler = withLock { guarded -> Handler? in
                guarded.requests.append(request)
                return guarded.routes[request.path]
            }
            let response = handler?(request) ?? .text("no route for \(request.path)", status: 404)
            if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
            Self.send(response, to: connection)
        }

        private static func readRequest(from connection: Int32) -> Request? {
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            let terminator: [UInt8] = Array("\r\n\r\n".utf8)
            while received.count < 64 * 1024 {
                if let end = received.firstRange(of: terminator) {
                    return parse(String(decoding: received[..<end.lowerBound], as: UTF8.self))
                }
                let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                received += chunk[..<count]
            }
            return nil
        }

        private static func parse(_ head: String) -> Request? {
            let lines = head.components(separatedBy: "\r\n")
            let requestLine = lines.first?.split(separator: " ") ?? []
            guard requestLine.count == 3 else { return nil }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
        }

        private static func send(_ response: Response, to connection: Int32) {
            let body = response.gzip ? Gzip.stored(response.body) : response.body
            var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
            var headers = response.headers
            headers["Connection"] = "close"
            if response.gzip { headers["Content-Encoding"] = "gzip" }
            if response.chunked {
                headers["Transfer-Encoding"] = "chunked"
            } else {
                headers["Content-Length"] = String(response.declaredLength ?? body.count)
            }
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                head += "\(name): \(value)\r\n"
            }
            head += "\r\n"
            guard writeAll(Array(head.utf8), to: connection) else { return }

            let pieceSize = max(1, response.dripBytes ?? max(body.count, 1))
            var offset = 0
            while offset < body.count {
                let piece = Array(body[offset..<min(body.count, offset + pieceSize)])
                let framed = response.chunked ? Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10] : piece
                guard writeAll(framed, to: connection) else { return }
                offset += piece.count
                if response.dripBytes != nil, offset < body.count, response.dripInterval > 0 {
                    Thread.sleep(forTimeInterval: response.dripInterval)
                }
            }
            if response.chunked { _ = writeAll(Array("0\r\n\r\n".utf8), to: connection) }
            shutdown(connection, Int32(SHUT_WR))
        }

        /// False when the client went away. MSG_NOSIGNAL: a closed peer must
        /// not kill the test process with SIGPIPE.
        private static func writeAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }

        private static func reasonPhrase(_ status: Int) -> String {
            switch status {
            case 200: "OK"
            case 301: "Moved Permanently"
            case 302: "Found"
            case 400: "Bad Request"
            case 404: "Not Found"
            case 429: "Too Many Requests"
            case 500: "Internal Server Error"
            default: "Status"
            }
        }
    }

    /// gzip without zlib: a deflate stream of "stored" (uncompressed) blocks
    /// is valid gzip that any decoder must accept, which is all a test of
    /// Content-Encoding handling needs, and keeps this file dependency-free.
    public enum Gzip {
        public static func stored(_ data: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
            var offset = 0
            repeat {
                let count = min(65535, data.count - offset)
                let isLast = offset + count == data.count
                out.append(isLast ? 1 : 0)
                out += littleEndian(UInt16(count)) + littleEndian(~UInt16(count))
                out += data[offset..<offset + count]
                offset += count
            } while offset < data.count
            out += littleEndian(crc32(data)) + littleEndian(UInt32(truncatingIfNeeded: data.count))
            return out
        }

        public static func crc32(_ data: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xffff_ffff
            for byte in data {
                crc ^= UInt32(byte)
                for _ in 0..<8 {
                    crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1
                }
            }
            return ~crc
        }

        private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
            (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
    }
}
